// Master-detail documents: header and rows saved together, derived values recomputed by the server,
// automatic numbering, and all-or-nothing writes.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { count, demand, demandRow, goods, project } from './fixtures.ts';

const BASE = '/api/construct/materialTotalDemand';

describe.each(databaseKinds())('documents with detail rows on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let projectId: string;
  let rebar: Record<string, any>;
  let cement: Record<string, any>;

  beforeAll(async () => {
    server = await startServer(kind);
    api = client(server, await server.token());
    projectId = (await project(api)).id;
    rebar = await goods(api);
    cement = await goods(api, { name: '水泥', unit: 't', referencePrice: 520 });
  });
  afterAll(() => server?.dispose());

  it('the demo plan names the seeded administrator as its creator (创建人 resolves to 管理员)', async () => {
    const [plan] = (await api.get(`${BASE}/list`, { title: '1#-6#楼主体结构材料总需用计划' })).body.data.records;
    const creator = await api.get('/api/blade-system/user/options', { ids: String(plan.createUser) });
    expect(creator.body.data.records).toEqual([{ value: String(plan.createUser), label: expect.stringMatching(/管理员|admin/) }]);
  });

  it('goods pickers tell records of one name apart: options show code, name and spec, and a code finds them', async () => {
    const byName = await api.get('/api/construct/goodsArchives/options', { keyword: '水泥' });
    expect(byName.body.data.records).toContainEqual({
      value: cement.id,
      label: [cement.code, '水泥', cement.spec].filter(Boolean).join(' '),
    });
    const byCode = await api.get('/api/construct/goodsArchives/options', { keyword: cement.code });
    expect(byCode.body.data.records.map((r: { value: string }) => r.value)).toContain(cement.id);
  });

  it('a plan of 3,000 rows saves, and its edit keeps, changes, removes, adds and reorders rows as sent', async () => {
    // more rows than one statement takes parameters for: the rows are written in chunks
    const rows = Array.from({ length: 3000 }, (_, i) => demandRow(i % 2 ? rebar.id : cement.id, i + 1, 2.5, { workPart: `第${i + 1}行` }));
    const saved = await demand(api, projectId, rows);
    expect(saved.details).toHaveLength(3000);
    expect(saved.details.map((r: any) => r.workPart)).toEqual(rows.map((r) => r.workPart));
    expect(saved.details[2999]).toMatchObject({ sortNo: 3000, designQty: 3000, demandQty: 3060, goodsName: '螺纹钢' });
    // the last row first, row 2 changed, row 3 removed, a new row at the end
    const [first, second, , ...rest] = saved.details;
    const last = rest.pop();
    const sent = [
      last,
      first,
      { ...second, designQty: 7, demandQty: null, workPart: '改过的第2行' },
      ...rest,
      demandRow(cement.id, 1, 1, { workPart: '新加的行' }),
    ];
    const edited = (await api.post(`${BASE}/update`, { ...saved, details: sent })).body;
    expect(edited.success, edited.msg).toBe(true);
    const stored = (await api.get(`${BASE}/detail`, { id: saved.id })).body.data.details;
    expect(stored).toHaveLength(3000);
    expect(stored.map((r: any) => r.workPart)).toEqual(sent.map((r: any) => r.workPart));
    expect(stored.map((r: any) => r.sortNo)).toEqual(stored.map((_: unknown, i: number) => i + 1));
    expect(stored[0]).toMatchObject({ id: last.id, designQty: 3000 });
    expect(stored[2]).toMatchObject({ id: second.id, designQty: 7, demandQty: 7.14 });
    expect(stored.some((r: any) => r.id === saved.details[2].id)).toBe(false);
    expect(stored[2999]).toMatchObject({ workPart: '新加的行', goodsName: '水泥' });
  });

  it("refuses a stored row sent twice in one edit, in the reader's language, and changes nothing", async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 1, 100), demandRow(cement.id, 2, 100)]);
    const [first, second] = doc.details;
    const res = await api.post(`${BASE}/update`, { ...doc, details: [first, { ...first, designQty: 9 }, second] });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain(`物资明细第2行与前面的一行是同一行: ${first.id}`);
    const en = await client(server, await server.token(), 'en').post(`${BASE}/update`, { ...doc, details: [first, first] });
    expect(en.body.msg).toContain(`Row 2 of Material lines is a row sent before it: ${first.id}`);
    const stored = (await api.get(`${BASE}/detail`, { id: doc.id })).body.data.details;
    expect(stored.map((r: any) => [r.id, r.designQty])).toEqual([
      [first.id, 1],
      [second.id, 2],
    ]);
  });

  it('saves header and rows together, computing every derived value in decimals', async () => {
    const doc = await demand(
      api,
      projectId,
      [
        demandRow(rebar.id, 120.5, 4150.35), // demand 122.91, amount 122.91 × 4150.35 = 510,119.5185 → 510,119.52
        demandRow(cement.id, 0.1, 0.2, { lossRate: 0, changeQty: 0.2 }), // effective 0.3, amount 0.06
        demandRow(rebar.id, 10, 3.3333, { demandQty: 11, changeQty: -1.5 }), // demand sent, effective 9.5, amount 31.67
      ],
      { totalAmount: 1 },
    );
    expect(doc.code).toMatch(/^CLZJH-\d{6}-\d{4}$/);
    const [a, b, c] = doc.details;
    expect(a).toMatchObject({
      sortNo: 1,
      demandQty: 122.91,
      effectiveQty: 122.91,
      amount: 510119.52,
      goodsName: '螺纹钢',
      unit: 't',
      goodsCode: rebar.code,
    });
    expect(b).toMatchObject({ sortNo: 2, demandQty: 0.1, effectiveQty: 0.3, amount: 0.06, goodsName: '水泥' });
    expect(c).toMatchObject({ sortNo: 3, demandQty: 11, effectiveQty: 9.5, amount: 31.67 });
    expect(doc.totalAmount).toBe(510151.25); // the client's 1 is ignored
  });

  it('numbers documents PREFIX-yyyyMM-#### per tenant and type, distinct under concurrent saves', async () => {
    // two tenants, two document types (plans CLZJH, projects XM), 20 saves of each at once: 80 in flight
    const tenants = [await server.newTenant('编号测试甲'), await server.newTenant('编号测试乙')];
    const setups = await Promise.all(
      tenants.map(async ({ token }) => {
        const theirs = client(server, token);
        const { id, code: _code, ...template } = await project(theirs);
        return { api: theirs, projectId: id as string, template, goodsId: (await goods(theirs)).id };
      }),
    );
    const kinds = [
      {
        prefix: 'CLZJH',
        save: (s: (typeof setups)[number], i: number) =>
          s.api.post(`${BASE}/save`, {
            projectId: s.projectId,
            title: `并发计划${i}`,
            planDate: '2026-03-10',
            compilerName: '张工',
            details: [demandRow(s.goodsId, 1, 1)],
          }),
      },
      {
        prefix: 'XM',
        save: (s: (typeof setups)[number], i: number) => s.api.post('/api/construct/project/save', { ...s.template, name: `并发项目${i}` }),
      },
    ];
    const runs = setups.flatMap((setup, tenant) =>
      kinds.map((kind) => ({ tenant, prefix: kind.prefix, saves: Array.from({ length: 20 }, (_, i) => kind.save(setup, i)) })),
    );
    const answered = await Promise.all(runs.map(async (run) => ({ ...run, saves: await Promise.all(run.saves) })));
    const sequences = new Map<string, number[]>();
    for (const { tenant, prefix, saves } of answered) {
      expect(
        saves.map((r) => r.body.code),
        JSON.stringify(saves[0].body),
      ).toEqual(Array(20).fill(200));
      const codes = saves.map((r) => r.body.data.code as string);
      expect(new Set(codes).size).toBe(20);
      for (const r of saves) {
        const month = String(r.body.data.createTime).slice(0, 7).replace('-', '');
        expect(r.body.data.code).toMatch(new RegExp(`^${prefix}-${month}-\\d{4}$`));
      }
      // one counter per tenant and type: 20 consecutive numbers, whatever the other tenant took
      const numbers = codes.map((c) => Number(c.slice(-4))).sort((a, b) => a - b);
      expect(numbers.at(-1)! - numbers[0]).toBe(19);
      sequences.set(`${tenant}:${prefix}`, numbers);
    }
    expect(sequences.get('0:CLZJH')).toEqual(sequences.get('1:CLZJH'));
    expect(sequences.get('0:XM')).toEqual(sequences.get('1:XM'));
  });

  it('edits rows in place: changed, added and removed as the payload says', async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 1, 100), demandRow(cement.id, 2, 100), demandRow(rebar.id, 3, 100)]);
    const [first, , third] = doc.details;
    const res = await api.post(`${BASE}/update`, {
      ...doc,
      title: '调整后',
      details: [{ ...third, designQty: 30, demandQty: null }, { ...first }, demandRow(cement.id, 5, 10)],
    });
    expect(res.body.code).toBe(200);
    const rows = res.body.data.details;
    expect(rows.map((r: any) => r.id).slice(0, 2)).toEqual([third.id, first.id]);
    expect(rows.map((r: any) => r.sortNo)).toEqual([1, 2, 3]);
    expect(rows[0]).toMatchObject({ designQty: 30, demandQty: 30.6, amount: 3060 });
    expect(rows[2].id).not.toBe(doc.details[1].id);
    expect(res.body.data.totalAmount).toBe(3060 + 102 + 51);
    expect(res.body.data.code).toBe(doc.code);
  });

  it('a failing row on create leaves no header behind', async () => {
    const before = await count(api, `${BASE}/list`);
    const res = await api.post(`${BASE}/save`, {
      projectId,
      title: '坏计划',
      planDate: '2026-03-10',
      compilerName: '张工',
      details: [demandRow(rebar.id, 1, 1), demandRow('999999999', 1, 1)],
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([{ path: '/details/1/goodsId', message: '物资明细第2行 物资引用的记录不存在: 999999999' }]);
    expect(await count(api, `${BASE}/list`)).toBe(before);
  });

  it('a failure in the middle of an update rolls back the header and every row', async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 1, 100), demandRow(cement.id, 2, 100)]);
    const other = await demand(api, projectId, [demandRow(rebar.id, 7, 7)]);
    // row 2 carries the id of a row of another document: found only after the header and row 1 were written
    const res = await api.post(`${BASE}/update`, {
      ...doc,
      title: '不应保存',
      details: [
        { ...doc.details[0], designQty: 999 },
        { ...doc.details[1], id: other.details[0].id },
      ],
    });
    expect(res.status).toBe(400);
    const after = (await api.get(`${BASE}/detail`, { id: doc.id })).body.data;
    expect(after.title).toBe(doc.title);
    expect(after.details.map((r: any) => r.designQty)).toEqual([1, 2]);
    expect(after.totalAmount).toBe(doc.totalAmount);
  });

  it('validates rows with their row number in the message', async () => {
    const res = await client(server, await server.token(), 'en').post(`${BASE}/save`, {
      projectId,
      title: 'x',
      planDate: '2026-03-10',
      compilerName: 'x',
      details: [demandRow(rebar.id, 1, 1), { goodsId: rebar.id }],
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toContainEqual({
      path: '/details/1/designQty',
      message: 'Material lines row 2 Design quantity is required',
    });
  });

  it('needs at least the minimum number of rows', async () => {
    const res = await api.post(`${BASE}/save`, { projectId, title: 'x', planDate: '2026-03-10', compilerName: 'x', details: [] });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/物资明细至少需要1行/);
  });

  it('updatePart changes only what is sent', async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 4, 25)]);
    const res = await api.post(`${BASE}/updatePart`, { id: doc.id, title: '只改标题' });
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({
      title: '只改标题',
      compilerName: doc.compilerName,
      totalAmount: doc.totalAmount,
      code: doc.code,
    });
    expect(res.body.data.details).toHaveLength(1);
    const bad = await api.post(`${BASE}/updatePart`, { id: doc.id, planDate: 'yesterday' });
    expect(bad.status).toBe(400);
  });

  it('updatePart refuses to empty a required field and keeps the record', async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 4, 25)]);
    const res = await api.post(`${BASE}/updatePart`, { id: doc.id, title: '' });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([{ path: '/title', message: '计划名称不能为空' }]);
    expect((await api.get(`${BASE}/detail`, { id: doc.id })).body.data.title).toBe(doc.title);
  });

  it('keeps amounts beyond double precision exact', async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 1234567890.1234, 100000.0001, { lossRate: 0 })]);
    // 1,234,567,890.1234 × 100,000.0001 = 123,456,789,135,796.7901… → 123,456,789,135,796.79
    expect(String(doc.details[0].amount)).toBe('123456789135796.79');
    expect(String(doc.totalAmount)).toBe('123456789135796.79');
  });

  it('submit creates without an id and updates with one (a document without a workflow)', async () => {
    // a document with x-workflow (the demand) starts its approval on submit: tests/server/workflow.test.ts
    const url = '/api/construct/partyA/submit';
    const created = await api.post(url, { name: '提交测试建设单位', partyAType: 'soe', status: 'enabled' });
    expect(created.body).toMatchObject({ code: 200, msg: '新增成功' });
    const updated = await api.post(url, { ...created.body.data, name: '再次提交建设单位' });
    expect(updated.body).toMatchObject({ code: 200, msg: '更新成功', data: { id: created.body.data.id, name: '再次提交建设单位' } });
  });

  it('exports one document as a workbook with Chinese headers and labels', async () => {
    const doc = await demand(api, projectId, [demandRow(rebar.id, 2, 10)]);
    const res = await server.app.inject({
      method: 'GET',
      url: `${BASE}/export`,
      query: { id: doc.id },
      headers: { 'blade-auth': `bearer ${await server.token()}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent(doc.code));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as any);
    const header = book.worksheets[0];
    const rows = header
      .getSheetValues()
      .filter(Boolean)
      .map((r: any) => [r[1], r[2]]);
    expect(rows).toContainEqual(['计划编号', doc.code]);
    expect(rows.find((r) => r[0] === '项目')?.[1]).toMatch(/南京江北新区人才公寓/);
    const lines = book.worksheets[1];
    expect(lines.name).toBe('物资明细');
    expect(lines.getRow(1).values).toEqual(expect.arrayContaining(['序号', '物资', '图纸设计量', '金额']));
    expect(lines.getRow(2).values).toEqual(expect.arrayContaining(['螺纹钢', 20.4]));
  });

  it("exports leave out the workflow's instance id, and the lease terms where the contract is no lease", async () => {
    const CONTRACTS = '/api/construct/expenditureContract';
    const workbook = async (query: Record<string, string>) => {
      const res = await server.app.inject({
        method: 'GET',
        url: `${CONTRACTS}/export`,
        query,
        headers: { 'blade-auth': `bearer ${await server.token()}` },
      });
      expect(res.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as any);
      return book.worksheets[0];
    };
    const contracts = (await api.get(`${CONTRACTS}/list`, { size: '100' })).body.data.records as any[];
    const lease = contracts.find((c) => c.code === 'ZCHT-NJ-2026-004');
    // the demo tube lease is worth rate × quantity × duration (120,000 m × 0.012 × 420 d + 80,000 × 0.006 × 420 d)
    expect(lease.contractAmount).toBe(806400);
    // and its settlements raise no warning of being near or over it (at 1,920 they stood at 2,600 %)
    const tips = (await api.get('/api/construct/warnTip/list', { size: '500' })).body.data.records as any[];
    const capTips = tips.filter((t) => t.expenditureContractCode === lease.code && /contract_amount$/.test(t.warnType));
    expect(capTips).toEqual([]);
    const other = contracts.find((c) => c.expenditureContractType !== 'turnover_lease' && c.projectId === lease.projectId);
    const labels = (sheet: ExcelJS.Worksheet) => sheet.getColumn(1).values.filter(Boolean);
    const leaseSheet = await workbook({ id: lease.id });
    expect(labels(leaseSheet)).toEqual(expect.arrayContaining(['计租单位', '计租方式']));
    expect(labels(leaseSheet)).not.toContain('流程实例');
    const otherSheet = await workbook({ id: other.id });
    expect(labels(otherSheet)).not.toEqual(expect.arrayContaining(['计租单位']));
    expect(labels(otherSheet)).not.toContain('计租方式');
    // a list of non-lease contracts has no lease columns; with the lease contract, they are there, empty on the others
    const headerOf = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).filter(Boolean);
    const others = await workbook({ code: other.code });
    expect(headerOf(others)).not.toContain('计租单位');
    expect(headerOf(others)).not.toContain('流程实例');
    const both = await workbook({ projectId: lease.projectId });
    const unitColumn = headerOf(both).indexOf('计租单位') + 1;
    expect(unitColumn).toBeGreaterThan(0);
    const cells = (both.getColumn(unitColumn).values as unknown[]).slice(2);
    expect(cells.filter((v) => v !== undefined && v !== null && v !== '')).toHaveLength(
      contracts.filter(
        (c) =>
          c.projectId === lease.projectId &&
          ['turnover_lease', 'aluminum_formwork', 'scaffold', 'equipment_lease'].includes(c.expenditureContractType) &&
          c.leaseTimeUnit,
      ).length,
    );
  });

  it('refuses to remove master data a document still refers to', async () => {
    const item = await goods(api);
    const doc = await demand(api, projectId, [demandRow(item.id, 1, 1)]);
    const res = await api.post('/api/construct/goodsArchives/remove', undefined, { ids: item.id });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('物资档案已被材料总需用计划引用,不能删除,可以停用');
    expect((await api.post(`${BASE}/remove`, undefined, { ids: doc.id })).body.code).toBe(200);
    expect((await api.post('/api/construct/goodsArchives/remove', undefined, { ids: item.id })).body.code).toBe(200);
  });
});
