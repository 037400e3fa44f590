// The plain-text forms of values that need no server lookup (amounts, quantities, percentages,
// dates, months, yes/no, fixed options): used by the display components, by the totals of detail
// tables and anywhere a value must be shown as a string.
import { amountInCapitals } from '../../../engine/format/checks.ts';
import type { FieldModel, Lang } from '../../../engine/model/types.ts';
import { displayScale, formatDate, formatDecimal, formatMonth } from '../format.ts';

export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Options of a field's x-display (`{"type": "money", "options": {"capitals": true}}`). */
export function displayOptions(field: FieldModel): Record<string, unknown> {
  return (field.display?.options as Record<string, unknown> | undefined) ?? {};
}

/** "12.5000" → "12.5" with minScale 0, "12.50" with minScale 2. */
export function trimZeros(text: string, minScale: number): string {
  const dot = text.indexOf('.');
  if (dot < 0) return text;
  let end = text.length;
  while (end > dot + 1 + minScale && text[end - 1] === '0') end--;
  return text.slice(0, end === dot + 1 ? dot : end);
}

const asDecimal = (value: unknown) => (typeof value === 'number' ? value : String(value));

/** Money and prices: thousands separators and exactly the field's scale (2 for amounts, 4 for prices). */
export function moneyText(field: FieldModel, value: unknown): string {
  return formatDecimal(asDecimal(value), displayScale(field));
}

/** Quantities: thousands separators, up to the field's scale, no trailing zeros. */
export function quantityText(field: FieldModel, value: unknown): string {
  return trimZeros(formatDecimal(asDecimal(value), displayScale(field)), 0);
}

/** Rates stored as percentages (5 = 5 %): at least two decimals. */
export function percentText(field: FieldModel, value: unknown): string {
  return `${trimZeros(formatDecimal(asDecimal(value), displayScale(field)), 2)}%`;
}

/** Plain numbers: integers as they are, decimals like quantities. */
export function numberText(field: FieldModel, value: unknown): string {
  return field.kind === 'decimal' ? quantityText(field, value) : String(value);
}

/** "2026-03" → 2026年3月 / Mar 2026. */
export function monthText(value: unknown, lang: Lang): string {
  const match = /^(\d{4})-(0[1-9]|1[0-2])/.exec(String(value));
  if (!match) return String(value);
  return formatMonth(Number(match[1]), Number(match[2]), lang);
}

export function dateText(value: unknown, lang: Lang, withTime = false): string {
  return formatDate(String(value), lang, withTime);
}

/** true / 1 / "1" / "true" are yes; false / 0 are no; anything else is unknown. */
export function booleanOf(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return undefined;
}

/** The label of a fixed option (oneOf/const), or the value itself. */
export function optionText(field: FieldModel, value: unknown, lang: Lang): string {
  return field.options?.find((o) => String(o.value) === String(value))?.label[lang] ?? String(value);
}

/** The amount in Chinese capitals (大写); '' when the value is negative or not a plain amount. */
export function capitalsText(field: FieldModel, value: unknown): string {
  const digits = formatDecimal(asDecimal(value), Math.min(displayScale(field), 2)).replace(/,/g, '');
  return amountInCapitals(digits);
}

/** The separate values of a multi-value field (an array, or a comma-joined string). */
export function valuesOf(value: unknown, separator = ','): string[] {
  const list = Array.isArray(value) ? value : String(value).split(separator);
  return list.map((v) => String(v).trim()).filter(Boolean);
}

/** The stored object's name (upload/20260315/<uuid>.pdf → <uuid>.pdf), when no better name is known. */
export function fileName(url: string): string {
  return decodeURIComponent(url.split('/').pop() || url);
}

/** How the list joins several labels in one cell. */
export function joinLabels(labels: readonly string[], lang: Lang): string {
  return labels.join(lang === 'zh' ? '、' : ', ');
}
