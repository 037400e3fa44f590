// Decimal arithmetic for money and quantities: binary floating point never touches an amount.
import Decimal from 'decimal.js';

/** A private Decimal constructor so that other users of decimal.js keep their own settings. */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof Dec>;

/** Parses a JSON number or numeric string; empty values are null. Throws on non-numbers. */
export function toDecimal(value: unknown): Dec | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return new Dec(String(value));
  }
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return new Dec(value.trim());
  throw new TypeError(`not a number: ${String(value)}`);
}

/** Round half-up (away from zero on .5, as Chinese accounting expects) to `scale` decimals. */
export function roundHalfUp(value: Dec, scale: number): Dec {
  return value.toDecimalPlaces(scale, Dec.ROUND_HALF_UP);
}

/** The JSON form of a decimal: a number when it round-trips exactly, else a string. */
export function decimalToJson(value: Dec): number | string {
  const n = value.toNumber();
  return new Dec(String(n)).equals(value) ? n : value.toFixed();
}
