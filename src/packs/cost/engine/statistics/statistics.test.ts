import { describe, expect, it } from 'vitest';
import { addSums, NO_INCOME, percent, projectFigures, statisticsRow, type ContractSums } from './statistics.ts';

const sums = (over: Partial<ContractSums> = {}): ContractSums => ({
  contractCount: 1,
  contractAmount: 0,
  changeAmount: 0,
  currentAmount: 0,
  settledAmountInclTax: 0,
  settledAmountExclTax: 0,
  payableAmount: 0,
  retentionHeld: 0,
  paidAmount: null,
  ...over,
});

describe('project statistics figures', () => {
  it('rates are percentages rounded half-up to 2 places, null without a base', () => {
    expect(percent(90000, 320000)).toBe(28.13); // 28.125
    expect(percent(1, 3)).toBe(33.33);
    expect(percent(2, 3)).toBe(66.67);
    expect(percent(-5000, 40000)).toBe(-12.5);
    expect(percent(100, 0)).toBeNull();
    expect(percent(100, null)).toBeNull();
  });

  it('adds amounts exactly, beyond what a double holds', () => {
    const total = addSums([
      sums({ currentAmount: '9007199254740993.01' }),
      sums({ currentAmount: 0.02 }),
      sums({ currentAmount: 0.1, settledAmountInclTax: 0.2 }),
    ]);
    expect(total.currentAmount).toBe('9007199254740993.13');
    expect(total.settledAmountInclTax).toBe(0.2);
    expect(total.contractCount).toBe(3);
  });

  it('paid stays empty until a payment is recorded, and a recorded zero counts', () => {
    expect(addSums([sums(), sums()]).paidAmount).toBeNull();
    expect(addSums([sums(), sums({ paidAmount: 0 })]).paidAmount).toBe(0);
    expect(addSums([sums({ paidAmount: 1000.5 }), sums({ paidAmount: 0.25 })]).paidAmount).toBe(1000.75);
  });

  it('a row: remaining, settled share, and the plan only where there is one', () => {
    const row = statisticsRow(
      'subcontract',
      '专业分包',
      sums({ currentAmount: 320000, settledAmountInclTax: 90000, settledAmountExclTax: 82568.81 }),
      null,
    );
    expect(row).toMatchObject({
      remainingContractAmount: 230000,
      settleRate: 28.13,
      budgetAmount: null,
      budgetBalance: null,
      budgetUsageRate: null,
    });
    // settled beyond the contract: remaining goes negative
    expect(statisticsRow(null, null, sums({ currentAmount: 100, settledAmountInclTax: 120.5 }), 1000)).toMatchObject({
      remainingContractAmount: -20.5,
      settleRate: 120.5,
      budgetBalance: 900,
    });
  });

  it('a project over its target cost shows by how much', () => {
    const p = projectFigures({ id: '1', name: '管廊', targetCost: 50000 }, sums({ settledAmountExclTax: 55045.87 }), null);
    expect(p).toMatchObject({ costOverPlan: 5045.87, costUsageRate: 110.09, incomeAmount: null });
    expect(projectFigures({ id: '2', name: '无目标成本', targetCost: null }, sums(), NO_INCOME)).toMatchObject({
      costOverPlan: null,
      costUsageRate: null,
      incomeAmount: 0,
      grossProfit: 0,
      marginRate: null,
    });
  });

  it('margin: measured output excl. tax less settled cost excl. tax, against the output', () => {
    // 275,229.36 − 82,568.81 = 192,660.55; ÷ 275,229.36 = 69.99999… % → 70.00
    const income = { ...NO_INCOME, currentAmount: 1250000, measuredAmount: 300000, measuredAmountExclTax: 275229.36 };
    expect(projectFigures({ id: '1', name: '江北', targetCost: 1000000 }, sums({ settledAmountExclTax: 82568.81 }), income)).toMatchObject({
      incomeAmount: 1250000,
      measuredAmountExclTax: 275229.36,
      grossProfit: 192660.55,
      marginRate: 70,
    });
    // no income readable: no margin at all
    expect(projectFigures({ id: '2', name: '管廊', targetCost: null }, sums({ settledAmountExclTax: 10 }), null)).toMatchObject({
      measuredAmountExclTax: null,
      grossProfit: null,
      marginRate: null,
    });
  });
});
