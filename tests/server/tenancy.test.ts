// No request reads or writes another tenant's data: by id, by list, by update, by remove, by export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer } from './harness.ts';
import { count, demand, demandRow, goods, project } from './fixtures.ts';

describe.each(databaseKinds())('tenant isolation on %s', (kind) => {
  let server: TestServer;
  let mine: ReturnType<typeof client>;
  let theirs: ReturnType<typeof client>;
  let record: Record<string, any>;
  let doc: Record<string, any>;
  let mineTenant: { tenantId: string; adminId: string };

  beforeAll(async () => {
    server = await startServer(kind);
    const a = await server.newTenant('甲建设公司');
    const b = await server.newTenant('乙建设公司');
    mineTenant = a;
    mine = client(server, a.token);
    theirs = client(server, b.token);
    record = await project(mine, { name: '常州地铁上盖物业' });
    const item = await goods(mine);
    doc = await demand(mine, record.id, [demandRow(item.id, 10, 4000)]);
  });
  afterAll(() => server?.dispose());

  it("stamps records with the caller's tenant", () => {
    expect(record.tenantId).toBe(mineTenant.tenantId);
    expect(record.createUser).toBe(mineTenant.adminId);
  });

  it('another tenant gets "not found" by id', async () => {
    const res = await theirs.get('/api/construct/project/detail', { id: record.id });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, success: false, msg: '项目不存在' });
    expect((await theirs.get('/api/construct/materialTotalDemand/detail', { id: doc.id })).status).toBe(404);
  });

  it("another tenant's lists do not contain it, whatever the filter", async () => {
    expect(await count(theirs, '/api/construct/project/list')).toBe(0);
    expect(await count(theirs, '/api/construct/project/list', { id_equal: record.id })).toBe(0);
    expect(await count(theirs, '/api/construct/materialTotalDemand/list')).toBe(0);
    expect(await count(mine, '/api/construct/project/list', { id_equal: record.id })).toBe(1);
  });

  it('another tenant cannot update, partly update, remove or export it', async () => {
    const update = await theirs.post('/api/construct/project/update', { ...record, name: '被篡改' });
    expect(update.status).toBe(404);
    const part = await theirs.post('/api/construct/project/updatePart', { id: record.id, name: '被篡改' });
    expect(part.status).toBe(404);
    const submit = await theirs.post('/api/construct/project/submit', { ...record, name: '被篡改' });
    expect(submit.status).toBe(404);
    const remove = await theirs.post('/api/construct/project/remove', undefined, { ids: record.id });
    expect(remove.status).toBe(404);
    const exported = await theirs.get('/api/construct/project/export', { id: record.id });
    expect(exported.status).toBe(404);
    const rows = await theirs.post('/api/construct/materialTotalDemand/update', { ...doc, title: '被篡改' });
    expect(rows.status).toBe(404);

    const still = await mine.get('/api/construct/project/detail', { id: record.id });
    expect(still.body.data.name).toBe('常州地铁上盖物业');
    expect((await mine.get('/api/construct/materialTotalDemand/detail', { id: doc.id })).body.data.details).toHaveLength(1);
  });

  it('removing a mix of own and foreign ids removes nothing', async () => {
    const own = await project(theirs);
    const res = await theirs.post('/api/construct/project/remove', undefined, { ids: `${own.id},${record.id}` });
    expect(res.status).toBe(404);
    expect((await theirs.get('/api/construct/project/detail', { id: own.id })).status).toBe(200);
  });

  it("a tenant cannot take over another tenant's detail rows", async () => {
    const item = await goods(theirs);
    const p = await project(theirs);
    const own = await demand(theirs, p.id, [demandRow(item.id, 1, 1)]);
    const foreignRowId = doc.details[0].id;
    const res = await theirs.post('/api/construct/materialTotalDemand/update', {
      ...own,
      details: [{ ...own.details[0], id: foreignRowId }],
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/明细中的行不存在/);
    const original = await mine.get('/api/construct/materialTotalDemand/detail', { id: doc.id });
    expect(original.body.data.details[0].designQty).toBe(10);
  });

  it('platform-only entities are closed to other tenants; shared ones are read-only', async () => {
    expect((await theirs.get('/api/blade-system/tenant-package/list')).status).toBe(403);
    const write = await theirs.post('/api/blade-system/dict/save', {
      parentId: '0',
      code: 'x',
      dictKey: '-1',
      dictValue: 'x',
      sort: 1,
      isSealed: 0,
    });
    expect(write.status).toBe(403);
    expect(write.body.msg).toBe('仅平台管理租户可以修改系统字典');
    const read = await theirs.get('/api/blade-system/dict/dictionary', { code: 'sex' });
    expect(read.body.data).toHaveLength(2);
  });

  it('business dictionaries are per tenant', async () => {
    const added = await theirs.post('/api/blade-system/dict-biz/save', {
      parentId: '0',
      code: 'only_theirs',
      dictKey: '-1',
      dictValue: '他们的字典',
      sort: 99,
      isSealed: 0,
    });
    expect(added.body.code).toBe(200);
    expect(await count(theirs, '/api/blade-system/dict-biz/list', { code_equal: 'only_theirs' })).toBe(1);
    expect(await count(mine, '/api/blade-system/dict-biz/list', { code_equal: 'only_theirs' })).toBe(0);
  });
});
