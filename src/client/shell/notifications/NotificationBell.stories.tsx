// The bell, its drawer and the home page's notices against an in-memory message server: unread
// messages, none, a live message arriving, failing read-all and delete, and a sender's drawer.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button, message, Space } from 'antd';
import { useMemo } from 'react';
import { appStore, permissionAtom } from '../../state/session.ts';
import { NoticeBoard } from './NoticeBoard.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { createFakeMessageServer, FakeMessageApi, manualLive, sampleMessages, type FakeMessageServerOptions } from './testing.tsx';

function Bell({
  server,
  permissions = {},
  live = false,
}: {
  server: FakeMessageServerOptions;
  permissions?: Record<string, boolean>;
  live?: boolean;
}) {
  const http = useMemo(() => createFakeMessageServer({ showError: (text) => void message.error(text), ...server }), [server]);
  const channel = useMemo(() => manualLive(), []);
  appStore.set(permissionAtom, permissions);
  let n = 0;
  const push = () => {
    const id = String(8000 + ++n);
    const message = { id, title: `混凝土浇筑通知 ${n}`, type: '2', createUserName: '赵敏', createTime: '2026-11-22 08:00:00' };
    http.inbox.unshift({ ...message, content: '明早六点浇筑 3# 楼顶板,请各班组提前就位。', isRead: 1 });
    channel.emit('message', message);
  };
  return (
    <FakeMessageApi http={http}>
      <Space style={{ padding: 24, justifyContent: 'flex-end', width: '100%' }}>
        {live && <Button onClick={push}>模拟一条实时消息 / simulate a live message</Button>}
        <NotificationBell subscribe={channel.subscribe} />
      </Space>
    </FakeMessageApi>
  );
}

const meta: Meta<typeof Bell> = { title: 'Shell/Notifications', component: Bell };
export default meta;
type Story = StoryObj<typeof Bell>;

export const UnreadMessages: Story = { args: { server: { inbox: sampleMessages(23, 4) } } };
export const NoMessages: Story = { args: { server: { inbox: [] } } };
export const LiveMessage: Story = { args: { server: { inbox: sampleMessages(3, 0) }, live: true } };
export const FailingReadAllAndDelete: Story = {
  args: { server: { inbox: sampleMessages(5, 5), fail: { readAll: '消息服务繁忙,请稍后再试', remove: '该消息已被发送人撤回' } } },
};
export const SenderWithSentMessages: Story = {
  args: {
    permissions: { message_add: true },
    server: { inbox: sampleMessages(2, 1), sent: sampleMessages(4, 0).map((m, i) => ({ ...m, receiverCount: 12, readCount: 3 * i })) },
  },
};

export const HomeNotices: StoryObj<typeof NoticeBoard> = {
  render: () => {
    const http = createFakeMessageServer({
      notices: [
        {
          id: '1',
          title: '关于做好年度成本结算工作的通知',
          category: '6',
          releaseTime: '2026-01-10',
          content: '请各项目于本月底前完成分包、劳务及材料的月度结算录入,并提交审批。',
        },
        { id: '2', title: '筑算成本管控平台上线运行', category: '1', releaseTime: '2026-01-05', content: '自即日起上线运行。' },
      ],
    });
    return (
      <FakeMessageApi http={http}>
        <NoticeBoard />
      </FakeMessageApi>
    );
  },
};
