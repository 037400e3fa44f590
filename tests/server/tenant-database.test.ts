// Tenants on their own databases (tenant/datasource): a tenant bound to a data source has its
// documents created, read and written there, the others stay on the main database and see none of
// them; a move between databases under a stream of saves loses none of them; the refusals say why.
// Binding needs a PostgreSQL main database: that part runs on the test PostgreSQL server always
// (TEST_DATABASE_URL, else 127.0.0.1:5432), on throwaway databases created and dropped here; on
// the embedded database the refusal is checked.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { ok } from './approval.ts';
import { countConnections, OUTSIDE_HOST } from '../support/listener.ts';
import { testConfig } from './config.ts';
import { demand, demandRow, expenseContract, goods, project, supplier } from './fixtures.ts';
import { client, startServer, type Api, type TestServer } from './harness.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONTRACTS = '/api/construct/expenditureContract';
const BIND = '/api/blade-system/tenant/datasource';

async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

function urlOf(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const names = ['main', 'a', 'b'].map((n) => `zs_t_${n}_${randomBytes(4).toString('hex')}`);
const [MAIN, DB_A, DB_B] = names;

describe('tenants on their own databases (PostgreSQL)', () => {
  let server: App;
  /** A second process on the same main database: it learns of moves through NOTIFY. */
  let second: App;
  let platform: Api;
  let tenant: { tenantId: string; token: string; api: Api };
  let neighbour: { tenantId: string; token: string; api: Api };
  let databases: Record<string, Db>;
  let sourceA: string;
  let sourceB: string;
  let firstContract: any;

  async function newTenant(name: string) {
    const created = ok(await platform.post('/api/blade-system/tenant/save', { tenantName: name, linkman: '测试', accountNumber: -1 }));
    const [u] = await server.db.query(
      `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
      [created.tenantId],
    );
    const token = await server.tokens.sign({
      tenant_id: created.tenantId,
      user_id: u.id,
      dept_id: u.deptId,
      role_id: u.roleId,
      role_name: 'admin',
    });
    return { tenantId: created.tenantId as string, token, api: client(server as TestServer, token) };
  }

  const contractsOn = async (db: Db, tenantId: string) => {
    const [row] = await db.query(
      `SELECT count(*)::int AS n, (SELECT count(*)::int FROM construct_expenditure_contract_material WHERE tenant_id = $1) AS lines
         FROM construct_expenditure_contract WHERE tenant_id = $1`,
      [tenantId],
    );
    return row as { n: number; lines: number };
  };

  beforeAll(async () => {
    await admin(async (c) => {
      for (const name of names) await c.query(`CREATE DATABASE ${name}`);
    });
    const main = await openPostgres(urlOf(MAIN), { max: 8 });
    server = await createApp(testConfig(), { db: main, logger: false });
    second = await createApp(testConfig(), { db: await openPostgres(urlOf(MAIN), { max: 4 }), logger: false });
    databases = { a: await openPostgres(urlOf(DB_A), { max: 2 }), b: await openPostgres(urlOf(DB_B), { max: 2 }) };
    platform = client(
      server as TestServer,
      await server.tokens.sign({
        tenant_id: '000000',
        user_id: '1123598821738675201',
        dept_id: '1123598813738675201',
        role_name: 'administrator',
      }),
    );
    tenant = await newTenant('独立库公司');
    neighbour = await newTenant('主库公司');
    const user = new URL(ADMIN_URL).username;
    sourceA = ok(
      await platform.post('/api/blade-develop/datasource/save', { name: '租户库A', url: `postgres://${user}@127.0.0.1:5432/${DB_A}` }),
    ).id;
    sourceB = ok(
      await platform.post('/api/blade-develop/datasource/save', { name: '租户库B', url: `postgres://${user}@127.0.0.1:5432/${DB_B}` }),
    ).id;
    const site = await project(tenant.api);
    const vendor = await supplier(tenant.api);
    firstContract = await expenseContract(tenant.api, site.id, vendor.id, [
      { itemName: '螺纹钢', spec: 'HRB400 Φ25', unit: 't', quantity: 120, priceInclTax: 4150 },
      { itemName: '盘螺', spec: 'HRB400 Φ8', unit: 't', quantity: 30.5, priceInclTax: 4300 },
    ]);
  }, 300_000);

  afterAll(async () => {
    for (const app of [second, server]) {
      await app?.close();
      await app?.db.close();
    }
    for (const db of Object.values(databases ?? {})) await db.close();
    await admin(async (c) => {
      for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  });

  it('refuses a caller other than the platform administrator, a host outside the allow-list and an unknown data source, moving nothing', async () => {
    const notAdmin = await tenant.api.post(BIND, undefined, { tenantId: tenant.tenantId, datasourceId: sourceA });
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.msg).toContain('平台管理员');
    // a listener on a loopback address the allow-list leaves out: it would see an attempt
    const outside = await countConnections();
    const far = ok(
      await platform.post('/api/blade-develop/datasource/save', {
        name: '外部库',
        url: `postgres://u:p@${OUTSIDE_HOST}:${outside.port}/far`,
      }),
    ).id;
    const refused = await client(
      server as TestServer,
      await server.tokens.sign({
        tenant_id: '000000',
        user_id: '1123598821738675201',
        dept_id: '1123598813738675201',
        role_name: 'administrator',
      }),
      'en',
    ).post(BIND, undefined, { tenantId: tenant.tenantId, datasourceId: far });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('no connection was attempted');
    expect(outside.connections()).toBe(0);
    await outside.close();
    const unknown = await platform.post(BIND, undefined, { tenantId: tenant.tenantId, datasourceId: '9999999999' });
    expect(unknown.status).toBe(404);
    expect(await contractsOn(server.db, tenant.tenantId)).toEqual({ n: 1, lines: 2 });
  });

  it('binds a tenant: its documents move to its database, the API serves them there, a neighbour on the main database sees none', async () => {
    ok(await platform.post(BIND, undefined, { tenantId: tenant.tenantId, datasourceId: sourceA }));
    expect(await contractsOn(databases.a, tenant.tenantId)).toEqual({ n: 1, lines: 2 });
    expect(await contractsOn(server.db, tenant.tenantId)).toEqual({ n: 0, lines: 0 });
    const [bound] = await server.db.query('SELECT datasource_id::text AS id FROM blade_tenant WHERE tenant_id = $1', [tenant.tenantId]);
    expect(bound.id).toBe(sourceA);

    const detail = ok(await tenant.api.get(`${CONTRACTS}/detail`, { id: firstContract.id }));
    expect(detail.code).toBe(firstContract.code);
    expect(detail.details).toHaveLength(2);
    expect(ok(await tenant.api.get(`${CONTRACTS}/list`)).total).toBe(1);
    const second = await expenseContract(
      tenant.api,
      firstContract.projectId,
      firstContract.subcontractorId,
      [{ itemName: '型钢', spec: 'H300', unit: 't', quantity: 10, priceInclTax: 5000 }],
      { name: '型钢采购合同' },
    );
    expect(second.code).not.toBe(firstContract.code); // the numbering continues on the tenant's database
    expect(await contractsOn(databases.a, tenant.tenantId)).toEqual({ n: 2, lines: 3 });
    expect(await contractsOn(server.db, tenant.tenantId)).toEqual({ n: 0, lines: 0 });

    // the neighbour stays on the main database and sees nothing of the bound tenant, even by id
    expect(ok(await neighbour.api.get(`${CONTRACTS}/list`)).total).toBe(0);
    expect((await neighbour.api.get(`${CONTRACTS}/detail`, { id: firstContract.id })).status).toBe(404);
    const own = await project(neighbour.api);
    expect(await server.db.query('SELECT 1 FROM construct_project WHERE id = $1', [own.id])).toHaveLength(1);
    expect(await databases.a.query('SELECT 1 FROM construct_project WHERE tenant_id = $1', [neighbour.tenantId])).toHaveLength(0);
  });

  /** ok(), or the logged server error behind a 500. */
  async function done(res: { body: any }) {
    if (res.body?.code === 500) {
      await server.logs.flush();
      const [e] = await server.db.query('SELECT message, stack_trace AS stack FROM blade_log_error ORDER BY id DESC LIMIT 1');
      throw new Error(`${e?.message}\n${e?.stack}`);
    }
    return ok(res);
  }

  it("runs an approval of the bound tenant on its database: submit, the task in the approver's list with names, approve", async () => {
    const [pmRole] = await server.db.query(
      `SELECT id::text AS id FROM blade_role WHERE tenant_id = $1 AND role_alias = 'project_manager'`,
      [tenant.tenantId],
    );
    await done(
      await tenant.api.post('/api/blade-system/user/save', {
        account: 'pm',
        password: 'pm2pm2',
        name: '项目经理',
        realName: '赵经理',
        roleId: pmRole.id,
        status: 1,
      }),
    );
    const [pmUser] = await server.db.query(
      `SELECT id::text AS id, dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'pm'`,
      [tenant.tenantId],
    );
    const pm = client(
      server as TestServer,
      await server.tokens.sign({
        tenant_id: tenant.tenantId,
        user_id: pmUser.id,
        dept_id: pmUser.deptId,
        role_id: pmRole.id,
        role_name: 'project_manager',
      }),
    );

    const steel = await goods(tenant.api);
    const plan = await demand(tenant.api, firstContract.projectId, [demandRow(steel.id, 10, 100)], { title: '独立库审批' });
    const { processInstanceId } = await done(await tenant.api.post('/api/construct/materialTotalDemand/submit', { id: plan.id }));
    const [task] = (await done(await pm.get('/api/blade-flow/work/claim-list', { size: '50' }))).records.filter(
      (r: any) => r.processInstanceId === processInstanceId,
    );
    expect(task).toMatchObject({ businessTitle: '独立库审批' });
    expect(task.startUserName).toBeTruthy(); // the submitter's name, read from the main database
    await done(await pm.post('/api/blade-flow/work/claim-task', undefined, { taskId: task.taskId }));
    await done(await pm.post('/api/blade-flow/work/complete-task', { taskId: task.taskId, flag: 'ok', comment: '同意' }));
    const history = await done(await pm.get('/api/blade-flow/process/history-flow-list', { processInstanceId }));
    expect(history.map((h: any) => h.assigneeName)).toContain('赵经理');

    // the instance, its tasks and the document's status are on the tenant's database, none on the main one
    const [instance] = await databases.a.query('SELECT status FROM wf_instance WHERE id = $1', [processInstanceId]);
    expect(instance).toBeDefined();
    expect(
      await databases.a.query(`SELECT 1 FROM wf_task WHERE instance_id = $1 AND status = 'completed'`, [processInstanceId]),
    ).toHaveLength(1);
    expect(await server.db.query('SELECT 1 FROM wf_instance WHERE id = $1', [processInstanceId])).toHaveLength(0);
    const [doc] = await databases.a.query('SELECT approval_status AS s FROM construct_material_total_demand WHERE id = $1', [plan.id]);
    expect(doc.s).toBe(instance.status === 'completed' ? 'approved' : 'approving');
    // the approver's to-do message is platform data: on the main database
    expect(
      await server.db.query(`SELECT 1 FROM blade_message_receiver WHERE tenant_id = $1 AND user_id = $2`, [tenant.tenantId, pmUser.id]),
    ).not.toHaveLength(0);
  });

  it('moves the tenant to another database while saves keep coming: every acknowledged save is there, counts and sums match', async () => {
    const initial = ok(await tenant.api.get(`${CONTRACTS}/list`, { size: '1' })).total as number;
    // the second process has served the tenant from database A before the move
    const elsewhere = client(second as TestServer, tenant.token);
    expect(ok(await elsewhere.get(`${CONTRACTS}/list`, { size: '1' })).total).toBe(initial);
    const acknowledged: string[] = [];
    let quantities = 0;
    const refused: { status: number; msg: string }[] = [];
    let running = true;
    const saver = (async () => {
      for (let i = 0; running; i++) {
        const res = await tenant.api.post(`${CONTRACTS}/save`, {
          name: `滚动合同${i}`,
          projectId: firstContract.projectId,
          subcontractorId: firstContract.subcontractorId,
          expenditureContractType: 'material',
          pricingMode: 'fixed_unit_price',
          signDate: '2026-03-12',
          startDate: '2026-04-01',
          contractAmount: 0,
          taxRate: 13,
          performanceStatus: 'not_started',
          settlementStatus: 'none',
          details: [{ itemName: '螺纹钢', spec: 'HRB400', unit: 't', quantity: i + 1, priceInclTax: 4000, taxRate: 13 }],
        });
        if (res.body?.code === 200) {
          acknowledged.push(res.body.data.id);
          quantities += i + 1;
        } else {
          refused.push({ status: res.status, msg: res.body?.msg });
          if (res.status === 503) expect(res.headers['retry-after']).toBe('2');
        }
      }
    })();
    const until = async (count: number) => {
      while (acknowledged.length < count && refused.length < 1000) await new Promise((r) => setTimeout(r, 20));
    };
    await until(2);
    const before = acknowledged.length;
    ok(await platform.post(BIND, undefined, { tenantId: tenant.tenantId, datasourceId: sourceB }));
    const moved = acknowledged.length;
    await until(moved + 2);
    running = false;
    await saver;
    expect(before).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(before);
    // a write is refused only as "moving, retry" (503), never failed otherwise
    await server.logs.flush();
    const errors = await server.db.query('SELECT message, stack_trace AS stack FROM blade_log_error WHERE tenant_id = $1', [
      tenant.tenantId,
    ]);
    expect(
      refused.filter((r) => r.status !== 503),
      JSON.stringify(errors),
    ).toEqual([]);
    expect(refused.every((r) => r.msg.includes('迁移'))).toBe(true);
    const stored = await databases.b.query('SELECT id::text AS id FROM construct_expenditure_contract WHERE tenant_id = $1', [
      tenant.tenantId,
    ]);
    const ids = new Set(stored.map((r) => r.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    expect(ids.size).toBe(initial + acknowledged.length);
    expect(await contractsOn(databases.a, tenant.tenantId)).toEqual({ n: 0, lines: 0 });
    const [sums] = await databases.b.query(
      `SELECT count(*)::int AS n, sum(quantity)::text AS q FROM construct_expenditure_contract_material WHERE tenant_id = $1 AND expenditure_contract_id = ANY($2::bigint[])`,
      [tenant.tenantId, acknowledged],
    );
    expect({ n: sums.n, q: Number(sums.q) }).toEqual({ n: acknowledged.length, q: quantities });
    // the second process heard of the switch: it reads and writes the tenant on database B
    expect(ok(await elsewhere.get(`${CONTRACTS}/list`, { size: '1' })).total).toBe(ids.size);
    const there = ok(
      await elsewhere.post(`${CONTRACTS}/save`, {
        name: '另一进程的合同',
        projectId: firstContract.projectId,
        subcontractorId: firstContract.subcontractorId,
        expenditureContractType: 'material',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-03-12',
        startDate: '2026-04-01',
        contractAmount: 0,
        taxRate: 13,
        performanceStatus: 'not_started',
        settlementStatus: 'none',
        details: [],
      }),
    );
    expect(await databases.b.query('SELECT 1 FROM construct_expenditure_contract WHERE id = $1', [there.id])).toHaveLength(1);
    // the old database remembers the tenant left it: a process that has not heard yet is refused there
    expect(await databases.a.query('SELECT 1 FROM zs_tenant_moved WHERE tenant_id = $1', [tenant.tenantId])).toHaveLength(1);
  }, 120_000);

  it('moves the tenant back to the main database', async () => {
    const before = await contractsOn(databases.b, tenant.tenantId);
    ok(await platform.post(BIND, undefined, { tenantId: tenant.tenantId, datasourceId: '' }));
    expect(await contractsOn(server.db, tenant.tenantId)).toEqual(before);
    expect(await contractsOn(databases.b, tenant.tenantId)).toEqual({ n: 0, lines: 0 });
    expect(ok(await tenant.api.get(`${CONTRACTS}/list`)).total).toBe(before.n);
  });
});

describe('tenants on their own databases with the embedded main database', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer('pglite');
  }, 120_000);

  afterAll(async () => {
    await server?.dispose();
  });

  it("refuses a binding in the caller's language, saying the main database must be PostgreSQL, and keeps serving the tenant", async () => {
    const { tenantId, token } = await server.newTenant();
    const admin = client(server, await server.token(), 'en');
    const source = ok(
      await admin.post('/api/blade-develop/datasource/save', { name: 'tenant db', url: 'postgres://u:p@127.0.0.1:5432/tenant' }),
    ).id;
    const refused = await admin.post(BIND, undefined, { tenantId, datasourceId: source });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('PostgreSQL main database');
    expect((await client(server, await server.token()).post(BIND, undefined, { tenantId, datasourceId: source })).body.msg).toContain(
      '内嵌数据库不支持',
    );
    const site = await project(client(server, token));
    expect(await server.db.query('SELECT 1 FROM construct_project WHERE id = $1', [site.id])).toHaveLength(1);
  });
});
