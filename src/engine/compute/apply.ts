// Applies a model's x-compute fields to a record and its detail rows, exactly as the server stores them.
import type { DetailModel, EntityModel, FieldModel } from '../model/types.ts';
import { decimalToJson, roundHalfUp, toDecimal } from './decimal.ts';
import { evaluateValue, type Row, type Value } from './expr.ts';

/** Rounds every decimal value to its column's scale, so that computations see what will be stored. */
function normalizeDecimals(row: Row, fields: readonly FieldModel[]): Row {
  const out: Row = { ...row };
  for (const f of fields) {
    if (f.kind !== 'decimal' || f.scale === undefined) continue;
    const d = toDecimal(out[f.name]);
    if (d) out[f.name] = decimalToJson(roundHalfUp(d, f.scale));
  }
  return out;
}

function computeRow(row: Row, fieldMap: Readonly<Record<string, FieldModel>>, order: readonly string[]): Row {
  const out = row;
  for (const name of order) {
    const field = fieldMap[name];
    const binding = field.compute!;
    const present = out[name] !== undefined && out[name] !== null && out[name] !== '';
    if (binding.mode === 'default' && present) continue;
    out[name] = stored(field, evaluateValue(binding.expr, out));
  }
  return out;
}

/** A computed value as its field stores it: numbers rounded to the field's scale, texts as they are. */
function stored(field: FieldModel, value: Value): unknown {
  if (value === null) return null;
  if (field.kind !== 'decimal' && field.kind !== 'integer') return typeof value === 'string' ? value : value.toFixed();
  const number = typeof value === 'string' ? toDecimal(value)! : value;
  const scale = field.compute!.scale ?? (field.kind === 'integer' ? 0 : field.scale);
  return decimalToJson(scale === undefined ? number : roundHalfUp(number, scale));
}

function computeDetail(detail: DetailModel, rows: unknown): unknown {
  if (!Array.isArray(rows)) return rows;
  return rows.map((r) => computeRow(normalizeDecimals(r as Row, detail.fields), detail.fieldMap, detail.computeOrder));
}

/**
 * Returns a copy of `record` with decimals rounded to their scale and every derived value
 * recomputed: detail rows first, then the header (whose totals sum the rounded row values).
 */
export function applyComputed(model: EntityModel, record: Row): Row {
  const out = normalizeDecimals(record, model.fields);
  for (const detail of model.details) {
    if (detail.name in out) out[detail.name] = computeDetail(detail, out[detail.name]);
  }
  return computeRow(out, model.fieldMap, model.computeOrder);
}
