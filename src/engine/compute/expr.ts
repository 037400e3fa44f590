// The x-compute expression language: a JSON tree, parsed, never eval'ed.
import { fieldsOf, matches, type Predicate } from '../predicate/predicate.ts';
import { dayNumber, daysBetween, DAY_RULES, wholeMonths, type DayRule } from './dates.ts';
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
  | { months: DateOperands };

/** Values an expression reads: the row's own fields, and for `sum` the detail arrays. */
export type Row = Record<string, unknown>;

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
  if ('sum' in expr || 'text' in expr) return [];
  return (expr as Record<ListOp, Expr[]>)[operatorOf(expr) as ListOp];
}

/** Field names an expression reads from its own row (not through `sum`), conditions included. */
export function fieldsRead(expr: Expr): string[] {
  if (typeof expr === 'string') return [expr];
  const own = typeof expr === 'object' && 'if' in expr ? fieldsOf(expr.if) : [];
  return [...own, ...childrenOf(expr).flatMap(fieldsRead)];
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

function dateSpan([from, to, rule]: DateOperands, row: Row): { start: number; days: number } | null {
  const start = dayNumber(evaluateValue(from, row));
  const end = dayNumber(evaluateValue(to, row));
  if (start === null || end === null) return null;
  const named = rule === undefined ? null : evaluateValue(rule, row);
  const dayRule = DAY_RULES.includes(named as DayRule) ? (named as DayRule) : undefined;
  return { start, days: daysBetween(start, end, dayRule) };
}

function evaluateList(op: ListOp, operands: Expr[], row: Row): Value {
  const values = operands.map((e) => evaluateValue(e, row));
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
 * of an empty field are empty.
 */
export function evaluateValue(expr: Expr, row: Row): Value {
  if (typeof expr === 'number') return new Dec(String(expr));
  if (typeof expr === 'string') return read(row, expr);
  if ('text' in expr) return expr.text;
  if ('if' in expr) return matches(expr.if, row) ? evaluateValue(expr.then, row) : expr.else === undefined ? null : evaluateValue(expr.else, row);
  if ('sum' in expr) {
    const [detail, field] = expr.sum.split('.');
    const rows = Array.isArray(row[detail]) ? (row[detail] as Row[]) : [];
    return rows.reduce((acc, r) => acc.plus(toDecimal(r[field]) ?? 0), new Dec(0));
  }
  if ('round' in expr) return roundHalfUp(numberOf(evaluateValue(expr.round[0], row)), expr.round[1]);
  if ('days' in expr) {
    const span = dateSpan(expr.days, row);
    return span && new Dec(span.days);
  }
  if ('months' in expr) {
    const span = dateSpan(expr.months, row);
    return span && new Dec(wholeMonths(span.start, span.days));
  }
  const op = operatorOf(expr) as ListOp;
  return evaluateList(op, childrenOf(expr), row);
}

/** Evaluates a numeric expression: an empty result is zero. */
export function evaluate(expr: Expr, row: Row): Dec {
  return numberOf(evaluateValue(expr, row));
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
