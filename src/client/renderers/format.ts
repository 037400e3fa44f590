// Number and date formatting shared by the list, the form's read-only cells and the detail view.
// Amounts keep their decimal digits exact: the value is formatted from its string, never through
// a float rounding of more digits than a double holds.
import type { FieldModel, Lang } from '../../engine/model/types.ts';

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "1234567.5" with scale 2 → "1,234,567.50" (half-up rounding on the decimal string). */
export function formatDecimal(value: string | number, scale: number): string {
  const text = typeof value === 'number' ? value.toFixed(Math.min(20, Math.max(scale, 0) + 2)) : value.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return String(value);
  const [, sign, intPart = '0', fraction = ''] = match;
  let digits = (intPart || '0') + fraction.padEnd(scale + 1, '0').slice(0, scale + 1);
  const roundUp = Number(digits[digits.length - 1]) >= 5;
  digits = digits.slice(0, -1);
  if (roundUp) {
    const bumped = (BigInt(digits || '0') + 1n).toString().padStart(digits.length, '0');
    digits = bumped;
  }
  const whole = digits.slice(0, digits.length - scale) || '0';
  const frac = scale > 0 ? '.' + digits.slice(digits.length - scale) : '';
  const negative = sign === '-' && /[1-9]/.test(digits);
  return `${negative ? '-' : ''}${grouped(whole.replace(/^0+(?=\d)/, ''))}${frac}`;
}

/** Decimal places a field shows: x-display options.scale, else the column's scale, else 2. */
export function displayScale(field: FieldModel): number {
  const fromDisplay = (field.display?.options as { scale?: number } | undefined)?.scale;
  return fromDisplay ?? field.scale ?? 2;
}

/**
 * English month names, three letters each: the locales' own short names differ ("Sept" in
 * en-GB beside "Oct"), and one screen shows one style.
 */
export const ENGLISH_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** A stored date ("2026-03-15" or "2026-03-15 09:30:00") in the user's language (2026/03/15, 15 Mar 2026); time kept as stored. */
export function formatDate(value: string, lang: Lang, withTime = false): string {
  const [day, time] = value.split(/[ T]/);
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d || m > 12) return value;
  const text = lang === 'en' ? `${pad(d)} ${ENGLISH_MONTHS[m - 1]} ${y}` : `${y}/${pad(m)}/${pad(d)}`;
  return withTime && time ? `${text} ${time.slice(0, 8)}` : text;
}

const chineseMonth = new Intl.DateTimeFormat('zh-CN', { year: 'numeric', month: '2-digit', timeZone: 'UTC' });

/** A month in the user's language: 2026年9月, Sep 2026. */
export function formatMonth(year: number, month: number, lang: Lang): string {
  return lang === 'en' ? `${ENGLISH_MONTHS[month - 1]} ${year}` : chineseMonth.format(new Date(Date.UTC(year, month - 1, 1)));
}
