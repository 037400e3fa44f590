// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { categoryLabels } from './axis.ts';
import { typeChartOption } from './ProjectStatistics.tsx';

describe('category axes name every category', () => {
  it('every contract type keeps its label under its bars (interval 0); many long English names turn', () => {
    const names = ['Material purchase', 'Turnover material lease', 'Equipment lease', 'Labour subcontract', 'Specialist subcontract'];
    const rows = names.map((n) => ({
      expenditureContractTypeName: n,
      budgetAmount: null,
      currentAmount: 1,
      settledAmountInclTax: 1,
      paidAmount: 1,
    }));
    const option = typeChartOption(rows as never, (k) => k) as { xAxis: { axisLabel: { interval: number; rotate: number } } };
    expect(option.xAxis.axisLabel).toMatchObject({ interval: 0, rotate: 30 });
    expect(categoryLabels(['材料', '租赁'])).toMatchObject({ interval: 0, rotate: 0 });
  });
});
