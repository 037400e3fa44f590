import type { Meta, StoryObj } from '@storybook/react-vite';
import { catalog } from '../renderers/catalog.ts';
import TenantDatasourceDialog from './TenantDatasourceDialog.tsx';
import TenantPackageDialog from './TenantPackageDialog.tsx';
import TenantSettingDialog from './TenantSettingDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { logClose, withFakeApi } from './testing/story.tsx';

const tenants = [
  { id: '401', tenantId: '100001', tenantName: '第一工程公司', accountNumber: 20, expireTime: '2027-12-31 23:59:59', packageId: '300' },
  { id: '402', tenantId: '100002', tenantName: '市政工程公司', accountNumber: 20, expireTime: '2027-06-30 00:00:00', packageId: null },
];

const meta: Meta<typeof TenantSettingDialog> = {
  title: 'Admin/Tenant dialogs',
  component: TenantSettingDialog,
  args: { model: catalog().entities.tenant, rows: tenants, onClose: logClose },
  decorators: [withFakeApi(() => adminFake())],
};
export default meta;
type Story = StoryObj<typeof TenantSettingDialog>;

/** 授权配置 of two tenants: the shared quota is shown, their differing expiries are not. */
export const LicenceSettings: Story = {};
export const LicenceSettingsOneTenant: Story = { args: { rows: tenants.slice(0, 1) } };
/** 产品包配置 of a tenant on the basic package. */
export const Package: Story = { args: { rows: tenants.slice(0, 1) }, render: (args) => <TenantPackageDialog {...args} /> };
export const PackageNone: Story = { args: { rows: tenants.slice(1) }, render: (args) => <TenantPackageDialog {...args} /> };
/** 数据源配置: not supported by the server yet, said plainly. */
export const DataSource: Story = { args: { rows: tenants.slice(0, 1) }, render: (args) => <TenantDatasourceDialog {...args} /> };
