import { describe, expect, it } from 'vitest';
import { inventoryLossWarnings, timelinessWarnings, DEFAULT_WARN_SETTINGS } from '../../packs/cost/engine/warnings/rules.ts';
import { parseStoredText, renderStored, renderText, sameText, storeText, textRef } from './stored-text.ts';

describe('stored texts: a key and its parameters, read in the reader’s language', () => {
  it('renders a reference in each language; a Label parameter follows the language', () => {
    const ref = textRef('warning.budgetOver', {
      type: { zh: '分包', en: 'Subcontract' },
      actual: '1,200.00',
      threshold: '1,000.00',
      ratio: 120,
    });
    const column = storeText(ref);
    expect(renderText(column, 'zh')).toBe('分包类合同累计 1,200.00 元超过项目成本预算 1,000.00 元(120%)');
    expect(renderText(column, 'en')).toBe("Contracts of type Subcontract total 1,200.00, over the project's budget 1,000.00 (120 %)");
  });

  it('a warning with several reasons stores each and joins them as the language joins clauses', () => {
    const [w] = timelinessWarnings(
      { period: '2026-05', startDate: '2026-01-01', endDate: '2026-05-31', preparedMonth: '2026-06' },
      DEFAULT_WARN_SETTINGS,
    );
    const column = storeText(w.message.ref!);
    expect(renderText(column, 'zh')).toBe(w.message.zh);
    expect(renderText(column, 'en')).toBe(w.message.en);
    expect(w.message.en).toContain('; ');
  });

  it('a list parameter is one item a line; a {zh, en} pair is read in its language', () => {
    const lines = [textRef('warning.notifyLine', { type: { zh: '盘亏', en: 'Stocktake loss' }, message: { zh: '甲', en: 'A' } })];
    const content = textRef('warning.notifyLines', { lines: [...lines, ...lines] });
    expect(renderStored(content, 'en')).toBe('[Stocktake loss] A\n[Stocktake loss] A');
    expect(renderStored(content, 'zh')).toBe('[盘亏] 甲\n[盘亏] 甲');
  });

  it('plain text (what a person typed) stays as it is, even when it looks like JSON', () => {
    for (const typed of ['请于周五前完成钢筋进场验收。', '{"note": 1}', '[1, 2]', '{"key": "nope.nothing"}', '{broken'])
      expect(renderText(typed, 'en')).toBe(typed);
    expect(parseStoredText(42)).toBeUndefined();
  });

  it('a key no catalog has is a bug, refused when the reference is made', () => {
    expect(() => textRef('warning.noSuchText')).toThrow(/unknown message key/);
  });

  it('the words a form posts back are recognised as the stored text, in either language', () => {
    const [w] = inventoryLossWarnings(
      [{ id: '1', name: '螺纹钢', qty: 0, bookQty: 100, countQty: 95.24, price: 10 }],
      DEFAULT_WARN_SETTINGS,
    );
    const column = storeText(w.message.ref!);
    expect(sameText(w.message.zh, column)).toBe(true);
    expect(sameText(w.message.en, column)).toBe(true);
    expect(sameText('处理完毕', column)).toBe(false);
    expect(sameText(w.message.zh, '螺纹钢盘亏')).toBe(false);
  });
});
