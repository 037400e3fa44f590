// The local error log: a full-screen list (type, address, content, stack, time) with upload to
// the server and clearing, each confirmed.
import { App, Button, Modal, Space, Table } from 'antd';
import { useAtom } from 'jotai';
import { authApi } from '../api/client.ts';
import { useT } from '../i18n/useT.ts';
import { errorLogAtom } from '../state/session.ts';

export function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const { modal, message } = App.useApp();
  const [logs, setLogs] = useAtom(errorLogAtom);
  const upload = () =>
    modal.confirm({
      content: t('errorLog.uploadConfirm'),
      onOk: async () => {
        await authApi.uploadLogs(logs);
        void message.success(t('errorLog.sent'));
      },
    });
  const clear = () =>
    modal.confirm({
      content: t('errorLog.clearConfirm'),
      onOk: () => {
        setLogs([]);
        void message.success(t('errorLog.cleared'));
      },
    });
  return (
    <Modal
      title={t('errorLog.title')}
      open={open}
      onCancel={onClose}
      footer={null}
      width="100%"
      style={{ top: 0, maxWidth: '100vw', paddingBottom: 0 }}
      styles={{ body: { minHeight: 'calc(100vh - 110px)' } }}
    >
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" onClick={upload} disabled={!logs.length}>
          {t('errorLog.upload')}
        </Button>
        <Button danger onClick={clear} disabled={!logs.length}>
          {t('errorLog.clear')}
        </Button>
      </Space>
      <Table
        rowKey={(r) => `${r.time}-${r.message}`}
        size="small"
        dataSource={logs}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: t('errorLog.type'), dataIndex: 'type', width: 90 },
          { title: t('errorLog.url'), dataIndex: 'url', width: 200 },
          { title: t('errorLog.message'), dataIndex: 'message' },
          { title: t('errorLog.stack'), dataIndex: 'stack', ellipsis: true },
          { title: t('errorLog.time'), dataIndex: 'time', width: 170 },
        ]}
      />
    </Modal>
  );
}
