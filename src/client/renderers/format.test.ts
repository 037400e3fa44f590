import { describe, expect, it } from 'vitest';
import { formatDate, formatDecimal } from './format.ts';

describe('amounts as a user reads them', () => {
  it('groups thousands and shows the field scale', () => {
    expect(formatDecimal('1234567.5', 2)).toBe('1,234,567.50');
    expect(formatDecimal(0, 2)).toBe('0.00');
    expect(formatDecimal('-1234.5', 2)).toBe('-1,234.50');
    expect(formatDecimal('12.34567', 4)).toBe('12.3457');
  });

  it('rounds half up on the decimal digits, without float error', () => {
    expect(formatDecimal('1.005', 2)).toBe('1.01');
    expect(formatDecimal('99999999999999.995', 2)).toBe('100,000,000,000,000.00');
    expect(formatDecimal('-0.001', 2)).toBe('0.00');
  });
});

describe('dates in the user locale', () => {
  it('zh and en', () => {
    expect(formatDate('2026-03-15', 'zh')).toBe('2026/03/15');
    expect(formatDate('2026-03-15 09:30:00', 'en', true)).toBe('15 Mar 2026 09:30:00');
  });
});
