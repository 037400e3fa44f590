// Start-up with every entity schema (a step of `npm run bench`): schema compile and lint, table sync
// on an empty database and on an existing one, and the idle server's time to first answer and
// resident memory, on PGlite and (when reachable) PostgreSQL. Writes tests/bench/startup-results.md.
// Each compile/sync figure is a fresh process (tests/bench/startup-probe.ts), median of
// BENCH_STARTUP_RUNS (default 5); the server runs as `npm start` does (node dist/server/server/main.js,
// built first). Target: sync ≤ 1 s on an existing database.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, killAllNow, memSample, pollUntil, spawnServer, stopServer, waitForQuiet } from './procs.ts';
import { median, ms, Report, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS_FILE = join(HERE, 'startup-results.md');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS) || 5;
const SERVER_RUNS = Number(process.env.BENCH_STARTUP_SERVER_RUNS) || 5;
/** First starts per database, each on a new database once the machine is quiet (a full-demo seed takes seconds). */
const FIRST_RUNS = Number(process.env.BENCH_STARTUP_FIRST_RUNS) || 3;
const IDLE_MS = 5000;
const PG_ADMIN = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'zs_bench_startup';
const TARGET_MS = 1000;

interface Probe {
  entities: number;
  details: number;
  readMs: number;
  compileMs: number;
  compileCpuMs: number;
  validatorsMs: number;
  validatorsCpuMs: number;
  lintMs: number;
  openMs: number;
  syncMs: number;
  syncCpuMs: number;
  created: number;
  altered: number;
}
interface ServerRun {
  firstAnswerMs?: number;
  idleRssMib?: number;
  /** The phases of the server's own ready line (code, open, schemas, sync, services, reference, seed, regions, routes). */
  phases?: Record<string, number>;
  /** Whether the start skipped the schema checks an earlier start passed. */
  checkedBefore?: boolean;
  /** The one-minute load average just before the process was started (first starts). */
  loadBefore?: number;
  error?: string;
}

/** "1,234 (1,100–1,300)" of the runs that answered, or the first one's error. */
function answerCell(runs: ServerRun[]): string {
  const ok = runs.filter((x) => x.firstAnswerMs !== undefined);
  if (!ok.length) return runs[0]?.error ?? '—';
  const times = ok.map((x) => x.firstAnswerMs!);
  return ok.length > 1 ? `${ms(median(times), 0)} (${range(times)})` : ms(times[0], 0);
}

function rssCell(runs: ServerRun[]): string {
  const ok = runs.filter((x) => x.idleRssMib !== undefined);
  return ok.length ? `${ms(median(ok.map((x) => x.idleRssMib!)), 0)} MiB` : '—';
}

/** "Zhusuan: ready in 812 ms (code 301, open 31, …; note)" as main.ts prints it. */
function readyLine(output: string): Pick<ServerRun, 'phases' | 'checkedBefore'> {
  const line = /Zhusuan: ready in (\d+) ms \(([^)]*)\)/.exec(output);
  if (!line) return {};
  const [list, ...notes] = line[2].split('; ');
  const phases = Object.fromEntries(list.split(', ').map((p) => [p.replace(/ \d+$/, ''), Number(p.split(' ').at(-1))]));
  return { phases: { ...phases, ready: Number(line[1]) }, checkedBefore: notes.some((n) => /checked at an earlier start/.test(n)) };
}
type Kind = 'pglite' | 'postgres';

function probe(target: string, mode: 'empty' | 'existing' | 'inspect'): Probe {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'tests/bench/startup-probe.ts', target, mode], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

async function pgAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function postgresReachable(): Promise<boolean> {
  try {
    return await pgAdmin(async (c) => (await c.query('SELECT 1')).rowCount === 1);
  } catch {
    return false;
  }
}

/** A database without tables: a new PGlite directory, or the benchmark database dropped and created. */
async function freshTarget(kind: Kind): Promise<string> {
  if (kind === 'pglite') return mkdtempSync(join(os.tmpdir(), 'zs-startup-'));
  await pgAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${PG_DB}`);
  });
  const url = new URL(PG_ADMIN);
  url.pathname = `/${PG_DB}`;
  return url.toString();
}

async function dropTarget(kind: Kind, target: string) {
  if (kind === 'pglite') rmSync(target, { recursive: true, force: true });
  else await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${PG_DB} WITH (FORCE)`));
}

/** Starts the compiled server, times its first answer, waits idle, samples its resident memory. */
async function serverRun(kind: Kind, target: string): Promise<ServerRun> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ZS_JWT_SECRET: randomBytes(32).toString('hex'),
  };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'ZS_SEED']) delete env[k];
  if (kind === 'postgres') env.DATABASE_URL = target;
  else env.DATA_DIR = target;
  const t0 = performance.now();
  const proc = spawnServer(`startup-${kind}`, process.execPath, ['dist/server/server/main.js'], env, port, ROOT);
  try {
    const firstAnswerMs = await pollUntil(
      async () => {
        // what a load balancer asks; the OpenAPI document, asked here before, is made on its first request
        const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        return res.ok ? performance.now() - t0 : undefined;
      },
      20,
      300_000,
      () => proc.hasExited(),
    );
    if (firstAnswerMs === undefined) return { error: proc.hasExited() ? `exited: ${proc.output().slice(-500)}` : 'no answer in time' };
    await sleep(IDLE_MS);
    return { firstAnswerMs, idleRssMib: memSample(proc).server, ...readyLine(proc.output()) };
  } finally {
    await stopServer(proc);
  }
}

function machine(): string[] {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const pgVersion = (() => {
    try {
      return execFileSync('psql', [PG_ADMIN, '-Atc', 'SHOW server_version'], { encoding: 'utf8', timeout: 5000 }).trim();
    } catch {
      return 'unknown';
    }
  })();
  const pglite = JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
  return [
    `nproc ${os.availableParallelism()}, ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Linux ${os.release()}`,
    `Node ${process.version}, PostgreSQL ${pgVersion}, PGlite ${pglite}`,
    `load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  ];
}

const medianOf = (runs: Probe[], key: keyof Probe) => median(runs.map((r) => r[key] as number));
const range = (values: number[]) => (values.length ? `${ms(Math.min(...values), 0)}–${ms(Math.max(...values), 0)}` : '—');

async function measure(kind: Kind) {
  // empty databases: each run on a new one
  const empty: Probe[] = [];
  for (let i = 0; i < RUNS; i++) {
    const target = await freshTarget(kind);
    empty.push(probe(target, 'empty'));
    if (i < RUNS - 1) await dropTarget(kind, target);
    else {
      // the last one stays: it is the existing database of the next runs
      const existing = Array.from({ length: RUNS }, () => probe(target, 'existing'));
      const inspect = Array.from({ length: RUNS }, () => probe(target, 'inspect'));
      await dropTarget(kind, target);
      const firsts: ServerRun[] = [];
      let serverTarget = '';
      for (let j = 0; j < FIRST_RUNS; j++) {
        if (serverTarget) await dropTarget(kind, serverTarget);
        const load = await waitForQuiet();
        serverTarget = await freshTarget(kind);
        firsts.push({ ...(await serverRun(kind, serverTarget)), loadBefore: load });
      }
      const restarts: ServerRun[] = [];
      for (let j = 0; j < SERVER_RUNS; j++) restarts.push(await serverRun(kind, serverTarget));
      await dropTarget(kind, serverTarget);
      return { kind, empty, existing, inspect, firsts, restarts };
    }
  }
  throw new Error('no runs');
}

async function main() {
  const started = new Date();
  const about = machine();
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  console.log('startup: building the server (npm run build:server)');
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
  const kinds: Kind[] = (await postgresReachable()) ? ['pglite', 'postgres'] : ['pglite'];
  const results = [];
  for (const kind of kinds) {
    console.log(`startup: ${kind}`);
    results.push(await measure(kind));
  }

  const r = new Report();
  const { entities, details } = results[0].empty[0];
  r.h(1, 'Start-up with every entity schema');
  r.p(
    `${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}; ${entities} entities, ${details} detail tables. ${about.join('; ')}.`,
  );
  r.p(
    `Each figure is a fresh process (median of ${RUNS}, range in brackets): \`tests/bench/startup-probe.ts\` reads and compiles the schema set, lints it once more alone, opens the database and syncs its tables. "existing" is a restart on a database synced with the same schemas (the fingerprint matches); "inspect" forgets the fingerprint, so every table, column and index is read from the catalog and planned (what a start after a schema change costs, without the DDL).`,
  );
  const rows: (string | number)[][] = [];
  const cell = (runs: Probe[], key: keyof Probe, bold = false) => {
    const m = ms(medianOf(runs, key), 0);
    return `${bold ? `**${m}**` : m} (${range(runs.map((p) => p[key] as number))})`;
  };
  const cpuCell = (runs: Probe[], key: keyof Probe) => ms(medianOf(runs, key), 0);
  for (const { kind, empty, existing, inspect } of results) {
    const first = kind === results[0].kind;
    if (first) {
      const all = results.flatMap((x) => [...x.empty, ...x.existing, ...x.inspect]);
      rows.push(['schemas', 'read files', cell(all, 'readMs'), '']);
      rows.push([
        'schemas',
        'compile as the server does (meta-schemas, models, lint)',
        cell(all, 'compileMs'),
        cpuCell(all, 'compileCpuMs'),
      ]);
      rows.push([
        'schemas',
        'generate every validator (what `schemas:check` adds; the server does it on first use)',
        cell(all, 'validatorsMs'),
        cpuCell(all, 'validatorsCpuMs'),
      ]);
      rows.push(['schemas', 'lint alone (second pass)', cell(all, 'lintMs'), '']);
    }
    rows.push([kind, 'open (existing database)', cell(existing, 'openMs'), '']);
    rows.push([kind, `sync, empty database (${empty[0].created} tables created)`, cell(empty, 'syncMs'), cpuCell(empty, 'syncCpuMs')]);
    rows.push([kind, 'sync, existing database (restart)', cell(existing, 'syncMs', true), cpuCell(existing, 'syncCpuMs')]);
    rows.push([kind, 'sync, existing database, full inspection', cell(inspect, 'syncMs', true), cpuCell(inspect, 'syncCpuMs')]);
  }
  r.p(table(['database', 'step', 'wall ms, median (range)', 'CPU ms of the process'], rows, ['l', 'l', 'r', 'r']));
  r.p(
    "CPU is the probe process's own (user + system); on PostgreSQL the server's work is not in it, on PGlite it is (the database runs in the process).",
  );
  const worst = Math.max(
    ...results.flatMap((x) => [medianOf(x.existing, 'syncMs') ?? Infinity, medianOf(x.inspect, 'syncMs') ?? Infinity]),
  );
  r.p(
    `Target ≤ ${TARGET_MS} ms for sync on an existing database: ${worst <= TARGET_MS ? 'met' : 'missed'} (slowest median ${ms(worst, 0)} ms, full inspection included). Load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}.`,
  );
  r.h(2, 'The server (`node dist/server/server/main.js`)');
  r.p(
    `Time from spawning the process to its first answer (GET /api/health), and its resident memory after ${IDLE_MS / 1000} s idle. The first start creates and seeds the database (platform data, menus, demo company); restarts are median of ${SERVER_RUNS}.`,
  );
  r.p(
    table(
      ['database', 'start', 'first answer ms', 'idle RSS'],
      results.flatMap(({ kind, firsts, restarts }) => [
        [kind, `first (empty database, seeding; median of ${firsts.length})`, answerCell(firsts), rssCell(firsts)],
        [kind, `restart (median of ${restarts.length})`, answerCell(restarts), rssCell(restarts)],
      ]),
      ['l', 'l', 'r', 'r'],
    ),
  );
  r.p(
    `Each first start waited, at most two minutes, for the one-minute load average to fall under 1 (the targets are for a quiet machine; the probes above and the seed before leave it near 2); it was ${results
      .flatMap((x) => x.firsts.map((f) => f.loadBefore?.toFixed(2) ?? '?'))
      .join(', ')} when they started.`,
  );
  r.p(
    'Where each start went, from the server\'s own ready line (`Zhusuan: ready in … ms (…)`, main.ts; ms, median of the first starts and of the restarts): code = loading the modules before `createApp`, open = the database, schemas = reading and compiling the set (its checks skipped when an earlier start passed them on the same set and engine), sync = module tables and the schema sync, services = keys, hub, caches, reference = bringing the reference data up to the schema set (docs/reference-data.md; on a restart with nothing new, one read of the digests), seed = the first start\'s seed of demo and platform data (a marker check on a restart), regions = the region reference data, routes = Fastify and every route. "ready" is the whole, to `listen`; the first answer above adds the spawn and the first request.',
  );
  const phaseNames = ['code', 'open', 'schemas', 'sync', 'services', 'reference', 'seed', 'regions', 'routes', 'ready'];
  r.p(
    table(
      ['database', 'start', ...phaseNames],
      results.flatMap(({ kind, firsts, restarts }) => {
        const ok = restarts.filter((x) => x.phases);
        const seeded = firsts.filter((x) => x.phases);
        const phase = (runs: ServerRun[], name: string) => ms(median(runs.map((x) => x.phases?.[name] ?? NaN)), 0);
        return [
          [kind, 'first', ...phaseNames.map((n) => (seeded.length ? phase(seeded, n) : '—'))],
          [
            kind,
            `restart${ok.every((x) => x.checkedBefore) ? ', checks skipped' : ''}`,
            ...phaseNames.map((n) => (ok.length ? phase(ok, n) : '—')),
          ],
        ];
      }),
      ['l', 'l', ...phaseNames.map(() => 'r' as const)],
    ),
  );
  r.p(
    `Load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} (2 cores: above 2, every figure is stretched by other work).`,
  );
  const text = r.toString();
  writeFileSync(RESULTS_FILE, text);
  console.log(text);
}

process.on('SIGINT', () => {
  killAllNow();
  process.exit(130);
});
main().catch((err) => {
  killAllNow();
  console.error(err);
  process.exit(1);
});
