import { describe, expect, it } from 'vitest';
import type { DayRule } from '../../../../engine/compute/dates.ts';
import { rentDays, type Movement } from './rent.ts';

const entry = (date: string, qty: number | string): Movement => ({ date, kind: 'entry', qty });
const exit = (date: string, qty: number | string): Movement => ({ date, kind: 'exit', qty });
const june = (rule: DayRule = 'both') => ({ start: '2026-06-01', end: '2026-06-30', rule });
const may = (rule: DayRule = 'both') => ({ start: '2026-05-01', end: '2026-05-31', rule });
const figures = (r: ReturnType<typeof rentDays>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.toString()]));

describe('R-RENT-2: quantity × days of a settlement period', () => {
  it('charges the whole period when nothing moved in it (opening qty × days)', () => {
    expect(figures(rentDays([entry('2026-05-10', 100)], june()))).toEqual({
      openingQty: '100',
      enteredQty: '0',
      exitedQty: '0',
      closingQty: '100',
      qtyDays: '3000',
      unmatchedExitQty: '0',
    });
  });

  it('charges the entry day as the day rule says (R-RENT-1)', () => {
    const moves = [entry('2026-05-10', 100)];
    // 10..31 May is 22 days with the entry day, 21 without
    expect(rentDays(moves, may('both')).qtyDays.toString()).toBe('2200');
    expect(rentDays(moves, may('head')).qtyDays.toString()).toBe('2200');
    expect(rentDays(moves, may('tail')).qtyDays.toString()).toBe('2100');
    expect(rentDays(moves, may('neither')).qtyDays.toString()).toBe('2100');
  });

  it('charges the exit day as the day rule says, by segment of the on-site quantity', () => {
    const moves = [entry('2026-05-10', 100), exit('2026-06-20', 40)];
    // 60 × 30 days, plus 40 × 1..20 June (20 days with the exit day, 19 without)
    expect(rentDays(moves, june('both')).qtyDays.toString()).toBe('2600');
    expect(rentDays(moves, june('tail')).qtyDays.toString()).toBe('2600');
    expect(rentDays(moves, june('head')).qtyDays.toString()).toBe('2560');
    expect(rentDays(moves, june('neither')).qtyDays.toString()).toBe('2560');
    expect(figures(rentDays(moves, june()))).toMatchObject({ openingQty: '100', exitedQty: '40', closingQty: '60' });
  });

  it('never charges a boundary day to two months', () => {
    const moves = [entry('2026-05-31', 1), exit('2026-06-01', 1)];
    const total = (rule: DayRule) =>
      rentDays(moves, may(rule))
        .qtyDays.plus(rentDays(moves, june(rule)).qtyDays)
        .toNumber();
    // R-RENT-1 over the whole interval: both e − s + 1, head and tail e − s, neither e − s − 1
    expect([total('both'), total('head'), total('tail'), total('neither')]).toEqual([2, 1, 1, 0]);
  });

  it('an entry and exit on the same day: one day with both ends charged, none otherwise', () => {
    const moves = [entry('2026-06-10', 5), exit('2026-06-10', 5)];
    expect(rentDays(moves, june('both')).qtyDays.toString()).toBe('5');
    expect(rentDays(moves, june('head')).qtyDays.toString()).toBe('0');
    expect(rentDays(moves, june('neither')).qtyDays.toString()).toBe('0');
  });

  it('returns the earliest entered quantities first', () => {
    const moves = [exit('2026-06-15', 60), entry('2026-06-10', 30), entry('2026-06-05', 50)];
    // 50 × 5..9 June, 80 × 10..15, 20 × 16..30 = 250 + 480 + 300
    expect(figures(rentDays(moves, june()))).toMatchObject({
      openingQty: '0',
      enteredQty: '80',
      exitedQty: '60',
      closingQty: '20',
      qtyDays: '1030',
    });
  });

  it('reports exits beyond what is on site and charges nothing for them', () => {
    const r = rentDays([entry('2026-06-01', 10), exit('2026-06-03', 25)], june());
    expect(r.unmatchedExitQty.toString()).toBe('15');
    expect(r.qtyDays.toString()).toBe('30');
    expect(r.closingQty.toString()).toBe('0');
  });

  it('keeps decimal quantities exact', () => {
    expect(rentDays([entry('2026-06-28', '2.5'), entry('2026-06-29', '0.1')], june()).qtyDays.toString()).toBe('7.7');
  });

  it('refuses dates that are not dates and periods that end before they start', () => {
    expect(() => rentDays([entry('2026-02-30', 1)], june())).toThrow('not a date: 2026-02-30');
    expect(() => rentDays([], { start: '2026-06-30', end: '2026-06-01', rule: 'both' })).toThrow('ends (2026-06-01) before it starts');
  });
});
