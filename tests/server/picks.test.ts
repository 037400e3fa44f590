// Rows picked from another document's lines (x-detail.pickFrom): a monthly demand's rows taken
// from an expense contract's lines and from the total demand plan keep the source line's id, and
// the server accepts only lines of the document the header selects, in the caller's tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { count, demand, demandRow, goods, project } from './fixtures.ts';

const DEMAND = '/api/construct/materialMonthlyDemand';
const CONTRACT = '/api/construct/expenditureContract';

async function saved(api: Api, url: string, record: Record<string, unknown>) {
  const res = await api.post(url, record);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

async function contract(
  api: Api,
  projectId: string,
  subcontractorId: string,
  lines: { goodsId: string; quantity: number; priceInclTax: number }[],
) {
  return saved(api, `${CONTRACT}/save`, {
    name: '钢筋采购合同',
    projectId,
    subcontractorId,
    expenditureContractType: 'material',
    pricingMode: 'fixed_unit_price',
    signDate: '2026-03-12',
    startDate: '2026-04-01',
    contractAmount: 0,
    taxRate: 13,
    performanceStatus: 'not_started',
    settlementStatus: 'none',
    details: lines.map((l) => ({ ...l, taxRate: 13 })),
  });
}

describe.each(databaseKinds())('rows picked from another document on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let en: Api;
  let projectId: string;
  let rebar: Record<string, any>;
  let cement: Record<string, any>;
  let steel: Record<string, any>;
  let other: Record<string, any>;
  let plan: Record<string, any>;

  /** A monthly demand of the project on `plan`, under the contract code given. */
  const body = (contractCode: string | undefined, details: Record<string, unknown>[]) => ({
    projectId,
    materialTotalDemandId: plan.id,
    expenditureContractCode: contractCode,
    period: '2026-05',
    compilerName: '张伟',
    details,
  });
  const fromLine = (line: Record<string, any>, demandQty = 10) => ({
    contractDetailId: line.id,
    goodsId: line.goodsId,
    price: line.priceInclTax,
    demandQty,
  });

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    api = client(server, token);
    en = client(server, token, 'en');
    projectId = (await project(api)).id;
    rebar = await goods(api);
    cement = await goods(api, { name: '水泥', unit: 't', referencePrice: 520 });
    const supplier = await saved(api, '/api/construct/subcontractor/save', {
      name: '沙钢物资贸易有限公司',
      subcontractorTypes: ['material_supplier'],
      blacklisted: false,
      status: 'enabled',
    });
    steel = await contract(api, projectId, supplier.id, [
      { goodsId: rebar.id, quantity: 500, priceInclTax: 4150 },
      { goodsId: cement.id, quantity: 80, priceInclTax: 520 },
    ]);
    other = await contract(api, projectId, supplier.id, [{ goodsId: rebar.id, quantity: 20, priceInclTax: 4000 }]);
    plan = await demand(api, projectId, [demandRow(rebar.id, 1000, 4100), demandRow(cement.id, 200, 510)]);
  });
  afterAll(() => server?.dispose());

  it('keeps the picked contract lines with the rows, as sent', async () => {
    const [a, b] = steel.details;
    const doc = await saved(api, `${DEMAND}/save`, body(steel.code, [fromLine(a, 120), fromLine(b, 8)]));
    expect(doc.details).toMatchObject([
      { contractDetailId: a.id, goodsId: rebar.id, goodsName: '螺纹钢', price: 4150, demandQty: 120, amount: 498000 },
      { contractDetailId: b.id, goodsId: cement.id, goodsName: '水泥', price: 520, demandQty: 8, amount: 4160 },
    ]);
    const again = await api.get(`${DEMAND}/detail`, { id: doc.id });
    expect(again.body.data.details.map((r: any) => r.contractDetailId)).toEqual([a.id, b.id]);
  });

  it('refuses a line of another contract than the one selected, naming the row, and saves nothing', async () => {
    const before = await count(api, `${DEMAND}/list`);
    const res = await api.post(`${DEMAND}/save`, body(steel.code, [fromLine(steel.details[0]), fromLine(other.details[0])]));
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      { path: '/details/1/contractDetailId', message: '物资明细第2行 合同清单行不属于所选的采购合同' },
    ]);
    expect(await count(api, `${DEMAND}/list`)).toBe(before);
  });

  it('says so in English too, and refuses picked lines when no contract is selected', async () => {
    const res = await en.post(`${DEMAND}/save`, body(undefined, [fromLine(steel.details[0])]));
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('Material lines row 1 Contract line is not a line of the selected Purchase contract');
  });

  it('refuses a line id that is no line at all, or a line of a removed contract', async () => {
    const unknown = await api.post(`${DEMAND}/save`, body(steel.code, [{ ...fromLine(steel.details[0]), contractDetailId: '123456789' }]));
    expect(unknown.body.data.errors).toEqual([
      { path: '/details/0/contractDetailId', message: '物资明细第1行 合同清单行引用的记录不存在: 123456789' },
    ]);
    const spare = await contract(api, projectId, other.subcontractorId, [{ goodsId: rebar.id, quantity: 1, priceInclTax: 1 }]);
    expect((await api.post(`${CONTRACT}/remove`, undefined, { ids: spare.id })).body.code).toBe(200);
    const removed = await api.post(`${DEMAND}/save`, body(spare.code, [fromLine(spare.details[0])]));
    expect(removed.status).toBe(400);
  });

  it('does not let another tenant attach our lines', async () => {
    const tenant = await server.newTenant();
    const theirs = client(server, tenant.token);
    const theirProject = (await project(theirs)).id;
    const theirGoods = await goods(theirs);
    const supplier = await saved(theirs, '/api/construct/subcontractor/save', {
      name: '他方供应商',
      subcontractorTypes: ['material_supplier'],
      blacklisted: false,
      status: 'enabled',
    });
    const theirContract = await contract(theirs, theirProject, supplier.id, [{ goodsId: theirGoods.id, quantity: 5, priceInclTax: 100 }]);
    const theirPlan = await demand(theirs, theirProject, [demandRow(theirGoods.id, 10, 100)]);
    // their own contract selected, our line's id sent
    const res = await theirs.post(`${DEMAND}/save`, {
      projectId: theirProject,
      materialTotalDemandId: theirPlan.id,
      expenditureContractCode: theirContract.code,
      period: '2026-05',
      compilerName: '王五',
      details: [{ contractDetailId: steel.details[0].id, goodsId: theirGoods.id, demandQty: 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.data.errors[0]).toMatchObject({
      path: '/details/0/contractDetailId',
      message: expect.stringContaining('引用的记录不存在'),
    });
  });

  it('checks the picks again when updatePart changes the selected contract', async () => {
    const doc = await saved(api, `${DEMAND}/save`, body(steel.code, [fromLine(steel.details[0])]));
    const moved = await api.post(`${DEMAND}/updatePart`, { id: doc.id, expenditureContractCode: other.code });
    expect(moved.status).toBe(400);
    expect(moved.body.data.errors[0].path).toBe('/details/0/contractDetailId');
    expect((await api.get(`${DEMAND}/detail`, { id: doc.id })).body.data.expenditureContractCode).toBe(steel.code);
    // an unrelated change leaves the picks alone
    expect((await api.post(`${DEMAND}/updatePart`, { id: doc.id, remark: '按进度调整' })).body.code).toBe(200);
  });

  it('takes rows from the total demand plan the header selects (a reference by id)', async () => {
    const [line] = plan.details;
    const doc = await saved(
      api,
      `${DEMAND}/save`,
      body(undefined, [{ totalDemandDetailId: line.id, goodsId: line.goodsId, totalDemandQty: line.effectiveQty, demandQty: 50 }]),
    );
    expect(doc.details[0]).toMatchObject({ totalDemandDetailId: line.id, totalDemandQty: 1020, remainingQty: 970 });
    const otherPlan = await demand(api, projectId, [demandRow(rebar.id, 1, 1)]);
    const res = await api.post(
      `${DEMAND}/save`,
      body(undefined, [{ totalDemandDetailId: otherPlan.details[0].id, goodsId: rebar.id, demandQty: 1 }]),
    );
    expect(res.body.data.errors).toEqual([
      { path: '/details/0/totalDemandDetailId', message: '物资明细第1行 总计划明细不属于所选的材料总需用计划' },
    ]);
  });
});
