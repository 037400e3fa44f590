// late_settlement (c): which (contract, month) pairs are late on a given day, worked out by hand with
// the calendar: a month's settlement is due by the last day of the following month.
import { describe, expect, it } from 'vitest';
import { lastDayOf, lateSettlements, lateSettlementWarning, monthsCovered, nextMonth, settlementDue } from './late-settlement.ts';

describe('late settlement (c): the due day', () => {
  it('is the last day of the following month, across year ends and leap years', () => {
    expect(settlementDue('2026-06')).toBe('2026-07-31');
    expect(settlementDue('2026-08')).toBe('2026-09-30');
    // December → January of the next year
    expect(settlementDue('2026-12')).toBe('2027-01-31');
    // November → December
    expect(settlementDue('2026-11')).toBe('2026-12-31');
    // January → February: 28 days in 2027, 29 in 2028 (divisible by 4), 28 in 2100 (by 100, not 400), 29 in 2000 (by 400)
    expect(settlementDue('2027-01')).toBe('2027-02-28');
    expect(settlementDue('2028-01')).toBe('2028-02-29');
    expect(settlementDue('2100-01')).toBe('2100-02-28');
    expect(settlementDue('2000-01')).toBe('2000-02-29');
    expect(settlementDue('2026-13')).toBeNull();
    expect(settlementDue('2026-6')).toBeNull();
  });

  it('counts months and their last days', () => {
    expect(nextMonth('2026-09')).toBe('2026-10');
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(lastDayOf('2026-04')).toBe('2026-04-30');
    expect(monthsCovered('2026-11-20', '2027-01-05')).toEqual(['2026-11', '2026-12', '2027-01']);
    expect(monthsCovered('2026-06-01', '2026-06-30')).toEqual(['2026-06']);
    expect(monthsCovered('2026-07-01', '2026-06-30')).toEqual([]);
  });
});

describe('late settlement (c): late months', () => {
  const contract = { contract: 'A', active: ['2026-06', '2026-07', '2026-08'], settled: ['2026-07'] };

  it('a month is late from the day after the end of the following month', () => {
    // June is due by 31 July: on 31 July nothing is late yet, on 1 August June is
    expect(lateSettlements([contract], '2026-07-31')).toEqual([]);
    expect(lateSettlements([contract], '2026-08-01')).toEqual([{ contract: 'A', month: '2026-06', due: '2026-07-31' }]);
    // July is settled; August is due by 30 September
    expect(lateSettlements([contract], '2026-09-30')).toEqual([{ contract: 'A', month: '2026-06', due: '2026-07-31' }]);
    expect(lateSettlements([contract], '2026-10-01')).toEqual([
      { contract: 'A', month: '2026-06', due: '2026-07-31' },
      { contract: 'A', month: '2026-08', due: '2026-09-30' },
    ]);
  });

  it('across the year end: December is due by 31 January', () => {
    const december = { contract: 'B', active: ['2026-12', '2026-12'], settled: [] };
    expect(lateSettlements([december], '2027-01-31')).toEqual([]);
    expect(lateSettlements([december], '2027-02-01')).toEqual([{ contract: 'B', month: '2026-12', due: '2027-01-31' }]);
    // November's settlement is due on 31 December and late on 1 January
    expect(lateSettlements([{ contract: 'C', active: ['2026-11'], settled: [] }], '2027-01-01')).toEqual([
      { contract: 'C', month: '2026-11', due: '2026-12-31' },
    ]);
    // January 2028's is due on 29 February (a leap year) and late on 1 March
    expect(lateSettlements([{ contract: 'D', active: ['2028-01'], settled: [] }], '2028-02-29')).toEqual([]);
    expect(lateSettlements([{ contract: 'D', active: ['2028-01'], settled: [] }], '2028-03-01')).toEqual([
      { contract: 'D', month: '2028-01', due: '2028-02-29' },
    ]);
  });

  it('takes a time after the day, sorts months, lists each once and skips malformed months and contracts without activity', () => {
    const messy = { contract: 'E', active: ['2026-09', 'bad', '2026-05', '2026-09'], settled: [] };
    expect(lateSettlements([{ contract: 'Z', active: [], settled: ['2026-01'] }, messy], '2026-11-24 09:30:00')).toEqual([
      { contract: 'E', month: '2026-05', due: '2026-06-30' },
      { contract: 'E', month: '2026-09', due: '2026-10-31' },
    ]);
  });

  it('names the month, the activity and the due day in both languages', () => {
    const w = lateSettlementWarning(
      { contract: 'A', month: '2026-06', due: '2026-07-31' },
      { zh: '材料验收单', en: 'Goods-received checks' },
    );
    expect(w).toEqual({
      warnType: 'late_settlement',
      warnLevel: 'warning',
      period: '2026-06',
      message: {
        zh: '2026-06 有材料验收单,截至 2026-07-31 仍无该期结算',
        en: 'Goods-received checks in 2026-06, but no settlement for that period by 2026-07-31',
        ref: {
          key: 'warning.unsettled',
          params: { month: '2026-06', due: '2026-07-31', activity: { zh: '材料验收单', en: 'Goods-received checks' } },
        },
      },
    });
  });
});
