// The material ledger over HTTP, as a site's material clerk and its approvers meet it: approved
// checks bring steel into a warehouse, the May report is generated from them and values the
// consumption at the month's weighted average; taking more than is there is refused, approving the
// report closes May; a June stocktake's book quantity is the ledger's at its date and its loss
// posts; June's report derives its consumption from the count. Turnover items: exits cannot return
// more than is on site. Another tenant sees none of it. Every number is worked out by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveByTurns, ok, tokenOf } from './approval.ts';
import { goods, project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const CHECK = '/api/construct/materialCheck';
const INVENTORY = '/api/construct/materialInventory';
const SITUATION = '/api/construct/materialSituation';
const TURNOVER = '/api/construct/materialTurnoverCheck';
const TURNOVER_INVENTORY = '/api/construct/materialTurnoverInventory';

function refused(res: { body: any }) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 400, success: false });
  return res.body.msg as string;
}

describe.each(databaseKinds())('the material ledger on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let approvers: Api[];
  let site: { id: string };
  let store: { id: string; name: string };
  let steel: { id: string; name: string; spec: string };
  let supplierId: string;

  /** Submits (unless in approval already) and lets the project manager, then the cost manager when the amount asks for it, approve. */
  const approve = (base: string, id: string) => approveByTurns(admin, approvers, base, id);

  const check = (checkDate: string, qty: number, priceInclTax: number, extra: Record<string, unknown> = {}) => ({
    projectId: site.id,
    warehouseId: store.id,
    checkDate,
    subcontractorId: supplierId,
    materialSource: 'self_purchase',
    inspectorName: '周小军',
    details: [{ goodsId: steel.id, deliveredQty: qty, acceptedQty: qty, priceInclTax, taxRate: 13 }],
    ...extra,
  });

  const situation = (period: string, line: Record<string, unknown>) => ({
    projectId: site.id,
    warehouseId: store.id,
    period,
    compilerName: '周小军',
    details: [{ goodsId: steel.id, ...line }],
  });

  const statusOf = async (base: string, id: string) => ok(await admin.get(`${base}/detail`, { id })).approvalStatus;

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    approvers = [client(server, await tokenOf(server, 'manager')), client(server, await tokenOf(server, 'costmgr'))];
    site = await project(admin);
    store = ok(
      await admin.post('/api/construct/warehouse/save', {
        projectId: site.id,
        name: '1#材料库',
        warehouseType: 'project',
        status: 'enabled',
      }),
    );
    steel = await goods(admin);
    supplierId = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京钢联物资供应有限公司',
        subcontractorTypes: ['material_supplier'],
        blacklisted: false,
        status: 'enabled',
      }),
    ).id;
  }, 120_000);

  afterAll(async () => server?.dispose());

  let may: any;

  it('generates May from the approved checks only: a draft receipt does not count', async () => {
    // 100 t at 3,830 = 383,000; 50 t at 3,900 = 195,000
    await approve(CHECK, ok(await admin.post(`${CHECK}/save`, check('2026-05-10', 100, 3830))).id);
    await approve(CHECK, ok(await admin.post(`${CHECK}/save`, check('2026-05-20', 50, 3900))).id);
    ok(await admin.post(`${CHECK}/save`, check('2026-05-25', 999, 3900)));
    const report = ok(await admin.get(`${SITUATION}/generate`, { projectId: site.id, warehouseId: store.id, period: '2026-05' }));
    expect(report.details).toHaveLength(1);
    expect(report.details[0]).toMatchObject({
      goodsId: steel.id,
      goodsName: steel.name,
      openingQty: 0,
      openingAmount: 0,
      selfPurchaseQty: 150,
      receivedQty: 150,
      receivedAmount: 578000,
      consumedQty: 0,
      closingQty: 150,
      closingAmount: 578000,
      closingPrice: 3853.3333,
    });
    expect(report).toMatchObject({ receivedAmount: 578000, closingAmount: 578000 });
  });

  it("values the consumption at the weighted average, whatever the client sent for the ledger's figures", async () => {
    // 70 × 578,000 / 150 = 269,733.333… → 269,733.33; closing 80 t, 578,000 − 269,733.33 = 308,266.67
    may = ok(
      await admin.post(
        `${SITUATION}/save`,
        situation('2026-05', { consumedQty: 70, openingQty: 999, receivedAmount: 1, consumedAmount: 5 }),
      ),
    );
    expect(may.details[0]).toMatchObject({
      openingQty: 0,
      selfPurchaseQty: 150,
      receivedAmount: 578000,
      consumedQty: 70,
      consumedAmount: 269733.33,
      closingQty: 80,
      closingAmount: 308266.67,
      closingPrice: 3853.3334,
    });
    expect(may).toMatchObject({ consumedAmount: 269733.33, closingAmount: 308266.67 });
  });

  it('refuses a report that consumes more than there is, naming goods, warehouse and quantities, and changes nothing', async () => {
    const greedy = ok(await admin.post(`${SITUATION}/save`, { ...situation('2026-05', { consumedQty: 200 }), id: undefined }));
    const zh = refused(await admin.post(`${SITUATION}/submit`, { id: greedy.id }));
    expect(zh).toBe(`库存不足:${steel.name} ${steel.spec} 在仓库 ${store.name} 可用 150,本单需要 200;库存不能为负`);
    const en = refused(await adminEn.post(`${SITUATION}/submit`, { id: greedy.id }));
    expect(en).toBe(
      `Not enough stock: ${steel.name} ${steel.spec} in warehouse ${store.name} has 150 available, this document needs 200; stock cannot go below zero`,
    );
    expect(await statusOf(SITUATION, greedy.id)).toBe('draft');
    ok(await admin.post(`${SITUATION}/remove`, undefined, { ids: greedy.id }));
  });

  it('approving May closes it: a later receipt or a second report dated May is refused', async () => {
    await approve(SITUATION, may.id);
    const late = ok(await admin.post(`${CHECK}/save`, check('2026-05-31', 5, 3900)));
    expect(refused(await admin.post(`${CHECK}/submit`, { id: late.id }))).toBe(
      `仓库 ${store.name} 2026-05 的收发存月报 ${may.code} 已审批,2026-05 及以前月份已结账,不能再过账 2026-05 的单据`,
    );
    expect(await statusOf(CHECK, late.id)).toBe('draft');
    const again = ok(await admin.post(`${SITUATION}/save`, situation('2026-05', { consumedQty: 1 })));
    expect(refused(await admin.post(`${SITUATION}/submit`, { id: again.id }))).toContain(`已有收发存月报 ${may.code}`);
    // and April lies before the closed month
    const april = ok(await admin.post(`${CHECK}/save`, check('2026-04-30', 5, 3900)));
    expect(refused(await adminEn.post(`${CHECK}/submit`, { id: april.id }))).toContain('2026-05 and earlier months are closed');
  });

  let june: any;

  it('a June stocktake takes its book quantity and price from the ledger at its date, and its loss posts', async () => {
    // the June receipt is dated after the count: 30 t at 4,000 = 120,000
    await approve(CHECK, ok(await admin.post(`${CHECK}/save`, check('2026-06-10', 30, 4000))).id);
    const book = ok(await admin.get(`${INVENTORY}/book`, { projectId: site.id, warehouseId: store.id, date: '2026-06-05' }));
    expect(book).toEqual([expect.objectContaining({ goodsId: steel.id, bookQty: 80, price: 3853.3334, bookAmount: 308266.67 })]);
    // book 80 t at 3,853.3334 (308,266.67 / 80); counted 78: 300,560.0052 → 300,560.01, loss −7,706.66
    const count = ok(
      await admin.post(`${INVENTORY}/save`, {
        projectId: site.id,
        warehouseId: store.id,
        inventoryDate: '2026-06-05',
        period: '2026-06',
        handlerName: '周小军',
        details: [{ goodsId: steel.id, bookQty: 500, price: 1, countQty: 78, diffReason: '钢筋头损耗' }],
      }),
    );
    expect(count.details[0]).toMatchObject({
      bookQty: 80,
      price: 3853.3334,
      countQty: 78,
      diffQty: -2,
      bookAmount: 308266.67,
      countAmount: 300560.01,
      diffAmount: -7706.66,
    });
    await approve(INVENTORY, count.id);
    expect(ok(await admin.get(`${INVENTORY}/book`, { projectId: site.id, warehouseId: store.id, date: '2026-06-30' }))[0]).toMatchObject({
      bookQty: 108,
      bookAmount: 420560.01,
    });
  });

  it("June's report derives consumption from the count at month end (R-STOCK-2) and absorbs rounding in the closing line", async () => {
    // a count above the books (80 + 30 − 2 = 108) would be a negative consumption: refused, nothing saved
    const surplus = await admin.post(`${SITUATION}/save`, situation('2026-06', { countedClosingQty: 110 }));
    expect(refused(surplus)).toBe(
      `盘点结存超过账面:${steel.name} ${steel.spec} 上月结存+本月收入+盘盈亏−调出为 108,盘点结存 110;多出的数量请先以材料盘点(盘盈)入账`,
    );
    expect((await admin.get(`${SITUATION}/list`, { period: '2026-06', projectId: site.id })).body.data.total).toBe(0);
    june = ok(await admin.post(`${SITUATION}/save`, situation('2026-06', { consumedQty: 1, countedClosingQty: 8 })));
    // opening 80 t / 308,266.67; received 30 / 120,000; loss −2 / −7,706.66; consumed 80 + 30 − 2 − 8 = 100
    // 100 × 428,266.67 / 110 = 389,333.3364 → 389,333.34; closing 428,266.67 − 7,706.66 − 389,333.34 = 31,226.67
    expect(june.details[0]).toMatchObject({
      openingQty: 80,
      openingAmount: 308266.67,
      openingPrice: 3853.3334,
      selfPurchaseQty: 30,
      receivedAmount: 120000,
      gainLossQty: -2,
      gainLossAmount: -7706.66,
      consumedQty: 100,
      consumedAmount: 389333.34,
      closingQty: 8,
      closingAmount: 31226.67,
      closingPrice: 3903.3338,
    });
    await approve(SITUATION, june.id);
    expect(ok(await admin.get(`${INVENTORY}/book`, { projectId: site.id, warehouseId: store.id, date: '2026-07-01' }))[0]).toMatchObject({
      bookQty: 8,
      bookAmount: 31226.67,
    });
  });

  it('a reversal of an approved document un-posts it, unless its month is closed or its stock is gone', async () => {
    const first = await approve(CHECK, ok(await admin.post(`${CHECK}/save`, check('2026-07-03', 10, 4000))).id);
    const second = await approve(CHECK, ok(await admin.post(`${CHECK}/save`, check('2026-07-04', 10, 4000))).id);
    const reverse = (key: string, id: string) =>
      server.db.transaction((tx) =>
        server.ctx.hooks![key].afterStatus!({
          tx,
          actor: { tenantId: '000000', userId: '1', deptId: null, lang: 'zh' },
          id,
          status: 'terminated',
        }),
      );
    const bookJuly = async () =>
      ok(await admin.get(`${INVENTORY}/book`, { projectId: site.id, warehouseId: store.id, date: '2026-07-31' }))[0].bookQty;
    expect(await bookJuly()).toBe(28);
    await reverse('materialCheck', first.id);
    expect(await bookJuly()).toBe(18);
    // a July count finds 5 t: the loss of 13 t leaves too little to take the second receipt back
    const count = ok(
      await admin.post(`${INVENTORY}/save`, {
        projectId: site.id,
        warehouseId: store.id,
        inventoryDate: '2026-07-20',
        period: '2026-07',
        handlerName: '周小军',
        details: [{ goodsId: steel.id, countQty: 5 }],
      }),
    );
    await approve(INVENTORY, count.id);
    expect(await bookJuly()).toBe(5);
    await expect(reverse('materialCheck', second.id)).rejects.toMatchObject({
      key: 'stockShort',
      params: { available: '5', requested: '10' },
    });
    const [mayCheck] = ok(await admin.get(`${CHECK}/list`, { projectId: site.id, checkDate_dateequal: '2026-05-10' })).records;
    await expect(reverse('materialCheck', mayCheck.id)).rejects.toMatchObject({ key: 'stockMonthClosed' });
    expect(await bookJuly()).toBe(5);
  });

  it("turnover items: an exit cannot return more than is on site; the stocktake's book is what is on site", async () => {
    const tube = await goods(admin, { name: '脚手架钢管', unit: 'm', isTurnover: true, referencePrice: 18 });
    const movement = (checkType: string, checkDate: string, qty: number) => ({
      projectId: site.id,
      checkType,
      checkDate,
      warehouseId: store.id,
      inspectorName: '周小军',
      details: [{ goodsId: tube.id, qty, dailyRate: 0.012 }],
    });
    await approve(TURNOVER, ok(await admin.post(`${TURNOVER}/save`, movement('entry', '2026-06-01', 1000))).id);
    const tooMany = ok(await admin.post(`${TURNOVER}/save`, movement('exit', '2026-06-20', 1200)));
    expect(refused(await admin.post(`${TURNOVER}/submit`, { id: tooMany.id }))).toBe(
      `退场数量超过在场数量:${tube.name} ${tube.spec} 在场 1000,本单退场 1200`,
    );
    expect(await statusOf(TURNOVER, tooMany.id)).toBe('draft');
    await approve(TURNOVER, ok(await admin.post(`${TURNOVER}/save`, movement('exit', '2026-06-20', 400))).id);
    expect(ok(await admin.get(`${TURNOVER}/onSite`, { projectId: site.id, date: '2026-06-10' }))).toEqual([
      expect.objectContaining({ goodsId: tube.id, onSiteQty: 1000 }),
    ]);
    expect(ok(await admin.get(`${TURNOVER}/onSite`, { projectId: site.id, date: '2026-06-30' }))).toEqual([
      expect.objectContaining({ goodsId: tube.id, onSiteQty: 600 }),
    ]);
    const count = ok(
      await admin.post(`${TURNOVER_INVENTORY}/save`, {
        projectId: site.id,
        inventoryDate: '2026-06-30',
        handlerName: '周小军',
        details: [{ goodsId: tube.id, bookQty: 9999, countQty: 590, lostQty: 10 }],
      }),
    );
    expect(count.details[0]).toMatchObject({ bookQty: 600, countQty: 590, diffQty: -10 });
  });

  it('another tenant reads none of it and its own ledger is empty', async () => {
    const other = await server.newTenant();
    const api = client(server, other.token);
    expect((await api.get(`${SITUATION}/generate`, { projectId: site.id, warehouseId: store.id, period: '2026-06' })).body.code).toBe(404);
    expect((await api.get(`${INVENTORY}/book`, { projectId: site.id, warehouseId: store.id, date: '2026-06-30' })).body.code).toBe(404);
    expect((await api.get(`${TURNOVER}/onSite`, { projectId: site.id, date: '2026-06-30' })).body.code).toBe(404);
    const own = await project(api);
    const ownStore = ok(await api.post('/api/construct/warehouse/save', { projectId: own.id, name: '现场库', status: 'enabled' }));
    expect(ok(await api.get(`${SITUATION}/generate`, { projectId: own.id, warehouseId: ownStore.id, period: '2026-06' })).details).toEqual(
      [],
    );
  });

  it('answers bad parameters with a clear 400', async () => {
    expect(refused(await admin.get(`${SITUATION}/generate`, { projectId: site.id, warehouseId: store.id }))).toContain('period');
    expect(refused(await admin.get(`${SITUATION}/generate`, { projectId: site.id, period: '2026-13' }))).toContain('2026-13');
    expect(refused(await admin.get(`${INVENTORY}/book`, { projectId: site.id, date: '2026-06-30' }))).toContain('warehouseId');
    expect(refused(await admin.get(`${TURNOVER}/onSite`, { projectId: 'x', date: '2026-06-30' }))).toContain('projectId');
  });

  it('describes its routes in the OpenAPI document', async () => {
    const { paths } = (await admin.get('/api/openapi.json')).body as unknown as { paths: Record<string, any> };
    expect(Object.keys(paths)).toEqual(expect.arrayContaining([`${SITUATION}/generate`, `${INVENTORY}/book`, `${TURNOVER}/onSite`]));
    expect(paths[`${SITUATION}/generate`].get.parameters.map((p: any) => p.name)).toEqual(['projectId', 'warehouseId', 'period']);
  });
});
