// @vitest-environment happy-dom
// 角色配置 / 密码重置 / 账号解封 of the selected users: what they show, what they send, 操作成功.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import { ResetPasswordDialog, UnlockDialog } from './UserConfirmDialogs.tsx';
import UserRoleDialog from './UserRoleDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { renderWith } from './testing/render.tsx';
import { isChecked, toggle } from './testing/tree-dom.ts';

const user = () => catalog().entities.user;
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const posts = (fake: ReturnType<typeof adminFake>) =>
  fake.calls.filter((c) => c.method === 'post').map((c) => ({ url: c.url, params: c.params, body: c.body }));

describe('user role dialog', () => {
  it('starts from the roles every selected user holds and posts user/grant with the ids', async () => {
    const fake = adminFake();
    const onClose = vi.fn();
    renderWith(<UserRoleDialog model={user()} rows={fake.tables.get('user')!} onClose={onClose} />, fake);
    await screen.findByText('超级管理员');
    expect(screen.getByText('已选择 2 条数据:张经办、李成本')).toBeTruthy();
    expect(isChecked('项目经办')).toBe(true);
    expect(isChecked('成本经理')).toBe(false);
    toggle('成本经理');
    toggle('项目经办');
    // roles are granted one by one: a child role does not bring its parent
    expect(isChecked('超级管理员')).toBe(false);
    ok();
    await screen.findByText('操作成功');
    expect(posts(fake)).toEqual([{ url: '/api/blade-system/user/grant', params: { userIds: '200,201', roleIds: '102' }, body: undefined }]);
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });

  it('cannot save without a role', async () => {
    const fake = adminFake();
    renderWith(<UserRoleDialog model={user()} rows={fake.tables.get('user')!.slice(0, 1)} onClose={() => undefined} />, fake);
    await screen.findByText('超级管理员');
    toggle('项目经办');
    expect(screen.getByRole('button', { name: /确\s*定/ }).hasAttribute('disabled')).toBe(true);
  });
});

describe('password reset and unlock', () => {
  it('asks before resetting, then posts reset-password with the user ids', async () => {
    const fake = adminFake();
    const onClose = vi.fn();
    renderWith(<ResetPasswordDialog model={user()} rows={fake.tables.get('user')!} onClose={onClose} />, fake);
    expect(screen.getByText('密码重置')).toBeTruthy();
    expect(screen.getByText('确定将选择账号密码重置为初始密码?')).toBeTruthy();
    ok();
    await screen.findByText('操作成功');
    expect(posts(fake)).toEqual([{ url: '/api/blade-system/user/reset-password', params: { userIds: '200,201' }, body: undefined }]);
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });

  it('unlocks the selected accounts', async () => {
    const fake = adminFake();
    renderWith(<UnlockDialog model={user()} rows={fake.tables.get('user')!.slice(1)} onClose={() => undefined} />, fake);
    expect(screen.getByText('确定将选择账号解封?')).toBeTruthy();
    ok();
    await screen.findByText('操作成功');
    expect(posts(fake)).toEqual([{ url: '/api/blade-system/user/unlock', params: { userIds: '201' }, body: undefined }]);
  });

  it('says it in English, success included', async () => {
    const fake = adminFake();
    renderWith(<UnlockDialog model={user()} rows={fake.tables.get('user')!} onClose={() => undefined} />, fake, 'en');
    expect(screen.getByText('Unlock the selected accounts?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await screen.findByText('operation successful');
  });

  it('stays open when the server refuses', async () => {
    const fake = adminFake({ failWith: '缺少参数 account.initPassword' });
    const onClose = vi.fn();
    renderWith(<ResetPasswordDialog model={user()} rows={fake.tables.get('user')!} onClose={onClose} />, fake);
    ok();
    await waitFor(() => expect(fake.calls.length).toBe(1));
    // the submit has ended (OK no longer loading): had it succeeded, onClose would have been called by now
    await waitFor(() => expect(screen.getByRole('button', { name: /确\s*定/ }).classList.contains('ant-btn-loading')).toBe(false));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByText('操作成功')).toBeNull();
  });
});
