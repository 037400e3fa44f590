// `npm run bench`: the project list under load, on PostgreSQL and on PGlite, against a bare
// Fastify + pg reference server, plus cold start and memory. Prints a Markdown report and writes it
// to tests/bench/results.md. Servers run as child processes on 127.0.0.1 and are always stopped.
// Steps: data (fresh database zs_bench / fresh PGlite DATA_DIR, schema by the app, rows by SQL),
// load (autocannon, app and bare server case by case), cold start, and, when the app falls below
// 80% of the bare server (or BENCH_PROFILE=1), a CPU profile of the app on the worst case.
// PostgreSQL unreachable: the PGlite parts run and the report says PostgreSQL was skipped.
// Exit code: 0 when every step ran and every answer was right (targets missed are reported, not
// failed); 1 when a step failed or some request erred, timed out (10 s) or answered wrongly.
// Knobs (environment): BENCH_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_TENANTS, BENCH_ROWS_PER_TENANT, BENCH_CONNECTIONS, BENCH_DURATION, BENCH_WARMUP,
// BENCH_COLD_RUNS, BENCH_PROFILE (auto | 1 | 0), BENCH_KEEP=1 (keep zs_bench and the temp dir),
// BENCH_TIMEOUT_MIN (watchdog, default 30).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import pg from 'pg';
import { openPglite } from '../../src/server/db/pglite.ts';
import { accessSql, ANALYZE_SQL, checkSql, NAME_FRAGMENT, ROLE_ALIAS, roleId, seedSql, tenantId } from './data.ts';
import { cpuShare, cpuSnapshot, type CpuShare, type CpuSnapshot } from './cpu.ts';
import { runLoad, type LoadResult } from './load.ts';
import { freePort, killAllNow, memSample, pollUntil, spawnServer, stopAll, stopServer, type MemSample, type ServerProc } from './procs.ts';
import { num } from './env.ts';
import { summarizeProfile, type ProfileSummary } from './profile.ts';
import { listStatements } from './queries.ts';
import { int, median, mib, ms, pct, Report, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS_FILE = join(HERE, 'results.md');

const CFG = {
  tenants: num('BENCH_TENANTS', 10),
  perTenant: num('BENCH_ROWS_PER_TENANT', 10_000),
  connections: num('BENCH_CONNECTIONS', 50),
  durationS: num('BENCH_DURATION', 15),
  warmupS: num('BENCH_WARMUP', 3),
  coldRuns: num('BENCH_COLD_RUNS', 3),
  pgAdminUrl: process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  dbName: 'zs_bench',
  keep: process.env.BENCH_KEEP === '1',
  profile: (process.env.BENCH_PROFILE ?? 'auto') as 'auto' | '1' | '0',
  timeoutMin: num('BENCH_TIMEOUT_MIN', 30),
};

const TARGETS = { ratio: 0.8, pgP99: 60, pgliteP99: 500 };
const TENANT = tenantId(0);
const SECRET = randomBytes(32).toString('hex');
const READY_TIMEOUT = 180_000;
const PROFILE_S = Math.min(CFG.durationS, 10);

// ---- cases ----

interface Case {
  key: 'a' | 'b' | 'c';
  label: string;
  current: number;
  size: number;
  nameLike?: string;
}

const lastPage = Math.ceil(CFG.perTenant / 10);
const CASES: Case[] = [
  { key: 'a', label: '(a) page 1 + total', current: 1, size: 10 },
  { key: 'b', label: `(b) name_like=${NAME_FRAGMENT}`, current: 1, size: 10, nameLike: NAME_FRAGMENT },
  { key: 'c', label: `(c) page ${Math.min(500, lastPage)}`, current: Math.min(500, lastPage), size: 10 },
];

function query(c: Case): string {
  return `current=${c.current}&size=${c.size}${c.nameLike ? `&name_like=${encodeURIComponent(c.nameLike)}` : ''}`;
}

// ---- databases and commands ----

type DbKind = 'postgres' | 'pglite';

interface DbTarget {
  kind: DbKind;
  label: string;
  url?: string;
  dataDir?: string;
  /** Rows of tenant 100001 whose name contains the fragment (expected total of case b). */
  fragmentRows?: number;
}

const COMMANDS = {
  npx: { label: 'npx tsx src/server/main.ts', cmd: 'npx', args: ['tsx', 'src/server/main.ts'] },
  node: { label: 'node --import tsx src/server/main.ts', cmd: process.execPath, args: ['--import', 'tsx', 'src/server/main.ts'] },
  built: { label: 'node dist/server/server/main.js (npm start)', cmd: process.execPath, args: ['dist/server/server/main.js'] },
};
type CommandKey = keyof typeof COMMANDS;

function appEnv(db: DbTarget, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ZS_JWT_SECRET: SECRET };
  for (const k of ['DATABASE_URL', 'DATA_DIR', 'ZS_POOL_SIZE', 'ZS_SEED']) delete env[k];
  if (db.kind === 'postgres') env.DATABASE_URL = db.url;
  else env.DATA_DIR = db.dataDir;
  return env;
}

function startApp(db: DbTarget, port: number, command: CommandKey, nodeArgs: string[] = [], name = `app-${db.kind}`): ServerProc {
  const c = COMMANDS[command];
  return spawnServer(name, c.cmd, [...nodeArgs, ...c.args], appEnv(db, port), port, ROOT);
}

function startBare(db: DbTarget, port: number): ServerProc {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATABASE_URL: db.url };
  return spawnServer('bare-postgres', process.execPath, ['--import', 'tsx', 'tests/bench/bare-server.ts'], env, port, ROOT);
}

async function waitReady(proc: ServerProc, line: RegExp): Promise<void> {
  const ok = await proc.waitForLine(line, READY_TIMEOUT);
  if (!ok) {
    const exited = proc.hasExited();
    await stopServer(proc, 3000);
    throw new Error(`${proc.name} did not start (${exited ? 'exited' : 'timed out'}):\n${proc.output().slice(-2000)}`);
  }
}

const APP_READY = /Zhusuan: http/;
const BARE_READY = /bare-server: http/;

// ---- tokens and answers ----

async function signToken(): Promise<string> {
  return new SignJWT({
    tenant_id: TENANT,
    user_id: '1900000000000000100',
    dept_id: '1800000000000000010',
    role_id: roleId(0),
    role_name: ROLE_ALIAS,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('zhusuan')
    .setIssuedAt()
    .setExpirationTime('4h')
    .sign(new TextEncoder().encode(SECRET));
}

async function fetchText(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
  return { status: res.status, text: await res.text() };
}

interface Answer {
  ids: string[];
  /** The field names of a record, sorted. */
  keys: string;
  total: number;
}

function expectedTotal(db: DbTarget, c: Case): number {
  return c.nameLike ? (db.fragmentRows ?? -1) : CFG.perTenant;
}

/** Checks one answer (app envelope or bare shape) and returns its record ids. */
function checkAnswer(kind: 'app' | 'bare', status: number, text: string, c: Case, db: DbTarget): Answer {
  if (status !== 200) throw new Error(`HTTP ${status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text);
  let page: { records: Record<string, unknown>[]; total: number; current?: number; size?: number };
  if (kind === 'app') {
    if (body.code !== 200 || body.success !== true) throw new Error(`envelope code ${body.code}: ${text.slice(0, 300)}`);
    page = body.data;
    if (page.current !== c.current || page.size !== c.size)
      throw new Error(`paging echoed wrong: ${JSON.stringify({ current: body.data.current, size: body.data.size })}`);
  } else {
    page = body;
  }
  const total = expectedTotal(db, c);
  if (page.total !== total) throw new Error(`total ${page.total}, expected ${total}`);
  const want = Math.max(0, Math.min(c.size, total - (c.current - 1) * c.size));
  if (!Array.isArray(page.records) || page.records.length !== want) throw new Error(`${page.records?.length} records, expected ${want}`);
  if (want === 0) throw new Error('case answers no records');
  let previous = '9999';
  for (const r of page.records) {
    if (r.tenantId !== TENANT) throw new Error(`record of tenant ${r.tenantId}`);
    if (c.nameLike && !String(r.name).includes(c.nameLike)) throw new Error(`record name ${r.name} lacks ${c.nameLike}`);
    if (String(r.createTime) > previous) throw new Error('records not in createTime DESC order');
    previous = String(r.createTime);
  }
  return { ids: page.records.map((r) => String(r.id)), keys: Object.keys(page.records[0]).sort().join(','), total: page.total };
}

// ---- data ----

interface DataFacts {
  rows: number;
  tenants: number;
  ids: number;
  tenant_rows: number;
  fragment_rows: number;
  incomplete: number;
  first_created: string;
  last_created: string;
  other_rows: number;
  size: string;
  schemaMs: number;
  insertMs: number;
  analyzeMs: number;
  /** Access setup statements that failed (their table is not in this version of the app). */
  accessSkipped: string[];
}

/** Runs the access setup statement by statement; returns the ones that failed. */
async function setupAccess(exec: (sql: string) => Promise<unknown>): Promise<string[]> {
  const skipped: string[] = [];
  for (const { label, sql } of accessSql(CFG.tenants)) {
    try {
      await exec(sql);
    } catch (err) {
      skipped.push(`${label}: ${(err as Error).message}`);
    }
  }
  return skipped;
}

function checkFacts(f: DataFacts) {
  const total = CFG.tenants * CFG.perTenant;
  if (f.rows !== total || f.ids !== total || f.tenants !== CFG.tenants || f.tenant_rows !== CFG.perTenant || f.incomplete !== 0) {
    throw new Error(`inserted data is not as planned: ${JSON.stringify(f)}`);
  }
  if (!(f.fragment_rows > 0 && f.fragment_rows < f.tenant_rows))
    throw new Error(`name fragment matches ${f.fragment_rows} of ${f.tenant_rows} rows`);
}

/** Starts the app once on the empty database (schema sync and seed), then stops it. */
async function createSchema(db: DbTarget): Promise<number> {
  const t0 = performance.now();
  const port = await freePort();
  const proc = startApp(db, port, 'node', [], `schema-${db.kind}`);
  await waitReady(proc, APP_READY);
  await stopServer(proc);
  const code = await proc.exited;
  if (code !== 0 && code !== 'SIGTERM') throw new Error(`schema run of ${db.kind} exited with ${code}:\n${proc.output().slice(-2000)}`);
  return performance.now() - t0;
}

type Exec = (sql: string, params?: unknown[]) => Promise<Record<string, any>[]>;

interface SqlTiming {
  c: Case;
  median: number;
  p95: number;
  plan?: string;
}

/** Count + page statements of each case, one after the other on one connection. */
async function sqlTimings(exec: Exec, explain: boolean): Promise<SqlTiming[]> {
  const out: SqlTiming[] = [];
  for (const c of CASES) {
    const st = listStatements({ tenantId: TENANT, current: c.current, size: c.size, nameLike: c.nameLike });
    const once = async () => {
      const t = performance.now();
      await exec(st.count.sql, st.count.params);
      await exec(st.page.sql, st.page.params);
      return performance.now() - t;
    };
    for (let i = 0; i < 5; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < 30; i++) times.push(await once());
    times.sort((a, b) => a - b);
    let plan: string | undefined;
    if (explain) {
      const lines: string[] = [];
      for (const s of [st.count, st.page]) {
        const rows = await exec(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${s.sql}`, s.params);
        lines.push(...rows.map((r) => String(r['QUERY PLAN'])), '');
      }
      plan = lines.join('\n');
    }
    out.push({ c, median: median(times)!, p95: times[Math.floor(times.length * 0.95)] });
    out[out.length - 1].plan = plan;
  }
  return out;
}

async function seedPostgres(db: DbTarget, schemaMs: number): Promise<{ facts: DataFacts; sql: SqlTiming[] }> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const t0 = performance.now();
    await client.query('BEGIN');
    for (const s of seedSql(CFG.tenants, CFG.perTenant)) await client.query(s);
    await client.query('COMMIT');
    const accessSkipped = await setupAccess((sql) => client.query(sql));
    const t1 = performance.now();
    await client.query(ANALYZE_SQL);
    const t2 = performance.now();
    const [row] = (await client.query(checkSql(CFG.tenants))).rows;
    const facts: DataFacts = { ...row, schemaMs, insertMs: t1 - t0, analyzeMs: t2 - t1, accessSkipped };
    checkFacts(facts);
    db.fragmentRows = facts.fragment_rows;
    const sql = await sqlTimings(async (text, params) => (await client.query(text, params)).rows, true);
    return { facts, sql };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function seedPglite(db: DbTarget, schemaMs: number): Promise<{ facts: DataFacts; sql: SqlTiming[]; version: string }> {
  // Opened the way the app opens it, so the extensions its indexes need are loaded.
  const pglite = await openPglite(join(db.dataDir!, 'pg'));
  try {
    const t0 = performance.now();
    await pglite.transaction(async (tx) => {
      for (const s of seedSql(CFG.tenants, CFG.perTenant)) await tx.query(s);
    });
    const accessSkipped = await setupAccess((sql) => pglite.exec(sql));
    const t1 = performance.now();
    await pglite.exec(ANALYZE_SQL);
    const t2 = performance.now();
    const [row] = await pglite.query(checkSql(CFG.tenants));
    const facts: DataFacts = { ...(row as DataFacts), schemaMs, insertMs: t1 - t0, analyzeMs: t2 - t1, accessSkipped };
    checkFacts(facts);
    db.fragmentRows = facts.fragment_rows;
    const sql = await sqlTimings((text, params) => pglite.query(text, params), false);
    const [{ server_version }] = await pglite.query<{ server_version: string }>('SHOW server_version');
    return { facts, sql, version: server_version };
  } finally {
    await pglite.close();
  }
}

// ---- load ----

interface CaseRun {
  c: Case;
  keys?: string;
  /** Who used the machine during the run (warm-up included). */
  cpu?: CpuShare;
  load?: LoadResult;
  ids?: string[];
  error?: string;
  memAfter: MemSample;
}

interface TargetRun {
  name: string;
  kind: 'app' | 'bare';
  db: DbTarget;
  command: string;
  idle?: MemSample;
  cases: CaseRun[];
  error?: string;
}

interface LoadTarget {
  name: string;
  kind: 'app' | 'bare';
  command: CommandKey;
}

/**
 * Starts the given servers on one database side by side, then runs each case on each server in
 * turn (app, then bare for the same case), so a drift in the machine's speed during the run
 * affects both sides of a comparison alike. Idle servers cost nothing while the other is loaded.
 */
async function loadGroup(db: DbTarget, token: string, targets: LoadTarget[]): Promise<TargetRun[]> {
  const live = await Promise.all(
    targets.map(async (t) => {
      const port = await freePort();
      const run: TargetRun = {
        name: t.name,
        kind: t.kind,
        db,
        command: t.kind === 'app' ? COMMANDS[t.command].label : 'node --import tsx tests/bench/bare-server.ts',
        cases: [],
      };
      const proc = t.kind === 'app' ? startApp(db, port, t.command) : startBare(db, port);
      const headers: Record<string, string> = t.kind === 'app' ? { 'blade-auth': `bearer ${token}` } : {};
      const url = (c: Case) =>
        t.kind === 'app'
          ? `http://127.0.0.1:${port}/api/construct/project/list?${query(c)}`
          : `http://127.0.0.1:${port}/list?tenant=${TENANT}&${query(c)}`;
      return { t, run, proc, headers, url };
    }),
  );
  try {
    for (const l of live) {
      try {
        await waitReady(l.proc, l.t.kind === 'app' ? APP_READY : BARE_READY);
      } catch (err) {
        l.run.error = (err as Error).message;
        log(`  ${l.t.name}: ${l.run.error}`);
      }
    }
    await sleep(500);
    for (const l of live) if (!l.run.error) l.run.idle = memSample(l.proc);
    for (const c of CASES) {
      for (const l of live) {
        if (l.run.error) continue;
        log(`  ${l.t.name} on ${db.label}, ${c.label}: ${CFG.warmupS} s warm-up + ${CFG.durationS} s`);
        const caseRun: CaseRun = { c, memAfter: {} };
        l.run.cases.push(caseRun);
        try {
          const first = await fetchText(l.url(c), l.headers);
          const answer = checkAnswer(l.t.kind, first.status, first.text, c, db);
          caseRun.ids = answer.ids;
          caseRun.keys = answer.keys;
          const before = cpuSnapshot();
          caseRun.load = await runLoad({
            url: l.url(c),
            headers: l.headers,
            connections: CFG.connections,
            durationS: CFG.durationS,
            warmupS: CFG.warmupS,
            expectBody: first.text,
          });
          caseRun.cpu = cpuShare(before, cpuSnapshot());
          const again = await fetchText(l.url(c), l.headers);
          checkAnswer(l.t.kind, again.status, again.text, c, db);
          if (again.text !== first.text) throw new Error('the answer changed during the run');
        } catch (err) {
          caseRun.error = (err as Error).message.split('\n')[0];
          log(`    error: ${caseRun.error}`);
        }
        caseRun.memAfter = memSample(l.proc);
        const r = caseRun.load;
        if (r)
          log(
            `    ${int(r.rps)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms, errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}, mismatches ${r.mismatches}; CPU ${cpuText(caseRun.cpu)}`,
          );
        if (l.proc.hasExited()) {
          l.run.error = `exited during the run:\n${l.proc.output().slice(-2000)}`;
          log(`  ${l.t.name}: ${l.run.error}`);
        }
      }
    }
  } finally {
    await Promise.all(live.map((l) => stopServer(l.proc)));
  }
  return live.map((l) => l.run);
}

// ---- cold start ----

interface ColdRun {
  ms?: number;
  error?: string;
  mem?: MemSample;
}

async function coldStart(db: DbTarget, command: CommandKey, token: string): Promise<ColdRun> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/construct/project/list?${query(CASES[0])}`;
  const headers = { 'blade-auth': `bearer ${token}` };
  const t0 = performance.now();
  const proc = startApp(db, port, command, [], `cold-${db.kind}-${command}`);
  try {
    const answer = await pollUntil(
      async () => {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        const elapsed = performance.now() - t0;
        try {
          checkAnswer('app', res.status, text, CASES[0], db);
          return { ms: elapsed };
        } catch (err) {
          return { error: `answered but wrong: ${(err as Error).message}` };
        }
      },
      20,
      READY_TIMEOUT,
      () => proc.hasExited(),
    );
    if (!answer) return { error: proc.hasExited() ? `exited: ${proc.output().slice(-500)}` : 'no answer in time' };
    return { ...answer, mem: memSample(proc) };
  } finally {
    await stopServer(proc);
  }
}

// ---- profile ----

async function profileApp(
  db: DbTarget,
  c: Case,
  token: string,
  dir: string,
): Promise<{ summary?: ProfileSummary; load?: LoadResult; error?: string }> {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const proc = startApp(db, port, 'node', ['--cpu-prof', `--cpu-prof-dir=${dir}`], 'app-profile');
  const headers = { 'blade-auth': `bearer ${token}` };
  const url = `http://127.0.0.1:${port}/api/construct/project/list?${query(c)}`;
  let load: LoadResult | undefined;
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let window: { fromUs: number; toUs: number } | undefined;
  try {
    await waitReady(proc, APP_READY);
    const first = await fetchText(url, headers);
    checkAnswer('app', first.status, first.text, c, db);
    const fromUs = nowUs() + CFG.warmupS * 1e6;
    load = await runLoad({
      url,
      headers,
      connections: CFG.connections,
      durationS: PROFILE_S,
      warmupS: CFG.warmupS,
      expectBody: first.text,
    });
    window = { fromUs, toUs: nowUs() };
  } catch (err) {
    await stopServer(proc);
    return { error: (err as Error).message };
  }
  await stopServer(proc, 20_000);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f));
  if (!files.length) return { load, error: 'no .cpuprofile written' };
  const biggest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  return { summary: summarizeProfile(biggest, ROOT, 15, window), load };
}

// ---- machine ----

function machineFacts(pgVersion: string | undefined, pgliteVersion: string | undefined): [string, string][] {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const m = /^model name\s*:\s*(.+)$/m.exec(info);
    if (m) cpu = m[1].trim();
    const mhz = /^cpu MHz\s*:\s*([\d.]+)/m.exec(info);
    if (mhz) cpu += ` @ ${Math.round(Number(mhz[1]))} MHz`;
  } catch {
    // not Linux
  }
  let quota = '';
  try {
    const max = readFileSync('/sys/fs/cgroup/cpu.max', 'utf8').trim();
    if (!max.startsWith('max')) {
      const [q, p] = max.split(' ').map(Number);
      quota = ` (cgroup quota ${(q / p).toFixed(2)} CPUs)`;
    }
  } catch {
    // no cgroup v2 limit
  }
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'schemas'], { cwd: ROOT, encoding: 'utf8' }).trim();
    if (dirty) commit += ' + uncommitted changes in src/ or schemas/';
  } catch {
    // not a git checkout
  }
  const pkgVersion = (name: string) => {
    try {
      return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string;
    } catch {
      return '?';
    }
  };
  return [
    ['Date', new Date().toISOString()],
    ['CPU', cpu],
    ['Cores', `${os.cpus().length} (availableParallelism ${os.availableParallelism()})${quota}`],
    ['RAM', `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`],
    ['OS', `${os.type()} ${os.release()} ${os.arch()}`],
    ['Node', process.version],
    ['PostgreSQL', pgVersion ?? 'not reachable (skipped)'],
    ['PGlite', `${pkgVersion('@electric-sql/pglite')} (PostgreSQL ${pgliteVersion ?? '?'})`],
    ['autocannon', pkgVersion('autocannon')],
    ['Fastify / pg / jose', `${pkgVersion('fastify')} / ${pkgVersion('pg')} / ${pkgVersion('jose')}`],
    ['Project commit', commit],
  ];
}

// ---- orchestration ----

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

async function probePostgres(): Promise<{ version?: string; error?: string }> {
  const client = new pg.Client({ connectionString: CFG.pgAdminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const [{ server_version }] = (await client.query('SHOW server_version')).rows;
    return { version: String(server_version) };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: CFG.pgAdminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function benchDbUrl(): string {
  const url = new URL(CFG.pgAdminUrl);
  url.pathname = `/${CFG.dbName}`;
  return url.toString();
}

interface Results {
  pg: { version?: string; error?: string };
  pgliteVersion?: string;
  data: { db: DbTarget; facts?: DataFacts; sql?: SqlTiming[]; error?: string }[];
  loads: TargetRun[];
  cold: { db: DbTarget; command: CommandKey; runs: ColdRun[] }[];
  profile?: { c: Case; summary?: ProfileSummary; load?: LoadResult; error?: string; reason: string };
  errors: string[];
  started: number;
  cpuStart?: CpuSnapshot;
  loadStart: number[];
}

/** The temp directory of this run (removed on exit unless BENCH_KEEP=1). */
let tmpDir: string | undefined;

async function main(results: Results) {
  // the built server (what npm start runs) is measured too
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  const token = await signToken();
  const tmp = mkdtempSync(join(os.tmpdir(), 'zs-bench-'));
  tmpDir = tmp;
  try {
    results.pg = await probePostgres();
    log(
      results.pg.version
        ? `PostgreSQL ${results.pg.version} at ${CFG.pgAdminUrl}`
        : `PostgreSQL not reachable (${results.pg.error}): PostgreSQL parts skipped`,
    );
    const pgDb: DbTarget | undefined = results.pg.version ? { kind: 'postgres', label: 'PostgreSQL', url: benchDbUrl() } : undefined;
    const liteDb: DbTarget = { kind: 'pglite', label: 'PGlite', dataDir: join(tmp, 'data') };

    // 1. data
    if (pgDb) {
      const entry: Results['data'][number] = { db: pgDb };
      results.data.push(entry);
      try {
        log(`PostgreSQL: fresh database ${CFG.dbName}, schema via the app, ${CFG.tenants * CFG.perTenant} projects`);
        await adminQuery(`DROP DATABASE IF EXISTS ${CFG.dbName} WITH (FORCE)`);
        await adminQuery(`CREATE DATABASE ${CFG.dbName}`);
        const schemaMs = await createSchema(pgDb);
        Object.assign(entry, await seedPostgres(pgDb, schemaMs));
      } catch (err) {
        entry.error = (err as Error).message;
        results.errors.push(`PostgreSQL data: ${entry.error}`);
      }
    }
    {
      const entry: Results['data'][number] = { db: liteDb };
      results.data.push(entry);
      try {
        log(`PGlite: fresh DATA_DIR ${liteDb.dataDir}, schema via the app, ${CFG.tenants * CFG.perTenant} projects`);
        const schemaMs = await createSchema(liteDb);
        const seeded = await seedPglite(liteDb, schemaMs);
        results.pgliteVersion = seeded.version;
        entry.facts = seeded.facts;
        entry.sql = seeded.sql;
      } catch (err) {
        entry.error = (err as Error).message;
        results.errors.push(`PGlite data: ${entry.error}`);
      }
    }
    const ready = (db: DbTarget) => results.data.some((d) => d.db === db && d.facts && !d.error);

    // 2 + 3. load
    if (pgDb && ready(pgDb)) {
      log('Load on PostgreSQL: the app and the bare server, case by case');
      results.loads.push(
        ...(await loadGroup(pgDb, token, [
          { name: 'Zhusuan app', kind: 'app', command: 'node' },
          { name: 'bare Fastify+pg', kind: 'bare', command: 'node' },
        ])),
      );
    }
    if (ready(liteDb)) {
      log('Load on PGlite: the app');
      results.loads.push(...(await loadGroup(liteDb, token, [{ name: 'Zhusuan app', kind: 'app', command: 'node' }])));
    }

    // 4. cold start (+ 5. memory at first answer)
    for (const db of [liteDb, pgDb]) {
      if (!db || !ready(db)) continue;
      for (const command of ['npx', 'node', 'built'] as CommandKey[]) {
        const entry = { db, command, runs: [] as ColdRun[] };
        results.cold.push(entry);
        for (let i = 0; i < CFG.coldRuns; i++) {
          const r = await coldStart(db, command, token);
          entry.runs.push(r);
          log(
            `Cold start ${db.label}, ${COMMANDS[command].label}, run ${i + 1}: ${r.ms !== undefined ? `${r.ms.toFixed(0)} ms` : r.error}`,
          );
          if (r.error && i === 0) break;
        }
      }
    }

    // profile: where the app's time goes, on the case furthest from the bare server
    if (pgDb && ready(pgDb) && CFG.profile !== '0') {
      const ratios = ratioByCase(results.loads);
      const worst = [...ratios].sort((a, b) => (a[1] ?? 1) - (b[1] ?? 1))[0];
      const missed = [...ratios.values()].some((r) => r !== undefined && r < TARGETS.ratio);
      if (CFG.profile === '1' || missed) {
        const c = CASES.find((x) => x.key === worst?.[0]) ?? CASES[0];
        log(`Profile: app on PostgreSQL, ${c.label}, node --cpu-prof`);
        const reason = missed
          ? `the ${pct(TARGETS.ratio)} target was missed; profiled the case furthest from the bare server`
          : 'BENCH_PROFILE=1';
        results.profile = { c, reason, ...(await profileApp(pgDb, c, token, join(tmp, 'prof'))) };
      }
    }
  } finally {
    await stopAll();
    if (!CFG.keep) {
      rmSync(tmp, { recursive: true, force: true });
      if (results.pg.version) await adminQuery(`DROP DATABASE IF EXISTS ${CFG.dbName} WITH (FORCE)`).catch(() => undefined);
    } else {
      log(`Kept: ${tmp}${results.pg.version ? ` and database ${CFG.dbName}` : ''}`);
    }
  }
}

function ratioByCase(loads: TargetRun[]): Map<Case['key'], number | undefined> {
  const out = new Map<Case['key'], number | undefined>();
  const app = loads.find((l) => l.kind === 'app' && l.db.kind === 'postgres');
  const bare = loads.find((l) => l.kind === 'bare');
  for (const c of CASES) {
    const a = app?.cases.find((x) => x.c.key === c.key)?.load;
    const b = bare?.cases.find((x) => x.c.key === c.key)?.load;
    out.set(c.key, a && b ? a.rps / b.rps : undefined);
  }
  return out;
}

/** "bench 48% · PG 40% · other 3%" of the machine's capacity. */
function cpuText(c: CpuShare | undefined): string {
  if (!c) return '—';
  return `bench ${pct(c.bench)} · PG ${pct(c.postgres)} · other ${pct(c.other)}${c.steal >= 0.01 ? ` · steal ${pct(c.steal)}` : ''}`;
}

/** Requests that failed: errors (timeouts included), non-2xx answers, wrong bodies. */
function bad(l: LoadResult | undefined): number {
  return l ? l.errors + l.non2xx + l.mismatches : 0;
}

// ---- report ----

function render(results: Results): { text: string; failed: boolean } {
  const r = new Report();
  let failed = results.errors.length > 0;
  r.h(1, 'Zhusuan benchmark: project list');
  r.p(
    `Generated by \`npm run bench\` (tests/bench/run.ts) in ${((performance.now() - results.started) / 1000).toFixed(0)} s. ` +
      'Load generator (autocannon, in the bench process), servers and PostgreSQL all share the machine below, so absolute numbers are lower than on separate machines; the ratios are what to watch.',
  );

  r.h(2, 'Machine');
  const overall = cpuShare(results.cpuStart, cpuSnapshot());
  const busyNote: [string, string][] = [
    [
      'Load average (1/5/15 min) at start / end',
      `${results.loadStart.map((x) => x.toFixed(2)).join(' ')} / ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    ],
    ['Machine CPU over the whole run', cpuText(overall)],
  ];
  r.p(table(['', ''], [...machineFacts(results.pg.version, results.pgliteVersion), ...busyNote]));
  if (overall && overall.other > 0.1)
    r.p(
      `**Note:** other processes used ${pct(overall.other)} of the machine during this run; the numbers below are disturbed by them (see the per-run CPU column).`,
    );

  r.h(2, 'Data');
  r.p(
    `${CFG.tenants} tenants × ${CFG.perTenant.toLocaleString('en-US')} projects (tenant ids ${tenantId(0)}…${tenantId(CFG.tenants - 1)}), 50 clients (construct_party_a) per tenant, ` +
      'inserted with INSERT … SELECT generate_series after the app created the tables (and seeded its own data), then VACUUM ANALYZE. ' +
      `Each tenant also gets a tenant row and a role \`${ROLE_ALIAS}\` granted the project menu and its buttons (no data scope: every row of the tenant). ` +
      `Load uses tenant ${TENANT} with a token as login would issue it to a user of that role (HS256, claims tenant_id, user_id, dept_id, role_id, role_name).`,
  );
  const skipped = results.data.flatMap((d) => (d.facts?.accessSkipped ?? []).map((x) => `${d.db.label}: ${x}`));
  if (skipped.length)
    r.p(`Access setup statements skipped (this version of the app lacks their tables):\n${skipped.map((x) => `- ${x}`).join('\n')}`);
  r.p(
    table(
      [
        'Database',
        'rows',
        'other rows (app seed)',
        'tenant rows',
        `name contains "${NAME_FRAGMENT}"`,
        'create_time range',
        'table+indexes',
        'app schema run',
        'insert',
        'vacuum analyze',
      ],
      results.data.map(({ db, facts: f, error }) =>
        f
          ? [
              db.label,
              int(f.rows),
              int(f.other_rows),
              int(f.tenant_rows),
              `${int(f.fragment_rows)} (${pct(f.fragment_rows / f.tenant_rows)})`,
              `${f.first_created.slice(0, 10)} … ${f.last_created.slice(0, 10)}`,
              f.size,
              `${ms(f.schemaMs / 1000)} s`,
              `${ms(f.insertMs / 1000)} s`,
              `${ms(f.analyzeMs / 1000)} s`,
            ]
          : [db.label, `failed: ${error}`, '', '', '', '', '', '', '', ''],
      ),
      ['l', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r'],
    ),
  );

  r.h(2, `Load: ${CFG.connections} connections, ${CFG.durationS} s after ${CFG.warmupS} s warm-up`);
  r.p(
    'Every answer of the measured run is compared byte for byte with an answer fetched and checked before the run (code 200, success, total, 10 records of the tenant in createTime DESC order, names containing the fragment for (b)); a different body counts as a mismatch. ' +
      '"vs bare" is the app\'s req/s as a share of the bare Fastify + pg server\'s on the same data and SQL.',
  );
  const ratios = ratioByCase(results.loads);
  const loadRows: (string | number)[][] = [];
  for (const t of results.loads) {
    if (t.error && !t.cases.length)
      loadRows.push([t.name, t.db.label, 'all', `failed: ${t.error.split('\n')[0]}`, '', '', '', '', '', '', '']);
    for (const cr of t.cases) {
      const l = cr.load;
      const ratio = t.kind === 'app' && t.db.kind === 'postgres' ? pct(ratios.get(cr.c.key)) : '';
      if (!l) {
        loadRows.push([t.name, t.db.label, cr.c.label, `failed: ${cr.error}`, '', '', '', '', '', '', cpuText(cr.cpu)]);
        failed = true;
        continue;
      }
      if (bad(l) || cr.error) failed = true;
      loadRows.push([
        t.name,
        t.db.label,
        cr.c.label,
        int(l.rps),
        ms(l.p50),
        ms(l.p99),
        ms(l.max),
        `${l.errors} (${l.timeouts})`,
        `${l.non2xx} / ${l.mismatches}${cr.error ? ` (${cr.error})` : ''}`,
        ratio,
        cpuText(cr.cpu),
      ]);
    }
  }
  r.p(
    table(
      [
        'Server',
        'DB',
        'Case',
        'req/s',
        'p50 ms',
        'p99 ms',
        'max ms',
        'errors (timeouts)',
        'non-2xx / mismatches',
        'vs bare',
        'machine CPU during run',
      ],
      loadRows,
      ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
  );
  r.p(
    'Machine CPU: share of all cores over the run (warm-up included) used by the bench process tree (autocannon + the server), by PostgreSQL, and by anything else on the machine; a large "other" share means the numbers were disturbed.',
  );

  // targets
  const checks: string[] = [];
  const mark = (ok: boolean | undefined) => (ok === undefined ? '—' : ok ? 'PASS' : 'MISS');
  const appPg = results.loads.find((l) => l.kind === 'app' && l.db.kind === 'postgres');
  const appLite = results.loads.find((l) => l.kind === 'app' && l.db.kind === 'pglite');
  if (appPg) {
    for (const c of CASES) {
      const ratio = ratios.get(c.key);
      const l = appPg.cases.find((x) => x.c.key === c.key)?.load;
      checks.push(
        `- ${mark(ratio === undefined ? undefined : ratio >= TARGETS.ratio)} PostgreSQL ${c.label}: app at ${pct(ratio)} of bare (target ≥ ${pct(TARGETS.ratio)}), p99 ${ms(l?.p99)} ms → ${mark(l ? l.p99 <= TARGETS.pgP99 : undefined)} (target ≤ ${TARGETS.pgP99} ms)`,
      );
    }
  } else {
    checks.push('- PostgreSQL: skipped' + (results.pg.error ? ` (not reachable: ${results.pg.error})` : ''));
  }
  if (appLite) {
    for (const c of CASES) {
      const l = appLite.cases.find((x) => x.c.key === c.key)?.load;
      checks.push(
        `- ${mark(l ? l.p99 <= TARGETS.pgliteP99 : undefined)} PGlite ${c.label}: p99 ${ms(l?.p99)} ms (target ≤ ${TARGETS.pgliteP99} ms), max ${ms(l?.max)} ms`,
      );
    }
  }
  const bare = results.loads.find((l) => l.kind === 'bare');
  if (appPg && bare) {
    const differ = CASES.filter((c) => {
      const a = appPg.cases.find((x) => x.c.key === c.key);
      const b = bare.cases.find((x) => x.c.key === c.key);
      return !a?.ids || !b?.ids || a.ids.join() !== b.ids.join() || a.keys !== b.keys;
    });
    checks.push(
      `- ${mark(differ.length === 0)} the bare server answers the same rows with the same fields as the app in every case${differ.length ? ` (differs in ${differ.map((c) => c.key).join(', ')}: tests/bench/queries.ts no longer matches the app's SQL)` : ''}`,
    );
    if (differ.length) failed = true;
  }
  const allLoads = results.loads.flatMap((t) => t.cases);
  const wrong = allLoads.reduce((s, c) => s + bad(c.load), 0);
  checks.push(
    `- ${mark(wrong === 0 && allLoads.every((c) => c.load && !c.error))} every answer correct: ${wrong} errors (timeouts included), non-2xx answers and mismatches in total`,
  );
  r.h(3, 'Targets');
  r.p(checks.join('\n'));

  // SQL only
  const sqlRows: (string | number)[][] = [];
  for (const d of results.data) for (const s of d.sql ?? []) sqlRows.push([d.db.label, s.c.label, ms(s.median, 2), ms(s.p95, 2)]);
  if (sqlRows.length) {
    r.h(3, 'The same SQL alone');
    r.p(
      'count + page statements of each case, one after the other on a single connection from the bench process (PGlite: in-process), 30 times after 5 warm-ups. This is the floor per request before any concurrency.',
    );
    r.p(table(['DB', 'Case', 'median ms', 'p95 ms'], sqlRows, ['l', 'l', 'r', 'r']));
  }

  // cold start
  r.h(2, `Cold start (${CFG.coldRuns} runs each)`);
  r.p(
    'Milliseconds from spawn until the first answered GET /api/construct/project/list (polled every 20 ms, answer checked), on the data above. RSS at that moment: the server process / the whole process tree (npx and tsx wrappers included).',
  );
  r.p(
    table(
      ['DB', 'Command', ...Array.from({ length: CFG.coldRuns }, (_, i) => `run ${i + 1}`), 'median', 'RSS at first answer'],
      results.cold.map(({ db, command, runs }) => {
        const times = runs.map((x) => x.ms).filter((x): x is number => x !== undefined);
        const cells = Array.from({ length: CFG.coldRuns }, (_, i) =>
          runs[i] ? (runs[i].ms !== undefined ? ms(runs[i].ms, 0) : `failed: ${runs[i].error?.split('\n')[0]}`) : '—',
        );
        const mem = runs.find((x) => x.mem)?.mem;
        return [
          db.label,
          `\`${COMMANDS[command].label}\``,
          ...cells,
          ms(median(times), 0),
          mem ? `${mib(mem.server)} / ${mib(mem.tree)}` : '—',
        ];
      }),
      ['l', 'l', ...Array.from({ length: CFG.coldRuns }, () => 'r' as const), 'r', 'r'],
    ),
  );

  // memory
  r.h(2, 'Resident memory (VmRSS)');
  r.p(
    "Of the server process (the one holding the listening socket). Idle: 0.5 s after the ready line, before any request. After load: after each case's run; the last column is the peak over the three.",
  );
  r.p(
    table(
      ['Server', 'DB', 'Command', 'idle after start', ...CASES.map((c) => `after ${c.key}`), 'peak'],
      results.loads.map((t) => {
        const after = CASES.map((c) => t.cases.find((x) => x.c.key === c.key)?.memAfter.server);
        const peak = Math.max(...after.filter((x): x is number => x !== undefined), t.idle?.server ?? 0);
        return [t.name, t.db.label, `\`${t.command}\``, mib(t.idle?.server), ...after.map(mib), mib(peak || undefined)];
      }),
      ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );

  // profile
  if (results.profile) {
    const p = results.profile;
    r.h(2, `Where the app's time goes (PostgreSQL, ${p.c.label})`);
    r.p(
      `\`node --cpu-prof --import tsx src/server/main.ts\`, ${PROFILE_S} s of the same load after ${CFG.warmupS} s warm-up (${p.reason}).` +
        (p.load ? ` Under the profiler: ${int(p.load.rps)} req/s, p99 ${ms(p.load.p99)} ms.` : ''),
    );
    if (p.summary) {
      const s = p.summary;
      r.p(
        `Main thread, ${s.windowed ? 'samples of the measured run only (start-up and warm-up left out)' : 'whole process life (the run window could not be matched to the profile clock)'}: ` +
          `${ms(s.totalMs / 1000, 1)} s sampled, ${pct(s.idleMs / s.totalMs)} idle; shares below are of the busy ${ms(s.busyMs / 1000, 1)} s.`,
      );
      r.p(
        table(
          ['Charged to the nearest package or file of ours on the stack', 'ms', 'share'],
          s.responsible.slice(0, 14).map((x) => [x.name, int(x.ms), pct(x.share)]),
          ['l', 'r', 'r'],
        ),
      );
      r.p(
        table(
          ['Self time by category', 'ms', 'share'],
          s.categories.slice(0, 12).map((x) => [x.name, int(x.ms), pct(x.share)]),
          ['l', 'r', 'r'],
        ),
      );
      r.p(
        table(
          ['Hottest functions (self)', 'ms', 'share'],
          s.selfTop.map((x) => [`\`${x.name}\``, int(x.ms), pct(x.share)]),
          ['l', 'r', 'r'],
        ),
      );
      r.p(
        table(
          ['Our code (src/), inclusive', 'ms', 'share'],
          s.ourInclusiveTop.slice(0, 12).map((x) => [`\`${x.name}\``, int(x.ms), pct(x.share)]),
          ['l', 'r', 'r'],
        ),
      );
      r.p(
        table(
          ['Our code (src/), self', 'ms', 'share'],
          s.ourSelfTop.slice(0, 10).map((x) => [`\`${x.name}\``, int(x.ms), pct(x.share)]),
          ['l', 'r', 'r'],
        ),
      );
    } else {
      r.p(`Profile failed: ${p.error}`);
    }
  }

  // plans
  const plans = results.data.find((d) => d.db.kind === 'postgres')?.sql?.filter((s) => s.plan);
  if (plans?.length) {
    r.h(2, 'PostgreSQL plans');
    r.p(plans.map((s) => `<details><summary>${s.c.label}</summary>\n\n\`\`\`\n${s.plan!.trim()}\n\`\`\`\n</details>`).join('\n\n'));
  }

  if (results.errors.length || results.loads.some((t) => t.error)) {
    r.h(2, 'Errors');
    r.p(
      ['```', ...results.errors, ...results.loads.filter((t) => t.error).map((t) => `${t.name} on ${t.db.label}: ${t.error}`), '```'].join(
        '\n',
      ),
    );
    failed = true;
  }
  return { text: r.toString(), failed };
}

// ---- entry ----

const results: Results = {
  pg: {},
  data: [],
  loads: [],
  cold: [],
  errors: [],
  started: performance.now(),
  cpuStart: cpuSnapshot(),
  loadStart: os.loadavg(),
};
let finished = false;

function finish(extraError?: string): number {
  if (finished) return 1;
  finished = true;
  if (extraError) results.errors.push(extraError);
  const { text, failed } = render(results);
  try {
    writeFileSync(RESULTS_FILE, text);
  } catch (err) {
    log(`could not write ${RESULTS_FILE}: ${(err as Error).message}`);
  }
  process.stdout.write(text);
  return failed ? 1 : 0;
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAllNow();
    if (tmpDir && !CFG.keep) rmSync(tmpDir, { recursive: true, force: true });
    finish(`interrupted by ${signal}: partial results (database ${CFG.dbName} is left behind; the next run drops it)`);
    process.exit(130);
  });
}
const watchdog = setTimeout(() => {
  log(`watchdog: ${CFG.timeoutMin} min passed, stopping`);
  killAllNow();
  process.exit(finish(`watchdog: the run took longer than ${CFG.timeoutMin} min and was stopped`));
}, CFG.timeoutMin * 60_000);
watchdog.unref();

try {
  if (!existsSync(join(ROOT, 'src/server/main.ts'))) throw new Error(`not the project root: ${ROOT}`);
  await main(results);
  process.exitCode = finish();
} catch (err) {
  killAllNow();
  process.exitCode = finish(`run failed: ${(err as Error).stack ?? err}`);
}
clearTimeout(watchdog);
