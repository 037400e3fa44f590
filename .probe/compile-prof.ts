import { compile } from '../src/engine/model/compile.ts';
import { readSchemaSource } from '../src/server/schema-source.ts';
const src = readSchemaSource();
compile(src, { validators: 'lazy' });
const { Session } = await import('node:inspector/promises');
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.start');
for (let i = 0; i < 3; i++) compile(src, { validators: 'lazy' });
const { profile } = await s.post('Profiler.stop');
// self time per function
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const dt = profile.timeDeltas; const samples = profile.samples;
for (let i = 0; i < samples.length; i++) {
  const n: any = byId.get(samples[i]); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-3).join('/')}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000);
}
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0).padStart(6)} ms ${k}`).join('\n'));
// inclusive by file of our engine
const incl = new Map<string, number>();
const parent = new Map<number, number>();
for (const n of profile.nodes as any[]) for (const c of n.children ?? []) parent.set(c, n.id);
for (let i = 0; i < samples.length; i++) {
  const seen = new Set<string>();
  for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
    const n: any = byId.get(id); const u = n.callFrame.url;
    if (!u.includes('/src/')) continue;
    const k = `${n.callFrame.functionName} ${u.split('/src/')[1]}`;
    if (seen.has(k)) continue; seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + (dt[i] ?? 0) / 1000);
  }
}
console.log('--- inclusive (src)');
console.log([...incl].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => `${v.toFixed(0).padStart(6)} ms ${k}`).join('\n'));
