// "View all messages": a drawer from the right, 80% of the window wide, with the received messages
// (title, type, sender, time, read state; search by title, unread only) and the sent ones (with
// read counts). Page sizes 10, 20, 30, 50. Opening a message marks it read; read-all and delete ask
// first, and a failure shows the server's message (the HTTP client's toast). Whoever holds message_add can send from here.
import { DeleteOutlined, CheckOutlined, SendOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Drawer, Input, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { website } from '../../app/website.ts';
import { useDictionary } from '../../renderers/data.ts';
import { permissionAtom } from '../../state/session.ts';
import { MESSAGE_TYPE_DICT, MESSAGES_KEY, senderName, type MessageApi, type MessageRecord } from './api.ts';
import { SendMessageForm } from './SendMessageForm.tsx';
import { useT } from '../../i18n/useT.ts';

type Box = 'inbox' | 'sent';

export function MessageDrawer({
  api,
  open,
  onClose,
  onOpenMessage,
}: {
  api: MessageApi;
  open: boolean;
  onClose: () => void;
  onOpenMessage: (id: string) => void;
}) {
  const t = useT();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useAtomValue(permissionAtom);
  const types = useDictionary(MESSAGE_TYPE_DICT);
  const [box, setBox] = useState<Box>('inbox');
  const [paging, setPaging] = useState({ current: 1, size: website.messagePageSizes[0] as number });
  const [title, setTitle] = useState('');
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [sending, setSending] = useState(false);

  const query = {
    current: paging.current,
    size: paging.size,
    title: title || undefined,
    ...(box === 'inbox' && unreadOnly ? { isRead: 1 } : {}),
  };
  const list = useQuery({
    queryKey: [...MESSAGES_KEY, box, query],
    enabled: open,
    placeholderData: keepPreviousData,
    queryFn: () => (box === 'inbox' ? api.inbox(query) : api.sent(query)),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: MESSAGES_KEY });
  const typeLabel = (key: string) => types.data?.find((d) => d.value === key)?.label ?? key;

  const removeSelected = () => {
    if (!selected.length) return void message.warning(t('toast.selectOne'));
    modal.confirm({
      title: t('confirm.delete'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await api.remove(selected);
          void message.success(t('toast.deleted'));
          setSelected([]);
        } catch {
          // the HTTP client has shown the server's message
        } finally {
          await refresh();
        }
      },
    });
  };

  const readAll = () =>
    modal.confirm({
      title: t('confirm.readAll'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await api.readAll();
          void message.success(t('toast.readAll'));
        } catch {
          // the HTTP client has shown the server's message
        } finally {
          await refresh();
        }
      },
    });

  const titleCell = (record: MessageRecord) => (
    <Typography.Link onClick={() => onOpenMessage(record.id)} strong={record.isRead === 1}>
      {record.isRead === 1 && <Badge status="processing" style={{ marginRight: 6 }} />}
      {record.title}
    </Typography.Link>
  );
  const columns: ColumnsType<MessageRecord> =
    box === 'inbox'
      ? [
          { key: 'title', title: t('column.title'), render: (_v, r) => titleCell(r) },
          { key: 'type', title: t('column.type'), width: 120, render: (_v, r) => typeLabel(r.type) },
          { key: 'sender', title: t('column.sender'), width: 140, render: (_v, r) => senderName(r, t('message.system')) },
          { key: 'time', title: t('column.time'), dataIndex: 'createTime', width: 180 },
          {
            key: 'status',
            title: t('column.status'),
            width: 90,
            render: (_v, r) => (r.isRead === 1 ? <Tag color="blue">{t('status.unread')}</Tag> : <Tag>{t('status.read')}</Tag>),
          },
        ]
      : [
          {
            key: 'title',
            title: t('column.title'),
            render: (_v, r) => <Typography.Link onClick={() => onOpenMessage(r.id)}>{r.title}</Typography.Link>,
          },
          { key: 'type', title: t('column.type'), width: 120, render: (_v, r) => typeLabel(r.type) },
          { key: 'time', title: t('column.time'), dataIndex: 'createTime', width: 180 },
          {
            key: 'receivers',
            title: t('column.receivers'),
            width: 140,
            render: (_v, r) => `${r.readCount ?? 0} / ${r.receiverCount ?? 0}`,
          },
        ];

  const switchBox = (next: string) => {
    setBox(next as Box);
    setSelected([]);
    setPaging((p) => ({ ...p, current: 1 }));
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size="80%"
      title={t('drawer.title')}
      destroyOnHidden
      data-testid="message-drawer"
      extra={
        permissions.message_add ? (
          <Button type="primary" icon={<SendOutlined />} onClick={() => setSending(true)}>
            {t('drawer.send')}
          </Button>
        ) : null
      }
    >
      <Tabs
        activeKey={box}
        onChange={switchBox}
        items={[
          { key: 'inbox', label: t('drawer.inbox') },
          { key: 'sent', label: t('drawer.sent') },
        ]}
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('drawer.search')}
          aria-label={t('drawer.search')}
          onSearch={(v) => {
            setTitle(v.trim());
            setPaging((p) => ({ ...p, current: 1 }));
          }}
          style={{ width: 240 }}
        />
        {box === 'inbox' && (
          <Space size={4}>
            <Switch
              size="small"
              checked={unreadOnly}
              onChange={(v) => {
                setUnreadOnly(v);
                setPaging((p) => ({ ...p, current: 1 }));
              }}
              aria-label={t('drawer.onlyUnread')}
            />
            <span>{t('drawer.onlyUnread')}</span>
          </Space>
        )}
        {box === 'inbox' && (
          <Button icon={<CheckOutlined />} onClick={readAll}>
            {t('drawer.readAll')}
          </Button>
        )}
        <Button danger icon={<DeleteOutlined />} onClick={removeSelected}>
          {t('drawer.delete')}
        </Button>
      </Space>
      <Table<MessageRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.records ?? []}
        loading={list.isFetching && !list.data}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
        pagination={{
          current: paging.current,
          pageSize: paging.size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: website.messagePageSizes.map(String),
          showTotal: (total) => t('common.total', { total }),
          onChange: (current, size) => setPaging({ current: size === paging.size ? current : 1, size }),
        }}
      />
      <SendMessageForm api={api} open={sending} onClose={() => setSending(false)} onSent={() => void refresh()} />
    </Drawer>
  );
}
