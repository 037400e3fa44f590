// The x-compute expression language: a JSON tree, parsed, never eval'ed.
import { fieldsOf, matches, type Predicate } from '../predicate/predicate.ts';
import { addDays, dayNumber, daysBetween, DAY_RULES, wholeMonths, type DayRule } from './dates.ts';
import { Dec, roundHalfUp, toDecimal } from './decimal.ts';

/** Date operands: start, end and optionally the day rule (both / head / tail / neither). */
export type DateOperands = [Expr, Expr] | [Expr, Expr, Expr];

export type Expr =
  | number
  | string
  | { add: Expr[] }
  | { sub: Expr[] }
  | { mul: Expr[] }
  | { div: Expr[] }
  | { min: Expr[] }
  | { max: Expr[] }
  | { coalesce: Expr[] }
  | { round: [Expr, number] }
  | { sum: string }
  | { text: string }
  | { if: Predicate; then: Expr; else?: Expr }
  | { days: DateOperands }
  | { months: DateOperands }
  | { addDays: [Expr, Expr] }
  | { header: string }
  | { sumBy: SumBy };

/** Σ `field` over the rows of this row's detail whose `by` fields equal this row's (itself included). */
export interface SumBy {
  field: string;
  by: string[];
}

/** Values an expression reads: the row's own fields, and for `sum` the detail arrays. */
export type Row = Record<string, unknown>;

/** What a detail row's formula sees besides the row: the document's header and the detail's rows. */
export interface Scope {
  header?: Row;
  rows?: readonly Row[];
}

/** What an expression yields: a decimal, a text (a date, a dictionary key) or nothing (empty). */
export type Value = Dec | string | null;

const ARITHMETIC = ['add', 'sub', 'mul', 'div'] as const;
const LISTS = [...ARITHMETIC, 'min', 'max', 'coalesce'] as const;
type ListOp = (typeof LISTS)[number];

/** The operator of an object expression (its one key, or `if`). */
export function operatorOf(expr: Exclude<Expr, number | string>): string {
  return 'if' in expr ? 'if' : Object.keys(expr)[0];
}

/** The sub-expressions of an expression, in order (the `if` condition is not one). */
export function childrenOf(expr: Expr): Expr[] {
  if (typeof expr === 'number' || typeof expr === 'string') return [];
  if ('if' in expr) return expr.else === undefined ? [expr.then] : [expr.then, expr.else];
  if ('round' in expr) return [expr.round[0]];
  if ('days' in expr) return expr.days;
  if ('months' in expr) return expr.months;
  if ('addDays' in expr) return expr.addDays;
  if ('sum' in expr || 'text' in expr || 'header' in expr || 'sumBy' in expr) return [];
  return (expr as Record<ListOp, Expr[]>)[operatorOf(expr) as ListOp];
}

/**
 * Field names an expression reads from its own row (not through `sum` or `header`), conditions
 * included; `sumBy` reads its field (of every row, this one too) and its `by` fields.
 */
export function fieldsRead(expr: Expr): string[] {
  if (typeof expr === 'string') return [expr];
  if (typeof expr === 'object' && 'sumBy' in expr) return [expr.sumBy.field, ...expr.sumBy.by];
  const own = typeof expr === 'object' && 'if' in expr ? fieldsOf(expr.if) : [];
  return [...own, ...childrenOf(expr).flatMap(fieldsRead)];
}

/** Header fields a detail row's expression reads through `{header}`. */
export function headerReads(expr: Expr): string[] {
  if (typeof expr === 'object' && 'header' in expr) return [expr.header];
  return childrenOf(expr).flatMap(headerReads);
}

/** The `sumBy` terms of an expression (sums over the row's sibling rows). */
export function siblingSums(expr: Expr): SumBy[] {
  if (typeof expr === 'object' && 'sumBy' in expr) return [expr.sumBy];
  return childrenOf(expr).flatMap(siblingSums);
}

/** `detail.field` pairs an expression sums over. */
export function sumsRead(expr: Expr): { detail: string; field: string }[] {
  if (typeof expr === 'object' && 'sum' in expr) {
    const [detail, field] = expr.sum.split('.');
    return [{ detail, field }];
  }
  return childrenOf(expr).flatMap(sumsRead);
}

/** Literal texts an expression can yield (`{text}` leaves outside date rules): dictionary keys to check. */
export function textsYielded(expr: Expr): string[] {
  if (typeof expr === 'number' || typeof expr === 'string') return [];
  if ('text' in expr) return [expr.text];
  if ('if' in expr || 'coalesce' in expr) return childrenOf(expr).flatMap(textsYielded);
  return [];
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** A value in arithmetic: empty counts as zero; text that is not a number throws. */
function numberOf(value: Value): Dec {
  if (value === null) return new Dec(0);
  return typeof value === 'string' ? toDecimal(value)! : value;
}

function read(row: Row, name: string): Value {
  const v = row[name];
  if (isEmpty(v)) return null;
  if (typeof v === 'number') return toDecimal(v);
  return typeof v === 'string' ? v : String(v);
}

function dateSpan([from, to, rule]: DateOperands, row: Row, scope: Scope): { start: number; days: number } | null {
  const start = dayNumber(evaluateValue(from, row, scope));
  const end = dayNumber(evaluateValue(to, row, scope));
  if (start === null || end === null) return null;
  const named = rule === undefined ? null : evaluateValue(rule, row, scope);
  const dayRule = DAY_RULES.includes(named as DayRule) ? (named as DayRule) : undefined;
  return { start, days: daysBetween(start, end, dayRule) };
}

function evaluateList(op: ListOp, operands: Expr[], row: Row, scope: Scope): Value {
  const values = operands.map((e) => evaluateValue(e, row, scope));
  if (op === 'coalesce') return values.find((v) => v !== null) ?? null;
  if (op === 'min' || op === 'max') {
    const present = values.filter((v) => v !== null).map(numberOf);
    if (!present.length) return null;
    return present.reduce((a, b) => (op === 'min' ? Dec.min(a, b) : Dec.max(a, b)));
  }
  const numbers = values.map(numberOf);
  if (op === 'add') return numbers.reduce((a, b) => a.plus(b));
  if (op === 'sub') return numbers.reduce((a, b) => a.minus(b));
  if (op === 'mul') return numbers.reduce((a, b) => a.times(b));
  return numbers.reduce((a, b) => (b.isZero() ? new Dec(0) : a.dividedBy(b)));
}

/**
 * Evaluates an expression over a row. In arithmetic empty values count as zero, so a line without
 * a price has amount 0 rather than no amount, and a division by zero gives zero for the same
 * reason; `min`/`max` skip empty operands; `coalesce` takes the first non-empty one. Date
 * differences of a missing date, an `if` without `else` whose condition fails, and a field read
 * of an empty field are empty. `addDays` of a missing date or day count is empty. A detail row
 * reads its document's header through `scope.header`; `sumBy` sums over `scope.rows` (the row
 * alone without them).
 */
export function evaluateValue(expr: Expr, row: Row, scope: Scope = {}): Value {
  if (typeof expr === 'number') return new Dec(String(expr));
  if (typeof expr === 'string') return read(row, expr);
  if ('text' in expr) return expr.text;
  if ('header' in expr) return read(scope.header ?? {}, expr.header);
  if ('if' in expr)
    return matches(expr.if, row)
      ? evaluateValue(expr.then, row, scope)
      : expr.else === undefined
        ? null
        : evaluateValue(expr.else, row, scope);
  if ('sum' in expr) {
    const [detail, field] = expr.sum.split('.');
    const rows = Array.isArray(row[detail]) ? (row[detail] as Row[]) : [];
    return sumOf(rows, field);
  }
  if ('sumBy' in expr) return sumOf(sameRows(row, scope.rows ?? [row], expr.sumBy.by), expr.sumBy.field);
  if ('round' in expr) return roundHalfUp(numberOf(evaluateValue(expr.round[0], row, scope)), expr.round[1]);
  if ('days' in expr) {
    const span = dateSpan(expr.days, row, scope);
    return span && new Dec(span.days);
  }
  if ('months' in expr) {
    const span = dateSpan(expr.months, row, scope);
    return span && new Dec(wholeMonths(span.start, span.days));
  }
  if ('addDays' in expr) return shiftedDate(expr.addDays, row, scope);
  const op = operatorOf(expr) as ListOp;
  return evaluateList(op, childrenOf(expr), row, scope);
}

function sumOf(rows: readonly Row[], field: string): Dec {
  return rows.reduce((acc, r) => acc.plus(toDecimal(r[field]) ?? 0), new Dec(0));
}

/** The rows whose `by` fields hold this row's values (empty equals empty). */
function sameRows(row: Row, rows: readonly Row[], by: readonly string[]): Row[] {
  const key = (r: Row) => JSON.stringify(by.map((f) => (isEmpty(r[f]) ? '' : String(r[f]))));
  const own = key(row);
  return rows.filter((r) => key(r) === own);
}

/** A date moved by a whole number of days (a fraction rounds half-up): "2026-01-31" + 1 = "2026-02-01". */
function shiftedDate([date, days]: [Expr, Expr], row: Row, scope: Scope): Value {
  const start = dayNumber(evaluateValue(date, row, scope));
  const count = evaluateValue(days, row, scope);
  if (start === null || count === null) return null;
  return addDays(start, roundHalfUp(numberOf(count), 0).toNumber());
}

/** Evaluates a numeric expression: an empty result is zero. */
export function evaluate(expr: Expr, row: Row, scope: Scope = {}): Dec {
  return numberOf(evaluateValue(expr, row, scope));
}

/**
 * Orders computed fields so that each is evaluated after the computed fields it reads.
 * Throws on a cycle, naming the fields in it.
 */
export function computeOrder(computed: Record<string, Expr>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`x-compute cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const dep of fieldsRead(computed[name])) if (dep in computed) visit(dep, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of Object.keys(computed)) visit(name, []);
  return order;
}
