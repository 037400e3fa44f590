// @vitest-environment happy-dom
// 授权配置 / 产品包配置 / 数据源配置 of tenants: what they show, what they send, 操作成功.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import TenantDatasourceDialog from './TenantDatasourceDialog.tsx';
import TenantPackageDialog from './TenantPackageDialog.tsx';
import TenantSettingDialog from './TenantSettingDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { renderWith } from './testing/render.tsx';

const tenant = () => catalog().entities.tenant;
const tenants = (fake: ReturnType<typeof adminFake>, ...ids: string[]) => fake.tables.get('tenant')!.filter((t) => ids.includes(t.id));
const ok = () => fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
const lastPost = (fake: ReturnType<typeof adminFake>) =>
  fake.calls
    .filter((c) => c.method === 'post')
    .map((c) => ({ url: c.url, params: c.params }))
    .at(-1);

describe('tenant licence settings', () => {
  it('shows the quota the tenants share, leaves differing expiries empty, and posts ids with both values', async () => {
    const fake = adminFake();
    const onClose = vi.fn();
    renderWith(<TenantSettingDialog model={tenant()} rows={tenants(fake, '401', '402')} onClose={onClose} />, fake);
    expect(screen.getByText('授权配置')).toBeTruthy();
    const quota = screen.getByLabelText('账号额度') as HTMLInputElement;
    expect(quota.value).toBe('20');
    expect((screen.getByLabelText('过期时间') as HTMLInputElement).value).toBe('');
    expect(screen.getByText('-1 表示不限')).toBeTruthy();
    fireEvent.change(quota, { target: { value: '50' } });
    ok();
    await screen.findByText('操作成功');
    expect(lastPost(fake)).toEqual({
      url: '/api/blade-system/tenant/setting',
      params: { ids: '401,402', accountNumber: 50, expireTime: '' },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });

  it('keeps the expiry of one tenant', async () => {
    const fake = adminFake();
    renderWith(<TenantSettingDialog model={tenant()} rows={tenants(fake, '401')} onClose={() => undefined} />, fake);
    expect((screen.getByLabelText('过期时间') as HTMLInputElement).value).toBe('2027-12-31 23:59:59');
    ok();
    await screen.findByText('操作成功');
    expect(lastPost(fake)!.params).toEqual({ ids: '401', accountNumber: 20, expireTime: '2027-12-31 23:59:59' });
  });

  it('asks for the quota when it is emptied', async () => {
    const fake = adminFake();
    renderWith(<TenantSettingDialog model={tenant()} rows={tenants(fake, '401')} onClose={() => undefined} />, fake);
    fireEvent.change(screen.getByLabelText('账号额度'), { target: { value: '' } });
    ok();
    await screen.findByText('请输入账号额度');
    expect(fake.calls).toEqual([]);
  });
});

describe('tenant package', () => {
  it('shows the current package and posts the chosen one', async () => {
    const fake = adminFake();
    const onClose = vi.fn();
    renderWith(<TenantPackageDialog model={tenant()} rows={tenants(fake, '401')} onClose={onClose} />, fake);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('基础版');
    expect(fake.calls.find((c) => c.url.endsWith('/package-detail'))!.params).toEqual({ tenantId: '100001' });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: '产品包' }));
    fireEvent.click(await screen.findByTitle('标准版'));
    ok();
    await screen.findByText('操作成功');
    expect(lastPost(fake)).toEqual({ url: '/api/blade-system/tenant/package-setting', params: { tenantId: '100001', packageId: '301' } });
    expect(fake.tables.get('tenant')!.find((t) => t.id === '401')!.packageId).toBe('301');
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });

  it('a tenant without a package shows the prompt; saving as is sends an empty package', async () => {
    const fake = adminFake();
    renderWith(<TenantPackageDialog model={tenant()} rows={tenants(fake, '402')} onClose={() => undefined} />, fake);
    await waitFor(() => expect(screen.getByRole('button', { name: /确\s*定/ }).hasAttribute('disabled')).toBe(false));
    expect(screen.getByText('请选择产品包')).toBeTruthy();
    expect(screen.getByText('不设置产品包时,租户可使用全部菜单')).toBeTruthy();
    ok();
    await screen.findByText('操作成功');
    expect(lastPost(fake)!.params).toEqual({ tenantId: '100002', packageId: '' });
  });
});

describe('tenant data source', () => {
  const pick = async (name: string) => {
    fireEvent.mouseDown(screen.getByLabelText('数据源'));
    fireEvent.click(await screen.findByTitle(name));
  };

  it('moves a tenant on the system database to a data source, after saying what a move does', async () => {
    const fake = adminFake();
    const onClose = vi.fn();
    renderWith(<TenantDatasourceDialog model={tenant()} rows={tenants(fake, '401')} onClose={onClose} />, fake);
    expect(screen.getByText(/迁移时复制该租户的业务数据/)).toBeTruthy();
    const move = () => screen.getByRole('button', { name: /迁\s*移/ });
    // nothing to move until another database is chosen
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByTitle('系统数据库(与平台共用)')).toBeTruthy());
    expect(move().hasAttribute('disabled')).toBe(true);
    await pick('第一工程公司独立库');
    fireEvent.click(move());
    await screen.findByText('操作成功');
    expect(lastPost(fake)).toEqual({ url: '/api/blade-system/tenant/datasource', params: { tenantId: '100001', datasourceId: '350' } });
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
  });

  it('offers no move of the platform tenant, whose data stays on the system database', async () => {
    const fake = adminFake();
    renderWith(<TenantDatasourceDialog model={tenant()} rows={tenants(fake, '400')} onClose={() => undefined} />, fake);
    expect(screen.getByText('平台租户的数据只能保存在系统数据库,不能迁移。')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByTitle('系统数据库(与平台共用)')).toBeTruthy());
    expect(screen.getByRole('button', { name: /迁\s*移/ }).hasAttribute('disabled')).toBe(true);
  });

  it('moves a tenant on its own database back to the system database', async () => {
    const fake = adminFake();
    renderWith(<TenantDatasourceDialog model={tenant()} rows={tenants(fake, '402')} onClose={() => undefined} />, fake);
    await waitFor(() => expect(within(screen.getByRole('dialog')).getByTitle('第一工程公司独立库')).toBeTruthy());
    await pick('系统数据库(与平台共用)');
    fireEvent.click(screen.getByRole('button', { name: /迁\s*移/ }));
    await screen.findByText('操作成功');
    expect(lastPost(fake)!.params).toEqual({ tenantId: '100002', datasourceId: '' });
  });
});
