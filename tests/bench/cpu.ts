// Who used the CPU during a measurement: the bench (this process, autocannon included, and every
// server it started), PostgreSQL (the postmaster and its backends), and everything else. On a
// small shared machine "everything else" (other people's test runs, say) is the noise to watch.
// Linux /proc only; elsewhere the sample is empty.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  comm: string;
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

function readStats(): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const text = readFileSync(`/proc/${e}/stat`, 'utf8');
      const open = text.indexOf('(');
      const close = text.lastIndexOf(')');
      const rest = text.slice(close + 2).split(' ');
      const n = (i: number) => Number(rest[i]) || 0;
      out.set(Number(e), { comm: text.slice(open + 1, close), ppid: n(1), ticks: n(11) + n(12) + n(13) + n(14) });
    } catch {
      // gone
    }
  }
  return out;
}

/** Ticks of the processes under `roots` (each counted with its reaped children). */
function treeTicks(stats: Map<number, ProcStat>, roots: number[]): number {
  const seen = new Set<number>(roots.filter((r) => stats.has(r)));
  let grew = true;
  for (let round = 0; grew && round < 50; round++) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!seen.has(pid) && seen.has(s.ppid)) {
        seen.add(pid);
        grew = true;
      }
    }
  }
  let sum = 0;
  for (const pid of seen) sum += stats.get(pid)!.ticks;
  return sum;
}

export interface CpuSnapshot {
  total: number;
  busy: number;
  steal: number;
  bench: number;
  postgres: number;
}

export function cpuSnapshot(): CpuSnapshot | undefined {
  let line: string | undefined;
  try {
    line = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('cpu '));
  } catch {
    return undefined;
  }
  if (!line) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const stats = readStats();
  const postmasters = [...stats].filter(([, s]) => s.comm === 'postgres' && stats.get(s.ppid)?.comm !== 'postgres').map(([pid]) => pid);
  return {
    total: user + nice + system + idle + iowait + irq + softirq + (steal || 0),
    busy: user + nice + system + irq + softirq,
    steal: steal || 0,
    bench: treeTicks(stats, [process.pid]),
    postgres: treeTicks(stats, postmasters),
  };
}

export interface CpuShare {
  /** Shares of the whole machine's capacity over the interval (1 = every core busy). */
  bench: number;
  postgres: number;
  other: number;
  steal: number;
}

export function cpuShare(a: CpuSnapshot | undefined, b: CpuSnapshot | undefined): CpuShare | undefined {
  if (!a || !b || b.total <= a.total) return undefined;
  const total = b.total - a.total;
  const bench = Math.max(0, b.bench - a.bench);
  const postgres = Math.max(0, b.postgres - a.postgres);
  const other = Math.max(0, b.busy - a.busy - bench - postgres);
  return { bench: bench / total, postgres: postgres / total, other: other / total, steal: (b.steal - a.steal) / total };
}
