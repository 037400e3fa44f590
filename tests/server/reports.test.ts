// Reports (/api/blade-report/report/rest): saved definitions checked against the schema model, runs
// that sum groups exactly, stay inside the caller's tenant and grants; and deletes through the
// modules' own remove routes audited like the generic ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { project } from './fixtures.ts';

const BASE = '/api/blade-report/report/rest';

describe.each(databaseKinds())('reports on %s', (kind) => {
  let server: TestServer;
  let tenant: { tenantId: string; token: string };
  let api: Api;

  // a fresh tenant: its projects are only the ones made here
  const costs = { building: [100.1, 200.2, 0.35], municipal: [50.05] };
  const byType = { columns: ['name', 'projectType', 'targetCost'], groupBy: ['projectType'], sums: ['targetCost'] };

  beforeAll(async () => {
    server = await startServer(kind);
    tenant = await server.newTenant('报表租户');
    api = client(server, tenant.token);
    for (const [projectType, amounts] of Object.entries(costs)) {
      for (const targetCost of amounts) await project(api, { projectType, targetCost });
    }
    await project(api, { projectType: 'building', targetCost: 999, projectStatus: 'completed' });
    // a new tenant (its dictionaries, roles, menus) and six projects: slow on a loaded machine
  }, 300_000);
  afterAll(() => server?.dispose());

  const save = (definition: unknown, name = `按类别汇总${Math.random()}`, caller = api, entityKey = 'project') =>
    caller.post(`${BASE}/submit`, { name, entityKey, definition });

  it('sums each group exactly, and the groups add up to the rows and the total', async () => {
    const saved = await save({ ...byType, filter: { projectStatus: { _eq: 'constructing' } } });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    const run = await api.get(`${BASE}/run`, { id: saved.body.data.id, size: '2' });
    expect(run.body.code).toBe(200);
    const { groups, totals, records, total, pages } = run.body.data;
    expect(total).toBe(4);
    expect(pages).toBe(2);
    expect(records).toHaveLength(2);
    expect(totals).toEqual({ count: 4, targetCost: 350.7 });
    expect(groups.map((g: any) => [g.count, g.targetCost])).toEqual(
      expect.arrayContaining([
        [3, 300.65],
        [1, 50.05],
      ]),
    );
    expect(groups).toHaveLength(2);

    // the same sum computed from every row of the run
    const rows = (await api.get(`${BASE}/run`, { id: saved.body.data.id, size: '500' })).body.data.records;
    const building = groups.find((g: any) => g.count === 3).projectType;
    const fromRows = rows.filter((r: any) => r.projectType === building).reduce((s: number, r: any) => s + r.targetCost * 100, 0) / 100;
    expect(fromRows).toBe(300.65);
    // dictionary values come as their labels, rows in group order
    expect(building).not.toBe('building');
    const blocks = rows.map((r: any) => r.projectType).filter((v: string, i: number, all: string[]) => v !== all[i - 1]);
    expect(blocks).toHaveLength(2);
  });

  it('filters by a value as its field holds it: an amount as a number, an empty field as none of the values, a value no field can hold finding nothing', async () => {
    const preview = (filter: unknown) =>
      api.post(`${BASE}/preview`, { entityKey: 'project', definition: { columns: ['name', 'targetCost'], sums: ['targetCost'], filter } });
    // 999 is stored as 999.0000: equal as a number, not as text
    expect((await preview({ targetCost: { _eq: 999 } })).body.data.totals).toEqual({ count: 1, targetCost: 999 });
    expect((await preview({ targetCost: { _neq: '999.0' } })).body.data.totals).toEqual({ count: 4, targetCost: 350.7 });
    // an empty field is not the value, and none of the values, alike
    const notX = (await preview({ shortName: { _neq: 'x' } })).body.data.totals;
    expect(notX.count).toBe(5);
    expect((await preview({ shortName: { _nin: ['x', 'y'] } })).body.data.totals).toEqual(notX);
    for (const filter of [{ targetCost: { _gt: 'abc' } }, { targetCost: { _eq: '九百' } }]) {
      const answer = await preview(filter);
      expect(answer.body.code, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data.totals).toEqual({ count: 0, targetCost: null });
    }
  });

  it('previews an unsaved definition and exports a saved one as .xlsx with subtotals', async () => {
    const preview = await api.post(`${BASE}/preview`, {
      entityKey: 'project',
      definition: { columns: ['name', 'targetCost'], sums: ['targetCost'], filter: { targetCost: { _gt: 100 } } },
    });
    expect(preview.body.data.totals).toEqual({ count: 3, targetCost: 1299.3 });

    const saved = await save({ ...byType, filter: { projectStatus: { _eq: 'constructing' } } }, '项目成本汇总');
    const file = await api.get(`${BASE}/export`, { id: saved.body.data.id });
    expect(file.status).toBe(200);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
    const { default: Excel } = await import('exceljs');
    const book = new Excel.Workbook();
    await book.xlsx.load(file.raw as any);
    const values = book.worksheets[0].getSheetValues().flat().map(String);
    expect(values).toEqual(expect.arrayContaining(['小计 (3)', '300.65', '合计 (4)', '350.7']));
  });

  it('refuses a field that is not in the schema, naming it, and stores nothing', async () => {
    const before = (await api.get(`${BASE}/list`)).body.data.total;
    const res = await save({ columns: ['name', 'nmae'], sums: ['projectType'] });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('nmae');
    expect(res.body.data.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/definition/columns/1' }),
        expect.objectContaining({ path: '/definition/sums/0', message: '工程类别不是数值字段,不能求和' }),
      ]),
    );
    const en = await client(server, tenant.token, 'en').post(`${BASE}/preview`, {
      entityKey: 'project',
      definition: { columns: ['name'], filter: { _or: [{ password: { _eq: 'x' } }] } },
    });
    expect(en.status).toBe(400);
    expect(en.body.msg).toBe('Project has no field password a report may use');
    expect((await save({ columns: ['name'] }, 'x', api, 'noSuchEntity')).body.data.errors[0].path).toBe('/entityKey');
    expect((await api.get(`${BASE}/list`)).body.data.total).toBe(before);
  });

  it("sees nothing of another tenant's data, and not its reports", async () => {
    const theirs = (await save(byType)).body.data.id;
    const platform = client(server, await server.token());
    const other = await server.newTenant('另一报表租户');
    const otherApi = client(server, other.token);
    const ownRun = await otherApi.post(`${BASE}/preview`, { entityKey: 'project', definition: byType });
    expect(ownRun.body.data.total).toBe(0);
    expect(ownRun.body.data.totals).toEqual({ count: 0, targetCost: null });
    expect((await otherApi.get(`${BASE}/run`, { id: theirs })).status).toBe(404);
    expect((await otherApi.get(`${BASE}/export`, { id: theirs })).status).toBe(404);
    const removal = await otherApi.post(`${BASE}/remove`, undefined, { ids: theirs });
    expect(removal.status).toBe(404);
    // the platform's own run of the same definition reads the platform's projects only
    const platformRows = (
      await platform.post(`${BASE}/preview`, { entityKey: 'project', definition: { columns: ['name'] } }, { size: '500' })
    ).body.data.records;
    expect(platformRows.some((r: any) => String(r.name).includes('人才公寓') && r.targetCost === 100.1)).toBe(false);
  });

  it('refuses callers without the report menu', async () => {
    const saved = (await save(byType)).body.data.id;
    const [clerkRow] = await server.db.query(
      `SELECT u.id::text AS id, u.role_id AS "roleId" FROM blade_user u WHERE account = 'clerk' AND tenant_id = '000000'`,
    );
    const clerk = client(server, await server.token({ user_id: clerkRow.id, role_id: clerkRow.roleId, role_name: 'project_clerk' }));
    expect((await clerk.get(`${BASE}/list`)).status).toBe(403);
    expect((await clerk.post(`${BASE}/preview`, { entityKey: 'project', definition: byType })).status).toBe(403);
    expect((await clerk.get(`${BASE}/run`, { id: saved })).status).toBe(403);
    expect((await client(server).get(`${BASE}/list`)).status).toBe(401);
  });

  it('audits deletes through module routes: a user and a message show in the usual log', async () => {
    const platform = client(server, await server.token());
    const roleId = (
      await server.db.query(`SELECT id::text AS id FROM blade_role WHERE role_alias = 'project_clerk' AND tenant_id = '000000'`)
    )[0].id;
    const user = await platform.post('/api/blade-system/user/save', {
      account: 'leaving',
      password: 'leaving-pass',
      name: '离职',
      realName: '离职人员',
      roleId,
      status: 1,
    });
    expect((await platform.post('/api/blade-system/user/remove', undefined, { ids: user.body.data.id })).body.code).toBe(200);
    const message = await platform.post('/api/blade-message/message/save', {
      type: '1',
      receiverIds: (await server.db.query(`SELECT id::text AS id FROM blade_user WHERE account = 'clerk' AND tenant_id = '000000'`))[0].id,
      title: '撤回测试',
      content: '稍后撤回',
    });
    expect(message.body.code, JSON.stringify(message.body)).toBe(200);
    expect((await platform.post('/api/blade-message/message/remove', undefined, { ids: message.body.data.id })).body.code).toBe(200);
    // a refused removal is not a delete
    await platform.post('/api/blade-system/user/remove', undefined, { ids: 'abc' });
    await server.logs.flush();
    const deletes = (await platform.get('/api/blade-log/usual/list', { event: 'delete', size: '100' })).body.data.records.map(
      (r: any) => r.subject,
    );
    expect(deletes).toEqual(expect.arrayContaining([`user ${user.body.data.id}`, `message ${message.body.data.id}`]));
    expect(deletes.filter((s: string) => s.startsWith('user'))).toHaveLength(1);
  });
});
