// Child processes for the benchmark: every server runs in its own process group (detached), is
// remembered here, and is stopped by its own id: SIGTERM to the process that owns the listening
// socket (so the app closes its database cleanly), then SIGKILL to the group if it lingers.
// Every wait is bounded.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ServerProc {
  name: string;
  /** The spawned process (for `npx tsx` a wrapper; see serverPid). */
  pid: number;
  port: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) of the spawned process. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** The last few KB of the child's stdout and stderr. */
  output(): string;
  /** A line on stdout matching `pattern` appeared (bounded wait). */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<boolean>;
}

const live = new Set<ServerProc>();

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export function spawnServer(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, port: number, cwd: string): ServerProc {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${name}: could not spawn ${command}`);
  let out = '';
  let stdoutText = '';
  const lineWaiters: { pattern: RegExp; resolve: (ok: boolean) => void }[] = [];
  const keep = (chunk: Buffer, stream: 'stdout' | 'stderr') => {
    const text = chunk.toString();
    out = (out + text).slice(-6000);
    if (stream === 'stdout') {
      stdoutText = (stdoutText + text).slice(-6000);
      for (const w of [...lineWaiters]) {
        if (w.pattern.test(stdoutText)) {
          lineWaiters.splice(lineWaiters.indexOf(w), 1);
          w.resolve(true);
        }
      }
    }
  };
  child.stdout!.on('data', (c: Buffer) => keep(c, 'stdout'));
  child.stderr!.on('data', (c: Buffer) => keep(c, 'stderr'));
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => {
      done = true;
      for (const w of lineWaiters.splice(0)) w.resolve(false);
      resolve(code ?? signal ?? 'unknown');
    });
    child.on('error', (err) => {
      done = true;
      out += `\n[spawn error] ${err.message}`;
      resolve('spawn-error');
    });
  });
  const proc: ServerProc = {
    name,
    pid: child.pid,
    port,
    child,
    exited,
    hasExited: () => done,
    output: () => out,
    waitForLine(pattern, timeoutMs) {
      if (pattern.test(stdoutText)) return Promise.resolve(true);
      if (done) return Promise.resolve(false);
      return new Promise((resolve) => {
        const w = { pattern, resolve };
        lineWaiters.push(w);
        setTimeout(() => {
          const i = lineWaiters.indexOf(w);
          if (i >= 0) {
            lineWaiters.splice(i, 1);
            resolve(false);
          }
        }, timeoutMs).unref();
      });
    },
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** pid -> parent pid, for every process we can see. */
function parentMap(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ..." — comm may contain spaces or parentheses.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      map.set(Number(entry), Number(rest[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  return map;
}

/** The process and all its descendants, the process first. */
export function processTree(rootPid: number): number[] {
  const parents = parentMap();
  const tree = [rootPid];
  for (let i = 0; i < tree.length && i < 1000; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i] && !tree.includes(pid)) tree.push(pid);
  }
  return tree;
}

function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = parseInt(cols[1].split(':')[1], 16);
      if (localPort === port && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  return inodes;
}

/** The process of the tree that holds the listening socket on `port` (the server itself). */
export function serverPid(proc: ServerProc): number | undefined {
  const inodes = listeningInodes(proc.port);
  if (!inodes.size) return undefined;
  for (const pid of processTree(proc.pid)) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return pid;
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return undefined;
}

/** VmRSS of one process in KiB (undefined when it is gone). */
export function rssKib(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface MemSample {
  /** RSS of the server process (the one listening), MiB. */
  server?: number;
  /** RSS summed over the spawned process and its descendants (npx/tsx wrappers included), MiB. */
  tree?: number;
}

export function memSample(proc: ServerProc): MemSample {
  const pid = serverPid(proc);
  const server = pid !== undefined ? rssKib(pid) : undefined;
  let tree = 0;
  for (const p of processTree(proc.pid)) tree += rssKib(p) ?? 0;
  return { server: server !== undefined ? server / 1024 : undefined, tree: tree ? tree / 1024 : undefined };
}

function signalGroup(proc: ServerProc, signal: NodeJS.Signals) {
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // the group is gone
  }
}

/** Stops a server gracefully (bounded), then makes sure nothing of its group is left. */
export async function stopServer(proc: ServerProc, graceMs = 10_000): Promise<void> {
  if (!proc.hasExited()) {
    const pid = serverPid(proc) ?? proc.pid;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const timeout = sleep(graceMs).then(() => 'timeout' as const);
    if ((await Promise.race([proc.exited, timeout])) === 'timeout') {
      signalGroup(proc, 'SIGKILL');
      await Promise.race([proc.exited, sleep(3000)]);
    }
  }
  // Wrappers may have left a grandchild behind (they should not): the group goes.
  for (let i = 0; i < 50 && processTree(proc.pid).length > 1; i++) await sleep(20);
  signalGroup(proc, 'SIGKILL');
  live.delete(proc);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => stopServer(p, 5000)));
}

/** Last resort (process exit, signals): SIGKILL every group we started. Synchronous. */
export function killAllNow(): void {
  for (const p of live) signalGroup(p, 'SIGKILL');
  live.clear();
}

/**
 * Runs a benchmark's main: exits 0 when it ends, 1 (after killing every child) when it throws or
 * when it is still running after `limitMs`, so that a hung run never keeps the machine.
 */
export function runBench(name: string, main: () => Promise<void>, limitMs = 30 * 60_000): void {
  const watchdog = setTimeout(() => {
    console.error(`${name} bench: watchdog fired`);
    killAllNow();
    process.exit(1);
  }, limitMs);
  watchdog.unref();
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      killAllNow();
      process.exit(1);
    },
  );
}

/** Polls `probe` every `intervalMs` until it returns a value or `timeoutMs` passes. */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  intervalMs: number,
  timeoutMs: number,
  stopIf?: () => boolean,
): Promise<T | undefined> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (stopIf?.()) return undefined;
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await sleep(intervalMs);
  }
  return undefined;
}

/** The one-minute load average a benchmark waits for before it measures: the targets are for a quiet machine. */
const QUIET_LOAD = 1;
const QUIET_WAIT_MS = 120_000;

/**
 * Waits, at most QUIET_WAIT_MS, until the one-minute load average is under QUIET_LOAD: a first
 * start's seed or the set-up a moment before leaves it near 2 on two cores, and the times with it.
 * Answers the load average it measures at.
 */
export async function waitForQuiet(): Promise<number> {
  const until = Date.now() + QUIET_WAIT_MS;
  while (os.loadavg()[0] >= QUIET_LOAD && Date.now() < until) await sleep(2000);
  return os.loadavg()[0];
}
