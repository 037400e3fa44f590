// The home page's notices: the tenant's published notices (publish date reached), newest first,
// with their category; a click shows the whole notice.
import { useQuery } from '@tanstack/react-query';
import { Empty, List, Modal, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useDictionary } from '../../renderers/data.ts';
import { useHttp } from '../../renderers/http-context.tsx';
import { CardBox } from '../Tile.tsx';
import { messageApi, type Notice } from './api.ts';
import { useT } from '../../i18n/useT.ts';

const NOTICE_DICT = { code: 'notice', source: 'system', multiple: false } as const;

export function NoticeBoard({ size = 5 }: { size?: number }) {
  const t = useT();
  const http = useHttp();
  const api = useMemo(() => messageApi(http), [http]);
  const categories = useDictionary(NOTICE_DICT);
  const notices = useQuery({ queryKey: ['notices', 'top', size], queryFn: () => api.notices(size), staleTime: 60_000 });
  const [shown, setShown] = useState<Notice | null>(null);
  const category = (key: string) => categories.data?.find((d) => d.value === key)?.label ?? key;

  return (
    <CardBox radius={10} title={t('notice.title')}>
      {notices.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : notices.data?.records.length ? (
        <List<Notice>
          size="small"
          data-testid="notice-board"
          dataSource={notices.data.records}
          renderItem={(n) => (
            <List.Item
              key={n.id}
              onClick={() => setShown(n)}
              style={{ cursor: 'pointer' }}
              extra={<Typography.Text type="secondary">{n.releaseTime}</Typography.Text>}
            >
              <Space size={8}>
                <Tag color="blue">{category(n.category)}</Tag>
                <Typography.Text>{n.title}</Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notice.empty')} />
      )}
      <Modal open={Boolean(shown)} title={shown?.title} onCancel={() => setShown(null)} footer={null} destroyOnHidden>
        {shown && (
          <>
            <Typography.Paragraph type="secondary">
              <Tag color="blue">{category(shown.category)}</Tag>
              {t('notice.published', { date: shown.releaseTime })}
            </Typography.Paragraph>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{shown.content}</Typography.Paragraph>
          </>
        )}
      </Modal>
    </CardBox>
  );
}
