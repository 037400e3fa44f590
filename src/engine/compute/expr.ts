// The x-compute expression language: a JSON tree, parsed, never eval'ed.
import { Dec, roundHalfUp, toDecimal } from './decimal.ts';

export type Expr =
  | number
  | string
  | { add: Expr[] }
  | { sub: Expr[] }
  | { mul: Expr[] }
  | { div: Expr[] }
  | { round: [Expr, number] }
  | { sum: string };

/** Values an expression reads: the row's own fields, and for `sum` the detail arrays. */
export type Row = Record<string, unknown>;

/** Field names a expression reads from its own row (not through `sum`). */
export function fieldsRead(expr: Expr): string[] {
  if (typeof expr === 'number') return [];
  if (typeof expr === 'string') return [expr];
  if ('sum' in expr) return [];
  if ('round' in expr) return fieldsRead(expr.round[0]);
  return operandsOf(expr).flatMap(fieldsRead);
}

/** `detail.field` pairs a expression sums over. */
export function sumsRead(expr: Expr): { detail: string; field: string }[] {
  if (typeof expr === 'number' || typeof expr === 'string') return [];
  if ('sum' in expr) {
    const [detail, field] = expr.sum.split('.');
    return [{ detail, field }];
  }
  if ('round' in expr) return sumsRead(expr.round[0]);
  return operandsOf(expr).flatMap(sumsRead);
}

function operandsOf(expr: { add: Expr[] } | { sub: Expr[] } | { mul: Expr[] } | { div: Expr[] }): Expr[] {
  if ('add' in expr) return expr.add;
  if ('sub' in expr) return expr.sub;
  if ('mul' in expr) return expr.mul;
  return expr.div;
}

/**
 * Evaluates an expression over a row. Empty fields count as zero, so a line without a price has
 * amount 0 rather than no amount; a division by zero gives zero for the same reason.
 */
export function evaluate(expr: Expr, row: Row): Dec {
  if (typeof expr === 'number') return new Dec(String(expr));
  if (typeof expr === 'string') return toDecimal(row[expr]) ?? new Dec(0);
  if ('sum' in expr) {
    const [detail, field] = expr.sum.split('.');
    const rows = Array.isArray(row[detail]) ? (row[detail] as Row[]) : [];
    return rows.reduce((acc, r) => acc.plus(toDecimal(r[field]) ?? 0), new Dec(0));
  }
  if ('round' in expr) return roundHalfUp(evaluate(expr.round[0], row), expr.round[1]);
  const values = operandsOf(expr).map((e) => evaluate(e, row));
  if ('add' in expr) return values.reduce((a, b) => a.plus(b));
  if ('sub' in expr) return values.reduce((a, b) => a.minus(b));
  if ('mul' in expr) return values.reduce((a, b) => a.times(b));
  return values.reduce((a, b) => (b.isZero() ? new Dec(0) : a.dividedBy(b)));
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
