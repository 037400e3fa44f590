import type { Meta, StoryObj } from '@storybook/react-vite';
import { catalog } from '../renderers/catalog.ts';
import RoleGrantDialog from './RoleGrantDialog.tsx';
import TopMenuGrantDialog from './TopMenuGrantDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { logClose, withFakeApi } from './testing/story.tsx';

const role = { id: '101', parentId: '100', roleName: '项目经办', roleAlias: 'project_clerk' };

const meta: Meta<typeof RoleGrantDialog> = {
  title: 'Admin/Grant dialogs',
  component: RoleGrantDialog,
  args: { model: catalog().entities.role, rows: [role], onClose: logClose },
};
export default meta;
type Story = StoryObj<typeof RoleGrantDialog>;

/** 权限设置 of a role holding a menu group, a page without its buttons, and one data scope. */
export const RoleGrant: Story = { decorators: [withFakeApi(() => adminFake())] };
export const RoleGrantLoading: Story = { decorators: [withFakeApi(() => adminFake({ hang: true }))] };
export const RoleGrantError: Story = { decorators: [withFakeApi(() => adminFake({ failWith: '服务器开小差了' }))] };

/** 菜单配置 of a top menu showing the master data. */
export const TopMenuGrant: Story = {
  decorators: [withFakeApi(() => adminFake())],
  render: ({ onClose }) => (
    <TopMenuGrantDialog model={catalog().entities.topMenu} rows={[{ id: '500', code: 'cost', name: '成本管控' }]} onClose={onClose} />
  ),
};
