// SQL fragments derived from the models. Identifiers come only from compiled models (validated by
// the dialect's patterns), never from a request; every value is a parameter.
import { decimalToJson, toDecimal } from '../../engine/compute/decimal.ts';
import type { FieldModel } from '../../engine/model/types.ts';
import type { SortSpec } from '../../engine/query/list-params.ts';
import type { Row } from './db.ts';

export const q = (identifier: string) => `"${identifier}"`;

/** The quoted column of a field of an entity or of a detail's rows. */
export const fieldColumn = (model: { fieldMap: Readonly<Record<string, FieldModel>> }, field: string) => q(model.fieldMap[field].column);

/**
 * Where a field's value is read: its column of the record's row (alias), or for references kept in
 * a link table (x-db.link) the text the API answers, the references joined by commas in their order.
 */
export function valueSql(f: FieldModel, alias = 't'): string {
  if (!f.link) return `${alias}.${q(f.column)}`;
  return `(SELECT string_agg(l.${q(f.column)}::text, ',' ORDER BY l.sort) FROM ${q(f.link.table)} l WHERE l.${q(f.link.ownerColumn)} = ${alias}.id)`;
}

/** How a column is read so that both drivers return the same JSON: ids and decimals as text, dates formatted. */
export function selectExpr(f: FieldModel, alias = 't'): string {
  const col = valueSql(f, alias);
  switch (f.kind) {
    case 'id':
    case 'decimal':
      return `${col}::text`;
    case 'date':
      return `to_char(${col}, 'YYYY-MM-DD')`;
    case 'datetime':
      return `to_char(${col}, 'YYYY-MM-DD HH24:MI:SS')`;
    default:
      return col;
  }
}

export function selectList(fields: readonly FieldModel[], alias = 't'): string {
  return fields.map((f) => `${selectExpr(f, alias)} AS ${q(f.name)}`).join(', ');
}

/** Turns a row read with selectList into the record clients see (decimals as JSON numbers). */
export function toRecord(row: Row, fields: readonly FieldModel[]): Row {
  for (const f of fields) {
    const v = row[f.name];
    if (f.kind !== 'decimal' || v === null || v === undefined) continue;
    // up to 15 significant digits a double holds the decimal exactly; beyond, keep it exact
    row[f.name] = String(v).replace(/^-?0*|\./g, '').length <= 15 ? Number(v) : decimalToJson(toDecimal(v)!);
  }
  return row;
}

/** The value bound for a column. */
export function toParam(f: FieldModel, value: unknown): unknown {
  if (value === undefined || value === null || value === '') return null;
  if (f.kind === 'json') return JSON.stringify(value);
  if (f.kind === 'decimal') return toDecimal(value)!.toFixed();
  return value;
}

/** Accumulates positional parameters. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export function orderSql(sort: readonly SortSpec[], fieldMap: Readonly<Record<string, FieldModel>>, alias = 't'): string {
  const parts = sort.map((s) => `${valueSql(fieldMap[s.field], alias)} ${s.order === 'desc' ? 'DESC' : 'ASC'}`);
  if (!sort.some((s) => s.field === 'id')) parts.push(`${alias}.id ${sort[0]?.order === 'asc' ? 'ASC' : 'DESC'}`);
  return parts.join(', ');
}
