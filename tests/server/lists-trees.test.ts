// Lists (filters with the platform's operator suffixes, sorting, paging, export), trees and the
// dictionary lookups.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { partyA, project } from './fixtures.ts';

const LIST = '/api/construct/project/list';

describe.each(databaseKinds())('lists and trees on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let tenantToken: string;

  beforeAll(async () => {
    server = await startServer(kind);
    tenantToken = (await server.newTenant()).token;
    api = client(server, tenantToken);
    const owner = await partyA(api);
    const names = ['无锡太湖新城A地块', '无锡惠山高铁站房', '扬州瘦西湖隧道', '徐州城东污水厂', '南通港闸大桥'];
    for (const [i, name] of names.entries()) {
      await project(api, {
        name,
        partyAId: owner.id,
        targetCost: (i + 1) * 1_000_000,
        projectType: i % 2 ? 'municipal' : 'building',
        plannedStartDate: `2026-0${i + 1}-01`,
      });
    }
  });
  afterAll(() => server?.dispose());

  const names = (res: { body: any }) => res.body.data.records.map((r: any) => r.name);

  it('filters with the platform operators', async () => {
    expect(names(await api.get(LIST, { name: '无锡', ascs: 'name' }))).toEqual(['无锡太湖新城A地块', '无锡惠山高铁站房']);
    expect(names(await api.get(LIST, { name_likeright: '扬州' }))).toEqual(['扬州瘦西湖隧道']);
    expect((await api.get(LIST, { projectType: 'municipal' })).body.data.total).toBe(2);
    expect((await api.get(LIST, { projectType_notequal: 'municipal' })).body.data.total).toBe(3);
    expect(names(await api.get(LIST, { targetCost_ge: '4000000', ascs: 'targetCost' }))).toEqual(['徐州城东污水厂', '南通港闸大桥']);
    expect((await api.get(LIST, { plannedStartDate_datelt: '2026-03-01' })).body.data.total).toBe(2);
    expect((await api.get(LIST, { actualEndDate_null: '' })).body.data.total).toBe(5);
    expect((await api.get(LIST, { name: '', shortName: '' })).body.data.total).toBe(5);
    expect((await api.get(LIST, { create_time_datege: '2000-01-01 00:00:00' })).body.data.total).toBe(5);
  });

  it('searches Latin text without regard to case, and Chinese text as it is', async () => {
    await partyA(api, { name: 'Jiangsu ABC Holdings' });
    const found = async (name: string) => (await api.get('/api/construct/partyA/list', { name })).body.data.records.map((r: any) => r.name);
    expect(await found('abc hold')).toEqual(['Jiangsu ABC Holdings']);
    expect(await found('ABC')).toEqual(['Jiangsu ABC Holdings']);
    expect(await found('城建投资')).toHaveLength(1);
  });

  it('answers picker options by keyword and list labels by ids', async () => {
    const picked = (await api.get('/api/construct/project/options', { keyword: '无锡' })).body.data;
    expect(picked.records.map((r: any) => r.label)).toEqual(['无锡太湖新城A地块', '无锡惠山高铁站房']);
    expect(picked.total).toBe(2);
    const ids = picked.records.map((r: any) => r.value);
    const byIds = (await api.get('/api/construct/project/options', { ids: ids.join(',') })).body.data.records;
    expect(byIds).toEqual(expect.arrayContaining(picked.records));
    const other = client(server, (await server.newTenant()).token);
    expect((await other.get('/api/construct/project/options', { ids: ids.join(',') })).body.data.records).toEqual([]);
    expect((await api.get('/api/construct/project/options', { keyword: '%' })).body.data.total).toBe(0);
  });

  it('narrows picker options with the list filters (cascading pickers)', async () => {
    const labels = async (params: Record<string, string>) =>
      (await api.get('/api/construct/project/options', params)).body.data.records.map((r: any) => r.label);
    expect(await labels({ keyword: '无锡', projectType: 'municipal' })).toEqual(['无锡惠山高铁站房']);
    expect((await labels({ projectType_notequal: 'municipal', plannedStartDate_datege: '2026-03-01' })).sort()).toEqual(
      ['扬州瘦西湖隧道', '南通港闸大桥'].sort(),
    );
    expect((await api.get('/api/construct/project/options', { projectType: 'municipal', size: '1' })).body.data).toMatchObject({
      total: 2,
      size: 1,
    });
    const refused = await api.get('/api/construct/project/options', { nosuchField: 'x' });
    expect(refused.status).toBe(400);
  });

  it('treats wildcard characters in a search as literal text', async () => {
    expect((await api.get(LIST, { name: '%' })).body.data.total).toBe(0);
    expect((await api.get(LIST, { name: '_' })).body.data.total).toBe(0);
  });

  it('sorts and pages', async () => {
    const first = await api.get(LIST, { descs: 'targetCost', size: '2', current: '1' });
    expect(first.body.data).toMatchObject({ total: 5, size: 2, current: 1, pages: 3 });
    expect(names(first)).toEqual(['南通港闸大桥', '徐州城东污水厂']);
    expect(names(await api.get(LIST, { descs: 'targetCost', size: '2', current: '3' }))).toEqual(['无锡太湖新城A地块']);
    expect((await api.get(LIST, { size: '2', current: '9' })).body.data.records).toEqual([]);
  });

  it('defaults to the newest first', async () => {
    expect(names(await api.get(LIST, { size: '1' }))).toEqual(['南通港闸大桥']);
  });

  it('serves deep pages (read through the list index first) in the same order as shallow ones', async () => {
    const [{ tenant_id: tenantId }] = await server.db.query(`SELECT tenant_id FROM construct_project WHERE name = '扬州瘦西湖隧道'`);
    await server.db.query(
      `INSERT INTO construct_party_a (id, tenant_id, name, status, create_time, update_time, is_deleted)
       SELECT 900000000 + g, $1, '批量甲方' || g, 'enabled', timestamp '2025-01-01' + g * interval '1 minute', now(), 0 FROM generate_series(1, 260) AS g`,
      [tenantId],
    );
    const expected = (
      await server.db.query(
        `SELECT p.id::text AS id FROM construct_party_a p WHERE p.tenant_id = $1 AND p.is_deleted = 0 ORDER BY p.id DESC`,
        [tenantId],
      )
    ).map((r) => r.id);
    const page = async (current: number) =>
      (await api.get('/api/construct/partyA/list', { current: String(current), size: '10', descs: 'id' })).body.data.records.map(
        (r: any) => r.id,
      );
    expect(await page(2)).toEqual(expected.slice(10, 20));
    expect(await page(21)).toEqual(expected.slice(200, 210));
    expect(await page(26)).toEqual(expected.slice(250, 260));
    const deep = (await api.get('/api/construct/partyA/list', { current: '21', size: '10', descs: 'id' })).body.data;
    expect(deep.records[0]).toMatchObject({ tenantId, status: 'enabled' });
  });

  it("indexes the search bar's contains-searches with trigrams", async () => {
    const rows = await server.db.query(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'construct_project' AND indexdef LIKE '%gin_trgm_ops%'`,
    );
    expect(rows.map((r) => r.indexdef).join(' ')).toMatch(/USING gin \(name gin_trgm_ops\) WHERE \(is_deleted = 0\)/);
  });

  it('exports the filtered list with labels', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/construct/project/export',
      query: { projectType: 'municipal' },
      headers: { 'blade-auth': `bearer ${tenantToken}` },
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as any);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['项目名称', '工程类别', '目标成本']));
    expect(sheet.rowCount).toBe(3);
    const header = sheet.getRow(1).values as unknown[];
    expect(sheet.getRow(2).getCell(header.indexOf('工程类别')).value).toBe('市政');
  });

  it('serves a classification tree, whole and lazily', async () => {
    const save = (body: Record<string, unknown>) =>
      api.post('/api/construct/goodsClassify/save', { goodsType: 'main', status: 'enabled', ...body }).then((r) => r.body.data);
    const steel = await save({ parentId: '0', code: '01', name: '钢材', sort: 1 });
    const rebar = await save({ parentId: steel.id, code: '0101', name: '螺纹钢', sort: 1 });
    await save({ parentId: rebar.id, code: '010101', name: 'HRB400', sort: 1 });
    await save({ parentId: '0', code: '02', name: '水泥', sort: 2 });

    const tree = (await api.get('/api/construct/goodsClassify/tree')).body.data;
    expect(tree.map((n: any) => n.title)).toEqual(['钢材', '水泥']);
    expect(tree[0]).toMatchObject({ key: steel.id, value: steel.id, hasChildren: true });
    expect(tree[0].children[0].children[0].title).toBe('HRB400');

    const roots = (await api.get('/api/construct/goodsClassify/lazy-list', { parentId: '0' })).body.data;
    expect(roots.map((r: any) => [r.name, r.hasChildren])).toEqual([
      ['钢材', true],
      ['水泥', false],
    ]);
    const level2 = (await api.get('/api/construct/goodsClassify/lazy-tree', { parentId: steel.id })).body.data;
    expect(level2).toEqual([expect.objectContaining({ title: '螺纹钢', hasChildren: true, parentId: steel.id })]);

    const refused = await api.post('/api/construct/goodsClassify/remove', undefined, { ids: steel.id });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('物资分类下还有子节点,不能删除');

    const cycle = await api.post('/api/construct/goodsClassify/updatePart', { id: steel.id, parentId: rebar.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.msg).toMatch(/不能是自身或其下级/);
  });

  it("looks up dictionaries in the caller's language", async () => {
    const zh = (await api.get('/api/blade-system/dict-biz/dictionary', { code: 'project_type' })).body.data;
    expect(zh[0]).toMatchObject({ dictKey: 'building', dictValue: '房屋建筑' });
    const en = (await client(server, tenantToken, 'en').get('/api/blade-system/dict-biz/dictionary', { code: 'project_type' })).body.data;
    expect(en[0].dictValue).toBe('Building');
    const yesNo = (await api.get('/api/blade-system/dict/dictionary', { code: 'yes_no' })).body.data;
    expect(yesNo.map((d: any) => [d.dictKey, d.dictValue])).toEqual([
      ['1', '否'],
      ['2', '是'],
    ]);
    const parents = (await api.get('/api/blade-system/dict/parent-list', { size: '100' })).body.data;
    expect(parents.records.map((r: any) => r.code)).toContain('sex');
    const sex = parents.records.find((r: any) => r.code === 'sex');
    const children = (await api.get('/api/blade-system/dict/child-list', { parentId: sex.id })).body.data.records;
    expect(children.map((c: any) => c.dictValue)).toEqual(['男', '女']);
  });

  it('hides sealed dictionary items from lookups but keeps them in the admin list', async () => {
    const platform = client(server, await server.token());
    const parents = (await platform.get('/api/blade-system/dict/parent-list', { code: 'sex' })).body.data.records;
    const sex = parents[0];
    const [male] = (await platform.get('/api/blade-system/dict/child-list', { parentId: sex.id })).body.data.records;
    await platform.post('/api/blade-system/dict/updatePart', { id: male.id, isSealed: 1 });
    expect((await api.get('/api/blade-system/dict/dictionary', { code: 'sex' })).body.data.map((d: any) => d.dictValue)).toEqual(['女']);
    expect((await platform.get('/api/blade-system/dict/child-list', { parentId: sex.id })).body.data.total).toBe(2);
    await platform.post('/api/blade-system/dict/updatePart', { id: male.id, isSealed: 0 });
  });

  it('requires the dictionary key of an item, not of a dictionary root', async () => {
    const platform = client(server, await server.token());
    const root = await platform.post('/api/blade-system/dict/save', {
      parentId: '0',
      code: 'test_root',
      dictValue: '测试',
      sort: 1,
      isSealed: 0,
    });
    expect(root.body.code).toBe(200);
    const item = await platform.post('/api/blade-system/dict/save', {
      parentId: root.body.data.id,
      code: 'test_root',
      dictValue: '项',
      sort: 1,
      isSealed: 0,
    });
    expect(item.status).toBe(400);
    expect(item.body.msg).toBe('字典键值不能为空');
  });

  it('refuses a second dictionary with a code, and a second item with a key under one dictionary, changing nothing (issue #25)', async () => {
    // the tenant's business dictionary already has 'project_type' (seeded with the tenant)
    const before = (await api.get('/api/blade-system/dict-biz/parent-list', { code: 'project_type', size: '100' })).body.data.total;
    const again = await api.post('/api/blade-system/dict-biz/save', {
      parentId: '0',
      code: 'project_type',
      dictValue: '项目类型',
      sort: 1,
      isSealed: 0,
    });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('字典编号 project_type 已存在');
    expect((await api.get('/api/blade-system/dict-biz/parent-list', { code: 'project_type', size: '100' })).body.data.total).toBe(before);

    const [root] = (await api.get('/api/blade-system/dict-biz/parent-list', { code: 'project_type', size: '100' })).body.data.records;
    const item = { parentId: root.id, code: 'project_type', dictKey: 'building', dictValue: '房建', sort: 9, isSealed: 0 };
    const twice = await client(server, tenantToken, 'en').post('/api/blade-system/dict-biz/save', item);
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe('Dictionary key building already exists');
    // another key is taken, and the same key under another dictionary is no clash
    expect((await api.post('/api/blade-system/dict-biz/save', { ...item, dictKey: 'housing' })).body.code).toBe(200);
    const other = await api.post('/api/blade-system/dict-biz/save', {
      parentId: '0',
      code: 'site_kind',
      dictValue: '场地类型',
      sort: 1,
      isSealed: 0,
    });
    expect(other.body.code).toBe(200);
    expect(
      (await api.post('/api/blade-system/dict-biz/save', { ...item, parentId: other.body.data.id, code: 'site_kind' })).body.code,
    ).toBe(200);
    // a dictionary saved again as it is (its edit form) is no clash with itself
    const detail = (await api.get('/api/blade-system/dict-biz/detail', { id: root.id })).body.data;
    expect((await api.post('/api/blade-system/dict-biz/update', detail)).body.code).toBe(200);
    // the platform's system dictionary likewise
    const platform = client(server, await server.token());
    expect(
      (await platform.post('/api/blade-system/dict/save', { parentId: '0', code: 'sex', dictValue: '性别', sort: 1, isSealed: 0 })).body
        .msg,
    ).toBe('字典编号 sex 已存在');
  });

  it('keeps one of two saves of a new dictionary code made at once, and refuses the other on its code', async () => {
    const save = () =>
      api.post('/api/blade-system/dict-biz/save', { parentId: '0', code: 'pour_method', dictValue: '浇筑方式', sort: 1, isSealed: 0 });
    const answers = await Promise.all([save(), save(), save()]);
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 400, 400]);
    for (const refused of answers.filter((a) => a.body.code === 400)) expect(refused.body.msg).toBe('字典编号 pour_method 已存在');
    expect((await api.get('/api/blade-system/dict-biz/parent-list', { code: 'pour_method', size: '100' })).body.data.total).toBe(1);
  });

  it("serves China's regions as a lazy tree keyed by code, and detail by code", async () => {
    const platform = client(server, await server.token());
    const level = async (parentCode: string) => (await api.get('/api/blade-system/region/lazy-tree', { parentCode })).body.data;
    // seeded on the first start: provinces, cities, counties
    const provinces = await level('00');
    expect(provinces).toHaveLength(34);
    expect(provinces).toContainEqual(
      expect.objectContaining({ id: '32', parentId: '00', key: '32', value: '32', title: '江苏省', hasChildren: true }),
    );
    expect(await level('32')).toContainEqual(expect.objectContaining({ key: '3201', title: '南京市', hasChildren: true }));
    expect(await level('3201')).toContainEqual(expect.objectContaining({ key: '320102', title: '玄武区', hasChildren: false }));
    // a municipality's counties under a city of its own name
    expect(await level('11')).toEqual([expect.objectContaining({ key: '1101', title: '北京市', hasChildren: true })]);
    expect(await level('1101')).toContainEqual(expect.objectContaining({ key: '110101', title: '东城区' }));
    // a node's id is its code: the platform's client asks for the record by it (detail?code=<node id>)
    const nanjingNode = (await level('32')).find((n: { title: string }) => n.title === '南京市');
    const nanjing = (await api.get('/api/blade-system/region/detail', { code: nanjingNode.id })).body.data;
    expect(nanjing).toMatchObject({ name: '南京市', provinceName: '江苏省', regionLevel: '2', ancestors: '00,32' });
    const save = (body: Record<string, unknown>) => platform.post('/api/blade-system/region/save', body).then((r) => r.body);
    expect((await save({ code: '320199', parentCode: '3201', name: '新区', regionLevel: '3', sort: 99 })).code).toBe(200);
    expect(await level('3201')).toContainEqual(expect.objectContaining({ key: '320199', title: '新区', hasChildren: false }));
    const bad = await save({ code: '3299', parentCode: '99', name: '不存在', regionLevel: '2', sort: 1 });
    expect(bad.code).toBe(400);
    // labels of parentCode references: looked up by code, the key the reference holds
    const labels = await api.get('/api/blade-system/region/options', { ids: '32,3201', valueField: 'code' });
    expect(labels.body.data.records).toEqual(
      expect.arrayContaining([
        { value: '32', label: '江苏省' },
        { value: '3201', label: '南京市' },
      ]),
    );
    const notAKey = await api.get('/api/blade-system/region/options', { ids: '32', valueField: 'name' });
    expect(notAKey.status).toBe(400);
  });
});
