import { describe, expect, it } from 'vitest';
import { monthText } from './displays/text.ts';
import { formatDate, formatDecimal, formatMonth } from './format.ts';

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

describe('English months are three letters, one style on one screen', () => {
  it('Sep beside Oct, in dates and months (en-GB would say Sept)', () => {
    expect(formatDate('2026-09-05', 'en')).toBe('05 Sep 2026');
    expect(formatMonth(2026, 9, 'en')).toBe('Sep 2026');
    expect(formatMonth(2026, 10, 'en')).toBe('Oct 2026');
    expect(monthText('2026-09', 'en')).toBe('Sep 2026');
    expect(monthText('2026-09', 'zh')).toBe('2026年9月');
  });
});
