// Line formulas that read their header and sum over their sibling rows, through the real settlement
// schemas exactly as the server stores them. Expected numbers computed by hand.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { applyComputed } from './apply.ts';

const { catalog } = compiledSchemaSet();
/** A record as applyComputed returns it: fields, and its detail rows under `details`. */
interface Row {
  details?: Row[];
  [field: string]: unknown;
}
const computed = (key: string, record: Row) => applyComputed(catalog.entities[key], record) as Row & { details: Row[] };

describe('turnover rent: qtyDays = openingQty × the header period days (R-RENT-2, no movement)', () => {
  const header = { startDate: '2026-06-01', endDate: '2026-06-30', rentDayRule: 'both', taxRate: 9 };

  it('charges 30 days of June for each item on site, and rent follows exactly', () => {
    // 1200 m × 30 = 36000 m·days × 0.012 = 432.00; 350.5 × 30 = 10515 × 0.0135 = 141.9525 → 141.95
    const out = computed('materialTurnoverMonthlySettlement', {
      ...header,
      details: [
        { goodsId: '1', openingQty: 1200, dailyRate: 0.012 },
        { goodsId: '2', openingQty: 350.5, dailyRate: 0.0135 },
      ],
    });
    expect(out.periodDays).toBe(30);
    expect(out.details.map((r: Row) => [r.qtyDays, r.rentAmount])).toEqual([
      [36000, 432],
      [10515, 141.95],
    ]);
    expect(out.rentAmount).toBe(573.95);
  });

  it('counts the period by the rent day rule: June 1–30 with neither end charged is 28 days', () => {
    const out = computed('materialTurnoverMonthlySettlement', {
      ...header,
      rentDayRule: 'neither',
      details: [{ goodsId: '1', openingQty: 10 }],
    });
    expect(out.details[0].qtyDays).toBe(280);
  });

  it('keeps a quantity × days the clerk typed (items moved in the month)', () => {
    const out = computed('materialTurnoverMonthlySettlement', {
      ...header,
      details: [{ goodsId: '1', openingQty: 100, qtyDays: 2150.5, dailyRate: 0.02 }],
    });
    expect(out.details[0]).toMatchObject({ qtyDays: 2150.5, rentAmount: 43.01 });
  });

  it('takes the header tax rate on lines without their own: 113 incl. 9 % → 103.67 excl.', () => {
    // 376.67 × 30 × 0.01 = 113.001 → 113.00; 113 / 1.09 = 103.669… → 103.67; a 13 % line: 113 / 1.13 = 100
    const out = computed('materialTurnoverMonthlySettlement', {
      ...header,
      details: [
        { goodsId: '1', openingQty: 376.67, dailyRate: 0.01 },
        { goodsId: '2', openingQty: 376.67, dailyRate: 0.01, taxRate: 13 },
      ],
    });
    expect(out.details.map((r: Row) => [r.taxRate, r.amountInclTax, r.amountExclTax, r.taxAmount])).toEqual([
      [9, 113, 103.67, 9.33],
      [13, 113, 100, 13],
    ]);
  });

  it('leaves qtyDays empty-as-zero while the period is not set', () => {
    const out = computed('materialTurnoverMonthlySettlement', { details: [{ goodsId: '1', openingQty: 100, dailyRate: 1 }] });
    expect(out.details[0]).toMatchObject({ qtyDays: 0, rentAmount: 0 });
  });
});

describe('equipment lease: a line without dates is on site the whole period', () => {
  it('bills July 1–31 as 31 days by day, and a mid-month exit by its own date', () => {
    const out = computed('equipmentLeaseMonthlySettlement', {
      startDate: '2026-07-01',
      endDate: '2026-07-31',
      taxRate: 13,
      details: [
        { equipmentName: '挖掘机', leaseMode: 'day', quantity: 1, unitPrice: 1500 },
        { equipmentName: '装载机', leaseMode: 'day', quantity: 2, unitPrice: 800, exitDate: '2026-07-10' },
      ],
    });
    expect(out.details.map((r: Row) => [r.entryDate, r.exitDate, r.billedQty, r.rentAmount, r.taxRate])).toEqual([
      ['2026-07-01', '2026-07-31', 31, 46500, 13],
      ['2026-07-01', '2026-07-10', 10, 16000, 13],
    ]);
  });
});

describe('material settlement: rows of the same goods share one previous cumulative (R-CUM-1)', () => {
  it("each row of a goods shows the goods' cumulative: previous + every row of it this period", () => {
    // goods 1: previous 100 t / 420,000.00; this period 12.5 t (check A) + 7.5 t (check B) at 4,200
    //   → cumulative 120 t, 420,000 + 52,500 + 31,500 = 504,000; remaining 150 − 120 = 30
    const out = computed('materialMonthlySettlement', {
      taxRate: 13,
      details: [
        {
          materialCheckId: '11',
          goodsId: '1',
          thisQty: 12.5,
          thisPrice: 4200,
          previousCumulativeQty: 100,
          previousCumulativeAmount: 420000,
          contractQty: 150,
        },
        {
          materialCheckId: '12',
          goodsId: '2',
          thisQty: 3,
          thisPrice: 500,
          previousCumulativeQty: 0,
          previousCumulativeAmount: 0,
          contractQty: 10,
        },
        {
          materialCheckId: '13',
          goodsId: '1',
          thisQty: 7.5,
          thisPrice: 4200,
          previousCumulativeQty: 100,
          previousCumulativeAmount: 420000,
          contractQty: 150,
        },
      ],
    });
    expect(out.details.map((r: Row) => [r.amountInclTax, r.cumulativeQty, r.cumulativeAmount, r.remainingQty])).toEqual([
      [52500, 120, 504000, 30],
      [1500, 3, 1500, 7],
      [31500, 120, 504000, 30],
    ]);
    expect(out.lineAmountInclTax).toBe(85500);
  });
});
