// The warning rules added for issue #9's remainder — R-INV-1, R-VAR, R-REC, R-BUD-1 and the settlement
// quality checks (docs/rules.md#settlement-quality) — with worked examples whose expected numbers are computed by hand.
import { describe as group, expect, it } from 'vitest';
import {
  acceptanceWarnings,
  blocking,
  budgetWarnings,
  DEFAULT_WARN_SETTINGS as S,
  inventoryLossWarnings,
  overuseWarnings,
  receiptOverContractWarnings,
  receiptOverSupplyWarnings,
  settlementAmountWarnings,
  smallSettlementWarnings,
  ticketWarnings,
  timelinessWarnings,
} from './rules.ts';

group('R-INV-1 stocktake loss above 1 % of the book value', () => {
  it("compares the loss amount with the line's book value", () => {
    // book 100 t × 4,000 = 400,000; 1 % = 4,000. Counted 98.5: loss 1.5 t = 6,000 > 4,000
    const [w] = inventoryLossWarnings([{ id: 'l1', goodsId: 'g', name: '螺纹钢', qty: 0, bookQty: 100, countQty: 98.5, price: 4000 }], S);
    expect(w).toMatchObject({
      warnType: 'inventory_loss',
      warnLevel: 'warning',
      sourceDetailId: 'l1',
      goodsId: 'g',
      thresholdValue: 4000,
      actualValue: 6000,
      // the ratio is measured against the book value (1.5 %), not against the 1 % limit (150 %)
      baseValue: 400000,
    });
    expect(w.message.zh).toBe('螺纹钢:盘亏 1.5,金额 6,000.00 元,为账面金额 400,000.00 元的 1.5%,超过 1%');
    expect(w.message.en).toBe('螺纹钢: stocktake loss of 1.5 worth 6,000.00, 1.5 % of the book value 400,000.00, over 1 %');
    // 0.8 t = 3,200 and exactly 1 t = 4,000 are within 1 %; a gain is no loss
    for (const countQty of [99.2, 99, 101])
      expect(inventoryLossWarnings([{ goodsId: 'g', name: 'x', qty: 0, bookQty: 100, countQty, price: 4000 }], S)).toEqual([]);
  });

  it('rounds the values to the cent before comparing (decimal-exact)', () => {
    // book 3 × 33.3333 = 99.9999 → 100.00, 1 % = 1.00; loss 0.03 × 33.3333 = 0.999999 → 1.00: not above
    expect(inventoryLossWarnings([{ goodsId: 'g', name: 'x', qty: 0, bookQty: 3, countQty: 2.97, price: 33.3333 }], S)).toEqual([]);
    // loss 0.04 × 33.3333 = 1.333332 → 1.33 > 1.00
    expect(inventoryLossWarnings([{ goodsId: 'g', name: 'x', qty: 0, bookQty: 3, countQty: 2.96, price: 33.3333 }], S)[0]).toMatchObject({
      thresholdValue: 1,
      actualValue: 1.33,
    });
  });

  it('without a book price, compares quantities; the % is a parameter', () => {
    // book 50, 1 % = 0.5; loss 0.6
    const [w] = inventoryLossWarnings([{ goodsId: 'g', name: '中砂', qty: 0, bookQty: 50, countQty: 49.4, price: null }], S);
    expect(w).toMatchObject({ thresholdValue: 0.5, actualValue: 0.6, baseValue: 50 });
    expect(w.message.en).toBe('中砂: stocktake loss of 0.6, 1.2 % of the book quantity 50, over 1 %');
    expect(
      inventoryLossWarnings([{ goodsId: 'g', name: '中砂', qty: 0, bookQty: 50, countQty: 49.4 }], { ...S, inventoryLossPercent: 2 }),
    ).toEqual([]);
  });
});

group('R-VAR material overuse against the theoretical quantity', () => {
  it('Th = D × (1 + L/100); overuse below 0 % raises a warning with the amount', () => {
    // D 100, L 2 %: Th 102. A 103: saving −1 t, rate −1 %; amount 1 × 4,000
    const [w] = overuseWarnings([{ id: 'r1', goodsId: 'g', name: '螺纹钢', qty: 103, designQty: 100, lossRate: 2, price: 4000 }], S);
    expect(w).toMatchObject({
      warnType: 'material_overuse',
      warnLevel: 'warning',
      sourceDetailId: 'r1',
      thresholdValue: 102,
      actualValue: 103,
    });
    expect(w.message.zh).toBe('螺纹钢:本月耗用 103 超过理论消耗量 102(设计用量 100,损耗率 2%),超耗 1,金额 4,000.00 元,超耗率 1%');
    expect(w.message.en).toBe(
      '螺纹钢: consumed 103 this month, over the theoretical quantity 102 (design 100, loss rate 2 %) by 1 worth 4,000.00, an overuse rate of 1 %',
    );
    // consumption at the theoretical quantity, or without a design quantity: nothing
    expect(overuseWarnings([{ goodsId: 'g', name: 'x', qty: 102, designQty: 100, lossRate: 2, price: 4000 }], S)).toEqual([]);
    expect(overuseWarnings([{ goodsId: 'g', name: 'x', qty: 500, designQty: null, price: 4000 }], S)).toEqual([]);
  });

  it('a tolerance %: only an overuse rate beyond it is flagged', () => {
    const line = (qty: number) => ({ goodsId: 'g', name: 'x', qty, designQty: 100, lossRate: 2 });
    expect(overuseWarnings([line(103)], { ...S, overusePercent: 2 })).toEqual([]);
    // 104.5: rate −2.5 %
    expect(overuseWarnings([line(104.5)], { ...S, overusePercent: 2 })[0].message.en).toContain('by 2.5, an overuse rate of 2.5 %');
  });

  it('rounds Th to 4 places, the rate and amount to 2', () => {
    // D 3, L 1.5: Th 3.045; A 3.1: −0.055; rate −0.055 / 3 = −1.8333 % → 1.83; 0.055 × 33.3333 = 1.8333315 → 1.83
    const [w] = overuseWarnings([{ goodsId: 'g', name: 'x', qty: 3.1, designQty: 3, lossRate: 1.5, price: 33.3333 }], S);
    expect(w).toMatchObject({ thresholdValue: 3.045, actualValue: 3.1 });
    expect(w.message.zh).toContain('超耗 0.055,金额 1.83 元,超耗率 1.83%');
  });
});

group('R-REC receiving against supply and the contract', () => {
  it('accepted quantities accumulate on a batch line and on a contract line', () => {
    const lines = [
      { id: 'c1', goodsId: 'g', name: '螺纹钢', qty: 30, limit: 60, taken: 25, upstreamId: 'b1' },
      { id: 'c2', goodsId: 'g', name: '螺纹钢', qty: 5.5, limit: 60, taken: 25, upstreamId: 'b1' },
    ];
    // 25 + 30 = 55; + 5.5 = 60.5 > 60
    const [w] = receiptOverSupplyWarnings(lines);
    expect(w).toMatchObject({
      warnType: 'exceed_supply',
      warnLevel: 'warning',
      sourceDetailId: 'c2',
      thresholdValue: 60,
      actualValue: 60.5,
    });
    expect(w.message.zh).toBe('螺纹钢:累计验收合格 60.5 超过批次供应量 60');
    const [c] = receiptOverContractWarnings([
      { id: 'c1', goodsId: 'g', name: '螺纹钢', qty: 30, limit: 500, taken: 470.0001, upstreamId: 'k1' },
    ]);
    expect(c).toMatchObject({ warnType: 'exceed_contract_qty', warnLevel: 'warning', actualValue: 500.0001 });
    expect(c.message.en).toBe('螺纹钢: cumulative accepted quantity 500.0001 exceeds the contract quantity 500');
    expect(receiptOverContractWarnings([{ goodsId: 'g', name: 'x', qty: 30, limit: 500, taken: 470, upstreamId: 'k1' }])).toEqual([]);
  });
});

group('R-REC-1 a ticket and a check line agree with what was delivered', () => {
  it('a ticket receives at most what was delivered, or the net weight when weighed', () => {
    expect(ticketWarnings([{ goodsId: 'g', name: '商品混凝土 C30', qty: 12, deliveredQty: 12 }])).toEqual([]);
    const [w] = ticketWarnings([{ goodsId: 'g', name: '商品混凝土 C30', qty: 12.5, deliveredQty: 12 }]);
    expect(w).toMatchObject({ warnType: 'receipt_mismatch', warnLevel: 'warning', thresholdValue: 12, actualValue: 12.5 });
    expect(w.message.zh).toBe('商品混凝土 C30:实收数量 12.5 超过送货数量 12');
    // weighed: gross 45.32 − tare 15.1 = net 30.22 t; 30.3 received is over it though under the 31 delivered
    expect(ticketWarnings([{ goodsId: 'g', name: '螺纹钢', qty: 30.3, deliveredQty: 31, netWeight: 30.22 }])[0].message.en).toBe(
      '螺纹钢: received quantity 30.3 exceeds the weighed net weight 30.22',
    );
  });

  it('a check line accepts at most what arrived and returns at most what was rejected', () => {
    expect(acceptanceWarnings([{ goodsId: 'g', name: '螺纹钢', qty: 58, deliveredQty: 60, returnedQty: 2 }])).toEqual([]);
    // rejected 60 − 58 = 2; 2.5 returned
    const [r] = acceptanceWarnings([{ id: 'l', goodsId: 'g', name: '螺纹钢', qty: 58, deliveredQty: 60, returnedQty: 2.5 }]);
    expect(r).toMatchObject({ warnType: 'receipt_mismatch', sourceDetailId: 'l', thresholdValue: 2, actualValue: 2.5 });
    expect(r.message.zh).toBe('螺纹钢:退货数量 2.5 超过不合格数量 2');
    // accepting more than arrived is named alone
    const over = acceptanceWarnings([{ goodsId: 'g', name: '螺纹钢', qty: 61, deliveredQty: 60, returnedQty: 1 }]);
    expect(over.map((w) => w.message.en)).toEqual(['螺纹钢: accepted quantity 61 exceeds the delivered quantity 60']);
  });
});

group("R-BUD-1 contracts of a type against the project's budget", () => {
  it('from 90 % a warning, over 100 % critical and blocking under hard control', () => {
    expect(budgetWarnings(899999.99, 1000000, { zh: '分包', en: 'Subcontract' }, S)).toEqual([]);
    const [near] = budgetWarnings(950000, 1000000, { zh: '分包', en: 'Subcontract' }, S);
    expect(near).toMatchObject({ warnType: 'exceed_budget', warnLevel: 'warning', thresholdValue: 1000000, actualValue: 950000 });
    expect(near.message.zh).toBe('分包类合同累计 950,000.00 元已达项目成本预算 1,000,000.00 元的 95%(预警线 90%)');
    const [over] = budgetWarnings(1000000.01, 1000000, { zh: '分包', en: 'Subcontract' }, S);
    expect(over).toMatchObject({ warnLevel: 'critical', actualValue: 1000000.01 });
    expect(over.message.en).toBe("Contracts of type Subcontract total 1,000,000.01, over the project's budget 1,000,000.00 (100 %)");
    expect(blocking([over], { ...S, hardControl: true })).toEqual([over]);
    expect(budgetWarnings(5, null, { zh: '分包', en: 'Subcontract' }, S)).toEqual([]);
    expect(budgetWarnings(1, 0, { zh: '分包', en: 'Subcontract' }, S)[0].message.zh).toBe(
      '分包类合同累计 1.00 元超过项目成本预算 0.00 元(∞%)',
    );
  });
});

group('settlement quality', () => {
  it('a negative payable amount is a negative settlement, beside a zero amount', () => {
    expect(settlementAmountWarnings(100, -5)[0]).toMatchObject({ warnType: 'negative_settlement', actualValue: -5 });
    expect(settlementAmountWarnings(100, -5)[0].message.zh).toBe('本期应付金额 -5.00 元为负数');
    expect(settlementAmountWarnings(0, -5).map((w) => w.warnType)).toEqual(['zero_settlement', 'negative_settlement']);
    expect(settlementAmountWarnings(100, 0)).toEqual([]);
  });

  it('three consecutive settlements below 1 % of the contract are a "near-zero" settlement', () => {
    // 1 % of 1,000,000 = 10,000
    const [w] = smallSettlementWarnings([9999.99, 5000, 0], 1000000, S);
    expect(w).toMatchObject({ warnType: 'zero_settlement', warnLevel: 'warning', thresholdValue: 10000, actualValue: 9999.99 });
    expect(w.message.zh).toBe('连续 3 期结算金额均低于当前合同金额 1,000,000.00 元的 1%(本期 9,999.99 元)');
    expect(smallSettlementWarnings([10000, 5000, 0], 1000000, S)).toEqual([]);
    expect(smallSettlementWarnings([9999.99, 5000, 12000], 1000000, S)).toEqual([]);
    expect(smallSettlementWarnings([9999.99, 5000], 1000000, S)).toEqual([]);
    // an exactly zero period is a zero settlement of its own
    expect(smallSettlementWarnings([0, 1, 1], 1000000, S)).toEqual([]);
    expect(smallSettlementWarnings([1, 1], 1000000, { ...S, smallSettlementCount: 2 })).toHaveLength(1);
  });

  it('late (d): a level over 3 days, the whole approval over 7, or not finished in the month submitted', () => {
    const doc = { period: '2026-06', preparedMonth: '2026-06' };
    const fast = {
      submitted: '2026-06-02 09:00:00',
      finished: '2026-06-05 09:00:00',
      steps: [{ name: '项目经理审批', start: '2026-06-02 09:00:00', end: '2026-06-05 09:00:00' }],
    };
    // exactly 3 days at one level and in all: in time
    expect(timelinessWarnings(doc, S, fast)).toEqual([]);
    // 3 days 2 h 24 min = 3.1 days at the first level, 4.9 at the second: 8 days in all, finished in July
    const [w] = timelinessWarnings(doc, S, {
      submitted: '2026-06-26 09:00:00',
      finished: '2026-07-04 09:00:00',
      steps: [
        { name: '项目经理审批', start: '2026-06-26 09:00:00', end: '2026-06-29 11:24:00' },
        { name: '成本经理审批', start: '2026-06-29 11:24:00', end: '2026-07-04 09:00:00' },
      ],
    });
    expect(w).toMatchObject({ warnType: 'late_settlement', warnLevel: 'warning' });
    expect(w.message.zh).toBe(
      '审批环节“项目经理审批”用时 3.1 天,超过 3 天;审批环节“成本经理审批”用时 4.9 天,超过 3 天;审批共用时 8 天,超过 7 天;2026-06-26 提交审批,2026-07-04 才审批完成,未在当月办结',
    );
    expect(w.message.en).toBe(
      'Approval step "项目经理审批" took 3.1 days, more than 3; Approval step "成本经理审批" took 4.9 days, more than 3; The approval took 8 days in all, more than 7; Submitted for approval on 2026-06-26 and approved only on 2026-07-04, not within the month',
    );
    // an approval in time adds nothing to the other reasons
    expect(timelinessWarnings({ period: '2026-05', preparedMonth: '2026-06' }, S, fast)[0].message.zh).toBe(
      '结算期次 2026-05 与编制月份 2026-06 不一致',
    );
  });
});
