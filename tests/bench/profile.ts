// Summarizes a V8 .cpuprofile (node --cpu-prof): self time by category (our src/ files, each
// package, node internals, GC, idle) and the hottest functions, self and inclusive.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileRow {
  name: string;
  ms: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  windowed: boolean;
  totalMs: number;
  idleMs: number;
  busyMs: number;
  categories: ProfileRow[];
  /** Every busy sample charged to the nearest frame of a package or of our code on its stack (node internals and native code count for whoever called them). */
  responsible: ProfileRow[];
  selfTop: ProfileRow[];
  ourSelfTop: ProfileRow[];
  ourInclusiveTop: ProfileRow[];
}

function location(frame: CallFrame, root: string): string {
  const url = frame.url;
  if (!url) return '';
  let path = url;
  if (url.startsWith('file://')) {
    try {
      path = fileURLToPath(url);
    } catch {
      path = url;
    }
  }
  const rel = path.startsWith(root) ? relative(root, path) : path;
  return frame.lineNumber > 0 ? `${rel}:${frame.lineNumber + 1}` : rel;
}

function category(frame: CallFrame, root: string): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8 builtins)';
  if (url.startsWith('node:')) return 'node internals';
  const path = url.startsWith('file://') ? url.slice(7) : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 14).split('/');
    return `pkg ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (path.startsWith(root)) {
    const rel = relative(root, path);
    return rel.startsWith('src/') ? `ours ${rel}` : rel;
  }
  return 'other';
}

const isOurs = (frame: CallFrame, root: string) => frame.url.includes(`${root}/src/`) && !frame.url.includes('/node_modules/');

/**
 * `window` (µs on the monotonic clock that process.hrtime and V8 share) limits the summary to the
 * samples taken during the load run, leaving out start-up; when it does not overlap the profile,
 * every sample counts (and `windowed` is false).
 */
export function summarizeProfile(file: string, root: string, top = 15, window?: { fromUs: number; toUs: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const useWindow = window !== undefined && window.fromUs < profile.endTime && window.toUs > profile.startTime;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const selfByNode = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (useWindow && (at < window!.fromUs || at > window!.toUs)) continue;
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    selfByNode.set(profile.samples[i], (selfByNode.get(profile.samples[i]) ?? 0) + dt);
  }

  const cat = new Map<string, number>();
  const selfFn = new Map<string, number>();
  const ourSelf = new Map<string, number>();
  const ourIncl = new Map<string, number>();
  const responsible = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, ms] of selfByNode) {
    const node = byId.get(id)!;
    const frame = node.callFrame;
    total += ms;
    if (frame.functionName === '(idle)') {
      idle += ms;
      continue;
    }
    const c = category(frame, root);
    cat.set(c, (cat.get(c) ?? 0) + ms);
    const key = `${frame.functionName || '(anonymous)'} ${location(frame, root)}`.trim();
    selfFn.set(key, (selfFn.get(key) ?? 0) + ms);
    if (isOurs(frame, root)) ourSelf.set(key, (ourSelf.get(key) ?? 0) + ms);
    let owner = frame.functionName.startsWith('(') ? frame.functionName : 'node / V8 (no package on the stack)';
    for (let n: number | undefined = id, depth = 0; n !== undefined && depth < 500; n = parent.get(n), depth++) {
      const c = category(byId.get(n)!.callFrame, root);
      if (c.startsWith('pkg ') || c.startsWith('ours ') || c.startsWith('tests/')) {
        owner = c;
        break;
      }
    }
    responsible.set(owner, (responsible.get(owner) ?? 0) + ms);
    // Inclusive time of our functions: each of our frames on this sample's stack, counted once.
    const seen = new Set<string>();
    for (let n: number | undefined = id, depth = 0; n !== undefined && depth < 500; n = parent.get(n), depth++) {
      const f = byId.get(n)!.callFrame;
      if (!isOurs(f, root)) continue;
      const k = `${f.functionName || '(anonymous)'} ${location(f, root)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      ourIncl.set(k, (ourIncl.get(k) ?? 0) + ms);
    }
  }
  const busy = total - idle;
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => ({ name, ms, share: busy ? ms / busy : 0 }));
  // Our files as one category each, the rest as they come.
  return {
    windowed: useWindow,
    totalMs: total,
    idleMs: idle,
    busyMs: busy,
    categories: rows(cat, 25),
    responsible: rows(responsible, 25),
    selfTop: rows(selfFn, top),
    ourSelfTop: rows(ourSelf, top),
    ourInclusiveTop: rows(ourIncl, top),
  };
}
