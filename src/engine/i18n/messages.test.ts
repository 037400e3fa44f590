import { describe, expect, it } from 'vitest';
import { fill, messages, pickLang, t } from './messages.ts';

describe('messages', () => {
  it('every message has Chinese and English text with the same placeholders', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, { zh, en }] of Object.entries(messages)) {
      expect(zh, key).toBeTruthy();
      expect(en, key).toBeTruthy();
      expect(placeholders(zh), key).toEqual(placeholders(en));
    }
  });

  it('renders Label params in the requested language', () => {
    const field = { zh: '项目名称', en: 'Project name' };
    expect(t('required', 'zh', { field })).toBe('项目名称不能为空');
    expect(t('required', 'en', { field })).toBe('Project name is required');
    expect(t('detailRow', 'zh', { detail: { zh: '物资明细', en: 'Material lines' }, row: 2 })).toBe('物资明细第2行');
    expect(t('detailRow', 'en', { detail: { zh: '物资明细', en: 'Material lines' }, row: 2 })).toBe('Material lines row 2');
  });

  it('leaves a placeholder without a value visible rather than printing "undefined"', () => {
    expect(fill('{field} max {limit}', { field: 'A' })).toBe('A max {limit}');
    expect(fill('{n}', { n: 0 })).toBe('0');
  });

  it('picks English only when the client prefers it', () => {
    expect(pickLang('en-US,en;q=0.9')).toBe('en');
    expect(pickLang('EN')).toBe('en');
    expect(pickLang('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh');
    expect(pickLang('fr-FR')).toBe('zh');
    expect(pickLang('')).toBe('zh');
    expect(pickLang(undefined)).toBe('zh');
  });
});
