// The header's bell: the unread count, and on click a popover with the tasks waiting for the user
// (to claim, to do), the newest messages, "mark all read" and "view all messages" (the drawer). It holds the browser's live subscription: a new
// message refreshes the count at once and opens a popup that stays until the user closes it.
import { BellOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Empty, List, Popover, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { lazyWhenOpen } from '../../app/lazy.ts';
import { website } from '../../app/website.ts';
import { useHttp } from '../../renderers/http-context.tsx';
import { MESSAGES_KEY, messageApi, senderName, type MessageApi, type MessageRecord } from './api.ts';
import { COUNTS_KEY, WaitingWorkLine } from '../../workflow/WaitingWork.tsx';
import { useT } from '../../i18n/useT.ts';
import { sessionSubscribe, useLiveMessages, type Subscribe } from './useLiveMessages.ts';
// the resource screens' extra actions (enable, send SMS, upload) register as the shell loads

// the drawer of all messages (and its send form) and a message's dialog load when first opened
const MessageDrawer = lazyWhenOpen(() => import('./MessageDrawer.tsx').then((m) => m.MessageDrawer));
const MessageDetail = lazyWhenOpen(
  () => import('./MessageDetail.tsx').then((m) => m.MessageDetail),
  (props: { api: MessageApi; id: string | null; onClose: () => void }) => props.id !== null,
);

export interface NotificationBellProps {
  /** Icon colour (the header's text colour in the current theme). */
  color?: string;
  /** The live subscription (tests and stories pass their own). */
  subscribe?: Subscribe;
}

export function NotificationBell({ color, subscribe = sessionSubscribe }: NotificationBellProps) {
  const t = useT();
  const http = useHttp();
  const api = useMemo(() => messageApi(http), [http]);
  const queryClient = useQueryClient();
  const { notification, message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const [reading, setReading] = useState<string | null>(null);
  const top = useQuery({ queryKey: [...MESSAGES_KEY, 'top'], queryFn: api.topList });

  const openMessage = (id: string) => {
    setOpen(false);
    setReading(id);
  };

  useLiveMessages(subscribe, (summary) => {
    const key = `message-${summary.id}`;
    // a new task's message: the tasks waiting for the user changed too
    void queryClient.invalidateQueries({ queryKey: COUNTS_KEY });
    notification.open({
      key,
      // a live message waits for the user: the popup never closes by itself
      duration: false,
      title: t('message.new'),
      description: (
        <div data-testid="live-message">
          <Typography.Text strong>{summary.title}</Typography.Text>
          <div style={{ color: '#909399', fontSize: 12 }}>
            {t('message.from', { name: senderName(summary, t('message.system')) })} · {summary.createTime}
          </div>
        </div>
      ),
      actions: (
        <Button
          type="primary"
          size="small"
          onClick={() => {
            notification.destroy(key);
            openMessage(summary.id);
          }}
        >
          {t('message.view')}
        </Button>
      ),
    });
  });

  const readAll = async () => {
    try {
      await api.readAll();
      void message.success(t('toast.readAll'));
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      await queryClient.invalidateQueries({ queryKey: MESSAGES_KEY });
    }
  };

  const unread = top.data?.unReadCount ?? 0;
  const content = (
    <div style={{ width: 340 }} data-testid="message-popover">
      <WaitingWorkLine onGo={() => setOpen(false)} style={{ marginBottom: 8 }} />
      {top.isLoading ? (
        <Spin />
      ) : top.data?.messageList.length ? (
        <List<MessageRecord>
          size="small"
          dataSource={top.data.messageList}
          renderItem={(item) => (
            <List.Item key={item.id} onClick={() => openMessage(item.id)} style={{ cursor: 'pointer' }}>
              <List.Item.Meta
                title={
                  <Space size={6}>
                    {item.isRead === 1 && <Badge status="processing" />}
                    <Typography.Text strong={item.isRead === 1} ellipsis style={{ maxWidth: 280 }}>
                      {item.title}
                    </Typography.Text>
                  </Space>
                }
                description={`${senderName(item, t('message.system'))} · ${item.createTime}`}
              />
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('bell.empty')} />
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', borderTop: '1px solid rgba(5,5,5,0.06)', paddingTop: 8 }}>
        <Button type="link" size="small" disabled={!unread} onClick={() => void readAll()}>
          {t('bell.readAll')}
        </Button>
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            setDrawer(true);
          }}
        >
          {t('bell.viewAll')}
        </Button>
      </div>
    </div>
  );

  return (
    <>
      <Popover
        trigger="click"
        placement="bottomRight"
        open={open}
        onOpenChange={setOpen}
        content={content}
        title={
          <Space>
            {t('bell.title')}
            {unread > 0 && <Typography.Text type="secondary">{t('bell.unread', { count: unread })}</Typography.Text>}
          </Space>
        }
      >
        <Badge count={unread} overflowCount={website.logBadgeMax} size="small" offset={[-4, 4]}>
          <Button type="text" style={{ color }} icon={<BellOutlined />} aria-label={t('bell.title')} data-testid="message-bell" />
        </Badge>
      </Popover>
      <MessageDrawer api={api} open={drawer} onClose={() => setDrawer(false)} onOpenMessage={setReading} />
      <MessageDetail api={api} id={reading} onClose={() => setReading(null)} />
    </>
  );
}
