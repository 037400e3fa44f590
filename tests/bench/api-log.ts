// A step of `npm run bench`: what the API log costs. The same server, on the same database, loads
// the project list with the API log off (ZS_API_LOG=off) and on, in alternating rounds (off, on,
// on, off, …) so that drift of the shared machine falls on both. With the log on, the platform's
// log.apiReads parameter is "true", so that every one of these reads is logged (by default only
// writes are): the worst case for the log. Target: at most 5 % fewer requests per second.
// Runs on PostgreSQL (a fresh database zs_bench_apilog) and on the embedded database (a fresh
// DATA_DIR). Prints a Markdown report and writes it to tests/bench/api-log-results.md.
// Knobs: BENCH_PG_URL, BENCH_APILOG_ROUNDS (2), BENCH_DURATION (10), BENCH_WARMUP (3),
// BENCH_CONNECTIONS (20), BENCH_APILOG_DBS (postgres,pglite).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { compile } from '../../src/engine/model/compile.ts';
import type { Db } from '../../src/server/db/db.ts';
import { maskedParams } from '../../src/server/modules/log/mask.ts';
import { LogService } from '../../src/server/modules/log/service.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { runLoad, type LoadResult } from './load.ts';
import { freePort, runBench, spawnServer, stopServer, type ServerProc } from './procs.ts';
import { num } from './env.ts';
import { int, median, ms, table } from './report.ts';
import { installPacks } from '../../src/engine/packs.ts';
import { ENGINE_PACKS } from '../../src/packs/engine.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS_FILE = join(HERE, 'api-log-results.md');
const SECRET = randomBytes(32).toString('hex');
const ADMIN = { userId: '1123598821738675201', deptId: '1123598813738675201' };
const LIST = '/api/construct/project/list?current=1&size=10';

const CFG = {
  rounds: num('BENCH_APILOG_ROUNDS', 2),
  durationS: num('BENCH_DURATION', 10),
  warmupS: num('BENCH_WARMUP', 3),
  connections: num('BENCH_CONNECTIONS', 20),
  pgAdminUrl: process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  dbs: (process.env.BENCH_APILOG_DBS ?? 'postgres,pglite').split(',').filter(Boolean) as ('postgres' | 'pglite')[],
};

type Mode = 'off' | 'on';

interface Target {
  kind: 'postgres' | 'pglite';
  env: NodeJS.ProcessEnv;
  /** Sets the platform's log.apiReads (SQL run against the database while no server runs on it). */
  setReads(value: 'true' | 'false'): Promise<void>;
  countApiLog(): Promise<number>;
  drop(): Promise<void>;
}

async function token(): Promise<string> {
  return new SignJWT({ tenant_id: '000000', user_id: ADMIN.userId, dept_id: ADMIN.deptId, role_name: 'administrator' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer('zhusuan')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(SECRET));
}

function start(target: Target, mode: Mode, port: number): ServerProc {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...target.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ZS_JWT_SECRET: SECRET,
    ZS_DEMO: 'basic',
    ZS_API_LOG: mode,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return spawnServer(`app-${target.kind}-log-${mode}`, process.execPath, ['--import', 'tsx', 'src/server/main.ts'], env, port, ROOT);
}

async function postgresTarget(): Promise<Target> {
  const name = 'zs_bench_apilog';
  const admin = new pg.Client({ connectionString: CFG.pgAdminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(CFG.pgAdminUrl);
  url.pathname = `/${name}`;
  const run = async <T>(fn: (c: pg.Client) => Promise<T>) => {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url.toString(), DATA_DIR: undefined },
    setReads: (value) =>
      run(
        async (c) =>
          void (await c.query(`UPDATE blade_param SET param_value = $1 WHERE param_key = 'log.apiReads' AND tenant_id = '000000'`, [
            value,
          ])),
      ),
    countApiLog: () => run(async (c) => (await c.query(`SELECT count(*)::int AS n FROM blade_log_api`)).rows[0].n as number),
    drop: async () => {
      const c = new pg.Client({ connectionString: CFG.pgAdminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function pgliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(os.tmpdir(), 'zs-bench-apilog-'));
  const { openPglite } = await import('../../src/server/db/pglite.ts');
  const run = async <T>(fn: (db: Awaited<ReturnType<typeof openPglite>>) => Promise<T>) => {
    const db = await openPglite(join(dir, 'pg'));
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  return {
    kind: 'pglite',
    env: { DATA_DIR: dir, DATABASE_URL: undefined },
    setReads: (value) =>
      run(
        async (db) =>
          void (await db.query(`UPDATE blade_param SET param_value = $1 WHERE param_key = 'log.apiReads' AND tenant_id = '000000'`, [
            value,
          ])),
      ),
    countApiLog: () => run(async (db) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM blade_log_api`))[0].n),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One server run: start, warm up, load the list, stop. */
async function measure(target: Target, mode: Mode, headers: Record<string, string>): Promise<LoadResult> {
  const port = await freePort();
  const proc = start(target, mode, port);
  try {
    if (!(await proc.waitForLine(/Zhusuan: http/, 180_000))) throw new Error(`${proc.name} did not start:\n${proc.output().slice(-2000)}`);
    const url = `http://127.0.0.1:${port}${LIST}`;
    const first = await fetch(url, { headers });
    const body = await first.text();
    if (first.status !== 200) throw new Error(`${proc.name}: ${first.status} ${body.slice(0, 300)}`);
    return await runLoad({ url, headers, connections: CFG.connections, durationS: CFG.durationS, warmupS: CFG.warmupS, expectBody: body });
  } finally {
    await stopServer(proc);
  }
}

async function bench(target: Target, headers: Record<string, string>) {
  // first start: creates and seeds the database
  await measure(target, 'off', headers).catch((err) => {
    throw new Error(`first start on ${target.kind}: ${(err as Error).message}`);
  });
  await target.setReads('true');
  const runs: Record<Mode, LoadResult[]> = { off: [], on: [] };
  const logged: number[] = [];
  for (let round = 0; round < CFG.rounds; round++) {
    // off, on, on, off, …: a machine growing busier or quieter weighs on both modes alike
    for (const mode of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      const before = await target.countApiLog();
      const result = await measure(target, mode, headers);
      runs[mode].push(result);
      if (mode === 'on') logged.push((await target.countApiLog()) - before);
      console.error(`${target.kind} round ${round + 1} log ${mode}: ${int(result.rps)} req/s, p99 ${result.p99} ms`);
    }
  }
  return { runs, logged };
}

/**
 * The log's own work per request, without a database (whose statements run elsewhere or queued):
 * what a request pays after its answer (masking, queueing) and what the writer pays per row to
 * build its batch INSERT. Independent of the noise of a shared machine's load.
 */
async function perRowCost(): Promise<{ pushUs: number; batchUs: number }> {
  installPacks(ENGINE_PACKS);
  const { catalog } = compile(readSchemaSource());
  const db = { query: async () => [] } as unknown as Db;
  const logs = new LogService({ db, catalog, timeZone: 'Asia/Shanghai' }, { batchSize: 500, maxQueue: 1_000_000 });
  const n = 100_000;
  const who = { tenantId: '000000', userId: ADMIN.userId, deptId: ADMIN.deptId };
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    logs.api(who, {
      method: 'GET',
      requestUri: '/api/construct/project/list',
      status: 200,
      duration: 3,
      params: maskedParams({ current: '1', size: '10' }, undefined, 8000),
      remoteIp: '127.0.0.1',
      userAgent: 'autocannon',
    });
  }
  const t1 = performance.now();
  await logs.flush();
  const t2 = performance.now();
  return { pushUs: ((t1 - t0) * 1000) / n, batchUs: ((t2 - t1) * 1000) / n };
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}; load average at the start ${os.loadavg()[0].toFixed(1)}`;
}

async function main() {
  const headers = { 'blade-auth': `bearer ${await token()}` };
  const lines = [
    '# API log overhead',
    '',
    `Machine: ${machine()}. ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    `Project list (\`${LIST}\`) as the platform administrator, ${CFG.connections} connections, ${CFG.durationS} s after ${CFG.warmupS} s of warm-up per run; ${CFG.rounds} rounds of log off / log on (in the order off, on, on, off, …), each run a fresh server process (\`node --import tsx\`). With the log on every request is logged (log.apiReads = true).`,
    '',
  ];
  const rows: (string | number)[][] = [];
  for (const kind of CFG.dbs) {
    let target: Target | undefined;
    try {
      target = kind === 'postgres' ? await postgresTarget() : await pgliteTarget();
      const { runs, logged } = await bench(target, headers);
      const off = median(runs.off.map((r) => r.rps))!;
      const on = median(runs.on.map((r) => r.rps))!;
      const bad = [...runs.off, ...runs.on].reduce((n, r) => n + r.errors + r.timeouts + r.non2xx + r.mismatches, 0);
      rows.push([
        kind,
        int(off),
        int(on),
        `${(((on - off) / off) * 100).toFixed(1)} %`,
        `${ms(median(runs.off.map((r) => r.p99)), 0)} / ${ms(median(runs.on.map((r) => r.p99)), 0)}`,
        runs.off.map((r) => int(r.rps)).join(', '),
        runs.on.map((r) => int(r.rps)).join(', '),
        `${int(logged.reduce((a, b) => a + b, 0))} of ${int(runs.on.reduce((a, r) => a + r.total, 0))}`,
        bad,
      ]);
    } catch (err) {
      lines.push(`${kind}: skipped (${(err as Error).message.split('\n')[0]})`, '');
    } finally {
      await target?.drop().catch(() => undefined);
    }
  }
  lines.push(
    table(
      [
        'database',
        'req/s log off (median)',
        'req/s log on (median)',
        'change',
        'p99 ms off / on',
        'runs off',
        'runs on',
        'rows logged (of requests)',
        'errors',
      ],
      rows,
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  const cost = await perRowCost();
  lines.push(
    '',
    `The log's own work, measured apart (100,000 rows, no database): ${cost.pushUs.toFixed(1)} µs per request to mask and queue its row after the answer, ${cost.batchUs.toFixed(1)} µs per row to build the batch INSERT.`,
  );
  lines.push(
    '',
    'Target: at most 5 % fewer requests per second with the log on. The rows logged count every request of the runs with the log on, warm-up included, written after the answers in batches.',
  );
  const report = lines.join('\n');
  writeFileSync(RESULTS_FILE, `${report}\n`);
  console.log(report);
}

runBench('api-log', main);
