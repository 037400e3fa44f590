import { describe, expect, it } from 'vitest';
import { computeOrder, evaluate, fieldsRead, sumsRead, type Expr } from './expr.ts';

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

describe('fieldsRead and sumsRead', () => {
  const expr: Expr = { add: [{ mul: ['qty', 'price'] }, { round: [{ sum: 'details.amount' }, 2] }, 'fee', 1] };

  it('lists the row fields an expression reads, not those behind sum', () => {
    expect(fieldsRead(expr)).toEqual(['qty', 'price', 'fee']);
    expect(fieldsRead(7)).toEqual([]);
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

  it('throws on a field that reads itself', () => {
    expect(() => computeOrder({ total: { add: ['total', 1] } })).toThrow('x-compute cycle: total -> total');
  });
});
