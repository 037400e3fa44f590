// The monthly cost trend regrouped by cost category (docs/rules.md#cost-categories): concrete, lease and formwork
// contracts are material cost, scaffold a measure, equipment leases machinery. Sums by hand below.
import { describe, expect, it } from 'vitest';
import { costCategoryOf, costTrend, trendByCostCategory } from './dashboards.ts';

const names = new Map([
  ['material', '材料采购'],
  ['concrete', '商品混凝土'],
  ['scaffold', '脚手架'],
  ['labor', '劳务分包'],
]);

describe('the cost trend by cost category', () => {
  it('maps every expense-contract type to its category, an unknown one to other', () => {
    expect(
      [
        'labor',
        'subcontract',
        'material',
        'concrete',
        'turnover_lease',
        'aluminum_formwork',
        'equipment_lease',
        'scaffold',
        'other',
        'new_kind',
      ].map(costCategoryOf),
    ).toEqual(['labor', 'subcontract', 'material', 'material', 'material', 'material', 'equipment', 'measure', 'other', 'other']);
  });

  it('adds the types of one category month by month, keeping totals and the running total', () => {
    const byType = costTrend(
      '1',
      [
        { month: '2026-05', type: 'material', amount: 1000.1 },
        { month: '2026-05', type: 'concrete', amount: 2000.2 },
        { month: '2026-06', type: 'concrete', amount: 0.05 },
        { month: '2026-06', type: 'scaffold', amount: 300 },
        { month: '2026-06', type: 'labor', amount: 5000 },
      ],
      names,
    );
    const byCategory = trendByCostCategory(byType, 'zh');
    expect(byCategory.months).toEqual(['2026-05', '2026-06']);
    // material: May 1,000.10 + 2,000.20 = 3,000.30, June 0.05; labour 0 / 5,000; measures 0 / 300 — the biggest first
    expect(byCategory.series).toEqual([
      { expenditureContractType: 'labor', expenditureContractTypeName: '人工费', amounts: [0, 5000] },
      { expenditureContractType: 'material', expenditureContractTypeName: '材料费', amounts: [3000.3, 0.05] },
      { expenditureContractType: 'measure', expenditureContractTypeName: '措施费', amounts: [0, 300] },
    ]);
    expect([byCategory.totals, byCategory.cumulative]).toEqual([byType.totals, byType.cumulative]);
    expect(byCategory.totals).toEqual([3000.3, 5300.05]);
    expect(trendByCostCategory(byType, 'en').series.map((s) => s.expenditureContractTypeName)).toEqual(['Labour', 'Materials', 'Measures']);
  });
});
