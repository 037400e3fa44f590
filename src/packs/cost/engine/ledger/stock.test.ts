// The stock arithmetic with numbers worked out by hand (R-STOCK-1..4, docs/rules.md#r-stock).
import { describe, expect, it } from 'vitest';
import { availableFrom, bookPrice, lastDayOf, stockMonth } from './stock.ts';

const text = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v === null ? null : String(v)]));

describe('stockMonth: one goods, one warehouse, one month', () => {
  it('values consumption at the monthly weighted average and lets the closing amount absorb the rounding', () => {
    // opening 80 t worth 308,266.67; received 30 t for 120,000: average 428,266.67 / 110 = 3,893.33336…
    // consumption 100 t: 100 × 428,266.67 / 110 = 389,333.3363… → 389,333.34
    // closing 110 − 2 (loss) − 100 = 8 t; 428,266.67 − 7,706.66 − 389,333.34 = 31,226.67
    const out = stockMonth({
      openingQty: 80,
      openingAmount: 308266.67,
      receivedQty: 30,
      receivedAmount: 120000,
      gainLossQty: -2,
      gainLossAmount: -7706.66,
      consumedQty: 100,
    });
    expect(text({ ...out })).toEqual({
      avgPrice: '3893.3334',
      consumedQty: '100',
      consumedAmount: '389333.34',
      transferOutAmount: '0',
      closingQty: '8',
      closingAmount: '31226.67',
    });
  });

  it('derives consumption from a count at month end (R-STOCK-2), whatever was entered', () => {
    // 80 + 30 − 2 − 5 (transferred out) − 8 counted = 95 consumed
    const out = stockMonth({
      openingQty: 80,
      openingAmount: 308266.67,
      receivedQty: 30,
      receivedAmount: 120000,
      gainLossQty: -2,
      gainLossAmount: -7706.66,
      consumedQty: 1,
      transferOutQty: 5,
      countedClosingQty: 8,
    });
    expect(out.consumedQty.toFixed()).toBe('95');
    // 95 × 428,266.67 / 110 = 369,866.66968… → 369,866.67; 5 × … = 19,466.66681… → 19,466.67
    expect([out.consumedAmount.toFixed(), out.transferOutAmount.toFixed()]).toEqual(['369866.67', '19466.67']);
    expect([out.closingQty.toFixed(), out.closingAmount.toFixed()]).toEqual(['8', '31226.67']);
  });

  it('leaves exactly nothing when everything is gone: the consumption takes the remainder', () => {
    // 8 t for 1.00: 1 t consumed is 0.125 → 0.13, 7 t transferred out 0.875 → 0.88, together 1.01;
    // with nothing left the consumption is 1.00 − 0.88 = 0.12 and the closing amount exactly 0
    const out = stockMonth({
      openingQty: 0,
      openingAmount: 0,
      receivedQty: 8,
      receivedAmount: 1,
      gainLossQty: 0,
      gainLossAmount: 0,
      consumedQty: 1,
      transferOutQty: 7,
    });
    expect(
      text({ consumed: out.consumedAmount, out: out.transferOutAmount, closingQty: out.closingQty, closing: out.closingAmount }),
    ).toEqual({ consumed: '0.12', out: '0.88', closingQty: '0', closing: '0' });
  });

  it('has no average price without stock, and consumes nothing of nothing', () => {
    const out = stockMonth({ openingQty: 0, openingAmount: 0, receivedQty: 0, receivedAmount: 0, gainLossQty: 0, gainLossAmount: 0 });
    expect(out.avgPrice).toBeNull();
    expect(text({ consumed: out.consumedAmount, closing: out.closingAmount })).toEqual({ consumed: '0', closing: '0' });
  });

  it('keeps decimals exact where binary floating point would not', () => {
    // 0.1 + 0.2 t at 1,000.10 and 1,000.20: 0.3 t worth 300.05; half consumed = 150.025 → 150.03 (half-up)
    const out = stockMonth({
      openingQty: 0.1,
      openingAmount: 100.01,
      receivedQty: 0.2,
      receivedAmount: 200.04,
      gainLossQty: 0,
      gainLossAmount: 0,
      consumedQty: 0.15,
    });
    expect(text({ consumed: out.consumedAmount, closingQty: out.closingQty, closing: out.closingAmount })).toEqual({
      consumed: '150.03',
      closingQty: '0.15',
      closing: '150.02',
    });
  });
});

describe('availableFrom: what may leave in a month (R-STOCK-4)', () => {
  const history = [
    { month: '2026-05', qty: 150 },
    { month: '2026-05', qty: -70 },
    { month: '2026-06', qty: 30 },
    { month: '2026-07', qty: -100 },
  ];

  it('is the lowest balance of the month and every later one', () => {
    // end of May 80, June 110, July 10: in May only 10 may leave without July going below zero
    expect(availableFrom(history, '2026-05').toFixed()).toBe('10');
    expect(availableFrom(history, '2026-07').toFixed()).toBe('10');
    // August: nothing moves after July, the balance is 10
    expect(availableFrom(history, '2026-08').toFixed()).toBe('10');
    // before any movement: nothing
    expect(availableFrom(history, '2026-04').toFixed()).toBe('0');
  });
});

describe('helpers', () => {
  it('prices a balance to 4 places and finds the last day of a month', () => {
    expect(bookPrice(80, 308266.67)?.toFixed()).toBe('3853.3334');
    expect(bookPrice(0, 0)).toBeNull();
    expect([lastDayOf('2026-02'), lastDayOf('2028-02'), lastDayOf('2026-09'), lastDayOf('2026-12')]).toEqual([
      '2026-02-28',
      '2028-02-29',
      '2026-09-30',
      '2026-12-31',
    ]);
  });
});
