import type { Meta, StoryObj } from '@storybook/react-vite';
import { catalog } from '../renderers/catalog.ts';
import { ResetPasswordDialog, UnlockDialog } from './UserConfirmDialogs.tsx';
import UserRoleDialog from './UserRoleDialog.tsx';
import { adminFake } from './testing/fixtures.ts';
import { logClose, withFakeApi } from './testing/story.tsx';

const users = [
  { id: '200', account: 'clerk', realName: '张经办', roleId: '101' },
  { id: '201', account: 'costmgr', realName: '李成本', roleId: '101,102' },
];

const meta: Meta<typeof UserRoleDialog> = {
  title: 'Admin/User dialogs',
  component: UserRoleDialog,
  args: { model: catalog().entities.user, rows: users, onClose: logClose },
  decorators: [withFakeApi(() => adminFake())],
};
export default meta;
type Story = StoryObj<typeof UserRoleDialog>;

/** 角色配置 of two users: the role they share is checked. */
export const AssignRoles: Story = {};
export const AssignRolesLoading: Story = { decorators: [withFakeApi(() => adminFake({ hang: true }))] };
export const ResetPassword: Story = { render: (args) => <ResetPasswordDialog {...args} /> };
export const Unlock: Story = { render: (args) => <UnlockDialog {...args} /> };
