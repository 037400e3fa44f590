// Early warnings over HTTP, as a project's clerk, its managers and a cost manager meet them: a monthly
// demand over its total plan raises a warning (critical above 110 %), a price over the reference price
// and goods off the plan raise tips; they land in the warning list in both languages, on the document,
// and as a message to the project's responsible users; re-saving does not duplicate them and a fixed
// problem closes them; with hard control on, a critical warning refuses the submission and nothing
// changes. Procurement, delivery, supplementary agreements and settlements raise theirs; the
// earlyWarningAuxiliaryData queries answer the figures; another tenant sees none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateStoredData } from '../../src/server/app.ts';
import { ok, tokenOf } from './approval.ts';
import { demand, demandRow, goods, project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const TIPS = '/api/construct/warnTip';
const TOTAL = '/api/construct/materialTotalDemand';
const MONTHLY = '/api/construct/materialMonthlyDemand';
const PROCURE = '/api/construct/materialMonthlyProcure';
const BATCH = '/api/construct/materialBatchSupply';
const CONTRACT = '/api/construct/expenditureContract';
const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const PARAM = '/api/blade-system/param';
const FLOW = '/api/blade-flow';

describe.each(databaseKinds())('early warnings on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let manager: Api;
  let costmgr: Api;
  let site: any;
  let steel: any;
  let sand: any;
  let plan: any;

  /** Submits and approves a document: the project manager, then the cost manager when the amount needs them. */
  async function approve(base: string, id: string) {
    const current = ok(await admin.get(`${base}/detail`, { id }));
    const submitted = current.approvalStatus === 'approving' ? current : ok(await admin.post(`${base}/submit`, { id }));
    for (let step = 0; step < 3; step++) {
      const status = ok(await admin.get(`${base}/detail`, { id })).approvalStatus;
      if (status === 'approved') return;
      for (const who of [manager, costmgr]) {
        const [task] = ok(await who.get(`${FLOW}/work/claim-list`, { size: '100' })).records.filter(
          (r: any) => r.processInstanceId === submitted.processInstanceId,
        );
        if (!task) continue;
        ok(await who.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
        ok(await who.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '同意' }));
      }
    }
    expect(ok(await admin.get(`${base}/detail`, { id })).approvalStatus).toBe('approved');
  }

  const tipsOf = async (sourceId: string, api: Api = admin) =>
    ok(await api.get(`${TIPS}/list`, { sourceId, size: '100', ascs: 'warn_type' })).records as any[];
  const openTipsOf = async (sourceId: string) =>
    (await tipsOf(sourceId)).filter((t) => t.warnStatus === 'unread' || t.warnStatus === 'read');

  async function setParam(key: string, value: string) {
    const [existing] = ok(await admin.get(`${PARAM}/list`, { paramKey: key })).records;
    ok(await admin.post(`${PARAM}/submit`, { ...(existing ? { id: existing.id } : {}), paramName: key, paramKey: key, paramValue: value }));
  }

  /** A monthly demand of the project on the approved plan: steel at a price, and whatever else. */
  function monthly(steelQty: number, price = 4000, extra: any[] = []) {
    return {
      projectId: site.id,
      materialTotalDemandId: plan.id,
      period: '2026-06',
      demandDate: '2026-05-25',
      compilerName: '张工',
      details: [{ goodsId: steel.id, workPart: '1#楼主体', demandQty: steelQty, price, nextMonthEstimateQty: 0 }, ...extra],
    };
  }

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    manager = client(server, await tokenOf(server, 'manager'));
    costmgr = client(server, await tokenOf(server, 'costmgr'));
    // the project's manager is 李建国 (the seeded account manager); its cost manager 赵敏 (costmgr)
    site = await project(admin, { costManagerName: '赵敏' });
    steel = await goods(admin, { referencePrice: 4000 });
    sand = await goods(admin, { name: '中砂', unit: 'm3', referencePrice: 120 });
    // 98.0392… design × 1.02 loss: demandQty 100 t
    plan = await demand(admin, site.id, [demandRow(steel.id, 1000, 4000, { lossRate: 0 })]);
    expect(plan.details[0]).toMatchObject({ demandQty: 1000, effectiveQty: 1000 });
    await approve(TOTAL, plan.id);
  }, 300_000);

  afterAll(async () => server?.dispose());

  let first: any;
  let second: any;

  it('within the plan: no warning; the demand figures answer the plan and what was taken', async () => {
    first = ok(await admin.post(`${MONTHLY}/save`, monthly(700)));
    expect(await openTipsOf(first.id)).toEqual([]);
    await approve(MONTHLY, first.id);
    const figures = ok(
      await admin.get(`${MONTHLY}/earlyWarningAuxiliaryData`, { materialTotalDemandId: plan.id, projectId: site.id, goodsId: steel.id }),
    );
    expect(figures).toMatchObject({
      planned: true,
      totalDemandQty: 1000,
      changeQty: 0,
      effectiveQty: 1000,
      cumulativeMonthlyDemandQty: 700,
      cumulativeProcureQty: 0,
      cumulativeSupplyQty: 0,
      cumulativeReceivedQty: 0,
      stockQty: 0,
      remainingQty: 300,
      usedRatio: 70,
      thresholds: {
        hardControl: false,
        demandCriticalPercent: 110,
        priceTolerancePercent: 5,
        supplementaryPercent: 15,
        nearContractPercent: 90,
      },
    });
    // the total demand answers the same
    expect(ok(await admin.get(`${TOTAL}/earlyWarningAuxiliaryData`, { projectId: site.id, goodsId: steel.id }))).toMatchObject({
      effectiveQty: 1000,
      cumulativeMonthlyDemandQty: 700,
    });
    // goods off the plan
    expect(ok(await admin.get(`${MONTHLY}/earlyWarningAuxiliaryData`, { projectId: site.id, goodsId: sand.id }))).toMatchObject({
      planned: false,
      effectiveQty: null,
      remainingQty: null,
      usedRatio: null,
    });
  });

  it('over the plan, over the reference price and off the plan: tips in both languages, on the list and as a message', async () => {
    const before = ok(await manager.get('/api/blade-message/message/my/list', { size: '100' })).total;
    // 700 + 350 = 1,050 of 1,000: 105 %; 4,200.01 > 4,000 × 1.05
    second = ok(
      await admin.post(`${MONTHLY}/save`, monthly(350, 4200.01, [{ goodsId: sand.id, workPart: '垫层', demandQty: 12, price: 110 }])),
    );
    const tips = await openTipsOf(second.id);
    expect(tips.map((t) => [t.warnType, t.warnLevel, t.thresholdValue ?? null, t.actualValue])).toEqual([
      ['exceed_total_demand', 'warning', 1000, 1050],
      ['price_over_reference', 'info', 4200, 4200.01],
      ['unplanned_goods', 'warning', null, 12],
    ]);
    const over = tips[0];
    expect(over).toMatchObject({
      projectId: site.id,
      sourceEntity: 'materialMonthlyDemand',
      sourceId: second.id,
      sourceCode: second.code,
      sourceDetailId: second.details[0].id,
      goodsId: steel.id,
      ratio: 105,
      warnStatus: 'unread',
    });
    expect(over.message).toBe('螺纹钢:累计月度需用 1050 超过总需用计划 1000(105%)');
    // stored as its key and parameters; each reader gets it in their language (Accept-Language)
    const [stored] = await server.db.query(`SELECT message FROM construct_warn_tip WHERE id = $1`, [over.id]);
    expect(JSON.parse(String(stored.message))).toMatchObject({ key: 'warning.demandOverTotal', params: { goods: '螺纹钢', ratio: 105 } });
    const inEnglish = ok(await adminEn.get(`${TIPS}/detail`, { id: over.id }));
    expect(inEnglish.message).toBe('螺纹钢: cumulative monthly demand 1050 exceeds the total demand plan 1000 (105 %)');
    expect(ok(await adminEn.get(`${TIPS}/list`, { sourceCode: second.code })).records.map((t: any) => t.message)).toContain(
      inEnglish.message,
    );
    // the ratio is the figure the text quotes; a rule without one (off the plan) has none
    expect(tips.map((t) => t.ratio ?? null)).toEqual([105, 105, null]);
    // the document's own warnings, by the list's filters
    expect(ok(await admin.get(`${TIPS}/list`, { sourceCode: second.code })).total).toBe(3);
    // one message to each responsible user, naming the document and every warning
    const inbox = ok(await manager.get('/api/blade-message/message/my/list', { size: '100' }));
    expect(inbox.total).toBe(before + 1);
    const message = inbox.records.find((m: any) => m.title.includes(second.code));
    expect(message).toMatchObject({ type: '3', title: `预警:材料月度需用计划 ${second.code} 触发 3 条预警` });
    const opened = ok(await manager.get('/api/blade-message/message/detail', { id: message.id }));
    expect(opened.content).toContain('[超总需用计划] 螺纹钢:累计月度需用 1050 超过总需用计划 1000(105%)');
    expect(opened.content).not.toContain('cumulative');
    const managerInEnglish = client(server, await tokenOf(server, 'manager'), 'en');
    const openedInEnglish = ok(await managerInEnglish.get('/api/blade-message/message/detail', { id: message.id }));
    expect(openedInEnglish.title).toBe(`Warning: Monthly material demand plan ${second.code} raised 3 warning(s)`);
    expect(openedInEnglish.content.split('\n')[0]).toBe(
      '[Over total demand] 螺纹钢: cumulative monthly demand 1050 exceeds the total demand plan 1000 (105 %)',
    );
    expect(openedInEnglish.content).not.toMatch(/超总需用计划|累计/);
    expect(
      ok(await costmgr.get('/api/blade-message/message/my/list', { size: '100' })).records.some((m: any) => m.title.includes(second.code)),
    ).toBe(true);
    // the clerk is not responsible for the project
    const clerk = client(server, await tokenOf(server, 'clerk'));
    expect(
      ok(await clerk.get('/api/blade-message/message/my/list', { size: '100' })).records.some((m: any) => m.title.includes(second.code)),
    ).toBe(false);
  });

  it('tips and messages written in both languages before keys were stored are migrated at start-up, once', async () => {
    const [over] = await openTipsOf(second.id);
    const former =
      '螺纹钢:累计月度需用 1050 超过总需用计划 1000(105%) / 螺纹钢: cumulative monthly demand 1050 exceeds the total demand plan 1000 (105 %)';
    // as the former code stored it: both languages in one field, no base, the ratio actual ÷ threshold
    await server.db.query(`UPDATE construct_warn_tip SET message = $1, base_value = NULL, ratio = 105 WHERE id = $2`, [former, over.id]);
    await server.db.query(
      `UPDATE construct_warn_tip SET base_value = NULL, ratio = 0 WHERE warn_type = 'unplanned_goods' AND source_id = $1`,
      [second.id],
    );
    expect(await migrateStoredData(server.db, server.ctx.catalog)).toBeGreaterThanOrEqual(2);
    const [stored] = await server.db.query(`SELECT message, base_value AS base FROM construct_warn_tip WHERE id = $1`, [over.id]);
    expect(JSON.parse(String(stored.message))).toMatchObject({ key: 'warning.demandOverTotal', params: { goods: '螺纹钢', ratio: '105' } });
    expect(Number(stored.base)).toBe(1000);
    expect(ok(await adminEn.get(`${TIPS}/detail`, { id: over.id }))).toMatchObject({
      message: '螺纹钢: cumulative monthly demand 1050 exceeds the total demand plan 1000 (105 %)',
      ratio: 105,
    });
    expect(ok(await admin.get(`${TIPS}/detail`, { id: over.id })).message).toBe('螺纹钢:累计月度需用 1050 超过总需用计划 1000(105%)');
    // a rule without a ratio shows none (it showed 0.00 %)
    const unplanned = (await openTipsOf(second.id)).find((t) => t.warnType === 'unplanned_goods');
    expect(unplanned.ratio ?? null).toBeNull();
    // a second start changes nothing
    expect(await migrateStoredData(server.db, server.ctx.catalog)).toBe(0);
  });

  it('an edit form posting a tip back with its words keeps the stored key, so it still reads in each language', async () => {
    const [over] = await openTipsOf(second.id);
    const shown = ok(await adminEn.get(`${TIPS}/detail`, { id: over.id }));
    ok(await adminEn.post(`${TIPS}/update`, { ...shown, handleOpinion: 'checked' }));
    expect(ok(await admin.get(`${TIPS}/detail`, { id: over.id }))).toMatchObject({
      message: '螺纹钢:累计月度需用 1050 超过总需用计划 1000(105%)',
      handleOpinion: 'checked',
    });
  });

  it('re-saving keeps one tip per rule and line; a worse figure updates it; a fixed problem closes it', async () => {
    const body = { ...monthly(350, 4200.01), id: second.id, details: second.details };
    ok(await admin.post(`${MONTHLY}/update`, body));
    ok(await admin.post(`${MONTHLY}/update`, body));
    const tips = await openTipsOf(second.id);
    expect(tips.map((t) => t.warnType)).toEqual(['exceed_total_demand', 'price_over_reference', 'unplanned_goods']);
    const overId = tips[0].id;
    // 700 + 420 = 1,120: 112 % > 110 %: critical, same record
    const worse = ok(
      await admin.post(`${MONTHLY}/update`, { ...body, details: [{ ...second.details[0], demandQty: 420 }, second.details[1]] }),
    );
    const [over] = await openTipsOf(second.id);
    expect(over).toMatchObject({ id: overId, warnLevel: 'critical', actualValue: 1120, ratio: 112 });
    // back within the plan, at the reference price, without the sand: every tip closed by the system
    ok(await admin.post(`${MONTHLY}/update`, { ...body, details: [{ ...worse.details[0], demandQty: 300, price: 4000 }] }));
    expect(await openTipsOf(second.id)).toEqual([]);
    const closed = await tipsOf(second.id);
    expect(closed).toHaveLength(3);
    expect(closed.every((t) => t.warnStatus === 'handled' && t.handlerName === '系统' && t.handleOpinion.includes('问题已消除'))).toBe(
      true,
    );
  });

  it("hard control: a critical warning refuses the submission in the caller's language and nothing changes", async () => {
    // saved at 420 (112 %): the warning is recorded, the save is not refused
    const draft = ok(
      await admin.post(`${MONTHLY}/update`, {
        ...monthly(420),
        id: second.id,
        details: [{ ...second.details[0], demandQty: 420, price: 4000 }],
      }),
    );
    await setParam('warn.hardControl', 'true');
    try {
      const zh = await admin.post(`${MONTHLY}/submit`, { id: draft.id });
      expect(zh.body).toMatchObject({ code: 400, success: false });
      expect(zh.body.msg).toBe(
        `预警硬控制已开启,材料月度需用计划 ${draft.code} 不能提交:[超总需用计划] 螺纹钢:累计月度需用 1120 超过总需用计划 1000(112%)`,
      );
      const en = await adminEn.post(`${MONTHLY}/submit`, { ...draft, remark: 'changed on submit' });
      expect(en.body.msg).toBe(
        `Hard control of warnings is on: Monthly material demand plan ${draft.code} cannot be submitted: [Over total demand] 螺纹钢: cumulative monthly demand 1120 exceeds the total demand plan 1000 (112 %)`,
      );
      const after = ok(await admin.get(`${MONTHLY}/detail`, { id: draft.id }));
      expect(after).toMatchObject({ approvalStatus: 'draft', remark: draft.remark ?? null });
      expect(after.processInstanceId ?? null).toBeNull();
      // a warning below critical does not block: 1,050 (105 %)
      const fixed = ok(
        await admin.post(`${MONTHLY}/submit`, { ...monthly(350), id: draft.id, details: [{ ...draft.details[0], demandQty: 350 }] }),
      );
      expect(fixed.approvalStatus).toBe('approving');
      expect((await openTipsOf(draft.id)).map((t) => [t.warnType, t.warnLevel])).toEqual([['exceed_total_demand', 'warning']]);
    } finally {
      await setParam('warn.hardControl', 'false');
    }
  });

  it('procurement over its monthly demand line, deliveries over the procurement', async () => {
    // first (approved): 700 t on its line; a procurement of 650 + 80 on it
    const line = first.details[0];
    const one = ok(
      await admin.post(`${PROCURE}/save`, {
        projectId: site.id,
        materialMonthlyDemandId: first.id,
        period: '2026-06',
        procureMode: 'project',
        compilerName: '张工',
        details: [{ goodsId: steel.id, monthlyDemandDetailId: line.id, demandQty: 700, procureQty: 650, estimatedPrice: 4000 }],
      }),
    );
    expect(await openTipsOf(one.id)).toEqual([]);
    await approve(PROCURE, one.id);
    const two = ok(
      await admin.post(`${PROCURE}/save`, {
        projectId: site.id,
        materialMonthlyDemandId: first.id,
        period: '2026-06',
        procureMode: 'project',
        compilerName: '张工',
        details: [{ goodsId: steel.id, monthlyDemandDetailId: line.id, demandQty: 700, procureQty: 80, estimatedPrice: 4000 }],
      }),
    );
    const [tip] = await openTipsOf(two.id);
    expect(tip).toMatchObject({ warnType: 'exceed_monthly_demand', thresholdValue: 700, actualValue: 730 });
    expect(tip.message).toContain('螺纹钢:累计采购 730 超过月度需用计划 700');

    const procureLine = ok(await admin.get(`${PROCURE}/detail`, { id: one.id })).details[0];
    const supplier = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京钢材贸易有限公司',
        subcontractorTypes: ['material_supplier'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    const batch = ok(
      await admin.post(`${BATCH}/save`, {
        projectId: site.id,
        materialMonthlyProcureId: one.id,
        subcontractorId: supplier.id,
        batchNo: 'PC-01',
        supplyDate: '2026-06-05',
        supplyStatus: 'pending',
        details: [
          { goodsId: steel.id, procureDetailId: procureLine.id, supplyQty: 400, price: 4000 },
          { goodsId: steel.id, procureDetailId: procureLine.id, supplyQty: 260.5, price: 4000 },
        ],
      }),
    );
    const tips = await openTipsOf(batch.id);
    expect(tips.map((t) => [t.warnType, t.sourceDetailId, t.actualValue, t.thresholdValue])).toEqual([
      ['exceed_procure', batch.details[1].id, 660.5, 650],
    ]);
    expect(ok(await admin.get(`${MONTHLY}/earlyWarningAuxiliaryData`, { projectId: site.id, goodsId: steel.id }))).toMatchObject({
      cumulativeProcureQty: 650,
      cumulativeSupplyQty: 0,
    }); // drafts do not count
  });

  let team: any;
  let original: any;

  it('supplementary agreements over 15 % of the original contract; the contract figures', async () => {
    team = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京恒通建筑劳务有限公司',
        subcontractorTypes: ['subcontract'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    const contract = (name: string, quantity: number, price: number, extra: any = {}) => ({
      name,
      projectId: site.id,
      subcontractorId: team.id,
      expenditureContractType: 'subcontract',
      pricingMode: 'fixed_unit_price',
      signDate: '2026-04-01',
      startDate: '2026-04-10',
      endDate: '2026-12-31',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      performanceStatus: 'performing',
      settlementStatus: 'none',
      details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity, priceInclTax: price, taxRate: 9 }],
      ...extra,
    });
    original = ok(await admin.post(`${CONTRACT}/save`, contract('1#楼土建分包合同', 1000, 1000)));
    await approve(CONTRACT, original.id);
    const first = ok(await admin.post(`${CONTRACT}/save`, contract('补充协议一', 1000, 100, { parentContractCode: original.code })));
    expect(await openTipsOf(first.id)).toEqual([]);
    await approve(CONTRACT, first.id);
    // 100,000 + 50,000.01 > 15 % of 1,000,000
    const second = ok(await admin.post(`${CONTRACT}/save`, contract('补充协议二', 1, 50000.01, { parentContractCode: original.code })));
    expect(second.contractAmount).toBe(50000.01);
    const [tip] = await openTipsOf(second.id);
    expect(tip).toMatchObject({ warnType: 'exceed_supplementary', warnLevel: 'warning', thresholdValue: 1000000, actualValue: 150000.01 });
    // the agreement's tip is its own: it names no other contract (not the one the agreement supplements)
    expect(tip.expenditureContractCode || null).toBeNull();
    expect(tip.message).toContain('补充协议累计金额 150,000.01 元超过原合同金额 1,000,000.00 元的 15%(15%)');
    const figures = ok(await admin.get(`${CONTRACT}/earlyWarningAuxiliaryData`, { primaryId: second.id }));
    expect(figures).toMatchObject({
      contractAmount: 50000.01,
      originalContractCode: original.code,
      originalContractAmount: 1000000,
      supplementaryAmount: 150000.01,
      supplementaryRatio: 15,
      otherContractsAmountForType: 1100000,
    });
    expect(ok(await admin.get(`${CONTRACT}/earlyWarningAuxiliaryData`, { primaryId: original.id }))).toMatchObject({
      currentAmount: 1000000,
      supplementaryAmount: 100000,
      supplementaryRatio: 10,
      cumulativeSettledAmount: 0,
    });
    ok(await admin.post(`${CONTRACT}/remove`, undefined, { ids: second.id }));
    expect(await openTipsOf(second.id)).toEqual([]);
  });

  it("a settlement near and over its contract, over a line's quantity, and prepared in another month", async () => {
    const keys = { projectId: site.id, expenditureContractCode: original.code, subcontractorId: team.id };
    const settlement = (period: string, qty: number) => ({
      ...keys,
      period,
      settlementType: 'interim',
      startDate: `${period}-01`,
      endDate: `${period}-28`,
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      reporterName: '王会计',
      details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', contractQty: 1000, thisQty: qty, thisPrice: 1000, taxRate: 9 }],
    });
    // 900 m³ × 1,000 = 900,000: 90 % of 1,000,000
    const may = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-05', 900)));
    const month = String(may.createTime).slice(0, 7);
    const tips = await openTipsOf(may.id);
    expect(tips.map((t) => [t.warnType, t.warnLevel])).toEqual([
      ['late_settlement', 'warning'],
      ['near_contract_amount', 'warning'],
    ]);
    expect(tips[0].message).toContain(`结算期次 2026-05 与编制月份 ${month} 不一致`);
    expect(tips[1]).toMatchObject({ thresholdValue: 1000000, actualValue: 900000, ratio: 90 });
    await approve(SETTLEMENT, may.id);
    const figures = ok(await admin.get(`${SETTLEMENT}/earlyWarningAuxiliaryData`, { ...keys, period: '2026-06' }));
    expect(figures).toMatchObject({
      currentContractAmount: 1000000,
      previousCumulativeAmount: 900000,
      lastApprovedPeriod: '2026-05',
      approvingExists: false,
      cumulativeRatioBeforeThis: 90,
      lastThreePeriodAmounts: [{ period: '2026-05', amount: 900000 }],
      retentionRate: 3,
      paymentRatio: 80,
    });
    // 900 + 150 = 1,050 m³ of 1,000 (a work item: warning); 1,050,000 of 1,000,000: critical
    const june = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-06', 150)));
    const june3 = await openTipsOf(june.id);
    expect(june3.map((t) => [t.warnType, t.warnLevel, t.actualValue])).toEqual([
      ['exceed_contract_amount', 'critical', 1050000],
      ['exceed_contract_qty', 'warning', 1050],
      ['late_settlement', 'warning', null],
    ]);
    expect(june3[0].message).toContain('累计结算金额 1,050,000.00 元超过合同金额 1,000,000.00 元(105%)');
  });

  it('another tenant sees no tip and no figure of this one', async () => {
    const other = client(server, (await server.newTenant()).token);
    expect(ok(await other.get(`${TIPS}/list`, { sourceId: second.id })).total).toBe(0);
    expect(
      ok(
        await other.get(`${MONTHLY}/earlyWarningAuxiliaryData`, { materialTotalDemandId: plan.id, projectId: site.id, goodsId: steel.id }),
      ),
    ).toMatchObject({ planned: false, cumulativeMonthlyDemandQty: 0 });
    expect((await other.get(`${CONTRACT}/earlyWarningAuxiliaryData`, { primaryId: original.id })).body.code).toBe(404);
    const missing = await adminEn.get(`${MONTHLY}/earlyWarningAuxiliaryData`, { projectId: site.id });
    expect(missing.body).toMatchObject({ code: 400, msg: 'Missing required parameter: goodsId' });
    expect(
      (await admin.get(`${SETTLEMENT}/earlyWarningAuxiliaryData`, { projectId: site.id, expenditureContractCode: "x' or 1=1" })).body.code,
    ).toBe(400);
  });
});
