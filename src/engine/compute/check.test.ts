import { describe, expect, it } from 'vitest';
import type { FieldKind } from '../model/types.ts';
import { checkExpr } from './check.ts';
import type { Expr } from './expr.ts';

const kinds: Record<string, FieldKind> = {
  qty: 'decimal',
  days: 'integer',
  startDate: 'date',
  endDate: 'date',
  rule: 'string',
  name: 'string',
  meta: 'json',
};
const check = (expr: Expr) => checkExpr(expr, (f) => kinds[f]);

describe('checkExpr', () => {
  it('types numbers, dates and texts', () => {
    expect(check({ mul: ['qty', 2] })).toEqual({ type: 'number', problems: [] });
    expect(check({ days: ['startDate', 'endDate', 'rule'] })).toEqual({ type: 'number', problems: [] });
    expect(check({ coalesce: ['endDate', 'startDate'] })).toEqual({ type: 'date', problems: [] });
    expect(check({ if: { qty: { _gte: 90 } }, then: { text: 'A' }, else: 'name' })).toEqual({ type: 'text', problems: [] });
  });

  it('finds arithmetic over a date or a text', () => {
    expect(check({ add: ['qty', 'startDate'] }).problems).toEqual(['add needs a number, "startDate" is a date']);
    expect(check({ max: [0, { text: 'x' }] }).problems).toEqual(['max needs a number, text is a text']);
  });

  it('finds a date difference of numbers and a day rule that is no text', () => {
    expect(check({ days: ['qty', 'endDate'] }).problems).toEqual(['days needs a date, "qty" is a number']);
    expect(check({ months: ['startDate', 'endDate', 3] }).problems).toEqual(['months (its day rule) needs a text, 3 is a number']);
  });

  it('finds branches of different types', () => {
    expect(check({ if: { qty: { _gt: 0 } }, then: 'qty', else: { text: 'none' } })).toEqual({
      type: null,
      problems: ['if mixes number and text values'],
    });
    expect(check({ coalesce: ['startDate', 'qty'] }).problems).toEqual(['coalesce mixes date and number values']);
  });

  it('refuses JSON fields and leaves unknown fields to the field check', () => {
    expect(check('meta').problems).toEqual(['"meta" holds JSON, which an expression cannot read']);
    expect(check({ add: ['nope', 1] })).toEqual({ type: 'number', problems: [] });
  });
});

describe('checkExpr: addDays, header reads and sums over sibling rows', () => {
  const header: Record<string, FieldKind> = { taxRate: 'decimal', periodStart: 'date', title: 'string' };
  const inRow = (expr: Expr) =>
    checkExpr(
      expr,
      (f) => kinds[f],
      (f) => header[f],
    );

  it('types a date plus days as a date and needs a date and a number', () => {
    expect(check({ addDays: ['startDate', 'days'] })).toEqual({ type: 'date', problems: [] });
    expect(check({ addDays: ['qty', 'startDate'] }).problems).toEqual([
      'addDays (its date) needs a date, "qty" is a number',
      'addDays (its days) needs a number, "startDate" is a date',
    ]);
  });

  it('types header fields in a row, and refuses them in the header itself or unknown', () => {
    expect(inRow({ mul: ['qty', { header: 'taxRate' }] })).toEqual({ type: 'number', problems: [] });
    expect(inRow({ days: [{ header: 'periodStart' }, 'endDate'] })).toEqual({ type: 'number', problems: [] });
    expect(inRow({ mul: ['qty', { header: 'title' }] }).problems).toEqual(['mul needs a number, header is a text']);
    expect(inRow({ header: 'nope' }).problems).toEqual(['expression reads unknown header field "nope"']);
    expect(check({ header: 'taxRate' }).problems).toEqual([
      '{"header": "taxRate"} reads the document\'s header: only a detail row\'s formula can',
    ]);
  });

  it('sums numbers over sibling rows, in rows only', () => {
    expect(inRow({ sumBy: { field: 'qty', by: ['name'] } })).toEqual({ type: 'number', problems: [] });
    expect(inRow({ sumBy: { field: 'name', by: ['qty'] } }).problems).toEqual(['sumBy over "name", which is not a number']);
    expect(check({ sumBy: { field: 'qty', by: ['name'] } }).problems).toEqual([
      "sumBy sums over a detail's rows: only a detail row's formula can use it",
    ]);
  });
});
