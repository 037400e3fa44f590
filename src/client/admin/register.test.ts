// @vitest-environment happy-dom
// The admin actions: where they appear, and that their permission codes are buttons the schemas
// declare (so the seeded menus carry them).
import { describe, expect, it } from 'vitest';
import { zh } from '../i18n/messages.ts';
import { catalog } from '../renderers/catalog.ts';
import { ADMIN_ACTIONS } from './register.ts';

const actions = (entity: string) => {
  const ext = ADMIN_ACTIONS[entity] ?? {};
  return [...(ext.toolbarActions ?? []).map((a) => ['toolbar', a] as const), ...(ext.rowActions ?? []).map((a) => ['row', a] as const)].map(
    ([where, a]) => ({ where, label: zh[a.label], permission: a.permission, selection: a.selection }),
  );
};

describe('admin actions', () => {
  it('user: toolbar actions on the selected users', () => {
    expect(actions('user')).toEqual([
      { where: 'toolbar', label: '角色配置', permission: 'user_role', selection: 'many' },
      { where: 'toolbar', label: '密码重置', permission: 'user_reset', selection: 'many' },
      { where: 'toolbar', label: '账号解封', permission: 'user_unlock', selection: 'many' },
    ]);
  });

  it('role, top menu and tenant: their grant and setting actions', () => {
    expect(actions('role')).toEqual([{ where: 'row', label: '权限设置', permission: 'role_grant', selection: undefined }]);
    expect(actions('topMenu')).toEqual([{ where: 'row', label: '菜单配置', permission: 'topmenu_setting', selection: undefined }]);
    expect(actions('tenant').map((a) => [a.where, a.label, a.permission])).toEqual([
      ['toolbar', '授权配置', 'tenant_setting'],
      ['row', '产品包配置', 'tenant_package_setting'],
      ['row', '数据源配置', 'tenant_datasource'],
    ]);
  });

  it('the tenant package page has its view button disabled', () => {
    expect(ADMIN_ACTIONS.tenantPackage.disabledActions).toEqual(['view']);
  });

  it("every permission code is a button of the entity's menu", () => {
    const missing = ['user', 'role', 'topMenu', 'tenant'].flatMap((entity) => {
      const declared = new Set(catalog().entities[entity].menu!.buttons.map((b) => b.code));
      return actions(entity)
        .map((a) => a.permission!)
        .filter((code) => !declared.has(code));
    });
    expect(missing).toEqual([]);
  });
});
