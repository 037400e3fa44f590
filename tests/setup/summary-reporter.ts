// Prints one plain closing line, "N passed, N failed, N skipped", that any CI can read: one line for
// the whole run, whichever projects it ran (unit, integration or both; vitest.config.ts).
//
// ZS_TEST_PROFILE=1 also prints, before that line, each file's time (slowest first): its project, the
// environment's setup, the import of the file and what it imports, and its tests and hooks. With
// ZS_TEST_PROFILE=<file>.json the same figures are written to that file as well.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

interface FileTime {
  file: string;
  project: string;
  environmentMs: number;
  importMs: number;
  testsMs: number;
  totalMs: number;
}

function timesOf(modules: ReadonlyArray<TestModule>): FileTime[] {
  return modules
    .map((m) => {
      const d = m.diagnostic();
      const environmentMs = Math.round(d.environmentSetupDuration);
      const importMs = Math.round(d.collectDuration + d.setupDuration + d.prepareDuration);
      const testsMs = Math.round(d.duration);
      return {
        file: m.relativeModuleId,
        project: m.project.name,
        environmentMs,
        importMs,
        testsMs,
        totalMs: environmentMs + importMs + testsMs,
      };
    })
    .sort((a, b) => b.totalMs - a.totalMs);
}

function printProfile(times: FileTime[]) {
  const s = (ms: number) => (ms / 1000).toFixed(1).padStart(7);
  const out = ['', 'per file (s):   total    env import  tests  project      file'];
  for (const t of times)
    out.push(`              ${s(t.totalMs)}${s(t.environmentMs)}${s(t.importMs)}${s(t.testsMs)}  ${t.project.padEnd(12)} ${t.file}`);
  const projects = [...new Set(times.map((t) => t.project))];
  for (const p of projects) {
    const of = times.filter((t) => t.project === p);
    out.push(
      `${`${p}:`.padEnd(14)}${s(of.reduce((n, t) => n + t.totalMs, 0))}${s(of.reduce((n, t) => n + t.environmentMs, 0))}${s(of.reduce((n, t) => n + t.importMs, 0))}${s(of.reduce((n, t) => n + t.testsMs, 0))}  ${of.length} files`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const test of m.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && ![...m.children.allTests()].length) failed++;
    }
    const profile = process.env.ZS_TEST_PROFILE;
    if (profile) {
      const times = timesOf(modules);
      printProfile(times);
      if (profile.endsWith('.json')) writeFileSync(profile, `${JSON.stringify(times, null, 2)}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
