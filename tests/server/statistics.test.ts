// Project statistics (statisticsData, statisticsDataExport) as a cost manager reads them: in a tenant
// of their own, two projects with approved expense contracts of two kinds, approved subcontract
// settlements and a filing recording what was paid — beside drafts, a settlement in approval and a
// draft filing that must not count. Every expected number is worked out by hand in the comments.
// Approval states are set directly: the workflow that moves them is tested in workflow.test.ts.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demand, demandRow, goods, project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const STATS = '/api/construct/project/statisticsData';
const EXPORT = '/api/construct/project/statisticsDataExport';
const TREND = '/api/construct/project/costTrend';
const FUNNEL = '/api/construct/project/materialFunnel';

function ok(res: { body: any }) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

describe.each(databaseKinds())('project statistics on %s', (kind) => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let admin: Api;
  let a: { id: string; name: string };
  let b: { id: string; name: string };
  /** Approved interim settlements: C1's June one (project A, beside the filing) and C4's May one (project B). */
  let interim: { aJune: string; bMay: string };

  const table = (entity: string) => server.catalog.entities[entity].table;
  /** Moves documents to an approval state (as the workflow would after its steps). */
  const setStatus = (entity: string, ids: string[], status: string) =>
    server.db.query(`UPDATE ${table(entity)} SET approval_status = $1 WHERE id = ANY($2::bigint[])`, [status, ids]);

  async function contract(
    projectId: string,
    subcontractorId: string,
    type: string,
    qty: number,
    price: number,
    extra: Record<string, unknown> = {},
  ) {
    return ok(
      await admin.post('/api/construct/expenditureContract/save', {
        name: `${type} 合同 ${qty}×${price}`,
        projectId,
        subcontractorId,
        expenditureContractType: type,
        pricingMode: 'fixed_unit_price',
        signDate: '2026-04-01',
        startDate: '2026-04-10',
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 3,
        performanceStatus: 'performing',
        settlementStatus: 'none',
        details: [{ itemCode: '010101', itemName: '清单项', unit: 'm3', quantity: qty, priceInclTax: price, taxRate: 9 }],
        ...extra,
      }),
    );
  }

  async function settlement(c: any, period: string, qty: number, price: number) {
    return ok(
      await admin.post('/api/construct/subcontractMonthlySettlement/save', {
        projectId: c.projectId,
        expenditureContractCode: c.code,
        subcontractorId: c.subcontractorId,
        period,
        settlementType: 'interim',
        startDate: `${period}-01`,
        endDate: `${period}-28`,
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 3,
        reporterName: '王会计',
        details: [{ itemCode: '010101', itemName: '清单项', unit: 'm3', contractQty: 1000, thisQty: qty, thisPrice: price, taxRate: 9 }],
      }),
    );
  }

  async function filing(c: any, paid: number) {
    return ok(
      await admin.post('/api/construct/subcontractSettlementFiling/save', {
        projectId: c.projectId,
        expenditureContractCode: c.code,
        subcontractorId: c.subcontractorId,
        reportedAmount: 95000,
        finalAmount: 92000,
        taxRate: 9,
        filingNo: `BA-${paid}`,
        filingDate: '2026-08-20',
        cumulativePaidAmount: paid,
      }),
    );
  }

  beforeAll(async () => {
    server = await startServer(kind);
    tenant = await server.newTenant('统计测试建设集团');
    admin = client(server, tenant.token);
    a = await project(admin, { name: '江北人才公寓二期', targetCost: 1_000_000 });
    b = await project(admin, { name: '星湖街综合管廊', targetCost: 50_000 });
    const team = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京恒通建筑劳务有限公司',
        subcontractorTypes: ['subcontract', 'labor', 'material_supplier'],
        blacklisted: false,
        status: 'enabled',
      }),
    );

    // A: subcontract 1,000 × 300 = 300,000 + 20,000 changes = 320,000; material 200 × 500 = 100,000; a labour draft of 50,000
    const c1 = await contract(a.id, team.id, 'subcontract', 1000, 300, { changeAmount: 20000 });
    const c2 = await contract(a.id, team.id, 'material', 200, 500, { taxRate: 13 });
    const c3 = await contract(a.id, team.id, 'labor', 50, 1000);
    // B: subcontract 100 × 1,000 = 100,000
    const c4 = await contract(b.id, team.id, 'subcontract', 100, 1000);
    await setStatus('expenditureContract', [c1.id, c2.id, c4.id], 'approved');
    expect(c3.approvalStatus).toBe('draft');

    // C1: May 200 × 300 = 60,000 and June 100 × 300 = 30,000 approved; July 15,000 in approval
    const may = await settlement(c1, '2026-05', 200, 300);
    await setStatus('subcontractMonthlySettlement', [may.id], 'approved');
    const june = await settlement(c1, '2026-06', 100, 300);
    await setStatus('subcontractMonthlySettlement', [june.id], 'approved');
    const july = await settlement(c1, '2026-07', 50, 300);
    await setStatus('subcontractMonthlySettlement', [july.id], 'approving');
    // C4: May 60 × 1,000 = 60,000 approved
    const bMay = await settlement(c4, '2026-05', 60, 1000);
    await setStatus('subcontractMonthlySettlement', [bMay.id], 'approved');
    interim = { aJune: june.id, bMay: bMay.id };
    expect([may, june, bMay].map((s) => [s.thisAmountInclTax, s.thisAmountExclTax, s.retentionAmount, s.thisPayableAmount])).toEqual([
      [60000, 55045.87, 1800, 46200],
      [30000, 27522.94, 900, 23100],
      [60000, 55045.87, 1800, 46200],
    ]);
    // paid on C1: 50,000 on an approved filing; 70,000 on a draft one does not count
    const paid = await filing(c1, 50000);
    await filing(c1, 70000);
    await setStatus('subcontractSettlementFiling', [paid.id], 'approved');

    // income of A: 1,200,000 + 50,000 changes, measured 300,000, received 240,000; a draft one of 999,999 does not count
    const incomeContract = (name: string, amount: number, extra: Record<string, unknown> = {}) =>
      admin.post('/api/construct/constructionContract/save', {
        projectId: a.id,
        contractNo: name,
        name,
        contractType: 'general',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-03-01',
        contractAmount: amount,
        taxRate: 9,
        startDate: '2026-03-01',
        endDate: '2027-12-31',
        performanceStatus: 'performing',
        settlementStatus: 'none',
        ...extra,
      });
    const owner = ok(await admin.get('/api/construct/project/detail', { id: a.id })).partyAId;
    const income = ok(
      await incomeContract('施工总承包合同', 1_200_000, {
        partyAId: owner,
        changeAmount: 50000,
        measuredAmount: 300000,
        receivedAmount: 240000,
      }),
    );
    ok(await incomeContract('补充协议(草稿)', 999_999, { partyAId: owner }));
    await setStatus('constructionContract', [income.id], 'approved');
  }, 180_000);

  afterAll(async () => server?.dispose());

  it('one project: by contract type with a totals row, only approved documents counted', async () => {
    const answer = ok(await admin.get(STATS, { projectId: a.id }));
    expect(answer.rows).toEqual([
      {
        expenditureContractType: 'subcontract',
        expenditureContractTypeName: '专业分包',
        contractCount: 1,
        contractAmount: 300000,
        changeAmount: 20000,
        currentAmount: 320000,
        // 60,000 + 30,000; excl. tax 55,045.87 + 27,522.94; payable 46,200 + 23,100; retention 1,800 + 900
        settledAmountInclTax: 90000,
        settledAmountExclTax: 82568.81,
        payableAmount: 69300,
        retentionHeld: 2700,
        paidAmount: 50000,
        // 320,000 − 90,000; 90,000 / 320,000 = 28.125 % → 28.13
        remainingContractAmount: 230000,
        settleRate: 28.13,
        budgetAmount: null,
        budgetBalance: null,
        budgetUsageRate: null,
      },
      {
        expenditureContractType: 'material',
        expenditureContractTypeName: '材料采购',
        contractCount: 1,
        contractAmount: 100000,
        changeAmount: 0,
        currentAmount: 100000,
        settledAmountInclTax: 0,
        settledAmountExclTax: 0,
        payableAmount: 0,
        retentionHeld: 0,
        paidAmount: null,
        remainingContractAmount: 100000,
        settleRate: 0,
        budgetAmount: null,
        budgetBalance: null,
        budgetUsageRate: null,
      },
    ]);
    expect(answer.total).toEqual({
      expenditureContractType: null,
      expenditureContractTypeName: null,
      contractCount: 2,
      contractAmount: 400000,
      changeAmount: 20000,
      currentAmount: 420000,
      settledAmountInclTax: 90000,
      settledAmountExclTax: 82568.81,
      payableAmount: 69300,
      retentionHeld: 2700,
      paidAmount: 50000,
      // 90,000 / 420,000 = 21.4286 %; target cost 1,000,000 − 420,000 contracted; 82,568.81 / 1,000,000 = 8.2569 %
      remainingContractAmount: 330000,
      settleRate: 21.43,
      budgetAmount: 1000000,
      budgetBalance: 580000,
      budgetUsageRate: 8.26,
    });
    // measured 300,000 at 9 % tax: 300,000 ÷ 1.09 = 275,229.357… → 275,229.36
    expect(answer.income).toEqual({
      contractCount: 1,
      contractAmount: 1200000,
      changeAmount: 50000,
      currentAmount: 1250000,
      measuredAmount: 300000,
      measuredAmountExclTax: 275229.36,
      receivedAmount: 240000,
    });
    expect(answer.projects).toEqual([
      {
        projectId: a.id,
        projectName: '江北人才公寓二期',
        targetCost: 1000000,
        incomeAmount: 1250000,
        contractAmount: 420000,
        settledAmountInclTax: 90000,
        settledAmountExclTax: 82568.81,
        payableAmount: 69300,
        paidAmount: 50000,
        costOverPlan: -917431.19,
        costUsageRate: 8.26,
        // gross profit 275,229.36 − 82,568.81 = 192,660.55; margin 192,660.55 ÷ 275,229.36 = 69.99999… % → 70
        measuredAmountExclTax: 275229.36,
        grossProfit: 192660.55,
        marginRate: 70,
      },
    ]);
  });

  it('every project the caller sees, with cost over plan per project', async () => {
    const answer = ok(await admin.get(STATS));
    expect(answer.projectId).toBeNull();
    expect(
      answer.rows.map((r: any) => [
        r.expenditureContractType,
        r.contractCount,
        r.currentAmount,
        r.settledAmountInclTax,
        r.settledAmountExclTax,
        r.payableAmount,
        r.retentionHeld,
        r.paidAmount,
        r.settleRate,
      ]),
    ).toEqual([
      // 320,000 + 100,000; 90,000 + 60,000; 82,568.81 + 55,045.87; 69,300 + 46,200; 2,700 + 1,800; 150,000 / 420,000 = 35.714 %
      ['subcontract', 2, 420000, 150000, 137614.68, 115500, 4500, 50000, 35.71],
      ['material', 1, 100000, 0, 0, 0, 0, null, 0],
    ]);
    // target cost 1,000,000 + 50,000; 1,050,000 − 520,000; 137,614.68 / 1,050,000 = 13.106 %
    expect(answer.total).toMatchObject({
      contractCount: 3,
      currentAmount: 520000,
      settledAmountExclTax: 137614.68,
      budgetAmount: 1050000,
      budgetBalance: 530000,
      budgetUsageRate: 13.11,
    });
    expect(answer.targetCost).toBe(1050000);
    const starHill = answer.projects.find((p: any) => p.projectId === b.id);
    // 55,045.87 settled excl. tax against a target cost of 50,000: 5,045.87 over, 110.09 %
    expect(starHill).toEqual({
      projectId: b.id,
      projectName: '星湖街综合管廊',
      targetCost: 50000,
      incomeAmount: 0,
      contractAmount: 100000,
      settledAmountInclTax: 60000,
      settledAmountExclTax: 55045.87,
      payableAmount: 46200,
      paidAmount: null,
      costOverPlan: 5045.87,
      costUsageRate: 110.09,
      // nothing measured yet: the cost is a loss, with no output to rate it against
      measuredAmountExclTax: 0,
      grossProfit: -55045.87,
      marginRate: null,
    });
  });

  it('paid so far: the largest figure an approved interim settlement or filing records, per contract', async () => {
    const column = server.catalog.entities.subcontractMonthlySettlement.fieldMap.cumulativePaidAmount.column;
    const recordPaid = (id: string, paid: number | null) =>
      server.db.query(`UPDATE ${table('subcontractMonthlySettlement')} SET ${column} = $1 WHERE id = $2`, [paid, id]);
    const paidOf = async (projectId: string) => ok(await admin.get(STATS, { projectId })).total.paidAmount;
    try {
      // C4 has no filing: its May settlement's 30,000 is what B has paid
      await recordPaid(interim.bMay, 30000);
      expect(await paidOf(b.id)).toBe(30000);
      // C1: June's 40,000 is below the approved filing's 50,000, then 65,000 is above it
      await recordPaid(interim.aJune, 40000);
      expect(await paidOf(a.id)).toBe(50000);
      await recordPaid(interim.aJune, 65000);
      expect(await paidOf(a.id)).toBe(65000);
      // every project: 65,000 + 30,000
      expect(ok(await admin.get(STATS)).total.paidAmount).toBe(95000);
    } finally {
      await recordPaid(interim.bMay, null);
      await recordPaid(interim.aJune, null);
    }
  });

  it('one contract type: its row alone, the totals without a target cost to compare', async () => {
    const answer = ok(await admin.get(STATS, { projectId: a.id, expenditureContractType: 'material' }));
    expect(answer.rows.map((r: any) => r.expenditureContractType)).toEqual(['material']);
    expect(answer.total).toMatchObject({ contractCount: 1, currentAmount: 100000, budgetAmount: null, budgetUsageRate: null });
    // a type nothing was contracted for still answers its (empty) row
    const none = ok(await admin.get(STATS, { projectId: a.id, expenditureContractType: 'scaffold' }));
    expect(none.rows).toEqual([
      expect.objectContaining({
        expenditureContractType: 'scaffold',
        expenditureContractTypeName: '脚手架',
        contractCount: 0,
        currentAmount: 0,
        settleRate: null,
      }),
    ]);
  });

  it('the monthly cost trend: settled excl. tax by period and contract type, approved only, with the running total', async () => {
    // A: May 55,045.87 and June 27,522.94 (July's is in approval); B: May 55,045.87
    const one = ok(await admin.get(TREND, { projectId: a.id }));
    expect(one).toEqual({
      projectId: a.id,
      months: ['2026-05', '2026-06'],
      series: [{ expenditureContractType: 'subcontract', expenditureContractTypeName: '专业分包', amounts: [55045.87, 27522.94] }],
      totals: [55045.87, 27522.94],
      cumulative: [55045.87, 82568.81],
    });
    // every project: May 55,045.87 × 2 = 110,091.74; the running total ends at the statistics' settled excl. tax
    const all = ok(await admin.get(TREND));
    expect(all).toMatchObject({
      projectId: null,
      months: ['2026-05', '2026-06'],
      totals: [110091.74, 27522.94],
      cumulative: [110091.74, 137614.68],
    });
    expect(all.cumulative.at(-1)).toBe(ok(await admin.get(STATS)).total.settledAmountExclTax);
  });

  it('the material funnel per goods: the newest approved plan, then approved demand, procurement, supply, and the ledger', async () => {
    const steel = await goods(admin, { name: '螺纹钢', unit: 't' });
    const sand = await goods(admin, { name: '中砂', unit: 'm3' });
    const approve = (entity: string, ...ids: string[]) => setStatus(entity, ids, 'approved');
    // plan v1 (1,000 t) is replaced by v2 (1,200 t and 50 m³ of sand); a draft v3 of 9,999 t does not count
    const v1 = await demand(admin, a.id, [demandRow(steel.id, 1000, 4000, { lossRate: 0 })]);
    const v2 = await demand(admin, a.id, [demandRow(steel.id, 1200, 4000, { lossRate: 0 }), demandRow(sand.id, 50, 110, { lossRate: 0 })], {
      versionNo: 2,
    });
    await approve('materialTotalDemand', v1.id, v2.id);
    await demand(admin, a.id, [demandRow(steel.id, 9999, 4000, { lossRate: 0 })], { versionNo: 3 });
    // monthly demand 700 t approved; 100 t in approval
    const monthly = (qty: number) =>
      admin.post('/api/construct/materialMonthlyDemand/save', {
        projectId: a.id,
        materialTotalDemandId: v2.id,
        period: '2026-06',
        demandDate: '2026-05-25',
        compilerName: '张工',
        details: [{ goodsId: steel.id, workPart: '1#楼主体', demandQty: qty, price: 4000, nextMonthEstimateQty: 0 }],
      });
    const june = ok(await monthly(700));
    await approve('materialMonthlyDemand', june.id);
    await setStatus('materialMonthlyDemand', [ok(await monthly(100)).id], 'approving');
    // procured 650 t; delivered 400 + 200.5 = 600.5 t
    const procured = ok(
      await admin.post('/api/construct/materialMonthlyProcure/save', {
        projectId: a.id,
        materialMonthlyDemandId: june.id,
        period: '2026-06',
        procureMode: 'project',
        compilerName: '张工',
        details: [{ goodsId: steel.id, monthlyDemandDetailId: june.details[0].id, demandQty: 700, procureQty: 650, estimatedPrice: 4000 }],
      }),
    );
    await approve('materialMonthlyProcure', procured.id);
    const supplier = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京钢材贸易有限公司',
        subcontractorTypes: ['material_supplier'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    const batch = ok(
      await admin.post('/api/construct/materialBatchSupply/save', {
        projectId: a.id,
        materialMonthlyProcureId: procured.id,
        subcontractorId: supplier.id,
        batchNo: 'PC-01',
        supplyDate: '2026-06-05',
        supplyStatus: 'pending',
        details: [400, 200.5].map((supplyQty) => ({ goodsId: steel.id, procureDetailId: procured.details[0].id, supplyQty, price: 4000 })),
      }),
    );
    await approve('materialBatchSupply', batch.id);
    // the ledger as approved checks and monthly reports leave it (posting is tested in ledger.test.ts):
    // received 400 + 198 = 598 t, consumed 350.25 t; B's receipt is not A's
    const post = (projectId: string, movement: string, qty: number) =>
      server.db.query(
        `INSERT INTO material_ledger (tenant_id, project_id, warehouse_id, goods_id, month, entry_date, movement, source, qty, amount, doc_entity, doc_id)
       VALUES ($1, $2, 1, $3, '2026-06', '2026-06-10', $4, 'self_purchased', $5::numeric, $5::numeric * 4000, 'test', 1)`,
        [tenant.tenantId, projectId, steel.id, movement, qty],
      );
    await post(a.id, 'receipt', 400);
    await post(a.id, 'receipt', 198);
    await post(a.id, 'consumption', -350.25);
    await post(b.id, 'receipt', 99);

    const funnel = ok(await admin.get(FUNNEL, { projectId: a.id }));
    expect(funnel).toEqual({
      projectId: a.id,
      rows: [
        // by name in Chinese order (pinyin): luówéngāng before zhōngshā
        {
          goodsId: steel.id,
          goodsName: '螺纹钢',
          spec: steel.spec,
          unit: 't',
          planned: 1200,
          monthlyDemand: 700,
          procured: 650,
          supplied: 600.5,
          received: 598,
          consumed: 350.25,
        },
        {
          goodsId: sand.id,
          goodsName: '中砂',
          spec: sand.spec,
          unit: 'm3',
          planned: 50,
          monthlyDemand: 0,
          procured: 0,
          supplied: 0,
          received: 0,
          consumed: 0,
        },
      ],
    });
    // every project: B's 99 t received adds to A's 598
    const all = ok(await admin.get(FUNNEL));
    expect(all.rows.find((r: any) => r.goodsId === steel.id)).toMatchObject({ planned: 1200, received: 697, consumed: 350.25 });
    expect((await admin.get(FUNNEL, { projectId: '12ab' })).status).toBe(400);
    expect((await client(server, await server.token()).get(FUNNEL, { projectId: a.id })).status).toBe(404);
  });

  it("exports the same numbers as .xlsx, headed in the caller's language", async () => {
    const res = await client(server, tenant.token, 'en').get(EXPORT, { projectId: a.id });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('Project statistics-江北人才公寓二期.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.raw as any);
    const [byType, byProject] = book.worksheets;
    const values = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(byType, 1).slice(0, 6)).toEqual([
      'Contract type',
      'Contracts',
      'Contract amount',
      'Changes',
      'Current amount',
      'Settled (incl. tax)',
    ]);
    expect(values(byType, 2).slice(0, 9)).toEqual(['Specialist subcontract', 1, 300000, 20000, 320000, 90000, 82568.81, 69300, 50000]);
    expect(values(byType, 4)).toEqual([
      'Total',
      2,
      400000,
      20000,
      420000,
      90000,
      82568.81,
      69300,
      50000,
      2700,
      330000,
      21.43,
      1000000,
      580000,
      8.26,
    ]);
    expect(values(byProject, 2)).toEqual(['江北人才公寓二期', 1250000, 1000000, 420000, 90000, 82568.81, 69300, 50000, -917431.19, 8.26]);
    // Chinese by default
    const zh = await admin.get(EXPORT, { projectId: a.id });
    const zhBook = new ExcelJS.Workbook();
    await zhBook.xlsx.load(zh.raw as any);
    expect(values(zhBook.worksheets[0], 1)[0]).toBe('合同类别');
    expect(values(zhBook.worksheets[0], 4)[0]).toBe('合计');
  });

  it("refuses bad input with a message in the caller's language, and finds no project of another tenant", async () => {
    const bad = await admin.get(STATS, { projectId: '12ab' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 projectId 不是有效的编号: 12ab');
    const badType = await client(server, tenant.token, 'en').get(STATS, { expenditureContractType: 'spaceship' });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toBe('Invalid value for filter expenditureContractType: spaceship');
    // the platform tenant's administrator does not reach this tenant's project, and its totals hold none of it
    const platform = client(server, await server.token());
    const foreign = await platform.get(STATS, { projectId: a.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.msg).toBe('项目不存在');
    expect(ok(await platform.get(STATS)).projects.map((p: any) => p.projectId)).not.toContain(a.id);
    expect((await client(server).get(STATS)).status).toBe(401);
  });

  it("follows the caller's grants and data scopes", async () => {
    async function userWith(codes: string[], dataScopeIds: string[] = []) {
      const alias = `r${Math.random().toString(36).slice(2, 10)}`;
      const role = ok(await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 }));
      const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
      ok(
        await admin.post('/api/blade-system/role/grant', {
          roleIds: [role.id],
          menuIds: menus.map((m) => m.id),
          dataScopeIds,
          apiScopeIds: [],
        }),
      );
      const user = ok(
        await admin.post('/api/blade-system/user/save', {
          account: alias,
          password: 'secret1',
          name: alias,
          realName: alias,
          roleId: role.id,
          status: 1,
        }),
      );
      return client(
        server,
        await server.tokens.sign({ tenant_id: tenant.tenantId, user_id: user.id, dept_id: '', role_id: role.id, role_name: alias }),
      );
    }
    const projectsOnly = await userWith(['project']);
    const refused = await projectsOnly.get(STATS);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('没有查看支出合同的权限');
    expect((await projectsOnly.get(TREND)).status).toBe(403);
    // the funnel needs projects only; each stage needs its own documents' permission, else it is left out (null)
    const funnel = ok(await projectsOnly.get(FUNNEL, { projectId: a.id }));
    expect(funnel.rows).toEqual([]);
    const plansOnly = ok(await (await userWith(['project', 'material_total_demand'])).get(FUNNEL, { projectId: a.id }));
    expect(plansOnly.rows.map((r: any) => [r.goodsName, r.planned, r.monthlyDemand, r.received])).toEqual([
      ['螺纹钢', 1200, null, null],
      ['中砂', 50, null, null],
    ]);
    expect((await (await userWith([])).get(FUNNEL)).status).toBe(403);

    // expense contracts but not income contracts: the income part is left out, not refused
    const costOnly = ok(await (await userWith(['project', 'expenditure_contract'])).get(STATS, { projectId: a.id }));
    expect(costOnly.income).toBeNull();
    expect(costOnly.projects[0]).toMatchObject({ incomeAmount: null, measuredAmountExclTax: null, grossProfit: null, marginRate: null });
    expect(costOnly.total.currentAmount).toBe(420000);

    // a data scope admitting project B only: A's contracts and settlements are not summed, and A is not found
    const [menu] = await server.db.query(`SELECT id::text AS id FROM blade_menu WHERE code = 'project'`);
    const rule = ok(
      await client(server, await server.token()).post('/api/blade-system/data-scope/save', {
        menuId: menu.id,
        resourceCode: 'project_star_hill',
        scopeName: '仅星湖街项目',
        scopeType: '5',
        scopeValue: JSON.stringify({ name: { _eq: '星湖街综合管廊' } }),
      }),
    );
    const scoped = await userWith(['project', 'expenditure_contract', 'construction_contract'], [rule.id]);
    const answer = ok(await scoped.get(STATS));
    expect(answer.projects.map((p: any) => p.projectId)).toEqual([b.id]);
    expect(answer.total).toMatchObject({ contractCount: 1, currentAmount: 100000, settledAmountInclTax: 60000, budgetAmount: 50000 });
    expect(answer.income).toEqual({
      contractCount: 0,
      contractAmount: 0,
      changeAmount: 0,
      currentAmount: 0,
      measuredAmount: 0,
      measuredAmountExclTax: 0,
      receivedAmount: 0,
    });
    expect((await scoped.get(STATS, { projectId: a.id })).status).toBe(404);
    // the trend of B alone: May 55,045.87
    expect(ok(await scoped.get(TREND))).toMatchObject({ months: ['2026-05'], totals: [55045.87] });
    expect((await scoped.get(TREND, { projectId: a.id })).status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
    expect(doc.paths[STATS].get.parameters.map((p: any) => p.name)).toEqual(['projectId', 'expenditureContractType']);
    expect(doc.paths[TREND].get.parameters.map((p: any) => p.name)).toEqual(['projectId']);
    expect(Object.keys(doc.components.schemas.MaterialFunnelAnswer.properties.rows.items.properties)).toEqual(
      expect.arrayContaining(['planned', 'supplied', 'consumed']),
    );
    expect(doc.paths[EXPORT].get.responses['200'].content).toHaveProperty([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(Object.keys(doc.components.schemas.StatisticsRow.properties)).toEqual(
      expect.arrayContaining(['settledAmountExclTax', 'paidAmount', 'budgetUsageRate']),
    );
  });
  it('a type with a cost budget compares its contracts with it: over budget shows a negative balance, an untouched budget still has its row', async () => {
    // C: budgets subcontract 200,000, labour 100,000, material 150,000 (target cost 500,000)
    const c = await project(admin, {
      name: '预算对比项目',
      targetCost: 500_000,
      costBudgets: [
        { expenditureContractType: 'subcontract', budgetAmount: 200000 },
        { expenditureContractType: 'labor', budgetAmount: 100000 },
        { expenditureContractType: 'material', budgetAmount: 150000 },
      ],
    });
    const team = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京预算专业分包有限公司',
        subcontractorTypes: ['subcontract'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    // 1,000 × 250 = 250,000 contracted against 200,000; May 100 × 250 = 25,000 settled, excl. tax 25,000 ÷ 1.09 = 22,935.779… → 22,935.78
    const sub = await contract(c.id, team.id, 'subcontract', 1000, 250);
    await setStatus('expenditureContract', [sub.id], 'approved');
    const may = await settlement(sub, '2026-05', 100, 250);
    await setStatus('subcontractMonthlySettlement', [may.id], 'approved');

    const answer = ok(await admin.get(STATS, { projectId: c.id }));
    expect(
      answer.rows.map((r: any) => [
        r.expenditureContractType,
        r.contractCount,
        r.currentAmount,
        r.budgetAmount,
        r.budgetBalance,
        r.budgetUsageRate,
      ]),
    ).toEqual([
      // 200,000 − 250,000 = −50,000; 22,935.78 ÷ 200,000 = 11.4679 % → 11.47
      ['subcontract', 1, 250000, 200000, -50000, 11.47],
      ['labor', 0, 0, 100000, 100000, 0],
      ['material', 0, 0, 150000, 150000, 0],
    ]);
    // the totals row keeps the project's target cost: 500,000 − 250,000
    expect(answer.total).toMatchObject({ currentAmount: 250000, budgetAmount: 500000, budgetBalance: 250000 });
    // asked for one type, the totals compare with that type's budget
    const one = ok(await admin.get(STATS, { projectId: c.id, expenditureContractType: 'subcontract' }));
    expect(one.total).toMatchObject({ currentAmount: 250000, budgetAmount: 200000, budgetBalance: -50000, budgetUsageRate: 11.47 });
    const untouched = ok(await admin.get(STATS, { projectId: c.id, expenditureContractType: 'labor' }));
    expect(untouched.rows).toEqual([
      expect.objectContaining({ expenditureContractType: 'labor', contractCount: 0, budgetAmount: 100000, budgetBalance: 100000 }),
    ]);
  });
});
