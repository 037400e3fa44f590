import { describe, expect, it } from 'vitest';
import { renderStored } from '../../../../engine/i18n/stored-text.ts';
import { formerWarning, formerWarningsMessage } from './former-texts.ts';

describe('warnings stored in both languages before keys: read back as key and parameters', () => {
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

  it("a warnings message: the title's English from the content, the lines by language", () => {
    const stored = formerWarningsMessage(
      '预警:材料月度需用计划 CLYD-202605-0001 触发 2 条预警',
      '[盘亏] 甲\n[计划外物资] 乙\n\nWarning: Monthly material demand plan CLYD-202605-0001 raised 2 warning(s)\n[Stocktake loss] A\n[Unplanned goods] B',
    );
    expect(renderStored(stored!.title, 'en')).toBe('Warning: Monthly material demand plan CLYD-202605-0001 raised 2 warning(s)');
    expect(renderStored(stored!.title, 'zh')).toBe('预警:材料月度需用计划 CLYD-202605-0001 触发 2 条预警');
    expect(renderStored(stored!.content, 'en')).toBe('[Stocktake loss] A\n[Unplanned goods] B');
    expect(renderStored(stored!.content, 'zh')).toBe('[盘亏] 甲\n[计划外物资] 乙');
  });

  it('a workflow notice is not a warnings message', () => {
    expect(
      formerWarningsMessage('【已驳回】材料总需用计划: 二期', '材料总需用计划: 二期 已驳回\n材料总需用计划: 二期 was rejected'),
    ).toBeUndefined();
  });
});
