import { describe, expect, it } from 'vitest';
import {
  approvalDurations,
  daysBetween,
  isMonth,
  lastCompleteMonth,
  monthEnd,
  settlementTimeliness,
  shouldSettle,
  warnAge,
  warningSummary,
  type ContractState,
  type ExpectedContract,
  type FlaggedSettlement,
} from './panels.ts';

const LEVELS = ['critical', 'warning', 'info'];

describe('warnings panel', () => {
  it('ages by whole days: ≤ 7, 8–30, over 30', () => {
    expect(daysBetween('2026-11-17', '2026-11-24')).toBe(7);
    expect(warnAge('2026-11-17', '2026-11-24')).toBe('upTo7');
    expect(warnAge('2026-11-16', '2026-11-24')).toBe('upTo30'); // 8 days
    expect(warnAge('2026-10-25', '2026-11-24')).toBe('upTo30'); // 30 days
    expect(warnAge('2026-10-24', '2026-11-24')).toBe('over30'); // 31 days
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2); // a leap year
  });

  it('counts by type and level; open and ageing only for unread and read ones', () => {
    const answer = warningSummary(
      '7',
      [
        { warnType: 'late_settlement', warnLevel: 'warning', warnStatus: 'unread', createDate: '2026-11-20', count: 2 },
        { warnType: 'late_settlement', warnLevel: 'critical', warnStatus: 'read', createDate: '2026-09-01', count: 1 },
        { warnType: 'late_settlement', warnLevel: 'warning', warnStatus: 'handled', createDate: '2026-09-01', count: 4 },
        { warnType: 'exceed_budget', warnLevel: 'critical', warnStatus: 'unread', createDate: '2026-11-10', count: 1 },
        { warnType: 'zero_settlement', warnLevel: 'info', warnStatus: 'ignored', createDate: '2026-11-23', count: 3 },
      ],
      '2026-11-24',
      LEVELS,
      new Map([
        ['late_settlement', '结算不及时'],
        ['exceed_budget', '超成本预算'],
      ]),
    );
    // late: 2 + 1 + 4 = 7, open 2 + 1 = 3 (4 days and 84 days old); budget: 1 open, 14 days; zero: 3, none open
    expect(answer.rows).toEqual([
      {
        warnType: 'late_settlement',
        warnTypeName: '结算不及时',
        total: 7,
        levels: { critical: 1, warning: 6, info: 0 },
        open: 3,
        unread: 2,
        ages: { upTo7: 2, upTo30: 0, over30: 1 },
      },
      {
        warnType: 'exceed_budget',
        warnTypeName: '超成本预算',
        total: 1,
        levels: { critical: 1, warning: 0, info: 0 },
        open: 1,
        unread: 1,
        ages: { upTo7: 0, upTo30: 1, over30: 0 },
      },
      {
        warnType: 'zero_settlement',
        warnTypeName: 'zero_settlement',
        total: 3,
        levels: { critical: 0, warning: 0, info: 3 },
        open: 0,
        unread: 0,
        ages: { upTo7: 0, upTo30: 0, over30: 0 },
      },
    ]);
    expect(answer.total).toEqual({
      warnType: null,
      warnTypeName: null,
      total: 11,
      levels: { critical: 2, warning: 6, info: 3 },
      open: 4,
      unread: 3,
      ages: { upTo7: 2, upTo30: 1, over30: 1 },
    });
    expect(warningSummary(null, [], '2026-11-24', LEVELS, new Map()).total.total).toBe(0);
  });
});

describe('settlement timeliness', () => {
  it('months: the last complete one, its last day, and what a month looks like', () => {
    expect(lastCompleteMonth('2026-11-24')).toBe('2026-10');
    expect(lastCompleteMonth('2027-01-01')).toBe('2026-12');
    expect(monthEnd('2026-02')).toBe('2026-02-28');
    expect(monthEnd('2028-02')).toBe('2028-02-29');
    expect(monthEnd('2026-12')).toBe('2026-12-31');
    expect(isMonth('2026-10')).toBe(true);
    expect(['2026-13', '2026-1', '26-10', '2026-10-01', ''].some(isMonth)).toBe(false);
  });

  it('approval days per kind: the mean and the longest to 1 place', () => {
    const durations = approvalDurations([
      // 1 day 12 h = 1.5; 3 days 6 h = 3.25; 2 h = 0.0833…
      { entity: 'labour', entityName: '劳务结算', submitted: '2026-10-02 09:00:00', approved: '2026-10-03 21:00:00' },
      { entity: 'labour', entityName: '劳务结算', submitted: '2026-10-05 08:00:00', approved: '2026-10-08 14:00:00' },
      { entity: 'sub', entityName: '分包结算', submitted: '2026-10-31 23:00:00', approved: '2026-11-01 01:00:00' },
    ]);
    // labour: (1.5 + 3.25) / 2 = 2.375 → 2.4; max 3.25 → 3.3 (half up); sub: 0.0833 → 0.1
    expect(durations).toEqual([
      { entity: 'labour', entityName: '劳务结算', count: 2, averageDays: 2.4, maxDays: 3.3 },
      { entity: 'sub', entityName: '分包结算', count: 1, averageDays: 0.1, maxDays: 0.1 },
    ]);
  });

  it('expected vs settled by type, the contracts that did not settle, zero and negative settlements', () => {
    const contract = (code: string, type: string, settled: boolean, lastSettledPeriod: string | null = null): ExpectedContract => ({
      contractId: code,
      code,
      name: `${code} 合同`,
      projectId: '1',
      projectName: '江北',
      expenditureContractType: type,
      expenditureContractTypeName: type,
      subcontractorName: null,
      signDate: '2026-01-01',
      lastSettledPeriod,
      settled,
    });
    const s = (code: string, amount: number | string, payable: number | null): FlaggedSettlement => ({
      entity: 'sub',
      entityName: '分包结算',
      id: code,
      code,
      expenditureContractCode: 'C1',
      contractName: 'C1 合同',
      approvalStatus: 'approved',
      thisAmountInclTax: amount,
      thisPayableAmount: payable,
    });
    const answer = settlementTimeliness(
      '1',
      '2026-10',
      [
        contract('C1', 'labor', true),
        contract('C2', 'labor', false, '2026-09'),
        contract('C3', 'subcontract', false, null),
        contract('C4', 'subcontract', false, '2026-07'),
      ],
      [s('S1', 0, 0), s('S2', -500, -400), s('S3', 1000, -10), s('S4', '0.00', null), s('S5', 20, 16)],
      [],
    );
    // 1 of 4 settled = 25 %
    expect(answer).toMatchObject({ month: '2026-10', monthEnd: '2026-10-31', expected: 4, settled: 1, settleRate: 25 });
    expect(answer.byType).toEqual([
      { expenditureContractType: 'labor', expenditureContractTypeName: 'labor', expected: 2, settled: 1 },
      { expenditureContractType: 'subcontract', expenditureContractTypeName: 'subcontract', expected: 2, settled: 0 },
    ]);
    // never settled first, then the longest since
    expect(answer.missing.map((c) => c.code)).toEqual(['C3', 'C4', 'C2']);
    expect(answer.zero.map((x) => x.code)).toEqual(['S1', 'S4']);
    expect(answer.negative.map((x) => x.code)).toEqual(['S2', 'S3']);
    expect(settlementTimeliness(null, '2026-10', [], [], []).settleRate).toBeNull();
  });
});

describe('which contracts should have settled a month', () => {
  const c = (over: Partial<ContractState> = {}): ContractState => ({
    performance: 'performing',
    settlementState: 'partial',
    parentContract: null,
    signDate: '2026-10-31',
    startDate: '2026-10-31',
    ...over,
  });
  it('performing main contracts signed and on site by the month end, not finally settled', () => {
    expect(shouldSettle(c(), '2026-10-31')).toBe(true);
    expect(shouldSettle(c({ signDate: null, startDate: null, settlementState: null }), '2026-10-31')).toBe(true);
    expect(shouldSettle(c({ signDate: '2026-11-01' }), '2026-10-31')).toBe(false);
    expect(shouldSettle(c({ startDate: '2026-11-01' }), '2026-10-31')).toBe(false);
    expect(shouldSettle(c({ performance: 'completed' }), '2026-10-31')).toBe(false);
    expect(shouldSettle(c({ performance: 'not_started' }), '2026-10-31')).toBe(false);
    expect(shouldSettle(c({ settlementState: 'final' }), '2026-10-31')).toBe(false);
    expect(shouldSettle(c({ parentContract: 'ZCHT-001' }), '2026-10-31')).toBe(false);
  });
});
