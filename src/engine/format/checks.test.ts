import { describe, expect, it } from 'vitest';
import { amountInCapitals, isUrl, phoneProblem } from './checks.ts';

describe('phone check', () => {
  it('names what is wrong', () => {
    expect(phoneProblem('')).toBe('phone.empty');
    expect(phoneProblem('1381234567')).toBe('phone.length');
    expect(phoneProblem('23812345678')).toBe('phone.format');
    expect(phoneProblem('13812345678')).toBeNull();
  });
});

describe('url check', () => {
  it('accepts http and https only', () => {
    expect(isUrl('https://zhusuan.cn/a?b=1')).toBe(true);
    expect(isUrl('http://127.0.0.1:8080')).toBe(true);
    expect(isUrl('ftp://x.cn')).toBe(false);
    expect(isUrl('javascript:alert(1)')).toBe(false);
    expect(isUrl('zhusuan.cn')).toBe(false);
  });
});

describe('amount in Chinese capitals', () => {
  it.each([
    ['0', '零元整'],
    ['1', '壹元整'],
    ['10', '壹拾元整'],
    ['1234.5', '壹仟贰佰叁拾肆元伍角整'],
    ['1001.01', '壹仟零壹元零壹分'],
    ['100000', '壹拾万元整'],
    ['10050000.3', '壹仟零伍万元叁角整'],
    ['123456789.12', '壹亿贰仟叁佰肆拾伍万陆仟柒佰捌拾玖元壹角贰分'],
    ['100000001', '壹亿零壹元整'],
    ['0.05', '伍分'],
  ])('%s -> %s', (amount, words) => {
    expect(amountInCapitals(amount)).toBe(words);
  });

  it('refuses negatives, leading zeros and non-numbers', () => {
    expect(amountInCapitals('-1')).toBe('');
    expect(amountInCapitals('012')).toBe('');
    expect(amountInCapitals('1.234')).toBe('');
    expect(amountInCapitals('abc')).toBe('');
  });
});
