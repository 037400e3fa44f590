// One message in a dialog. Opening a received message marks it read on the server (the bell's
// count drops); a message with a link offers to open that page of the application.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Modal, Skeleton, Typography } from 'antd';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useDictionary } from '../../renderers/data.ts';
import { MESSAGE_TYPE_DICT, MESSAGES_KEY, senderName, type MessageApi } from './api.ts';
import { useT } from '../../i18n/useT.ts';

export function MessageDetail({ api, id, onClose }: { api: MessageApi; id: string | null; onClose: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const types = useDictionary(MESSAGE_TYPE_DICT);
  const detail = useQuery({
    queryKey: [...MESSAGES_KEY, 'detail', id],
    enabled: Boolean(id),
    queryFn: () => api.open(id!),
    staleTime: 0,
    gcTime: 0,
  });

  // once the server has marked it read, the bell and the lists refresh
  useEffect(() => {
    if (detail.data) void queryClient.invalidateQueries({ queryKey: MESSAGES_KEY, predicate: (q) => q.queryKey[1] !== 'detail' });
  }, [detail.data, queryClient]);

  const message = detail.data;
  const typeLabel = types.data?.find((d) => d.value === message?.type)?.label ?? message?.type;
  return (
    <Modal
      open={Boolean(id)}
      title={message?.title ?? t('bell.title')}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        message?.path ? (
          <Button
            key="open"
            type="primary"
            onClick={() => {
              onClose();
              navigate(message.path!);
            }}
          >
            {t('message.open')}
          </Button>
        ) : null,
        <Button key="close" onClick={onClose}>
          {t('common.close')}
        </Button>,
      ]}
    >
      {!message ? (
        <Skeleton active />
      ) : (
        <div data-testid="message-detail">
          <Descriptions
            size="small"
            column={2}
            items={[
              { key: 'sender', label: t('column.sender'), children: senderName(message, t('message.system')) },
              { key: 'time', label: t('column.time'), children: message.createTime },
              { key: 'type', label: t('column.type'), children: typeLabel },
            ]}
          />
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginTop: 12 }}>{message.content}</Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}
