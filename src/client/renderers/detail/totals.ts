// Footer totals of detail tables: summed exactly (decimal arithmetic) for quantities and amounts.
// Prices and rates are not added up; x-display options.total overrides either way.
import { Dec, toDecimal } from '../../../engine/compute/decimal.ts';
import type { FieldModel } from '../../../engine/model/types.ts';
import { displayOptions } from '../displays/text.ts';
import { displayTypeOf } from '../displays/registry.tsx';
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
