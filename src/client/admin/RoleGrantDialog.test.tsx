// @vitest-environment happy-dom
// 权限设置: the three trees show what the role holds; checks follow the menu / scope rules; the save
// posts exactly the checked grants and says 操作成功.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import RoleGrantDialog from './RoleGrantDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { renderWith } from './testing/render.tsx';
import { expandNode, isChecked, toggle } from './testing/tree-dom.ts';

const role = () => catalog().entities.role;

async function open(roleId = '101') {
  const fake = adminFake();
  const onClose = vi.fn();
  const rows = fake.tables.get('role')!.filter((r) => r.id === roleId);
  renderWith(<RoleGrantDialog model={role()} rows={rows} onClose={onClose} />, fake);
  await screen.findByText('系统管理');
  return { fake, onClose };
}

const tab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const sorted = (ids: string[]) => [...ids].sort();

describe('role grant dialog', () => {
  it('has three tabs and shows the menus the role holds, a menu without its buttons too', async () => {
    await open();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['菜单权限', '数据权限', '接口权限']);
    expect(screen.getByText('已选择 1 条数据:项目经办')).toBeTruthy();
    expect(isChecked('系统管理')).toBe(true);
    expect(isChecked('用户管理')).toBe(true);
    expect(isChecked('参数管理')).toBe(true);
    expect(isChecked('基础资料')).toBe(false);
    expandNode('用户管理');
    expect(isChecked(await screen.findByText('新增'))).toBe(false);
    expect(isChecked('密码重置')).toBe(false);
  });

  it('asks the tree and the keys of exactly the chosen roles', async () => {
    const { fake } = await open();
    expect(fake.calls.filter((c) => c.method === 'get').map((c) => [c.url, c.params])).toEqual([
      ['/api/blade-system/menu/grant-tree', undefined],
      ['/api/blade-system/menu/role-tree-keys', { roleIds: '101' }],
    ]);
  });

  it('checking a button checks its menu and group; unchecking a menu unchecks its buttons', async () => {
    await open();
    toggle('基础资料');
    expect(isChecked('基础资料')).toBe(true);
    expandNode('基础资料');
    expect(isChecked(await screen.findByText('项目'))).toBe(true);
    toggle('用户管理');
    expandNode('用户管理');
    toggle(await screen.findByText('密码重置'));
    expect(isChecked('密码重置')).toBe(true);
    expect(isChecked('用户管理')).toBe(true);
    toggle('用户管理');
    expect(isChecked('用户管理')).toBe(false);
    expect(isChecked('密码重置')).toBe(false);
    expect(isChecked('系统管理')).toBe(true);
  });

  it('shows the scope rules under their menus and sends only the rules', async () => {
    const { fake, onClose } = await open();
    tab('数据权限');
    expect(isChecked(await screen.findByText('本人可见'))).toBe(true);
    expect(isChecked('本部门可见')).toBe(false);
    toggle('本部门可见');
    tab('接口权限');
    toggle(await screen.findByText('参数接口'));
    tab('菜单权限');
    expandNode('用户管理');
    toggle(await screen.findByText('新增'));
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('操作成功');
    const post = fake.calls.find((c) => c.method === 'post')!;
    expect(post.url).toBe('/api/blade-system/role/grant');
    const body = post.body as Record<string, string[]>;
    expect({ ...body, menuIds: sorted(body.menuIds), dataScopeIds: sorted(body.dataScopeIds) }).toEqual({
      roleIds: ['101'],
      menuIds: ['1', '2', '3', '5'],
      dataScopeIds: ['11', '12'],
      apiScopeIds: ['21'],
    });
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    expect(fake.roleGrants.get('101')!.apiScope).toEqual(['21']);
  });

  it('offers the data scopes of the menus checked on the first tab (issue #25)', async () => {
    const { fake } = await open();
    tab('数据权限');
    expect(await screen.findByText('本人可见')).toBeTruthy();
    // a rule of a menu the role is not granted narrows nothing: it is not offered
    tab('菜单权限');
    toggle('用户管理');
    tab('数据权限');
    await waitFor(() => expect(screen.queryByText('本人可见')).toBeNull());
    expect(screen.getByText('这里列出「菜单权限」中已勾选菜单的规则:请先勾选菜单')).toBeTruthy();
    tab('菜单权限');
    toggle('用户管理');
    tab('数据权限');
    expect(isChecked(await screen.findByText('本人可见'))).toBe(true);
    toggle('本部门可见');
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await screen.findByText('操作成功');
    expect(sorted((fake.calls.find((c) => c.method === 'post')!.body as Record<string, string[]>).dataScopeIds)).toEqual(['11', '12']);
  });

  it('sends nothing and closes unchanged on cancel', async () => {
    const { fake, onClose } = await open();
    fireEvent.click(screen.getByRole('button', { name: /取\s*消/ }));
    expect(onClose).toHaveBeenCalledWith(false);
    expect(fake.calls.some((c) => c.method === 'post')).toBe(false);
  });

  it('speaks English', async () => {
    const fake = adminFake();
    renderWith(<RoleGrantDialog model={role()} rows={fake.tables.get('role')!.slice(1, 2)} onClose={() => undefined} />, fake, 'en');
    await screen.findByText('系统管理');
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Grant permissions')).toBeTruthy();
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Menus', 'Data scopes', 'API scopes']);
  });
});
