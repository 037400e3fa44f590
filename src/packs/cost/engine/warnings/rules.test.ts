// The warning rules with worked examples (expected numbers computed by hand).
import { describe as group, expect, it } from 'vitest';
import {
  amountCapWarnings,
  blocking,
  DEFAULT_WARN_SETTINGS as S,
  demandWarnings,
  describe,
  leaseOverdueWarnings,
  priceWarnings,
  procureOverTotalWarnings,
  procureWarnings,
  quantityCapWarnings,
  settlementAmountWarnings,
  stockWarnings,
  supplementaryWarnings,
  supplyWarnings,
  timelinessWarnings,
} from './rules.ts';

group('R-DEM-1 monthly demand against the total demand plan', () => {
  const figures = new Map([
    ['steel', { planned: 1000, taken: 700 }],
    ['cement', { planned: 200, taken: 0 }],
  ]);

  it('passes up to the plan, warns above it, is critical above 110 %', () => {
    expect(demandWarnings([{ id: '1', goodsId: 'steel', name: 'HRB400 Φ25', qty: 300 }], figures, S)).toEqual([]);
    // 700 + 350 = 1050 > 1000: 105 %
    const [w] = demandWarnings([{ id: '1', goodsId: 'steel', name: 'HRB400 Φ25', qty: 350 }], figures, S);
    expect(w).toMatchObject({
      warnType: 'exceed_total_demand',
      warnLevel: 'warning',
      sourceDetailId: '1',
      goodsId: 'steel',
      thresholdValue: 1000,
      actualValue: 1050,
    });
    expect(w.message.zh).toBe('HRB400 Φ25:累计月度需用 1050 超过总需用计划 1000(105%)');
    expect(w.message.en).toBe('HRB400 Φ25: cumulative monthly demand 1050 exceeds the total demand plan 1000 (105 %)');
    // 110 % exactly is still a warning, 1100.0001 is critical
    expect(demandWarnings([{ goodsId: 'steel', name: 's', qty: 400 }], figures, S)[0].warnLevel).toBe('warning');
    expect(demandWarnings([{ goodsId: 'steel', name: 's', qty: '400.0001' }], figures, S)[0]).toMatchObject({
      warnLevel: 'critical',
      actualValue: 1100.0001,
    });
  });

  it('lines of one goods accumulate in the document; goods off the plan are unplanned', () => {
    const warnings = demandWarnings(
      [
        { id: 'a', goodsId: 'cement', name: 'P.O 42.5', qty: 150 },
        { id: 'b', goodsId: 'cement', name: 'P.O 42.5', qty: 60 },
        { id: 'c', goodsId: 'sand', name: '中砂', qty: 10 },
      ],
      figures,
      S,
    );
    expect(warnings.map((w) => [w.sourceDetailId, w.warnType, w.actualValue])).toEqual([
      ['b', 'exceed_total_demand', 210],
      ['c', 'unplanned_goods', 10],
    ]);
    expect(warnings[1].message).toEqual({
      zh: '中砂 不在总需用计划中',
      en: '中砂 is not in the total demand plan',
      ref: { key: 'warning.unplanned', params: { goods: '中砂' } },
    });
  });

  it('decimal-exact: 0.1 + 0.2 of a plan of 0.3 is not over it', () => {
    expect(demandWarnings([{ goodsId: 'x', name: 'x', qty: 0.2 }], new Map([['x', { planned: 0.3, taken: 0.1 }]]), S)).toEqual([]);
  });
});

group('R-PRO-1 / R-SUP-1 against the upstream line', () => {
  it('procurement over its monthly demand line, and over the total plan', () => {
    const [w] = procureWarnings([{ id: 'p1', goodsId: 'g', name: '钢筋', qty: 30, limit: 100, taken: 80, upstreamId: 'd1' }]);
    expect(w).toMatchObject({ warnType: 'exceed_monthly_demand', thresholdValue: 100, actualValue: 110 });
    expect(w.message.zh).toBe('钢筋:累计采购 110 超过月度需用计划 100');
    expect(procureWarnings([{ goodsId: 'g', name: '钢筋', qty: 20, limit: 100, taken: 80, upstreamId: 'd1' }])).toEqual([]);
    const [t] = procureOverTotalWarnings([{ goodsId: 'g', name: '钢筋', qty: 30 }], new Map([['g', { planned: 100, taken: 80 }]]), S);
    expect(t.message.en).toBe('钢筋: cumulative procurement 110 exceeds the total demand plan 100 (110 %)');
    // a procurement of goods the plan lacks is not flagged again (the monthly demand already was)
    expect(procureOverTotalWarnings([{ goodsId: 'h', name: 'x', qty: 1 }], new Map(), S)).toEqual([]);
  });

  it('batches over the procurement line', () => {
    const lines = [
      { id: 'b1', goodsId: 'g', name: '钢筋', qty: 40, limit: 100, taken: 50, upstreamId: 'p1' },
      { id: 'b2', goodsId: 'g', name: '钢筋', qty: 20, limit: 100, taken: 50, upstreamId: 'p1' },
    ];
    expect(supplyWarnings(lines).map((w) => [w.sourceDetailId, w.warnType, w.actualValue])).toEqual([['b2', 'exceed_procure', 110]]);
  });
});

group('R-CAP settlement caps', () => {
  it('R-CAP-1: goods lines are critical, work items a warning', () => {
    const warnings = quantityCapWarnings([
      { id: '1', goodsId: 'g', name: '商品混凝土 C30', qty: 50, cumulativeQty: 1000.5, contractQty: 1000 },
      { id: '2', name: '土方开挖', qty: 50, cumulativeQty: 1200, contractQty: 1000 },
      { id: '3', name: '模板', qty: 5, cumulativeQty: 1000, contractQty: 1000 },
      { id: '4', name: '零星用工', qty: 5, cumulativeQty: 5, contractQty: null },
    ]);
    expect(warnings.map((w) => [w.sourceDetailId, w.warnLevel, w.actualValue, w.thresholdValue])).toEqual([
      ['1', 'critical', 1000.5, 1000],
      ['2', 'warning', 1200, 1000],
    ]);
  });

  it('R-CAP-3: from 90 % near, over 100 % critical', () => {
    expect(amountCapWarnings(899999.99, 1000000, S)).toEqual([]);
    const [near] = amountCapWarnings(900000, 1000000, S);
    expect(near).toMatchObject({ warnType: 'near_contract_amount', warnLevel: 'warning' });
    // the list's ratio (actual ÷ base) is the figure the text quotes, 97.73 % of 1,000,000 — not 97.73 ÷ 90
    const [quoted] = amountCapWarnings(977300, 1000000, S);
    expect(quoted).toMatchObject({ actualValue: 977300, baseValue: 1000000 });
    expect(quoted.message.zh).toContain('的 97.73%');
    expect(near.message.zh).toBe('累计结算金额 900,000.00 元已达合同金额 1,000,000.00 元的 90%(预警线 90%)');
    expect(amountCapWarnings(1000000, 1000000, S)[0].warnType).toBe('near_contract_amount');
    const [over] = amountCapWarnings(1000000.01, 1000000, S);
    expect(over).toMatchObject({ warnType: 'exceed_contract_amount', warnLevel: 'critical', actualValue: 1000000.01 });
    expect(over.message.en).toBe('Cumulative settled amount 1,000,000.01 exceeds the contract amount 1,000,000.00 (100 %)');
    expect(amountCapWarnings(5, null, S)).toEqual([]);
  });

  it('R-SUPP: supplementary agreements above 15 % of the original', () => {
    expect(supplementaryWarnings(1000000, 150000, S)).toEqual([]);
    const [w] = supplementaryWarnings(1000000, 150000.01, S);
    expect(w).toMatchObject({ warnType: 'exceed_supplementary', thresholdValue: 1000000, actualValue: 150000.01 });
    expect(w.message.zh).toBe('补充协议累计金额 150,000.01 元超过原合同金额 1,000,000.00 元的 15%(15%)');
    expect(supplementaryWarnings(1000000, 200000, { ...S, supplementaryPercent: 25 })).toEqual([]);
  });
});

group('settlement quality and timeliness', () => {
  it('negative and zero settlements', () => {
    expect(settlementAmountWarnings(-1200)[0]).toMatchObject({ warnType: 'negative_settlement', actualValue: -1200 });
    expect(settlementAmountWarnings(0)[0]).toMatchObject({ warnType: 'zero_settlement', warnLevel: 'info' });
    expect(settlementAmountWarnings(0.01)).toEqual([]);
  });

  it('late: a span over 3 months, a period other than the month prepared', () => {
    expect(timelinessWarnings({ period: '2026-06', startDate: '2026-03-01', endDate: '2026-06-01', preparedMonth: '2026-06' }, S)).toEqual(
      [],
    );
    const [w] = timelinessWarnings({ period: '2026-06', startDate: '2026-03-01', endDate: '2026-06-02', preparedMonth: '2026-08' }, S);
    expect(w.message.zh).toBe('结算期间 2026-03-01 至 2026-06-02 超过 3 个月;结算期次 2026-06 与编制月份 2026-08 不一致');
    expect(w.message.en).toBe(
      'The settlement period 2026-03-01 to 2026-06-02 is longer than 3 month(s); Settlement period 2026-06 differs from the month it was prepared, 2026-08',
    );
  });

  it('lease overdue past the contract end date', () => {
    expect(leaseOverdueWarnings('2026-10-31', '2026-10-31')).toEqual([]);
    expect(leaseOverdueWarnings('2026-11-01', '2026-10-31')[0].message.zh).toBe(
      '结算截止日期 2026-11-01 已超过租赁合同结束日期 2026-10-31',
    );
    expect(leaseOverdueWarnings('2026-11-01', null)).toEqual([]);
  });
});

group('stock and prices', () => {
  it("R-STOCK-4: stock below the month's demand is a tip", () => {
    expect(stockWarnings([{ goodsId: 'g', name: '钢筋', qty: 50, stock: 50 }])).toEqual([]);
    expect(stockWarnings([{ id: '9', goodsId: 'g', name: '钢筋', qty: 50, stock: 12.5 }])[0]).toMatchObject({
      warnType: 'stock_shortage',
      warnLevel: 'info',
      actualValue: 12.5,
      thresholdValue: 50,
    });
  });

  it('R-PRICE: over the reference price + 5 %', () => {
    // 4,000 × 1.05 = 4,200
    expect(priceWarnings([{ goodsId: 'g', name: '钢筋', qty: 1, price: 4200, referencePrice: 4000 }], S)).toEqual([]);
    const [w] = priceWarnings([{ goodsId: 'g', name: '钢筋', qty: 1, price: 4200.01, referencePrice: 4000 }], S);
    expect(w).toMatchObject({ warnType: 'price_over_reference', warnLevel: 'info', thresholdValue: 4200, actualValue: 4200.01 });
    expect(w.message.zh).toBe('钢筋:单价 4200.01 超过参考价 4000 的 5%(上限 4200)');
    expect(priceWarnings([{ goodsId: 'g', name: 'x', qty: 1, price: 9, referencePrice: null }], S)).toEqual([]);
  });
});

it('hard control blocks on critical warnings only, and names them', () => {
  const warnings = [...amountCapWarnings(1100, 1000, S), ...settlementAmountWarnings(0)];
  expect(blocking(warnings, S)).toEqual([]);
  const blocked = blocking(warnings, { ...S, hardControl: true });
  expect(blocked.map((w) => w.warnType)).toEqual(['exceed_contract_amount']);
  expect(describe(blocked).zh).toBe('[超合同金额(累计结算)] 累计结算金额 1,100.00 元超过合同金额 1,000.00 元(110%)');
});
