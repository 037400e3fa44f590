// The predicate language of the engine (x-rules, x-ref filters, custom data scopes) as SQL over an
// entity's table: fields must be the model's, values become parameters, tokens such as
// "$user.userId" are replaced by the caller's values.
import type { Predicate, Condition } from '../../engine/predicate/predicate.ts';
import type { EntityModel } from '../../engine/model/types.ts';
import { Params, q } from './sql.ts';

/** A SQL literal of a constant (a partial index's condition cannot take parameters). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/**
 * The predicate as SQL with its values written in (constants only: x-db.uniqueWhen in a partial
 * index), the columns qualified by `alias`.
 */
export function constantPredicateSql(pred: Predicate, model: EntityModel, alias: string): string {
  const params = new Params();
  const sql = predicateSql(pred, model, params, alias, {});
  return sql.replace(/\$(\d+)/g, (_, n: string) => literal(params.values[Number(n) - 1]));
}

export function predicateSql(pred: Predicate, model: EntityModel, params: Params, alias: string, tokens: Record<string, unknown>): string {
  const value = (v: unknown) => (typeof v === 'string' && v in tokens ? tokens[v] : v);
  const parts = Object.entries(pred).map(([key, body]): string => {
    if (key === '_and') return `(${(body as Predicate[]).map((p) => predicateSql(p, model, params, alias, tokens)).join(' AND ')})`;
    if (key === '_or') return `(${(body as Predicate[]).map((p) => predicateSql(p, model, params, alias, tokens)).join(' OR ')})`;
    if (key === '_not') return `NOT (${predicateSql(body as Predicate, model, params, alias, tokens)})`;
    const field = model.fieldMap[key];
    if (!field || field.writeOnly) return 'false';
    const col = `${alias}.${q(field.column)}`;
    const [op, raw] = Object.entries(body as Condition)[0];
    const v = value(raw);
    switch (op) {
      case '_eq':
        return v === null ? `${col} IS NULL` : `${col}::text = ${params.add(String(v))}`;
      case '_neq':
        return v === null ? `${col} IS NOT NULL` : `(${col} IS NULL OR ${col}::text <> ${params.add(String(v))})`;
      case '_in':
        return `${col}::text = ANY(${params.add((Array.isArray(v) ? v : [v]).map((x) => String(value(x))))}::text[])`;
      case '_nin':
        return `NOT (${col}::text = ANY(${params.add((Array.isArray(v) ? v : [v]).map((x) => String(value(x))))}::text[]))`;
      case '_gt':
        return `${col} > ${params.add(v)}`;
      case '_gte':
        return `${col} >= ${params.add(v)}`;
      case '_lt':
        return `${col} < ${params.add(v)}`;
      case '_lte':
        return `${col} <= ${params.add(v)}`;
      case '_empty':
        return v ? `(${col} IS NULL OR ${col}::text = '')` : `(${col} IS NOT NULL AND ${col}::text <> '')`;
      default:
        return 'false';
    }
  });
  return parts.length ? parts.join(' AND ') : 'true';
}
