// @vitest-environment happy-dom
// 菜单配置 of a top menu: the menus it shows are checked; the save posts topmenu/grant.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import TopMenuGrantDialog from './TopMenuGrantDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { renderWith } from './testing/render.tsx';
import { isChecked, toggle } from './testing/tree-dom.ts';

describe('top menu grant dialog', () => {
  it('loads the menus of the top menu, toggles, and posts topMenuIds with menuIds', async () => {
    const fake = adminFake();
    const onClose = vi.fn();
    renderWith(<TopMenuGrantDialog model={catalog().entities.topMenu} rows={fake.tables.get('topMenu')!} onClose={onClose} />, fake);
    await screen.findByText('基础资料');
    expect(fake.calls.map((c) => [c.url, c.params])).toEqual([
      ['/api/blade-system/menu/grant-top-tree', undefined],
      ['/api/blade-system/menu/top-tree-keys', { topMenuIds: '500' }],
    ]);
    expect(isChecked('基础资料')).toBe(true);
    expect(isChecked('项目')).toBe(true);
    expect(isChecked('系统管理')).toBe(false);
    // buttons are not offered: a top menu shows menus only
    expect(screen.queryByText('新增')).toBeNull();
    toggle('参数管理');
    expect(isChecked('系统管理')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('操作成功');
    const post = fake.calls.find((c) => c.method === 'post')!;
    expect(post.url).toBe('/api/blade-system/topmenu/grant');
    const body = post.body as { topMenuIds: string[]; menuIds: string[] };
    expect({ ...body, menuIds: [...body.menuIds].sort() }).toEqual({ topMenuIds: ['500'], menuIds: ['1', '5', '6', '7'] });
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });
});
