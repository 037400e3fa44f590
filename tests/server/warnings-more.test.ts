// The early warnings added for issue #9's remainder, over HTTP as a site's clerk and its managers meet
// them: checks accepting more than a delivery batch brought or a contract bought, a ticket or a check
// line disagreeing with what was delivered (R-REC), a stocktake losing more than 1 % of its book value
// (R-INV-1), a monthly report consuming more than the design quantity and its loss allow (R-VAR), a
// settlement with a negative payable amount, the third near-zero one in a row or one approved too
// slowly (docs/rules.md#settlement-quality), and expense contracts of a type running past the project's budget for it (R-BUD-1). Each tip is recorded with its type, level, source and project and a message in
// both languages; fixing the document closes it; a critical one refuses submission under hard control.
// Every number is worked out by hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveByTurns, ok, tokenOf, type ContractKeys } from './approval.ts';
import { expenseContract, goods, project, supplier } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const TIPS = '/api/construct/warnTip';
const CHECK = '/api/construct/materialCheck';
const BATCH = '/api/construct/materialBatchSupply';
const INVENTORY = '/api/construct/materialInventory';
const SITUATION = '/api/construct/materialSituation';
const CONTRACT = '/api/construct/expenditureContract';
const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const PARAM = '/api/blade-system/param';

describe.each(databaseKinds())('early warnings of stock, receipts, settlements and budgets on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let approvers: Api[];
  let site: any;
  let store: any;
  let steel: any;
  let vendor: any;
  let purchase: any;

  /** Submits and approves a document: the project manager, then the cost manager when the amount needs them. */
  const approve = (base: string, id: string) => approveByTurns(admin, approvers, base, id);

  const tipsOf = async (sourceId: string) =>
    ok(await admin.get(`${TIPS}/list`, { sourceId, size: '100', ascs: 'warn_type' })).records as any[];
  const openTipsOf = async (sourceId: string, type?: string) =>
    (await tipsOf(sourceId)).filter((t) => (t.warnStatus === 'unread' || t.warnStatus === 'read') && (!type || t.warnType === type));
  /** A tip's message as a Chinese and an English reader get it: "中文 / English". */
  const inBoth = async (tip: any) => `${tip.message} / ${ok(await adminEn.get(`${TIPS}/detail`, { id: tip.id })).message}`;
  /** The tip of a rule, closed by the system once the document no longer raises it. */
  async function expectClosed(sourceId: string, type: string) {
    expect(await openTipsOf(sourceId, type)).toEqual([]);
    const closed = (await tipsOf(sourceId)).filter((t) => t.warnType === type);
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((t) => t.warnStatus === 'handled' && t.handlerName === '系统' && t.handleOpinion.includes('问题已消除'))).toBe(
      true,
    );
  }

  async function setParam(key: string, value: string) {
    const [existing] = ok(await admin.get(`${PARAM}/list`, { paramKey: key })).records;
    ok(await admin.post(`${PARAM}/submit`, { ...(existing ? { id: existing.id } : {}), paramName: key, paramKey: key, paramValue: value }));
  }

  const check = (checkDate: string, acceptedQty: number, line: Record<string, unknown> = {}) => ({
    projectId: site.id,
    warehouseId: store.id,
    checkDate,
    subcontractorId: vendor.id,
    expenditureContractCode: purchase.code,
    materialSource: 'self_purchase',
    inspectorName: '周小军',
    details: [{ goodsId: steel.id, deliveredQty: acceptedQty, acceptedQty, priceInclTax: 4000, taxRate: 13, ...line }],
  });

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    approvers = [client(server, await tokenOf(server, 'manager')), client(server, await tokenOf(server, 'costmgr'))];
    // specialist subcontracts: a budget of 1,200,000
    site = await project(admin, {
      costManagerName: '赵敏',
      costBudgets: [{ expenditureContractType: 'subcontract', budgetAmount: 1200000 }],
    });
    expect(site.costBudgets).toEqual([expect.objectContaining({ expenditureContractType: 'subcontract', budgetAmount: 1200000 })]);
    store = ok(
      await admin.post('/api/construct/warehouse/save', {
        projectId: site.id,
        name: '1#材料库',
        warehouseType: 'project',
        status: 'enabled',
      }),
    );
    steel = await goods(admin, { referencePrice: 4000 });
    vendor = await supplier(admin);
    // a purchase contract of 120 t of steel
    purchase = await expenseContract(admin, site.id, vendor.id, [{ goodsId: steel.id, quantity: 120, priceInclTax: 4000 }]);
  }, 300_000);

  afterAll(async () => server?.dispose());

  let received: any;

  it('R-REC: checks accepting more than the contract line bought, or than the delivery batch brought', async () => {
    const contractLine = purchase.details[0].id;
    // 100 t on the contract line of 120: within it
    received = ok(await admin.post(`${CHECK}/save`, check('2026-05-10', 100, { contractDetailId: contractLine })));
    expect(await openTipsOf(received.id)).toEqual([]);
    await approve(CHECK, received.id);
    // a delivery batch of 60 t; a check accepting 25 + 30.5 of it on its contract line: 100 + 55.5 = 155.5 > 120
    const batch = ok(
      await admin.post(`${BATCH}/save`, {
        projectId: site.id,
        subcontractorId: vendor.id,
        batchNo: 'PC-07',
        supplyDate: '2026-05-12',
        supplyStatus: 'pending',
        details: [{ goodsId: steel.id, supplyQty: 60, price: 4000 }],
      }),
    );
    const batchLine = batch.details[0].id;
    const second = ok(
      await admin.post(`${CHECK}/save`, {
        ...check('2026-05-15', 25),
        materialBatchSupplyId: batch.id,
        details: [
          {
            goodsId: steel.id,
            deliveredQty: 25,
            acceptedQty: 25,
            priceInclTax: 4000,
            taxRate: 13,
            batchDetailId: batchLine,
            contractDetailId: contractLine,
          },
          {
            goodsId: steel.id,
            deliveredQty: 40,
            acceptedQty: 35.5,
            priceInclTax: 4000,
            taxRate: 13,
            batchDetailId: batchLine,
            contractDetailId: contractLine,
          },
        ],
      }),
    );
    // batch: 25 + 35.5 = 60.5 > 60 on the second line; contract: 100 + 25 = 125 > 120 already on the first, 160.5 on the second
    const tips = (await openTipsOf(second.id)).sort((a, b) => a.warnType.localeCompare(b.warnType) || a.actualValue - b.actualValue);
    expect(tips.map((t) => [t.warnType, t.warnLevel, t.sourceDetailId, t.thresholdValue, t.actualValue])).toEqual([
      ['exceed_contract_qty', 'warning', second.details[0].id, 120, 125],
      ['exceed_contract_qty', 'warning', second.details[1].id, 120, 160.5],
      ['exceed_supply', 'warning', second.details[1].id, 60, 60.5],
    ]);
    const supply = tips[2];
    expect(supply).toMatchObject({
      projectId: site.id,
      sourceEntity: 'materialCheck',
      sourceId: second.id,
      sourceCode: second.code,
      goodsId: steel.id,
      warnStatus: 'unread',
    });
    expect(await inBoth(supply)).toBe(
      `螺纹钢:累计验收合格 60.5 超过批次供应量 60 / 螺纹钢: cumulative accepted quantity 60.5 exceeds the delivery batch's supply 60`,
    );
    expect(await inBoth(tips[0])).toBe(
      '螺纹钢:累计验收合格 125 超过合同数量 120 / 螺纹钢: cumulative accepted quantity 125 exceeds the contract quantity 120',
    );
    // within both: 10 + 10 on the batch, 100 + 20 on the contract
    ok(
      await admin.post(`${CHECK}/update`, {
        ...second,
        details: [
          { ...second.details[0], deliveredQty: 10, acceptedQty: 10 },
          { ...second.details[1], deliveredQty: 10, acceptedQty: 10 },
        ],
      }),
    );
    await expectClosed(second.id, 'exceed_supply');
    await expectClosed(second.id, 'exceed_contract_qty');
    ok(await admin.post(`${CHECK}/remove`, undefined, { ids: second.id }));
  });

  it('R-REC-1: a ticket receiving more than was delivered, a check returning more than it rejected', async () => {
    const ticket = {
      projectId: site.id,
      warehouseId: store.id,
      subcontractorId: vendor.id,
      goodsId: steel.id,
      deliveryNoteNo: 'XP-0521-07',
      receiveTime: '2026-05-21 08:30:00',
      deliveredQty: 31,
      receivedQty: 31.5,
      receiverName: '周小军',
      voucherStatus: 'draft',
    };
    const saved = ok(await admin.post('/api/construct/materialReceiveVoucher/save', ticket));
    const [tip] = await openTipsOf(saved.id);
    expect(tip).toMatchObject({
      warnType: 'receipt_mismatch',
      warnLevel: 'warning',
      projectId: site.id,
      sourceEntity: 'materialReceiveVoucher',
      goodsId: steel.id,
      thresholdValue: 31,
      actualValue: 31.5,
    });
    expect(await inBoth(tip)).toBe(
      '螺纹钢:实收数量 31.5 超过送货数量 31 / 螺纹钢: received quantity 31.5 exceeds the delivered quantity 31',
    );
    ok(await admin.post('/api/construct/materialReceiveVoucher/update', { ...saved, receivedQty: 30.8 }));
    await expectClosed(saved.id, 'receipt_mismatch');
    // delivered 20, accepted 18: rejected 2, returned 3
    const returning = ok(
      await admin.post(`${CHECK}/save`, {
        ...check('2026-05-21', 18),
        details: [{ goodsId: steel.id, deliveredQty: 20, acceptedQty: 18, returnedQty: 3, priceInclTax: 4000, taxRate: 13 }],
      }),
    );
    const [line] = await openTipsOf(returning.id);
    expect(line).toMatchObject({
      warnType: 'receipt_mismatch',
      sourceDetailId: returning.details[0].id,
      thresholdValue: 2,
      actualValue: 3,
    });
    expect(await inBoth(line)).toBe('螺纹钢:退货数量 3 超过不合格数量 2 / 螺纹钢: returned quantity 3 exceeds the rejected quantity 2');
    ok(await admin.post(`${CHECK}/update`, { ...returning, details: [{ ...returning.details[0], returnedQty: 2 }] }));
    await expectClosed(returning.id, 'receipt_mismatch');
    ok(await admin.post(`${CHECK}/remove`, undefined, { ids: returning.id }));
  });

  it('R-INV-1: a stocktake losing more than 1 % of its book value; a smaller loss closes the tip', async () => {
    // book 100 t at 4,000 (400,000); counted 98.5: a loss of 1.5 t = 6,000 > 1 % = 4,000
    const count = ok(
      await admin.post(`${INVENTORY}/save`, {
        projectId: site.id,
        warehouseId: store.id,
        inventoryDate: '2026-05-20',
        period: '2026-05',
        handlerName: '周小军',
        details: [{ goodsId: steel.id, countQty: 98.5, diffReason: '钢筋头损耗' }],
      }),
    );
    expect(count.details[0]).toMatchObject({ bookQty: 100, price: 4000, diffQty: -1.5, diffAmount: -6000 });
    const [tip] = await openTipsOf(count.id);
    expect(tip).toMatchObject({
      warnType: 'inventory_loss',
      warnLevel: 'warning',
      projectId: site.id,
      sourceEntity: 'materialInventory',
      sourceId: count.id,
      sourceCode: count.code,
      sourceDetailId: count.details[0].id,
      goodsId: steel.id,
      thresholdValue: 4000,
      actualValue: 6000,
    });
    expect(await inBoth(tip)).toBe(
      '螺纹钢:盘亏 1.5,金额 6,000.00 元,为账面金额 400,000.00 元的 1.5%,超过 1% / 螺纹钢: stocktake loss of 1.5 worth 6,000.00, 1.5 % of the book value 400,000.00, over 1 %',
    );
    // a warning, not critical: hard control lets it be submitted
    await setParam('warn.hardControl', 'true');
    try {
      expect(ok(await admin.post(`${INVENTORY}/submit`, { id: count.id })).approvalStatus).toBe('approving');
    } finally {
      await setParam('warn.hardControl', 'false');
    }
    // withdrawn and recounted: 0.8 t = 3,200 is within 1 %
    const recount = ok(
      await admin.post(`${INVENTORY}/save`, {
        projectId: site.id,
        warehouseId: store.id,
        inventoryDate: '2026-05-20',
        period: '2026-05',
        handlerName: '周小军',
        details: [{ goodsId: steel.id, countQty: 98.5 }],
      }),
    );
    expect((await openTipsOf(recount.id)).map((t) => t.warnType)).toEqual(['inventory_loss']);
    ok(await admin.post(`${INVENTORY}/update`, { ...recount, details: [{ ...recount.details[0], countQty: 99.2 }] }));
    await expectClosed(recount.id, 'inventory_loss');
  });

  it('R-VAR: a monthly report consuming more than the theoretical quantity', async () => {
    // design 50 t, loss 2 %: theoretical 51; consumed 60 at 4,000: over by 9 t = 36,000, 18 % of the design quantity
    const report = ok(
      await admin.post(`${SITUATION}/save`, {
        projectId: site.id,
        warehouseId: store.id,
        period: '2026-05',
        compilerName: '周小军',
        details: [{ goodsId: steel.id, consumedQty: 60, designQty: 50, lossRate: 2 }],
      }),
    );
    expect(report.details[0]).toMatchObject({ consumedQty: 60, consumedAmount: 240000, theoreticalQty: 51, savingQty: -9 });
    const [tip] = await openTipsOf(report.id);
    expect(tip).toMatchObject({
      warnType: 'material_overuse',
      warnLevel: 'warning',
      projectId: site.id,
      sourceEntity: 'materialSituation',
      goodsId: steel.id,
      thresholdValue: 51,
      actualValue: 60,
    });
    expect(await inBoth(tip)).toBe(
      '螺纹钢:本月耗用 60 超过理论消耗量 51(设计用量 50,损耗率 2%),超耗 9,金额 36,000.00 元,超耗率 18% / ' +
        '螺纹钢: consumed 60 this month, over the theoretical quantity 51 (design 50, loss rate 2 %) by 9 worth 36,000.00, an overuse rate of 18 %',
    );
    // consuming exactly the theoretical quantity
    ok(await admin.post(`${SITUATION}/update`, { ...report, details: [{ ...report.details[0], consumedQty: 51 }] }));
    await expectClosed(report.id, 'material_overuse');
  });

  let keys: ContractKeys;
  let subcontract: any;
  let march: any;

  it('§4.15: a negative payable amount, and the third settlement in a row below 1 % of the contract', async () => {
    // 1,000 m³ × 1,000 = 1,000,000 of the 1,200,000 budget (83.33 %): no budget warning
    const team = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京恒通建筑劳务有限公司',
        subcontractorTypes: ['subcontract'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    subcontract = ok(
      await admin.post(`${CONTRACT}/save`, {
        name: '1#楼土建分包合同',
        projectId: site.id,
        subcontractorId: team.id,
        expenditureContractType: 'subcontract',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-01-01',
        startDate: '2026-01-05',
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 3,
        performanceStatus: 'performing',
        settlementStatus: 'none',
        details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 1000, taxRate: 9 }],
      }),
    );
    expect(await openTipsOf(subcontract.id)).toEqual([]);
    await approve(CONTRACT, subcontract.id);
    keys = { projectId: site.id, expenditureContractCode: subcontract.code, subcontractorId: team.id };
    const settlement = (period: string, qty: number, extra: Record<string, unknown> = {}) => ({
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
      ...extra,
    });
    // 1 % of 1,000,000 = 10,000: January 5,000 and February 6,000, approved
    for (const [period, qty] of [
      ['2026-01', 5],
      ['2026-02', 6],
    ] as const) {
      const doc = ok(await admin.post(`${SETTLEMENT}/save`, settlement(period, qty)));
      expect(await openTipsOf(doc.id, 'zero_settlement')).toEqual([]);
      await approve(SETTLEMENT, doc.id);
    }
    // March 9,999: the third in a row; payable r2(9,999 × 80 %) − 3 % retention 299.97 − penalty 8,000 = −300.77
    march = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-03', 9.999, { penaltyAmount: 8000 })));
    expect(march).toMatchObject({ thisAmountInclTax: 9999, retentionAmount: 299.97, thisPayableAmount: -300.77 });
    const [negative] = await openTipsOf(march.id, 'negative_settlement');
    expect(negative).toMatchObject({
      warnLevel: 'warning',
      projectId: site.id,
      sourceEntity: 'subcontractMonthlySettlement',
      sourceId: march.id,
      expenditureContractCode: keys.expenditureContractCode,
      actualValue: -300.77,
    });
    expect(await inBoth(negative)).toBe("本期应付金额 -300.77 元为负数 / This period's payable amount -300.77 is negative");
    const [small] = await openTipsOf(march.id, 'zero_settlement');
    expect(small).toMatchObject({ warnLevel: 'warning', thresholdValue: 10000, actualValue: 9999 });
    expect(await inBoth(small)).toBe(
      '连续 3 期结算金额均低于当前合同金额 1,000,000.00 元的 1%(本期 9,999.00 元) / 3 consecutive settlements each below 1 % of the current contract amount 1,000,000.00 (this period 9,999.00)',
    );
    // without the penalty, and 10 m³ (10,000: not below 1 %)
    ok(
      await admin.post(`${SETTLEMENT}/update`, {
        ...settlement('2026-03', 10),
        id: march.id,
        details: [{ ...march.details[0], thisQty: 10 }],
      }),
    );
    await expectClosed(march.id, 'negative_settlement');
    await expectClosed(march.id, 'zero_settlement');
  });

  it("late (d): an approval that took 8 days is named on the settlement's late tip once approved", async () => {
    // prepared in another month than its period: late already, for that reason alone
    const [before] = await openTipsOf(march.id, 'late_settlement');
    expect(before.message).not.toContain('审批');
    // submitted, then its submission and its first level's task dated 8 days back, as if the manager had taken that long
    const submitted = ok(await admin.post(`${SETTLEMENT}/submit`, { id: march.id }));
    await server.db.query(`UPDATE wf_instance SET start_time = start_time - interval '8 days' WHERE id::text = $1`, [
      submitted.processInstanceId,
    ]);
    await server.db.query(`UPDATE wf_task SET create_time = create_time - interval '8 days' WHERE instance_id::text = $1`, [
      submitted.processInstanceId,
    ]);
    await approve(SETTLEMENT, march.id);
    const [late] = await openTipsOf(march.id, 'late_settlement');
    expect(late.id).toBe(before.id);
    expect(late.message).toContain('结算期次 2026-03 与编制月份');
    expect(late.message).toContain('用时 8 天,超过 3 天');
    expect(late.message).toContain('审批共用时 8 天,超过 7 天');
    expect(await inBoth(late)).toContain('The approval took 8 days in all, more than 7');
  });

  it("R-BUD-1: contracts of a type near and over the project's budget; hard control refuses the critical one", async () => {
    const agreement = (amount: number) => ({
      name: '幕墙专业分包合同',
      projectId: site.id,
      subcontractorId: keys.subcontractorId,
      expenditureContractType: 'subcontract',
      pricingMode: 'fixed_unit_price',
      signDate: '2026-04-01',
      startDate: '2026-04-10',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      performanceStatus: 'performing',
      settlementStatus: 'none',
      details: [{ itemCode: '020101', itemName: '玻璃幕墙', unit: 'm2', quantity: 1, priceInclTax: amount, taxRate: 9 }],
    });
    // 1,000,000 approved + 150,000 = 1,150,000 of 1,200,000: 95.83 %
    const curtain = ok(await admin.post(`${CONTRACT}/save`, agreement(150000)));
    let [tip] = await openTipsOf(curtain.id);
    expect(tip).toMatchObject({
      warnType: 'exceed_budget',
      warnLevel: 'warning',
      projectId: site.id,
      sourceEntity: 'expenditureContract',
      sourceId: curtain.id,
      thresholdValue: 1200000,
      actualValue: 1150000,
    });
    expect(await inBoth(tip)).toBe(
      "专业分包类合同累计 1,150,000.00 元已达项目成本预算 1,200,000.00 元的 95.83%(预警线 90%) / Contracts of type Specialist subcontract total 1,150,000.00, 95.83 % of the project's budget 1,200,000.00 (warning from 90 %)",
    );
    // 250,000: 1,250,000, 104.17 %: critical, the same tip
    const over = ok(
      await admin.post(`${CONTRACT}/update`, {
        ...agreement(250000),
        id: curtain.id,
        details: [{ ...curtain.details[0], priceInclTax: 250000 }],
      }),
    );
    [tip] = await openTipsOf(curtain.id);
    // the tip's ratio is the figure its text quotes: 1,250,000 / 1,200,000 = 104.17 %
    expect(tip).toMatchObject({ warnType: 'exceed_budget', warnLevel: 'critical', actualValue: 1250000, ratio: 104.17 });
    expect(tip.message).toContain('(104.17%)');
    expect(ok(await admin.get(`${CONTRACT}/earlyWarningAuxiliaryData`, { primaryId: curtain.id }))).toMatchObject({
      projectBudgetForType: 1200000,
      otherContractsAmountForType: 1000000,
      budgetUsedRatio: 104.17,
    });
    await setParam('warn.hardControl', 'true');
    try {
      // a draft contract has no number yet: the refusal names its id
      const zh = await admin.post(`${CONTRACT}/submit`, { id: over.id });
      expect(zh.body).toMatchObject({ code: 400, success: false });
      expect(zh.body.msg).toBe(
        `预警硬控制已开启,支出合同 ${over.code ?? over.id} 不能提交:[超成本预算] 专业分包类合同累计 1,250,000.00 元超过项目成本预算 1,200,000.00 元(104.17%)`,
      );
      const en = await adminEn.post(`${CONTRACT}/submit`, { id: over.id });
      expect(en.body.msg).toBe(
        `Hard control of warnings is on: Expense contract ${over.code ?? over.id} cannot be submitted: [Over budget] Contracts of type Specialist subcontract total 1,250,000.00, over the project's budget 1,200,000.00 (104.17 %)`,
      );
      expect(ok(await admin.get(`${CONTRACT}/detail`, { id: over.id })).approvalStatus).toBe('draft');
      // 100,000: 1,100,000 (91.67 %) is a warning, which does not block
      const fixed = ok(
        await admin.post(`${CONTRACT}/submit`, {
          ...agreement(100000),
          id: over.id,
          details: [{ ...over.details[0], priceInclTax: 100000 }],
        }),
      );
      expect(fixed.approvalStatus).toBe('approving');
      expect((await openTipsOf(over.id)).map((t) => [t.warnType, t.warnLevel, t.actualValue])).toEqual([
        ['exceed_budget', 'warning', 1100000],
      ]);
    } finally {
      await setParam('warn.hardControl', 'false');
    }
    // a type without a budget line is not checked
    expect((await openTipsOf(purchase.id)).filter((t) => t.warnType === 'exceed_budget')).toEqual([]);
    expect(ok(await admin.get(`${CONTRACT}/earlyWarningAuxiliaryData`, { primaryId: purchase.id }))).toMatchObject({
      projectBudgetForType: null,
      budgetUsedRatio: null,
    });
  });
});
