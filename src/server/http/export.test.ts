// Worksheet names: Excel refuses some characters, long names and repeats; an export must not fail
// because a document's title has them (分包商/协作单位).
import { describe, expect, it } from 'vitest';
import { sheetName } from './export.ts';

describe('worksheet names', () => {
  it('replaces the characters Excel refuses and keeps 31 characters', () => {
    expect(sheetName('分包商/协作单位')).toBe('分包商-协作单位');
    expect(sheetName('a\\b?c*d[e]f:g')).toBe('a-b-c-d-e-f-g');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
  });

  it('numbers a name the workbook already has', () => {
    expect(sheetName('物资明细', ['物资明细'])).toBe('物资明细-2');
    expect(sheetName('物资明细', ['物资明细', '物资明细-2'])).toBe('物资明细-3');
  });
});
