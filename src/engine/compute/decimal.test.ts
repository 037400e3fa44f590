import { describe, expect, it } from 'vitest';
import { Dec, decimalToJson, roundHalfUp, toDecimal } from './decimal.ts';

const round = (v: number | string, scale: number) => decimalToJson(roundHalfUp(toDecimal(v)!, scale));

describe('toDecimal', () => {
  it('reads JSON numbers by their printed digits, not their binary value', () => {
    // 1.00005 is 1.000049999… in binary; the decimal must be the digits the client typed
    expect(toDecimal(1.00005)!.toFixed()).toBe('1.00005');
    expect(toDecimal(2.675)!.toFixed()).toBe('2.675');
  });

  it('accepts numeric strings, trimmed, including negatives', () => {
    expect(toDecimal('12.5')!.toFixed()).toBe('12.5');
    expect(toDecimal(' -3.25 ')!.toFixed()).toBe('-3.25');
    expect(toDecimal('123456789012345678.1234')!.toFixed()).toBe('123456789012345678.1234');
  });

  it('treats empty values as absent', () => {
    expect(toDecimal(null)).toBeNull();
    expect(toDecimal(undefined)).toBeNull();
    expect(toDecimal('')).toBeNull();
  });

  it('refuses what is not a finite number', () => {
    expect(() => toDecimal('abc')).toThrow(TypeError);
    expect(() => toDecimal('1,000')).toThrow(TypeError);
    expect(() => toDecimal(Number.NaN)).toThrow(TypeError);
    expect(() => toDecimal(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => toDecimal({})).toThrow(TypeError);
    expect(() => toDecimal(true)).toThrow(TypeError);
  });
});

describe('roundHalfUp', () => {
  it('rounds .5 up at two decimals where binary floating point rounds down', () => {
    expect((2.675).toFixed(2)).toBe('2.67'); // the float trap this module exists for
    expect(round(2.675, 2)).toBe(2.68);
    expect(round(1.005, 2)).toBe(1.01);
    expect(round(0.125, 2)).toBe(0.13);
    expect(round(2.674999, 2)).toBe(2.67);
  });

  it('rounds .5 up at four decimals', () => {
    expect(round(1.00005, 4)).toBe(1.0001);
    expect(round(1.00004999, 4)).toBe(1);
    expect(round('0.12345', 4)).toBe(0.1235);
  });

  it('rounds negative halves away from zero, as accounting expects', () => {
    expect(round(-2.675, 2)).toBe(-2.68);
    expect(round(-1.00005, 4)).toBe(-1.0001);
    expect(round(-0.005, 2)).toBe(-0.01);
    expect(round(-2.674, 2)).toBe(-2.67);
  });

  it('leaves values already at the scale unchanged', () => {
    expect(round(12.3, 2)).toBe(12.3);
    expect(round(7, 4)).toBe(7);
  });
});

describe('decimalToJson', () => {
  it('gives a JSON number when the number prints as the exact decimal', () => {
    expect(decimalToJson(new Dec('0.1').plus('0.2'))).toBe(0.3);
    expect(decimalToJson(new Dec('3').times('0.1'))).toBe(0.3);
    expect(decimalToJson(new Dec('123456789012.34'))).toBe(123456789012.34);
  });

  it('gives the exact decimal as a string when no double prints it', () => {
    expect(decimalToJson(new Dec('1234567890123.4567'))).toBe('1234567890123.4567');
    expect(decimalToJson(new Dec('99999999999999.99'))).toBe('99999999999999.99');
    expect(decimalToJson(new Dec('0.1000000000000000000001'))).toBe('0.1000000000000000000001');
  });
});
