import { describe, expect, it } from 'vitest';
import { renderStored } from '../../engine/i18n/stored-text.ts';
import { formerWorkflowNotice, readTemplate } from './former-texts.ts';

describe('texts stored in both languages before keys: read back as key and parameters', () => {
  it('reads the parameters a template was filled with', () => {
    expect(readTemplate('{goods}:实收数量 {actual} 超过送货数量 {threshold}', '螺纹钢:实收数量 31.5 超过送货数量 31')).toEqual({
      goods: '螺纹钢',
      actual: '31.5',
      threshold: '31',
    });
    expect(readTemplate('{goods} 不在总需用计划中', '中砂 在计划中')).toBeUndefined();
  });

  it('reads a long text of many would-be separators whole, in one pass', () => {
    // an expression of lazy groups took polynomial time on such texts; the scan reads each once (the
    // test's timeout is the bound). A goods name holding the separator: the first split wins
    const text = `${':实收数量 '.repeat(50_000)}:实收数量 31.5 超过送货数量 31`;
    const read = readTemplate('{goods}:实收数量 {actual} 超过送货数量 {threshold}', text);
    expect([read?.goods, read?.actual.length, read?.threshold]).toEqual([
      '',
      text.length - ':实收数量 '.length - ' 超过送货数量 31'.length,
      '31',
    ]);
    expect(readTemplate('{a}、{b}、{c}、{d}', '、'.repeat(200_000))?.d).toHaveLength(200_000 - 3);
    expect(readTemplate('{goods} 不在总需用计划中', `${'中砂'.repeat(100_000)} 不在总需用计划中`)).toEqual({
      goods: '中砂'.repeat(100_000),
    });
  });

  it('a workflow notice: the Chinese title and the "中文\\nEnglish" content become their keys', () => {
    const stored = formerWorkflowNotice(
      '【已驳回】材料总需用计划: 二期',
      '材料总需用计划: 二期 已驳回: 单价\n偏高\n材料总需用计划: 二期 was rejected: 单价\n偏高',
    );
    expect(stored?.title).toEqual({ key: 'workflow.noticeRejectedTitle', params: { subject: '材料总需用计划: 二期' } });
    expect(renderStored(stored!.content, 'en')).toBe('材料总需用计划: 二期 was rejected: 单价\n偏高');
  });
});
