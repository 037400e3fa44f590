// `npm run bench` (last part): approval workflows on PostgreSQL with two server processes.
//   1. complete-task throughput end to end through HTTP: documents are submitted into a model with
//      two parallel reviews and a final approval; then the two reviewers complete every review task
//      at once, one through each server process, so the two processes race on every instance (the
//      join needs both). Every answer must be 200 and every instance must reach its final task.
//   2. todo-list latency with 1,000,000 tasks (250,000 open, 1,000 users, 200,000 instances) through
//      HTTP (autocannon, 10 connections, users rotating), after the rows are inserted by SQL.
// Writes tests/bench/workflow-results.md. Knobs: BENCH_PG_URL, BENCH_FLOW_DOCS (default 1500),
// BENCH_FLOW_CONCURRENCY (requests in flight per reviewer, default 8), BENCH_FLOW_TASKS (1000000),
// BENCH_DURATION (15), BENCH_WARMUP (3), BENCH_KEEP=1 (keep the database).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { withClient } from './pg-client.ts';
import { createTokenService } from '../../src/server/security/tokens.ts';
import { endEvent, flow, parallel, processXml, startEvent, userTask } from '../../src/engine/workflow/testing.ts';
import { cpuShare, cpuSnapshot } from './cpu.ts';
import { freePort, killAllNow, spawnServer, stopAll, type ServerProc } from './procs.ts';
import { int, ms, pct, Report, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS_FILE = join(HERE, 'workflow-results.md');

const num = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

const CFG = {
  pgAdminUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  dbName: 'zs_bench_flow',
  docs: num('BENCH_FLOW_DOCS', 1500),
  concurrency: num('BENCH_FLOW_CONCURRENCY', 8),
  tasks: num('BENCH_FLOW_TASKS', 1_000_000),
  users: 1000,
  durationS: num('BENCH_DURATION', 15),
  warmupS: num('BENCH_WARMUP', 3),
  keep: process.env.BENCH_KEEP === '1',
};
const TARGETS = { completesPerS: 300, todoP99: 20 };
const TODO_RATE = 200;
const SECRET = randomBytes(32).toString('hex');
const tokens = createTokenService(new TextEncoder().encode(SECRET));
const TENANT = '000000';

const log = (msg: string) => console.log(`[bench:flow] ${msg}`);

function benchUrl(): string {
  const url = new URL(CFG.pgAdminUrl);
  url.pathname = `/${CFG.dbName}`;
  return url.toString();
}

// ---- HTTP ----

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function call(
  port: number,
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: any; ms: number }> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          'blade-auth': `bearer ${token}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          resolvePromise({ status: res.statusCode ?? 0, json, ms: performance.now() - started });
        });
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout ${path}`)));
    if (payload) req.write(payload);
    req.end();
  });
}

function ok(res: { status: number; json: any }, what: string) {
  if (res.json?.code !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
  return res.json.data;
}

/** Runs `work` over `items` with `concurrency` in flight. */
async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

// ---- servers ----

async function startServers(url: string): Promise<ServerProc[]> {
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  const servers: ServerProc[] = [];
  for (const name of ['flow-a', 'flow-b']) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ZS_JWT_SECRET: SECRET,
      DATABASE_URL: url,
      ZS_POOL_SIZE: '10',
    };
    delete env.DATA_DIR;
    const profile = process.env.BENCH_FLOW_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_FLOW_PROFILE}`] : [];
    const proc = spawnServer(name, process.execPath, [...profile, 'dist/server/server/main.js'], env, port, ROOT);
    if (!(await proc.waitForLine(/Zhusuan: http/, 180_000))) throw new Error(`${name} did not start:\n${proc.output().slice(-2000)}`);
    servers.push(proc);
  }
  return servers;
}

interface Person {
  id: string;
  token: string;
}

async function person(url: string, account: string): Promise<Person> {
  const [u] = await withClient(
    url,
    async (c) =>
      (
        await c.query(
          `SELECT u.id::text AS id, u.dept_id AS "deptId", u.role_id AS "roleId",
       (SELECT string_agg(r.role_alias, ',') FROM blade_role r WHERE r.id::text = ANY(string_to_array(u.role_id, ','))) AS aliases
       FROM blade_user u WHERE u.account = $1 AND u.tenant_id = $2`,
          [account, TENANT],
        )
      ).rows,
  );
  return {
    id: u.id,
    token: await tokens.sign({ tenant_id: TENANT, user_id: u.id, dept_id: u.deptId, role_id: u.roleId, role_name: u.aliases }, 24 * 3600),
  };
}

// ---- 1. complete-task throughput ----

const REVIEW_MODEL = processXml('materialTotalDemand', '需用计划并行审核(基准)', [
  startEvent('start'),
  parallel('fork'),
  userTask('finance', { name: '财务审核', assignee: 'manager' }),
  userTask('legal', { name: '法务审核', assignee: 'costmgr' }),
  parallel('join'),
  userTask('final', { name: '总经理审批', assignee: 'admin' }),
  endEvent('end'),
  flow('f1', 'start', 'fork'),
  flow('f2', 'fork', 'finance'),
  flow('f3', 'fork', 'legal'),
  flow('f4', 'finance', 'join'),
  flow('f5', 'legal', 'join'),
  flow('f6', 'join', 'final'),
  flow('f7', 'final', 'end'),
]);

async function throughput(url: string, [a, b]: ServerProc[]) {
  const admin = await person(url, 'admin');
  const [manager, costmgr] = [await person(url, 'manager'), await person(url, 'costmgr')];
  // master data and the model, through the API
  const party = ok(
    await call(a.port, 'POST', '/api/construct/partyA/save', admin.token, { name: '基准建设单位', partyAType: 'soe', status: 'enabled' }),
    'partyA',
  );
  const project = ok(
    await call(a.port, 'POST', '/api/construct/project/save', admin.token, {
      name: '基准项目',
      projectType: 'building',
      partyAId: party.id,
      targetCost: 1000000,
      projectManagerName: '李建国',
      plannedStartDate: '2026-03-01',
      plannedEndDate: '2027-12-31',
      projectStatus: 'constructing',
    }),
    'project',
  );
  const classify = ok(
    await call(a.port, 'POST', '/api/construct/goodsClassify/save', admin.token, {
      parentId: '0',
      code: 'B1',
      name: '基准钢材',
      goodsType: 'main',
      status: 'enabled',
    }),
    'classify',
  );
  const goods = ok(
    await call(a.port, 'POST', '/api/construct/goodsArchives/save', admin.token, {
      code: 'B0001',
      name: '螺纹钢',
      spec: 'HRB400',
      unit: 't',
      classifyId: classify.id,
      goodsType: 'main',
      isTurnover: false,
      referencePrice: 4000,
      status: 'enabled',
    }),
    'goods',
  );
  const model = ok(
    await call(a.port, 'POST', '/api/blade-flow/model/submit', admin.token, { name: '并行审核(基准)', xml: REVIEW_MODEL }),
    'model',
  );
  ok(await call(a.port, 'POST', `/api/blade-flow/model/deploy?modelId=${model.id}`, admin.token), 'deploy');

  log(`submitting ${CFG.docs} material demands (each starts an instance with two parallel reviews)`);
  const submitStarted = performance.now();
  const docs = Array.from({ length: CFG.docs }, (_, i) => i);
  await pool(docs, 8, async (i) => {
    ok(
      await call(i % 2 ? b.port : a.port, 'POST', '/api/construct/materialTotalDemand/submit', admin.token, {
        projectId: project.id,
        title: `基准计划${i}`,
        planDate: '2026-03-10',
        compilerName: '基准',
        details: [{ goodsId: goods.id, designQty: 10 + (i % 7), lossRate: 2, budgetPrice: 4000 }],
      }),
      'submit',
    );
  });
  const submitS = (performance.now() - submitStarted) / 1000;

  const taskIds = async (userId: string) =>
    withClient(url, async (c) =>
      (
        await c.query(
          `SELECT id::text AS id FROM wf_task WHERE assignee_id = $1 AND status = 'active' AND activity_id IN ('finance', 'legal') ORDER BY instance_id`,
          [userId],
        )
      ).rows.map((r) => r.id as string),
    );
  const finance = await taskIds(manager.id);
  const legal = await taskIds(costmgr.id);
  const half = Math.floor(finance.length / 2);
  const failures: string[] = [];
  /** The two reviewers complete their tasks at once, one through each process. */
  const round = async (label: string, financeIds: string[], legalIds: string[]): Promise<Round> => {
    log(
      `${label}: ${financeIds.length + legalIds.length} review tasks, manager through ${a.name}, cost manager through ${b.name}, ${CFG.concurrency} in flight each`,
    );
    const latencies: number[] = [];
    const completeAll = (server: ServerProc, who: Person, ids: string[]) =>
      pool(ids, CFG.concurrency, async (taskId) => {
        const res = await call(server.port, 'POST', '/api/blade-flow/work/complete-task', who.token, {
          taskId,
          flag: 'ok',
          comment: '同意',
        });
        latencies.push(res.ms);
        if (res.json?.code !== 200) failures.push(`${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
      });
    const cpu0 = cpuSnapshot();
    const started = performance.now();
    await Promise.all([completeAll(a, manager, financeIds), completeAll(b, costmgr, legalIds)]);
    const seconds = (performance.now() - started) / 1000;
    return {
      label,
      completes: latencies.length,
      seconds,
      perS: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      cpu: cpuShare(cpu0, cpuSnapshot()),
    };
  };
  // first half: both reviewers in the same order, so the two processes race on every instance;
  // second half: in opposite orders, so they mostly work on different instances
  const racing = await round('same instances at once', finance.slice(0, half), legal.slice(0, half));
  const apart = await round('different instances', finance.slice(half), legal.slice(half).reverse());
  const [check] = await withClient(
    url,
    async (c) =>
      (
        await c.query(
          `SELECT (SELECT count(*)::int FROM wf_task WHERE activity_id = 'final' AND status = 'active') AS finals,
            (SELECT count(*)::int FROM wf_instance i WHERE i.status = 'running' AND NOT EXISTS (SELECT 1 FROM wf_task t WHERE t.instance_id = i.id AND t.status = 'active')) AS lost`,
        )
      ).rows,
  );
  return { docs: CFG.docs, submitS, rounds: [racing, apart], failures, finals: check.finals as number, lost: check.lost as number };
}

interface Round {
  label: string;
  completes: number;
  seconds: number;
  perS: number;
  p50: number;
  p99: number;
  max: number;
  cpu: ReturnType<typeof cpuShare>;
}

// ---- 2. todo-list latency on 1,000,000 tasks ----

async function fillTasks(url: string) {
  const perInstance = 5;
  const instances = Math.ceil(CFG.tasks / perInstance);
  log(`inserting ${CFG.users} users, ${instances} instances and ${CFG.tasks} tasks by SQL`);
  const started = performance.now();
  await withClient(url, async (c) => {
    const [def] = (
      await c.query(`SELECT id FROM wf_definition WHERE tenant_id = $1 AND def_key = 'materialTotalDemand' ORDER BY version DESC LIMIT 1`, [
        TENANT,
      ])
    ).rows;
    await c.query(
      `INSERT INTO blade_user (id, tenant_id, account, name, real_name, role_id, dept_id, status, is_deleted, user_type)
      SELECT 1950000000000000000 + g, $1, 'bench' || g, '基准用户' || g, '基准用户' || g, '', '', 1, 0, '1' FROM generate_series(1, $2) g`,
      [TENANT, CFG.users],
    );
    await c.query(
      `INSERT INTO wf_instance (id, tenant_id, definition_id, def_key, business_key, business_table, business_id, business_title, initiator_id, status, state, version, start_time)
      SELECT 1960000000000000000 + g, $1, $2, 'materialTotalDemand', 'materialTotalDemand', 'construct_material_total_demand', g, '基准计划' || g,
             1950000000000000000 + (g % $3) + 1, CASE WHEN g % 4 = 0 THEN 'running' ELSE 'completed' END, '{}'::jsonb, 1, now() - (g || ' seconds')::interval
        FROM generate_series(1, $4) g`,
      [TENANT, def.id, CFG.users, instances],
    );
    // a quarter of the tasks are open, spread evenly over the users; the rest were completed by them
    await c.query(
      `INSERT INTO wf_task (id, tenant_id, instance_id, definition_id, activity_id, name, ref, assignee_id, status, create_time, end_time, completed_by, outcome)
      SELECT 1970000000000000000 + g, $1, 1960000000000000000 + (g / ${perInstance}) + 1, $2, 'final', '总经理审批', 't' || g,
             1950000000000000000 + ((g / 4) % $3) + 1, CASE WHEN g % 4 = 0 THEN 'active' ELSE 'completed' END, now() - (g || ' seconds')::interval,
             CASE WHEN g % 4 = 0 THEN NULL ELSE now() END, CASE WHEN g % 4 = 0 THEN NULL ELSE 1950000000000000000 + ((g / 4) % $3) + 1 END,
             CASE WHEN g % 4 = 0 THEN NULL ELSE 'approve' END
        FROM generate_series(0, $4 - 1) g`,
      [TENANT, def.id, CFG.users, CFG.tasks],
    );
    // what autovacuum does on a live system: statistics and the visibility map (index-only scans)
    await c.query('VACUUM ANALYZE wf_task');
    await c.query('VACUUM ANALYZE wf_instance');
    await c.query('VACUUM ANALYZE blade_user');
  });
  return { seconds: (performance.now() - started) / 1000 };
}

interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

async function todoLatency(url: string, server: ServerProc) {
  const userTokens = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      tokens.sign({ tenant_id: TENANT, user_id: String(1950000000000000000n + BigInt(i * 10 + 1)), role_name: 'bench' }, 24 * 3600),
    ),
  );
  const sample = ok(await call(server.port, 'GET', '/api/blade-flow/work/todo-list?current=1&size=10', userTokens[0]), 'todo-list');
  if (sample.records.length !== 10 || sample.total < CFG.tasks / 4 / CFG.users / 2)
    throw new Error(`todo-list sample: ${JSON.stringify(sample).slice(0, 300)}`);
  const plan = await withClient(
    url,
    async (c) =>
      (
        await c.query(
          `EXPLAIN (ANALYZE, FORMAT JSON) SELECT t.id FROM wf_task t WHERE t.tenant_id = $1 AND t.assignee_id = $2 AND t.status = 'active' ORDER BY t.id DESC LIMIT 10`,
          [TENANT, '1950000000000000001'],
        )
      ).rows[0]['QUERY PLAN'][0],
  );
  const autocannon = createRequire(import.meta.url)('autocannon') as (opts: unknown) => Promise<AutocannonResult>;
  let turn = 0;
  const run = (duration: number, connections: number, overallRate?: number) =>
    autocannon({
      url: `http://127.0.0.1:${server.port}`,
      connections,
      duration,
      ...(overallRate ? { overallRate } : {}),
      requests: [
        {
          method: 'GET',
          setupRequest: (req: { path: string; headers: Record<string, string> }) => {
            turn = (turn + 1) % userTokens.length;
            req.path = `/api/blade-flow/work/todo-list?current=${1 + (turn % 3)}&size=10`;
            req.headers = { 'blade-auth': `bearer ${userTokens[turn]}` };
            return req;
          },
        },
      ],
    });
  const summary = (r: AutocannonResult, cpu: ReturnType<typeof cpuShare>) => ({
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors + r.timeouts + r.non2xx,
    cpu,
  });
  await run(CFG.warmupS, 10);
  // as many as 10 connections can get (latency includes waiting behind the other 9) …
  let cpu0 = cpuSnapshot();
  const saturated = summary(await run(CFG.durationS, 10), cpuShare(cpu0, cpuSnapshot()));
  // … and at a steady 200 requests per second (latency of one request while others are served)
  cpu0 = cpuSnapshot();
  const steady = summary(await run(CFG.durationS, 10, TODO_RATE), cpuShare(cpu0, cpuSnapshot()));
  return { saturated, steady, total: sample.total as number, sqlMs: plan['Execution Time'] as number };
}

// ---- report ----

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Linux ${os.release()}, Node ${process.version}`;
}

async function main() {
  const watchdog = setTimeout(() => {
    console.error('[bench:flow] watchdog: 30 minutes passed');
    killAllNow();
    process.exit(1);
  }, 30 * 60_000);
  watchdog.unref();
  const url = benchUrl();
  const loadAtStart = os.loadavg();
  const pgVersion = await withClient(CFG.pgAdminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${CFG.dbName} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${CFG.dbName}`);
    return (await c.query('SHOW server_version')).rows[0].server_version as string;
  });
  let servers: ServerProc[] = [];
  try {
    servers = await startServers(url);
    const t = await throughput(url, servers);
    for (const r of t.rounds)
      log(`complete-task, ${r.label}: ${r.perS.toFixed(0)}/s (p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms)`);
    log(`instances lost ${t.lost}, failures ${t.failures.length}, final tasks ${t.finals} of ${t.docs}`);
    if (process.env.BENCH_FLOW_ONLY === 'complete') return;
    const fill = await fillTasks(url);
    const todo = await todoLatency(url, servers[0]);
    log(
      `todo-list: p99 ${todo.steady.p99} ms at ${TODO_RATE} req/s, ${todo.saturated.p99} ms at ${todo.saturated.rps.toFixed(0)} req/s with 10 connections (SQL ${todo.sqlMs.toFixed(3)} ms)`,
    );

    let commit = '';
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      commit = 'unknown';
    }
    const report = new Report();
    report.h(1, 'Workflow benchmark');
    report.p(
      `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC at commit ${commit}. Machine: ${machine()}, PostgreSQL ${pgVersion} on loopback. ` +
        `Load average (1 / 5 / 15 min) at the start: ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')}. ` +
        'Two server processes (`node dist/server/server/main.js`, pool 10 each), the load generator and PostgreSQL share the machine; ' +
        '"other" CPU below is everything else running on it meanwhile.',
    );
    report.h(2, '1. complete-task throughput (two server processes)');
    report.p(
      `${int(t.docs)} material demands submitted through HTTP (${t.submitS.toFixed(1)} s, ${int(t.docs / t.submitS)}/s), each starting a model with two parallel reviews and a final approval. ` +
        `Then the project manager completed finance reviews through process A while the cost manager completed legal reviews through process B, ${CFG.concurrency} requests in flight each: ` +
        'for half of the instances in the same order (the two processes race on every instance; the join needs both), for the other half in opposite orders.',
    );
    report.p(
      table(
        ['round', 'completes', 'seconds', 'completes/s', 'p50 ms', 'p99 ms', 'max ms', 'CPU bench / postgres / other'],
        t.rounds.map((r) => [
          r.label,
          int(r.completes),
          r.seconds.toFixed(1),
          int(r.perS),
          ms(r.p50),
          ms(r.p99),
          ms(r.max),
          r.cpu ? `${pct(r.cpu.bench)} / ${pct(r.cpu.postgres)} / ${pct(r.cpu.other)}` : '—',
        ]),
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    const slowest = Math.min(...t.rounds.map((r) => r.perS));
    report.p(
      `Failed requests: ${t.failures.length}. Instances lost (both reviews done, final task never created): ${t.lost}; final tasks created: ${int(t.finals)} of ${int(t.docs)}. ` +
        `Target ≥ ${TARGETS.completesPerS}/s: ${slowest >= TARGETS.completesPerS ? 'met' : 'missed'} (slowest round ${int(slowest)}/s). ` +
        'Every complete is one transaction: the instance state version-checked (retried on conflict), tasks, history, the document status and the approval message.',
    );
    report.h(2, '2. todo-list latency on 1,000,000 tasks');
    report.p(
      `${int(CFG.tasks)} tasks (a quarter open) of ${int(Math.ceil(CFG.tasks / 5))} instances for ${int(CFG.users)} users, inserted by SQL in ${fill.seconds.toFixed(0)} s; ` +
        `each user has ${int(todo.total)} open tasks. autocannon, 10 connections, ${CFG.durationS} s each after ${CFG.warmupS} s warm-up, 100 users in turn, pages 1–3 of 10.`,
    );
    const todoRow = (label: string, r: typeof todo.steady) => [
      label,
      int(r.rps),
      ms(r.p50, 0),
      ms(r.p90, 0),
      ms(r.p99, 0),
      ms(r.max, 0),
      r.errors,
      r.cpu ? `${pct(r.cpu.bench)} / ${pct(r.cpu.postgres)} / ${pct(r.cpu.other)}` : '—',
    ];
    report.p(
      table(
        ['load', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'CPU bench / postgres / other'],
        [todoRow(`steady ${TODO_RATE} req/s`, todo.steady), todoRow('saturated (10 connections)', todo.saturated)],
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    report.p(`The page query itself (EXPLAIN ANALYZE, index on open tasks by assignee): ${todo.sqlMs.toFixed(3)} ms.`);
    report.p(`Target p99 ≤ ${TARGETS.todoP99} ms (at the steady rate): ${todo.steady.p99 <= TARGETS.todoP99 ? 'met' : 'missed'}.`);
    if (t.failures.length) report.p(`Failures (first 5): ${t.failures.slice(0, 5).join('; ')}`);
    writeFileSync(RESULTS_FILE, report.toString());
    console.log(report.toString());
    const bad = t.failures.length > 0 || t.lost > 0 || t.finals !== t.docs || todo.steady.errors > 0 || todo.saturated.errors > 0;
    process.exitCode = bad ? 1 : 0;
  } finally {
    await stopAll();
    agent.destroy();
    if (!CFG.keep)
      await withClient(CFG.pgAdminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${CFG.dbName} WITH (FORCE)`)).catch(() => undefined);
    clearTimeout(watchdog);
  }
}

process.on('SIGINT', () => {
  killAllNow();
  process.exit(130);
});

main().catch((err) => {
  console.error(err);
  killAllNow();
  process.exit(1);
});
