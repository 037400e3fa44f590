// Applies a model's x-compute fields to a record and its detail rows, exactly as the server stores them.
import type { DetailModel, EntityModel, FieldModel } from '../model/types.ts';
import { decimalToJson, roundHalfUp, toDecimal } from './decimal.ts';
import { evaluateValue, type Row, type Scope, type Value } from './expr.ts';

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

function computeRow(row: Row, fieldMap: Readonly<Record<string, FieldModel>>, order: readonly string[], scope: Scope = {}): Row {
  const out = row;
  for (const name of order) {
    const field = fieldMap[name];
    const binding = field.compute!;
    const present = out[name] !== undefined && out[name] !== null && out[name] !== '';
    if (binding.mode === 'default' && present) continue;
    out[name] = stored(field, evaluateValue(binding.expr, out, scope));
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

/**
 * A detail's rows computed in the context of their header. Rows whose formulas sum over their
 * siblings (`sumBy`) take a second pass over the first pass's values: the summed fields never
 * depend on such sums (computeOrder refuses the cycle), so their first values are final.
 */
export function computeRows(detail: DetailModel, rows: readonly Row[], header: Row = {}): Row[] {
  const input = rows.map((r) => normalizeDecimals(r, detail.fields));
  const first = input.map((r) => computeRow({ ...r }, detail.fieldMap, detail.computeOrder, { header, rows: input }));
  if (!detail.sumsSiblings) return first;
  return input.map((r) => computeRow({ ...r }, detail.fieldMap, detail.computeOrder, { header, rows: first }));
}

/**
 * The header as its detail rows read it: its own formulas that do not sum the rows, computed. A
 * row may not read a header value that sums rows (the linter refuses it), so this is exact.
 */
export function headerForRows(model: EntityModel, record: Row): Row {
  if (!model.details.some((d) => d.headerReads.length)) return record;
  return computeRow(normalizeDecimals(record, model.fields), model.fieldMap, model.computeBeforeRows);
}

/**
 * Returns a copy of `record` with decimals rounded to their scale and every derived value
 * recomputed: detail rows first (reading the header where their formulas do), then the header
 * (whose totals sum the rounded row values).
 */
export function applyComputed(model: EntityModel, record: Row): Row {
  const out = normalizeDecimals(record, model.fields);
  const header = headerForRows(model, out);
  for (const detail of model.details) {
    if (Array.isArray(out[detail.name])) out[detail.name] = computeRows(detail, out[detail.name] as Row[], header);
  }
  return computeRow(out, model.fieldMap, model.computeOrder);
}
