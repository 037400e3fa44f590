// Footer totals of detail tables: summed exactly (decimal arithmetic) for quantities and amounts.
// Prices and rates are not added up; x-display options.total overrides either way. Quantities are
// added only when every row measures in the same unit(s): 12 m + 5 m + 1 项 has no total.
import { Dec, toDecimal } from '../../../engine/compute/decimal.ts';
import type { DetailModel, FieldModel } from '../../../engine/model/types.ts';
import { displayOptions } from '../displays/text.ts';
import { displayTypeOf } from '../displays/display-type.ts';
import { displayScale } from '../format.ts';
import type { Row } from '../extensions.ts';

export function isTotalled(field: FieldModel): boolean {
  const declared = displayOptions(field).total;
  if (typeof declared === 'boolean') return declared;
  const type = displayTypeOf(field);
  return type === 'quantity' || (type === 'money' && displayScale(field) <= 2);
}

/** The exact sum of a column as a decimal string ('' when no row has a value). */
export function columnTotal(rows: readonly Row[], field: FieldModel): string {
  let total: Dec | null = null;
  for (const row of rows) {
    let value: Dec | null = null;
    try {
      value = toDecimal(row[field.name]);
    } catch {
      value = null;
    }
    if (value) total = total ? total.plus(value) : value;
  }
  return total ? total.toFixed() : '';
}

/** The row fields naming a unit of measure: `unit`, `…Unit` (pricingUnit, leaseTimeUnit). */
const unitFields = (detail: DetailModel) => detail.fields.filter((f) => f.kind === 'string' && /^unit$|Unit$/.test(f.name));

/** Do the rows measure in more than one unit? (Rows without a unit do not count.) */
export function mixedUnits(detail: DetailModel, rows: readonly Row[]): boolean {
  return unitFields(detail).some(
    (f) => new Set(rows.map((r) => r[f.name]).filter((u) => u !== undefined && u !== null && u !== '')).size > 1,
  );
}

/** The columns with a footer total: amounts always, quantities only when the rows share their unit. */
export function totalledColumns(detail: DetailModel, fields: readonly FieldModel[], rows: readonly Row[]): FieldModel[] {
  const mixed = mixedUnits(detail, rows);
  return fields.filter((f) => isTotalled(f) && !(mixed && displayTypeOf(f) === 'quantity' && displayOptions(f).total !== true));
}
