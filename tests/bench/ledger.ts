// Ledger posting under volume (issue #9's benchmark: a 200-line receipt posts in ≤ 200 ms). One
// project, one warehouse, 200 goods; receipts of 200 lines are saved and submitted through the API,
// then approved by the project manager (in-process, app.inject). Measured: the ledger's own work in
// the approval transaction (the materialCheck afterStatus hook: read the check, lock, closed-month
// check, one INSERT of 200 entries) and the whole approving request around it.
// Run: npx tsx tests/bench/ledger.ts   Knobs: BENCH_LEDGER_RECEIPTS (default 20), BENCH_PG_URL.
// Writes tests/bench/ledger-results.md.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp, type App } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import type { EntityHooks } from '../../src/server/db/store.ts';
import { testConfig } from '../server/config.ts';
import { num } from './env.ts';
import { ms, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const RECEIPTS = num('BENCH_LEDGER_RECEIPTS', 20);
const LINES = 200;
const FLOW = '/api/blade-flow';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** app.inject with a token, as the server tests' client does. */
function api(app: App, token: string) {
  const call = async (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => {
    const res = await app.app.inject({
      method,
      url,
      query,
      payload: body as object | undefined,
      headers: { 'blade-auth': `bearer ${token}` },
    });
    return { body: JSON.parse(res.body) };
  };
  return {
    get: (url: string, query: Record<string, string> = {}) => call('GET', url, undefined, query),
    post: (url: string, body?: unknown, query?: Record<string, string>) => call('POST', url, body, query),
  };
}

function data(res: { body: any }) {
  if (res.body?.code !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)];

async function measure(kind: string, db: Db) {
  const server = await createApp(testConfig({ demo: 'off' }), { db, logger: false });
  try {
    const admin = api(
      server,
      await server.tokens.sign({
        tenant_id: '000000',
        user_id: '1123598821738675201',
        dept_id: '1123598813738675201',
        role_name: 'administrator',
      }),
    );
    const [pm] = await server.db.query<{ id: string; deptId: string; roleId: string }>(
      `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE account = 'manager' AND tenant_id = '000000'`,
    );
    const manager = api(
      server,
      await server.tokens.sign({
        tenant_id: '000000',
        user_id: pm.id,
        dept_id: pm.deptId,
        role_id: pm.roleId,
        role_name: 'project_manager',
      }),
    );
    const owner = data(
      await admin.post('/api/construct/partyA/save', {
        name: '基准甲方',
        partyAType: 'soe',
        contactName: '王经理',
        contactPhone: '13800000000',
        status: 'enabled',
      }),
    );
    const project = data(
      await admin.post('/api/construct/project/save', {
        name: '基准项目 台账',
        projectType: 'building',
        partyAId: owner.id,
        targetCost: 1e8,
        plannedStartDate: '2026-03-01',
        plannedEndDate: '2027-12-31',
        projectManagerName: '李建国',
        projectStatus: 'constructing',
      }),
    );
    const store = data(await admin.post('/api/construct/warehouse/save', { projectId: project.id, name: '基准仓库', status: 'enabled' }));
    const classify = data(
      await admin.post('/api/construct/goodsClassify/save', {
        parentId: '0',
        code: 'BENCH',
        name: '基准分类',
        goodsType: 'main',
        status: 'enabled',
      }),
    );
    const goods: string[] = [];
    for (let i = 0; i < LINES; i++) {
      goods.push(
        data(
          await admin.post('/api/construct/goodsArchives/save', {
            code: `BW${i}`,
            name: `基准物资${i}`,
            spec: `规格${i}`,
            unit: 't',
            classifyId: classify.id,
            goodsType: 'main',
            isTurnover: false,
            status: 'enabled',
          }),
        ).id,
      );
    }
    // time the ledger's hook inside the approval transaction
    const hooks = server.ctx.hooks as Record<string, EntityHooks>;
    const own = hooks.materialCheck.afterStatus!;
    const hookTimes: number[] = [];
    hooks.materialCheck = {
      ...hooks.materialCheck,
      afterStatus: async (event) => {
        const start = performance.now();
        await own(event);
        if (event.status === 'approved') hookTimes.push(performance.now() - start);
      },
    };
    const requestTimes: number[] = [];
    for (let r = 0; r < RECEIPTS; r++) {
      const check = data(
        await admin.post('/api/construct/materialCheck/save', {
          projectId: project.id,
          warehouseId: store.id,
          checkDate: '2026-06-15',
          materialSource: 'self_purchase',
          inspectorName: '基准',
          // 1 元 lines stay under the cost manager's threshold: the manager's approval ends the process
          details: goods.map((goodsId, i) => ({
            goodsId,
            deliveredQty: 1 + (i % 7),
            acceptedQty: 1 + (i % 7),
            priceInclTax: 0.01,
            taxRate: 13,
          })),
        }),
      );
      const submitted = data(await admin.post('/api/construct/materialCheck/submit', { id: check.id }));
      const [task] = data(await manager.get(`${FLOW}/work/claim-list`, { size: '100' })).records.filter(
        (t: any) => t.processInstanceId === submitted.processInstanceId,
      );
      data(await manager.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
      const start = performance.now();
      data(await manager.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '同意' }));
      requestTimes.push(performance.now() - start);
    }
    const [{ n }] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM material_ledger WHERE project_id = $1', [
      project.id,
    ]);
    if (n !== RECEIPTS * LINES) throw new Error(`expected ${RECEIPTS * LINES} ledger rows, found ${n}`);
    return [
      kind,
      String(RECEIPTS),
      ms(quantile(hookTimes, 0.5)),
      ms(quantile(hookTimes, 0.99)),
      ms(quantile(requestTimes, 0.5)),
      ms(quantile(requestTimes, 0.99)),
    ];
  } finally {
    await server.close();
  }
}

const rows: string[][] = [];
const name = `zs_bench_ledger_${randomBytes(4).toString('hex')}`;
const pgAdmin = new pg.Client({ connectionString: PG_URL });
await pgAdmin.connect();
await pgAdmin.query(`CREATE DATABASE ${name}`);
const url = new URL(PG_URL);
url.pathname = `/${name}`;
const pgDb = await openPostgres(url.toString(), { max: 5 });
try {
  rows.push(await measure('postgres', pgDb));
} finally {
  await pgDb.close();
  await pgAdmin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await pgAdmin.end();
}
const pglite = await openPglite(undefined);
rows.push(await measure('pglite', pglite));
await pglite.close();
const report = [
  '# Ledger posting: a 200-line receipt',
  '',
  `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), shared with other work; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}.`,
  '',
  table(['database', 'receipts', 'approval hooks p50', 'approval hooks p99', 'approving request p50', 'approving request p99'], rows),
  '',
].join('\n');
writeFileSync(join(HERE, 'ledger-results.md'), report);
console.log(report);
