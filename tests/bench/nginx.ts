// A step of `npm run bench`: the list and save endpoints with 1, 2 and 3 server processes behind
// Debian's nginx (the site file deploy/nginx/zhusuan.conf), and 1 process without nginx,
// on one PostgreSQL database (a fresh zs_bench_nginx seeded with the basic demo). Everything — the
// load generator, nginx, the processes and PostgreSQL — shares this machine's cores, so the rows
// show the cost of the extra hop and of more processes on the same cores, not scaling.
// - list: the platform administrator's first page of projects with its total, every answer
//   checked byte for byte against the one fetched before the run;
// - save: a new project per request (header only, numbered by the per-tenant counter); the rows
//   saved are deleted after each run so that every list run sees the same table.
// The setups run in rounds, in turn forwards and backwards, so that a machine growing busier or
// quieter weighs on all of them; the table has the medians. Besides requests per second (which on
// a shared machine say as much about the others' load as about ours), it counts the CPU time the
// server processes, nginx and PostgreSQL's backends of this database spent per request: requests
// per core follow from that whatever else runs.
// Writes tests/bench/nginx-results.md. Knobs: BENCH_PG_URL, BENCH_DURATION (10), BENCH_WARMUP (3),
// BENCH_CONNECTIONS (20), BENCH_NGINX_ROUNDS (2).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { withClient } from './pg-client.ts';
import { startNginx, type Nginx } from '../server/nginx-proxy.ts';
import { num } from './env.ts';
import { runLoad, type LoadResult } from './load.ts';
import { freePort, runBench, processTree, spawnServer, stopServer, type ServerProc } from './procs.ts';
import { int, median, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS_FILE = join(HERE, 'nginx-results.md');
const SECRET = randomBytes(32).toString('hex');
const ADMIN = { userId: '1123598821738675201', deptId: '1123598813738675201' };
const LIST = '/api/construct/project/list?current=1&size=10';
const SAVE = '/api/construct/project/save';
const BENCH_NAME = '压测项目(nginx 基准)';
const DB_NAME = 'zs_bench_nginx';

const CFG = {
  durationS: num('BENCH_DURATION', 10),
  warmupS: num('BENCH_WARMUP', 3),
  connections: num('BENCH_CONNECTIONS', 20),
  rounds: num('BENCH_NGINX_ROUNDS', 2),
  pgAdminUrl: process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
};

interface Setup {
  processes: number;
  nginx: boolean;
}

const SETUPS: Setup[] = [
  { processes: 1, nginx: false },
  { processes: 1, nginx: true },
  { processes: 2, nginx: true },
  { processes: 3, nginx: true },
];

interface SaveResult {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  failed: number;
}

interface AutocannonSaveResult {
  requests: { total: number };
  latency: { p50: number; p99: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonSaveResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function databaseUrl(): string {
  const url = new URL(CFG.pgAdminUrl);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

async function token(): Promise<string> {
  return new SignJWT({ tenant_id: '000000', user_id: ADMIN.userId, dept_id: ADMIN.deptId, role_name: 'administrator' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('zhusuan')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(SECRET));
}

async function startProcesses(n: number): Promise<ServerProc[]> {
  const procs: ServerProc[] = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ZS_JWT_SECRET: SECRET,
      ZS_DEMO: 'basic',
      ZS_TRUST_PROXY: 'loopback',
    };
    delete env.DATA_DIR;
    procs.push(spawnServer(`app-${i + 1}-of-${n}`, process.execPath, ['--import', 'tsx', 'src/server/main.ts'], env, port, ROOT));
  }
  for (const proc of procs) {
    if (!(await proc.waitForLine(/Zhusuan: http/, 240_000))) throw new Error(`${proc.name} did not start:\n${proc.output().slice(-2000)}`);
  }
  return procs;
}

async function measureList(base: string, headers: Record<string, string>, durationS: number): Promise<LoadResult> {
  const first = await fetch(`${base}${LIST}`, { headers });
  const body = await first.text();
  if (first.status !== 200) throw new Error(`list: ${first.status} ${body.slice(0, 300)}`);
  return runLoad({ url: `${base}${LIST}`, headers, connections: CFG.connections, durationS, warmupS: 0, expectBody: body });
}

/** A project to save: names are unique among a tenant's projects, so each request has its own. */
function projectBody(partyAId: string, n: number): string {
  return JSON.stringify({
    name: `${BENCH_NAME} ${process.pid}-${n}`,
    projectType: 'building',
    partyAId,
    targetCost: 128_000_000.5,
    plannedStartDate: '2026-03-01',
    plannedEndDate: '2027-12-31',
    projectManagerName: '李建国',
    projectStatus: 'constructing',
  });
}

let saves = 0;

async function measureSave(base: string, headers: Record<string, string>, partyAId: string, durationS: number): Promise<SaveResult> {
  const jsonHeaders = { ...headers, 'content-type': 'application/json' };
  const probe = await fetch(`${base}${SAVE}`, { method: 'POST', headers: jsonHeaders, body: projectBody(partyAId, saves++) });
  const answer = await probe.json();
  if (answer.code !== 200) throw new Error(`save: ${JSON.stringify(answer).slice(0, 300)}`);
  const r = await autocannon({
    url: base,
    connections: CFG.connections,
    duration: durationS,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: SAVE,
        headers: jsonHeaders,
        setupRequest: (req: object) => ({ ...req, body: projectBody(partyAId, saves++) }),
      },
    ],
  });
  return {
    rps: r.requests.total / r.duration,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.errors + r.timeouts + r.non2xx,
  };
}

/** CPU time (ms) of each process, with its threads, from /proc (Linux; 0 where unreadable). */
function cpuMs(pids: number[]): Map<number, number> {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const rest = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(rest[11]) + Number(rest[12])) * tick);
    } catch {
      out.set(pid, 0);
    }
  }
  return out;
}

/** The CPU the servers, nginx and this database's backends spend over `run`, per request. */
async function cpuPerRequest<T extends { total: number }>(
  procs: ServerProc[],
  nginx: Nginx | undefined,
  run: () => Promise<T>,
): Promise<T & { cpu: CpuPerRequest }> {
  const backends = async () =>
    withClient(CFG.pgAdminUrl, async (c) =>
      (await c.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [DB_NAME])).rows.map((r) => Number(r.pid)),
    );
  const app = procs.flatMap((p) => processTree(p.pid));
  const proxy = nginx ? processTree(nginx.pid) : [];
  const before = { app: cpuMs(app), proxy: cpuMs(proxy), db: cpuMs(await backends()) };
  const result = await run();
  const after = { app: cpuMs(app), proxy: cpuMs(proxy), db: cpuMs(await backends()) };
  const spent = (a: Map<number, number>, b: Map<number, number>) => [...b].reduce((sum, [pid, ms]) => sum + ms - (a.get(pid) ?? 0), 0);
  const n = Math.max(1, result.total);
  return {
    ...result,
    cpu: { app: spent(before.app, after.app) / n, nginx: spent(before.proxy, after.proxy) / n, postgres: spent(before.db, after.db) / n },
  };
}

interface CpuPerRequest {
  /** ms of CPU per measured request. */
  app: number;
  nginx: number;
  postgres: number;
}

interface Row {
  setup: Setup;
  list: LoadResult & { cpu: CpuPerRequest };
  save: SaveResult & { cpu: CpuPerRequest };
  saved: number;
}

async function measure(setup: Setup, headers: Record<string, string>, partyAId: string): Promise<Row> {
  const procs = await startProcesses(setup.processes);
  let nginx: Nginx | undefined;
  try {
    nginx = setup.nginx ? await startNginx(procs.map((p) => p.port)) : undefined;
    const base = nginx?.url ?? `http://127.0.0.1:${procs[0].port}`;
    // warm-up runs apart, so that the CPU counted is that of the measured requests only
    await measureList(base, headers, CFG.warmupS);
    const list = await cpuPerRequest(procs, nginx, () => measureList(base, headers, CFG.durationS));
    await measureSave(base, headers, partyAId, CFG.warmupS);
    const save = await cpuPerRequest(procs, nginx, () => measureSave(base, headers, partyAId, CFG.durationS));
    // the saved rows go, so that the next list run sees the same table
    const saved = await withClient(
      databaseUrl(),
      async (c) => (await c.query(`DELETE FROM construct_project WHERE name LIKE $1`, [`${BENCH_NAME} %`])).rowCount ?? 0,
    );
    return { setup, list, save, saved };
  } finally {
    await nginx?.stop();
    await Promise.all(procs.map((p) => stopServer(p)));
  }
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

async function freshDatabase(): Promise<void> {
  await withClient(CFG.pgAdminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DB_NAME}`);
  });
}

async function main() {
  const loadAtStart = os.loadavg();
  const started = new Date();
  await freshDatabase();
  try {
    // the first start builds and seeds the database; the setups then start on it as a restart would
    await Promise.all((await startProcesses(1)).map((p) => stopServer(p)));
    const [{ id: partyAId }] = await withClient(
      databaseUrl(),
      async (c) =>
        (await c.query(`SELECT id::text AS id FROM construct_party_a WHERE tenant_id = '000000' AND is_deleted = 0 LIMIT 1`)).rows,
    );
    const headers = { 'blade-auth': `bearer ${await token()}` };
    const runs: Row[] = [];
    for (let round = 0; round < CFG.rounds; round++) {
      for (const setup of round % 2 === 0 ? SETUPS : [...SETUPS].reverse()) {
        const row = await measure(setup, headers, partyAId);
        runs.push(row);
        console.error(`round ${round + 1}, ${label(setup)}: list ${int(row.list.rps)} req/s, save ${int(row.save.rps)} req/s`);
      }
    }
    writeReport(runs, loadAtStart, started);
  } finally {
    await withClient(CFG.pgAdminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`)).catch(() => undefined);
  }
}

const label = (s: Setup) => `${s.processes} process${s.processes > 1 ? 'es' : ''}${s.nginx ? ' behind nginx' : ', direct'}`;

function writeReport(runs: Row[], loadAtStart: number[], started: Date) {
  const cores = os.cpus().length;
  const of = (setup: Setup) => runs.filter((r) => r.setup === setup);
  const med = (rows: Row[], value: (r: Row) => number) => median(rows.map(value))!;
  const direct = of(SETUPS[0]);
  const directList = med(direct, (r) => r.list.rps);
  const directSave = med(direct, (r) => r.save.rps);
  const ms1 = (v: number) => v.toFixed(1);
  const lines = [
    '# Processes behind nginx',
    '',
    `Machine: ${machine()}; load average at the start ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min; other engineers' work shares the cores), at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}. ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `PostgreSQL on loopback, each process \`node --import tsx src/server/main.ts\` with the default pool (ZS_POOL_SIZE 10), nginx with deploy/nginx/zhusuan.conf (worker_processes auto). Load: autocannon, ${CFG.connections} connections, ${CFG.durationS} s after a warm-up run of ${CFG.warmupS} s, as the platform administrator. List: \`${LIST}\` (first page with its total; every answer compared byte for byte). Save: \`${SAVE}\`, one new project per request. ${CFG.rounds} rounds (setups in turn forwards and backwards); medians, each round's figure in the runs columns.`,
    '',
    table(
      [
        'setup',
        'list req/s',
        'list p50 / p99 ms',
        'save req/s',
        'save p50 / p99 ms',
        'list vs direct',
        'save vs direct',
        'runs list / save req/s',
        'failed',
      ],
      SETUPS.map((setup) => {
        const rows = of(setup);
        const list = med(rows, (r) => r.list.rps);
        const save = med(rows, (r) => r.save.rps);
        return [
          label(setup),
          int(list),
          `${med(rows, (r) => r.list.p50)} / ${med(rows, (r) => r.list.p99)}`,
          int(save),
          `${med(rows, (r) => r.save.p50)} / ${med(rows, (r) => r.save.p99)}`,
          `${((list / directList) * 100).toFixed(0)} %`,
          `${((save / directSave) * 100).toFixed(0)} %`,
          `${rows.map((r) => int(r.list.rps)).join(', ')} / ${rows.map((r) => int(r.save.rps)).join(', ')}`,
          rows.reduce((n, r) => n + r.list.errors + r.list.timeouts + r.list.non2xx + r.list.mismatches + r.save.failed, 0),
        ];
      }),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    "CPU time per request (ms, medians; the server processes, nginx's master and workers, and PostgreSQL's backends of this database):",
    '',
    table(
      ['setup', 'list: app / nginx / PostgreSQL', 'save: app / nginx / PostgreSQL'],
      SETUPS.map((setup) => {
        const rows = of(setup);
        const cpu = (pick: (r: Row) => CpuPerRequest) =>
          `${ms1(med(rows, (r) => pick(r).app))} / ${ms1(med(rows, (r) => pick(r).nginx))} / ${ms1(med(rows, (r) => pick(r).postgres))}`;
        return [label(setup), cpu((r) => r.list.cpu), cpu((r) => r.save.cpu)];
      }),
      ['l', 'r', 'r'],
    ),
    '',
    `Per core, from the CPU time of one process direct (what the load of others does not change): list ${int(1000 / med(direct, (r) => r.list.cpu.app + r.list.cpu.postgres))} req/s, save ${int(1000 / med(direct, (r) => r.save.cpu.app + r.save.cpu.postgres))} req/s (server and PostgreSQL together; the server alone ${int(1000 / med(direct, (r) => r.list.cpu.app))} / ${int(1000 / med(direct, (r) => r.save.cpu.app))}). Measured throughput per core here (${cores} cores shared with the load generator and others): list ${int(directList / cores)} req/s, save ${int(directSave / cores)} req/s.`,
  ];
  const report = lines.join('\n');
  writeFileSync(RESULTS_FILE, `${report}\n`);
  console.log(report);
}

runBench('nginx', main);
