import { describe, expect, it } from 'vitest';
import { computeOrder, evaluate, evaluateValue, fieldsRead, headerReads, siblingSums, sumsRead, textsYielded, type Expr } from './expr.ts';

const ev = (expr: Expr, row: Record<string, unknown> = {}) => evaluate(expr, row).toFixed();

describe('evaluate: decimal exactness', () => {
  it('adds 0.1 and 0.2 to exactly 0.3', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(ev({ add: [0.1, 0.2] })).toBe('0.3');
    expect(ev({ add: ['a', 'b'] }, { a: 0.1, b: 0.2 })).toBe('0.3');
  });

  it('multiplies 3 × 0.1 to exactly 0.3 and 1.1 × 1.1 to 1.21', () => {
    expect(3 * 0.1).not.toBe(0.3);
    expect(ev({ mul: [3, 0.1] })).toBe('0.3');
    expect(ev({ mul: ['qty', 'price'] }, { qty: 1.1, price: 1.1 })).toBe('1.21');
  });

  it('keeps every cent of large amounts', () => {
    expect(ev({ add: ['a', 'b'] }, { a: '9999999999999.99', b: '0.01' })).toBe('10000000000000');
    expect(ev({ mul: ['qty', 'price'] }, { qty: '33333333333333.33', price: 3 })).toBe('99999999999999.99');
    expect(ev({ sub: ['a', 'b'] }, { a: '100000000000000', b: '0.01' })).toBe('99999999999999.99');
  });

  it('applies sub and div left to right over several operands', () => {
    expect(ev({ sub: [10, 3, 2] })).toBe('5');
    expect(ev({ div: [100, 4, 5] })).toBe('5');
  });

  it('divides exactly enough that rounding afterwards is right', () => {
    expect(ev({ round: [{ div: [1, 3] }, 4] })).toBe('0.3333');
    expect(ev({ round: [{ div: [2, 3] }, 2] })).toBe('0.67');
    expect(ev({ round: [{ mul: [2.675, 1] }, 2] })).toBe('2.68');
    expect(ev({ round: [-1.00005, 4] })).toBe('-1.0001');
  });

  it('gives zero for a division by zero instead of failing', () => {
    expect(ev({ div: [5, 0] })).toBe('0');
    expect(ev({ div: ['amount', 'qty'] }, { amount: 12.5, qty: 0 })).toBe('0');
    expect(ev({ div: ['amount', 'qty'] }, { amount: 12.5 })).toBe('0');
  });

  it('counts empty fields as zero', () => {
    expect(ev({ mul: ['qty', 'price'] }, { qty: 4 })).toBe('0');
    expect(ev({ add: ['a', 'b'] }, { a: null, b: '' })).toBe('0');
  });

  it('refuses a field holding text that is not a number', () => {
    expect(() => evaluate({ add: ['a', 1] }, { a: 'ten' })).toThrow(TypeError);
  });

  it('sums a detail column, skipping empty cells, in decimals', () => {
    const row = { details: [{ amount: 0.1 }, { amount: 0.2 }, { amount: null }, {}, { amount: '-0.05' }] };
    expect(ev({ sum: 'details.amount' }, row)).toBe('0.25');
    expect(ev({ sum: 'details.amount' }, {})).toBe('0');
    expect(ev({ sum: 'details.amount' }, { details: 'not rows' })).toBe('0');
  });
});

/** What a field would store: a decimal as exact text, a text as is, empty as null. */
const value = (expr: Expr, row: Record<string, unknown> = {}) => {
  const v = evaluateValue(expr, row);
  return v === null || typeof v === 'string' ? v : v.toFixed();
};

describe('min, max and coalesce', () => {
  it('min and max compare exactly and skip empty operands', () => {
    expect(value({ max: [0, { sub: ['demandQty', 'stockQty'] }] }, { demandQty: '10.0001', stockQty: '10.0002' })).toBe('0');
    expect(value({ max: [0, { sub: ['demandQty', 'stockQty'] }] }, { demandQty: 12, stockQty: '0.5' })).toBe('11.5');
    expect(value({ min: ['a', 'b', 'c'] }, { a: '0.3', b: null, c: '0.30000000000000001' })).toBe('0.3');
    expect(value({ min: ['a', 'b'] }, { a: 7 })).toBe('7');
    expect(value({ max: ['a', 'b'] }, {})).toBeNull();
  });

  it('coalesce takes the first non-empty operand, and 0 is not empty', () => {
    const remaining: Expr = { sub: [{ coalesce: ['changedQuantity', 'quantity'] }, 'settledQuantity'] };
    expect(value(remaining, { quantity: 100, settledQuantity: 30 })).toBe('70');
    expect(value(remaining, { quantity: 100, changedQuantity: 120.5, settledQuantity: 30 })).toBe('90.5');
    expect(value(remaining, { quantity: 100, changedQuantity: 0 })).toBe('0');
    expect(value({ coalesce: ['a', 'b'] }, { a: '', b: null })).toBeNull();
    expect(value({ coalesce: ['checkStartDate', 'startDate'] }, { startDate: '2026-05-01' })).toBe('2026-05-01');
  });
});

describe('if / then / else', () => {
  // R-EXAM: ≥ 90 A, ≥ 80 B, ≥ 70 C, else D
  const grade: Expr = {
    if: { totalScore: { _gte: 90 } },
    then: { text: 'A' },
    else: {
      if: { totalScore: { _gte: 80 } },
      then: { text: 'B' },
      else: { if: { totalScore: { _gte: 70 } }, then: { text: 'C' }, else: { text: 'D' } },
    },
  };

  it('chooses a branch by the predicate language, at the boundaries exactly', () => {
    expect([95, 90, 89.99, 80, '79.995', 70, 69.99, 0].map((s) => value(grade, { totalScore: s }))).toEqual([
      'A',
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
    ]);
  });

  it('an empty score satisfies no comparison', () => {
    expect(value(grade, {})).toBe('D');
  });

  it('compares two fields of the row through $form tokens and combines conditions', () => {
    const overCap: Expr = {
      if: { _and: [{ cumulativeQty: { _gt: '$form.contractQty' } }, { contractQty: { _gt: 0 } }] },
      then: { sub: ['cumulativeQty', 'contractQty'] },
      else: 0,
    };
    expect(value(overCap, { cumulativeQty: '105.5', contractQty: 100 })).toBe('5.5');
    expect(value(overCap, { cumulativeQty: 99, contractQty: 100 })).toBe('0');
  });

  it('is empty when the condition fails and there is no else', () => {
    expect(value({ if: { paymentRatio: { _empty: true } }, then: 100 }, { paymentRatio: 80 })).toBeNull();
    expect(value({ if: { paymentRatio: { _empty: true } }, then: 100 }, {})).toBe('100');
  });

  it('counts as zero in arithmetic when empty', () => {
    expect(value({ add: [{ if: { a: { _eq: 1 } }, then: 5 }, 2] }, { a: 2 })).toBe('2');
  });
});

describe('days and months', () => {
  it('days: end − start, across month ends and a leap day', () => {
    expect(value({ days: ['startDate', 'endDate'] }, { startDate: '2024-02-28', endDate: '2024-03-01' })).toBe('2');
    expect(value({ days: ['startDate', 'endDate'] }, { startDate: '2025-02-28', endDate: '2025-03-01' })).toBe('1');
    expect(value({ days: ['startDate', 'endDate'] }, { startDate: '2026-03-10', endDate: '2026-03-01' })).toBe('-9');
  });

  it('days by the rent day rule of R-RENT-1, from a literal or a field', () => {
    const row = { s: '2026-05-01', e: '2026-05-31' };
    expect(['both', 'head', 'tail', 'neither'].map((rule) => value({ days: ['s', 'e', { text: rule }] }, row))).toEqual([
      '31',
      '30',
      '30',
      '29',
    ]);
    expect(value({ days: ['s', 'e', 'rentDayRule'] }, { ...row, rentDayRule: 'both' })).toBe('31');
    expect(value({ days: ['s', 's', { text: 'neither' }] }, row)).toBe('0');
  });

  it('days: datetimes count by their date', () => {
    expect(value({ days: ['a', 'b'] }, { a: '2026-03-15 23:59:00', b: '2026-03-16 00:01:00' })).toBe('1');
  });

  it('is empty when a date is missing or no date', () => {
    expect(value({ days: ['startDate', 'endDate'] }, { startDate: '2026-01-01' })).toBeNull();
    expect(value({ days: ['startDate', 'endDate'] }, { startDate: '2026-02-30', endDate: '2026-03-01' })).toBeNull();
    expect(value({ months: ['startDate', 'endDate', { text: 'both' }] }, { endDate: '2026-01-01' })).toBeNull();
  });

  it('months: whole calendar months, the end day counted by the rule', () => {
    const m = (s: string, e: string, rule?: string) => value({ months: rule ? ['s', 'e', { text: rule }] : ['s', 'e'] }, { s, e });
    expect(m('2026-01-01', '2026-03-31', 'both')).toBe('3');
    expect(m('2026-01-01', '2026-03-31')).toBe('2');
    expect(m('2026-01-15', '2026-03-14', 'both')).toBe('2');
    expect(m('2026-01-15', '2026-03-13', 'both')).toBe('1');
    expect(m('2026-01-31', '2026-02-28')).toBe('1');
    expect(m('2024-01-31', '2024-02-28')).toBe('0');
    expect(m('2026-01-01', '2026-12-31', 'both')).toBe('12');
  });

  it('feeds arithmetic exactly: scaffold months as days / 30 rounded', () => {
    expect(value({ round: [{ div: [{ days: ['s', 'e', { text: 'both' }] }, 30] }, 2] }, { s: '2026-03-01', e: '2026-04-15' })).toBe('1.53');
  });
});

describe('fieldsRead and sumsRead', () => {
  const expr: Expr = { add: [{ mul: ['qty', 'price'] }, { round: [{ sum: 'details.amount' }, 2] }, 'fee', 1] };

  it('lists the row fields an expression reads, not those behind sum', () => {
    expect(fieldsRead(expr)).toEqual(['qty', 'price', 'fee']);
    expect(fieldsRead(7)).toEqual([]);
  });

  it('lists the fields of conditions, date operands and coalesced operands', () => {
    const expr: Expr = {
      if: { totalScore: { _gte: '$form.passMark' } },
      then: { days: ['s', 'e', 'rule'] },
      else: { coalesce: ['a', { sum: 'details.x' }] },
    };
    expect(fieldsRead(expr)).toEqual(['totalScore', 'passMark', 's', 'e', 'rule', 'a']);
    expect(sumsRead(expr)).toEqual([{ detail: 'details', field: 'x' }]);
  });

  it('lists the literal texts an expression can yield', () => {
    expect(textsYielded({ if: { a: { _eq: 1 } }, then: { text: 'A' }, else: { coalesce: ['b', { text: 'D' }] } })).toEqual(['A', 'D']);
    expect(textsYielded({ days: ['s', 'e', { text: 'both' }] })).toEqual([]);
  });

  it('lists the detail columns an expression sums', () => {
    expect(sumsRead(expr)).toEqual([{ detail: 'details', field: 'amount' }]);
    expect(sumsRead('qty')).toEqual([]);
  });
});

describe('computeOrder', () => {
  it('puts every computed field after the computed fields it reads, whatever the declaration order', () => {
    const order = computeOrder({
      amount: { mul: ['effectiveQty', 'price'] },
      effectiveQty: { add: ['demandQty', 'changeQty'] },
      demandQty: { mul: ['designQty', 1.05] },
    });
    expect(order.indexOf('demandQty')).toBeLessThan(order.indexOf('effectiveQty'));
    expect(order.indexOf('effectiveQty')).toBeLessThan(order.indexOf('amount'));
    expect(order).toHaveLength(3);
  });

  it('ignores plain (non-computed) inputs', () => {
    expect(computeOrder({ amount: { mul: ['qty', 'price'] } })).toEqual(['amount']);
  });

  it('throws on a cycle, naming the fields in it', () => {
    expect(() => computeOrder({ a: { add: ['b', 1] }, b: { mul: ['a', 2] } })).toThrow('x-compute cycle: a -> b -> a');
    expect(() => computeOrder({ x: { add: ['y', 1] }, y: { add: ['z', 1] }, z: { add: ['x', 1] } })).toThrow(/cycle: x -> y -> z -> x/);
  });

  it('orders a field after the computed fields its condition reads', () => {
    const order = computeOrder({ grade: { if: { totalScore: { _gte: 90 } }, then: { text: 'A' } }, totalScore: { add: ['a', 'b'] } });
    expect(order).toEqual(['totalScore', 'grade']);
  });

  it('throws on a field that reads itself', () => {
    expect(() => computeOrder({ total: { add: ['total', 1] } })).toThrow('x-compute cycle: total -> total');
  });
});

describe('addDays: a date moved by days', () => {
  const shifted = (date: unknown, days: unknown) => evaluateValue({ addDays: ['d', 'n'] }, { d: date, n: days });

  it('crosses month ends, leap days and year ends, forwards and backwards', () => {
    expect(shifted('2026-01-31', 1)).toBe('2026-02-01');
    expect(shifted('2024-02-28', 1)).toBe('2024-02-29');
    expect(shifted('2025-02-28', 1)).toBe('2025-03-01');
    expect(shifted('2026-12-31', 1)).toBe('2027-01-01');
    expect(shifted('2026-03-01', -1)).toBe('2026-02-28');
    expect(shifted('2026-03-15', 0)).toBe('2026-03-15');
  });

  it('is the inverse of days: an entry date plus the lease days is the exit date', () => {
    const row = { entry: '2026-06-20', leaseDays: 90 };
    const exit = evaluateValue({ addDays: ['entry', 'leaseDays'] }, row);
    expect(exit).toBe('2026-09-18');
    expect(ev({ days: ['entry', 'exit'] }, { ...row, exit })).toBe('90');
  });

  it('rounds a fraction of a day half-up, reads a datetime by its date and takes day counts as text', () => {
    expect(shifted('2026-01-01', 1.5)).toBe('2026-01-03');
    expect(shifted('2026-01-01', 1.49)).toBe('2026-01-02');
    expect(shifted('2026-01-10 18:30:00', '30')).toBe('2026-02-09');
  });

  it('is empty without a date or a day count, or with no date', () => {
    expect(shifted(undefined, 3)).toBeNull();
    expect(shifted('2026-01-01', null)).toBeNull();
    expect(shifted('2026-01-01', '')).toBeNull();
    expect(shifted('2026-02-30', 1)).toBeNull();
  });
});

describe('header: a detail row reads its document header', () => {
  it('reads the header value, empty without a header or the field', () => {
    const amountExclTax: Expr = { round: [{ div: ['amount', { add: [1, { div: [{ header: 'taxRate' }, 100] }] }] }, 2] };
    expect(evaluateValue(amountExclTax, { amount: 113 }, { header: { taxRate: 13 } })?.toString()).toBe('100');
    expect(evaluateValue({ header: 'taxRate' }, { taxRate: 9 })).toBeNull();
    expect(evaluateValue({ header: 'remark' }, {}, { header: { remark: '' } })).toBeNull();
  });

  it('is listed by headerReads, not by fieldsRead', () => {
    const expr: Expr = { days: [{ header: 'periodStart' }, { header: 'periodEnd' }, { text: 'both' }] };
    expect(headerReads({ mul: ['qty', expr] })).toEqual(['periodStart', 'periodEnd']);
    expect(fieldsRead({ mul: ['qty', expr] })).toEqual(['qty']);
  });
});

describe('sumBy: a sum over the rows holding the same values', () => {
  const rows = [{ goodsId: '1', qty: 10 }, { goodsId: '2', qty: 0.2 }, { goodsId: '1', qty: 0.1 }, { goodsId: '', qty: 3 }, { qty: 4 }];
  const byGoods: Expr = { sumBy: { field: 'qty', by: ['goodsId'] } };

  it('sums the rows of the same goods, this row included, exactly', () => {
    expect(rows.map((r) => evaluateValue(byGoods, r, { rows })?.toString())).toEqual(['10.1', '0.2', '10.1', '7', '7']);
  });

  it('is the row alone without its siblings, and reads its field and key fields', () => {
    expect(evaluateValue(byGoods, rows[0])?.toString()).toBe('10');
    expect(fieldsRead(byGoods)).toEqual(['qty', 'goodsId']);
    expect(siblingSums({ add: ['previous', byGoods] })).toEqual([{ field: 'qty', by: ['goodsId'] }]);
  });
});
