// The material total demand formulas, run through the compiled model exactly as the server stores them.
// (Tests run in Node and read the real schema files; the engine code itself does no I/O.)
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { applyComputed } from './apply.ts';

const { catalog } = compiledSchemaSet();
const model = catalog.entities.materialTotalDemand;
/** A record as applyComputed returns it: fields, and its detail rows under `details`. */
interface Row {
  details?: Row[];
  [field: string]: unknown;
}

/** Computes a plan with the given lines and returns its rows and header. */
function plan(details: Row[], header: Row = {}) {
  const out = applyComputed(model, { ...header, details });
  return { header: out, rows: out.details as Row[] };
}
const line = (extra: Row) => ({ goodsId: '1', ...extra });

describe('material total demand: demandQty = designQty × (1 + lossRate/100) when not sent', () => {
  it('derives the demand from the design quantity and the loss rate', () => {
    const { rows } = plan([
      line({ designQty: 100, lossRate: 5 }),
      line({ designQty: 0.1, lossRate: 0.5 }),
      line({ designQty: 12345678.9, lossRate: 5 }),
    ]);
    expect(rows.map((r) => r.demandQty)).toEqual([105, 0.1005, 12962962.845]);
  });

  it('rounds the derived demand half-up to 4 decimals', () => {
    // 3 × 1.033333 = 3.099999 → 3.1000; 1.5 × 1.00007 = 1.500105 → 1.5001; 0.3 × 1.00005 = 0.300015 → 0.3000
    const { rows } = plan([
      line({ designQty: 3, lossRate: 3.3333 }),
      line({ designQty: 1.5, lossRate: 0.007 }),
      line({ designQty: 0.3, lossRate: 0.005 }),
    ]);
    expect(rows.map((r) => r.demandQty)).toEqual([3.1, 1.5001, 0.3]);
  });

  it('takes a missing loss rate as zero', () => {
    expect(plan([line({ designQty: 42.5 })]).rows[0].demandQty).toBe(42.5);
  });

  it('keeps a demand quantity the client sent, even 0', () => {
    const { rows } = plan([line({ designQty: 100, lossRate: 5, demandQty: 120 }), line({ designQty: 100, lossRate: 5, demandQty: 0 })]);
    expect(rows[0].demandQty).toBe(120);
    expect(rows[1].demandQty).toBe(0);
  });

  it('derives the demand when the client sent it empty (null or "")', () => {
    const { rows } = plan([line({ designQty: 10, lossRate: 10, demandQty: null }), line({ designQty: 10, lossRate: 10, demandQty: '' })]);
    expect(rows.map((r) => r.demandQty)).toEqual([11, 11]);
  });
});

describe('material total demand: effectiveQty = demandQty + changeQty', () => {
  it('subtracts a negative change', () => {
    const { rows } = plan([line({ designQty: 100, lossRate: 5, changeQty: -10.5 }), line({ designQty: 1, demandQty: 1, changeQty: -3 })]);
    expect(rows[0].effectiveQty).toBe(94.5);
    expect(rows[1].effectiveQty).toBe(-2);
  });

  it('equals the demand when there is no change', () => {
    expect(plan([line({ designQty: 7, demandQty: 8.25 })]).rows[0].effectiveQty).toBe(8.25);
  });

  it('adds decimals exactly (0.1 + 0.2)', () => {
    expect(plan([line({ designQty: 0.1, demandQty: 0.1, changeQty: 0.2 })]).rows[0].effectiveQty).toBe(0.3);
  });

  it('overwrites an effective quantity the client sent', () => {
    expect(plan([line({ designQty: 1, demandQty: 2, changeQty: 3, effectiveQty: 999 })]).rows[0].effectiveQty).toBe(5);
  });
});

describe('material total demand: amount = effectiveQty × budgetPrice, rounded to 2', () => {
  it('multiplies exactly (3 × 0.1 = 0.3)', () => {
    expect(plan([line({ designQty: 3, demandQty: 3, budgetPrice: 0.1 })]).rows[0].amount).toBe(0.3);
  });

  it('rounds half-up at the cent', () => {
    const { rows } = plan([
      line({ designQty: 1, demandQty: 1, budgetPrice: 2.675 }), // 2.675 → 2.68 (floats say 2.67)
      line({ designQty: 1.5, demandQty: 1.5, budgetPrice: 1.783 }), // 2.6745 → 2.67
      line({ designQty: 100, lossRate: 5, changeQty: -10.5, budgetPrice: 3.3333 }), // 94.5 × 3.3333 = 314.99685 → 315
    ]);
    expect(rows.map((r) => r.amount)).toEqual([2.68, 2.67, 315]);
  });

  it('rounds negative amounts (from a negative change) away from zero', () => {
    // (1 − 3) × 1.3375 = −2.675 → −2.68
    expect(plan([line({ designQty: 1, demandQty: 1, changeQty: -3, budgetPrice: 1.3375 })]).rows[0].amount).toBe(-2.68);
  });

  it('keeps every cent of large amounts', () => {
    // 1234567.8912 × 98765.4321 = 121932631231.15378752
    expect(plan([line({ designQty: 1, demandQty: 1234567.8912, budgetPrice: 98765.4321 })]).rows[0].amount).toBe(121932631231.15);
  });

  it('is 0 for a line without a price', () => {
    expect(plan([line({ designQty: 5, demandQty: 5 })]).rows[0].amount).toBe(0);
  });

  it('overwrites an amount the client sent', () => {
    expect(plan([line({ designQty: 2, demandQty: 2, budgetPrice: 10, amount: 999 })]).rows[0].amount).toBe(20);
  });

  it('rounds the inputs to their column scale first, so the amount matches the stored inputs', () => {
    // budgetPrice is numeric(18,4): 2.00005 is stored as 2.0001, and 10 × 2.0001 = 20.001 → 20
    const { rows } = plan([line({ designQty: 1.23456, lossRate: 0, budgetPrice: 2.00005, demandQty: 10 })]);
    expect(rows[0].designQty).toBe(1.2346);
    expect(rows[0].budgetPrice).toBe(2.0001);
    expect(rows[0].amount).toBe(20);
  });
});

describe('material total demand: header totalAmount = sum of the rounded row amounts', () => {
  it('sums the amounts as they are stored (rounded), not the raw products', () => {
    // each line: 1 × 0.005 = 0.005 → 0.01; three lines total 0.03 (the raw sum 0.015 would give 0.02)
    const { header, rows } = plan([0, 1, 2].map(() => line({ designQty: 1, demandQty: 1, budgetPrice: 0.005 })));
    expect(rows.map((r) => r.amount)).toEqual([0.01, 0.01, 0.01]);
    expect(header.totalAmount).toBe(0.03);
  });

  it('adds decimal amounts exactly', () => {
    const { header } = plan([
      line({ designQty: 1, demandQty: 1, budgetPrice: 0.1 }),
      line({ designQty: 1, demandQty: 1, budgetPrice: 0.2 }),
    ]);
    expect(header.totalAmount).toBe(0.3);
  });

  it('includes negative lines', () => {
    const { header } = plan([
      line({ designQty: 10, demandQty: 10, budgetPrice: 2.5 }),
      line({ designQty: 1, demandQty: 1, changeQty: -3, budgetPrice: 1.3375 }),
    ]);
    expect(header.totalAmount).toBe(22.32); // 25 − 2.68
  });

  it('overwrites a totalAmount the client sent', () => {
    const { header } = plan([line({ designQty: 2, demandQty: 2, budgetPrice: 10 })], { totalAmount: 999999 });
    expect(header.totalAmount).toBe(20);
  });

  it('is 0 for a plan without lines', () => {
    expect(plan([], { totalAmount: 5 }).header.totalAmount).toBe(0);
  });

  it('keeps every cent of a large total, as the exact decimal', () => {
    // 3 × 33333333333333.33 = 99999999999999.99: more digits than a double holds, so it travels as a string
    const { header, rows } = plan([line({ designQty: 1, demandQty: '33333333333333.33', budgetPrice: 3 })]);
    expect(String(rows[0].amount)).toBe('99999999999999.99');
    expect(String(header.totalAmount)).toBe('99999999999999.99');
  });
});

describe('applyComputed', () => {
  it('leaves the record the caller passed untouched', () => {
    const input = { totalAmount: 1, details: [line({ designQty: 1, lossRate: 10, budgetPrice: 3 })] };
    const before = structuredClone(input);
    applyComputed(model, input);
    expect(input).toEqual(before);
  });

  it('computes rows in an order where every formula sees its inputs', () => {
    expect(model.details[0].computeOrder).toEqual(['demandQty', 'effectiveQty', 'amount']);
    expect(model.computeOrder).toEqual(['totalAmount']);
  });
});

describe('business formulas (docs/rules.md) built from if, coalesce and date differences', () => {
  // the tests below read `details` only of types that have detail rows
  const compute = (key: string, record: Row) => applyComputed(catalog.entities[key], record) as Row & { details: Row[] };

  it('R-EXAM: the grade follows the weighted total score (≥ 90 A, ≥ 80 B, ≥ 70 C, else D)', () => {
    const scores = (s: number) => ({ qualityScore: s, safetyScore: s, progressScore: s, civilizedScore: s, cooperationScore: s });
    expect([95, 90, 89.99, 80, 70, 69.99].map((s) => compute('subcontractMonthlyExamine', scores(s)).grade)).toEqual([
      'A',
      'A',
      'B',
      'B',
      'C',
      'D',
    ]);
    // 30/25/25/10/10 weights: 100·0.3 + 60·0.7 = 72 → C, whatever grade the client sent
    const mixed = compute('subcontractMonthlyExamine', { ...scores(60), qualityScore: 100, grade: 'A' });
    expect(mixed).toMatchObject({ totalScore: 72, grade: 'C' });
  });

  it('income contract: duration = completion − start + 1 days, empty until both dates are known', () => {
    expect(compute('constructionContract', { startDate: '2026-03-01', endDate: '2027-02-28' }).durationDays).toBe(365);
    expect(compute('constructionContract', { startDate: '2026-03-01' }).durationDays).toBeNull();
  });

  it('turnover demand: planned days from entry to exit, both days charged; rent = qty × days × rate', () => {
    const out = compute('materialTurnoverDemand', {
      details: [{ demandQty: 1200, plannedEntryDate: '2026-05-01', plannedExitDate: '2026-07-31', estimatedDailyRate: 0.012 }],
    });
    expect(out.details[0]).toMatchObject({ plannedDays: 92, estimatedAmount: 1324.8 });
  });

  it('R-SCAF: months billed = days / 30 (2 decimals), rent = quantity × months × unit price', () => {
    const out = compute('equipmentScaffoldSettlement', {
      billingStartDate: '2026-03-01',
      billingEndDate: '2026-04-15',
      quantity: 2000,
      unitPrice: 3.5,
    });
    expect(out).toMatchObject({ durationMonths: 1.53, rentAmount: 10710 });
  });

  it('turnover settlement: rent days of the period by the contract’s day rule (R-RENT-1)', () => {
    const days = (rentDayRule: string) =>
      compute('materialTurnoverMonthlySettlement', { startDate: '2026-05-01', endDate: '2026-05-31', rentDayRule }).periodDays;
    expect(['both', 'head', 'tail', 'neither'].map(days)).toEqual([31, 30, 30, 29]);
  });

  it('expense contract lines: remaining = (changed quantity, else contract quantity) − settled', () => {
    const out = compute('expenditureContract', {
      details: [
        { quantity: 100, settledQuantity: 40.5 },
        { quantity: 100, changedQuantity: 80, settledQuantity: 40.5 },
        { quantity: 100, changedQuantity: 0 },
      ],
    });
    expect(out.details.map((r: Row) => r.remainingQuantity)).toEqual([59.5, 39.5, 0]);
  });

  it('equipment lease lines: billed days or months from the site dates by lease mode, unless entered', () => {
    const line = (extra: Row) => ({ entryDate: '2026-05-10', exitDate: '2026-06-24', quantity: 1, unitPrice: 100, ...extra });
    const out = compute('equipmentLeaseMonthlySettlement', {
      details: [
        line({ leaseMode: 'day' }),
        line({ leaseMode: 'month' }),
        line({ leaseMode: 'shift' }),
        line({ leaseMode: 'month', billedQty: 1 }),
      ],
    });
    expect(out.details.map((r: Row) => r.billedQty)).toEqual([46, 1.53, null, 1]);
    expect(out.details[0].rentAmount).toBe(4600);
  });
});
