import { describe, expect, it } from 'vitest';
import { renderStored } from '../../engine/i18n/stored-text.ts';
import { formerApprovalMessage, formerWarning, readTemplate } from './former-texts.ts';

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

  it('a warning "中文 / English" becomes its key and parameters when both halves read back', () => {
    const stored = formerWarning('螺纹钢:实收数量 31.5 超过送货数量 31 / 螺纹钢: received quantity 31.5 exceeds the delivered quantity 31');
    expect(stored).toEqual({ key: 'warning.receivedOverDelivered', params: { goods: '螺纹钢', actual: '31.5', threshold: '31' } });
    expect(renderStored(stored!, 'en')).toBe('螺纹钢: received quantity 31.5 exceeds the delivered quantity 31');
  });

  it('a goods name holding " / " still splits where the two halves read back', () => {
    const stored = formerWarning('钢 / 铁:实收数量 2 超过送货数量 1 / 钢 / 铁: received quantity 2 exceeds the delivered quantity 1');
    expect(stored).toMatchObject({ key: 'warning.receivedOverDelivered', params: { goods: '钢 / 铁' } });
  });

  it('a warning no template reads back keeps its two halves as a {zh, en} pair; other text is not touched', () => {
    expect(formerWarning('旧规则的预警 / A warning of a former rule')).toEqual({ zh: '旧规则的预警', en: 'A warning of a former rule' });
    expect(formerWarning('请尽快处理')).toBeUndefined();
  });

  it('a workflow notice: the Chinese title and the "中文\\nEnglish" content become their keys', () => {
    const stored = formerApprovalMessage(
      '【已驳回】材料总需用计划: 二期',
      '材料总需用计划: 二期 已驳回: 单价\n偏高\n材料总需用计划: 二期 was rejected: 单价\n偏高',
    );
    expect(stored?.title).toEqual({ key: 'workflow.noticeRejectedTitle', params: { subject: '材料总需用计划: 二期' } });
    expect(renderStored(stored!.content, 'en')).toBe('材料总需用计划: 二期 was rejected: 单价\n偏高');
  });

  it("a warnings message: the title's English from the content, the lines by language", () => {
    const stored = formerApprovalMessage(
      '预警:材料月度需用计划 CLYD-202605-0001 触发 2 条预警',
      '[盘亏] 甲\n[计划外物资] 乙\n\nWarning: Monthly material demand plan CLYD-202605-0001 raised 2 warning(s)\n[Stocktake loss] A\n[Unplanned goods] B',
    );
    expect(renderStored(stored!.title, 'en')).toBe('Warning: Monthly material demand plan CLYD-202605-0001 raised 2 warning(s)');
    expect(renderStored(stored!.title, 'zh')).toBe('预警:材料月度需用计划 CLYD-202605-0001 触发 2 条预警');
    expect(renderStored(stored!.content, 'en')).toBe('[Stocktake loss] A\n[Unplanned goods] B');
    expect(renderStored(stored!.content, 'zh')).toBe('[盘亏] 甲\n[计划外物资] 乙');
  });
});
