// The administration actions of the system screens that are not documents: user role
// grant / password reset / unlock, role grant, top-menu grant, tenant licence / package / data
// source, and the tenant package page's disabled view button. Permission codes are the buttons the
// schemas declare (x-entity.menu.buttons). Dialogs load on first use (lazy-dialog.ts).
import type { EntityExtension } from '../renderers/extensions.ts';
import { lazyDialog } from './lazy-dialog.ts';

const UserRoleDialog = lazyDialog(() => import('./UserRoleDialog.tsx'));
const ResetPasswordDialog = lazyDialog(() => import('./UserConfirmDialogs.tsx').then((m) => ({ default: m.ResetPasswordDialog })));
const UnlockDialog = lazyDialog(() => import('./UserConfirmDialogs.tsx').then((m) => ({ default: m.UnlockDialog })));
const RoleGrantDialog = lazyDialog(() => import('./RoleGrantDialog.tsx'));
const TopMenuGrantDialog = lazyDialog(() => import('./TopMenuGrantDialog.tsx'));
const TenantSettingDialog = lazyDialog(() => import('./TenantSettingDialog.tsx'));
const TenantPackageDialog = lazyDialog(() => import('./TenantPackageDialog.tsx'));
const TenantDatasourceDialog = lazyDialog(() => import('./TenantDatasourceDialog.tsx'));
const ReportBuilder = lazyDialog(() => import('../report/ReportBuilder.tsx'));
const ReportRunner = lazyDialog(() => import('../report/ReportRunner.tsx'));
const CodePreviewDialog = lazyDialog(() => import('../develop/CodePreviewDialog.tsx'));
const DatasourceTestDialog = lazyDialog(() => import('../develop/DatasourceTestDialog.tsx'));

/** The administration screens' list actions, by entity key. */
export const ADMIN_ACTIONS: Readonly<Record<string, EntityExtension>> = {
  user: {
    toolbarActions: [
      { key: 'grant', label: 'admin.user.grant', permission: 'user_role', selection: 'many', dialog: UserRoleDialog },
      { key: 'reset', label: 'admin.user.reset', permission: 'user_reset', selection: 'many', dialog: ResetPasswordDialog },
      { key: 'unlock', label: 'admin.user.unlock', permission: 'user_unlock', selection: 'many', dialog: UnlockDialog },
    ],
  },
  role: {
    rowActions: [{ key: 'grant', label: 'admin.role.grant', permission: 'role_grant', dialog: RoleGrantDialog }],
  },
  topMenu: {
    rowActions: [{ key: 'grant', label: 'admin.topMenu.grant', permission: 'topmenu_setting', dialog: TopMenuGrantDialog }],
  },
  tenant: {
    toolbarActions: [
      {
        key: 'setting',
        label: 'admin.tenant.setting',
        permission: 'tenant_setting',
        selection: 'many',
        dialog: TenantSettingDialog,
      },
    ],
    rowActions: [
      { key: 'package', label: 'admin.tenant.package', permission: 'tenant_package_setting', dialog: TenantPackageDialog },
      { key: 'datasource', label: 'admin.tenant.datasource', permission: 'tenant_datasource', dialog: TenantDatasourceDialog },
    ],
  },
  // the tenant package page grants add, edit and delete; its view button is disabled
  tenantPackage: { disabledActions: ['view'] },
  // reports: built and run in their own dialogs (src/client/report); the generic form cannot edit a definition
  report: {
    toolbarActions: [{ key: 'build', label: 'report.new', permission: 'report_add', dialog: ReportBuilder }],
    rowActions: [
      { key: 'run', label: 'report.run', dialog: ReportRunner },
      { key: 'design', label: 'report.design', permission: 'report_edit', dialog: ReportBuilder },
    ],
    disabledActions: ['add'],
  },
  // code generation: the generated schema reviewed as JSON and as its form and list (src/client/develop)
  code: {
    rowActions: [{ key: 'generate', label: 'develop.generate', permission: 'code_gen', dialog: CodePreviewDialog }],
  },
  // data sources: 测试连接 with the stored settings (the server checks the host against its allow-list first)
  datasource: {
    rowActions: [{ key: 'test', label: 'develop.testConnection', permission: 'datasource_test', dialog: DatasourceTestDialog }],
  },
};
