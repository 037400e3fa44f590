// 测试连接 on a saved data source: POST datasource/test connects with the stored settings and
// answers the server's product (PostgreSQL, MySQL, MariaDB) and version. The server refuses a host
// outside its allow-list before any socket opens; the refusal, like any connection error, is shown
// here in the user's language as it says it.
import { Button, Modal, Result, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { useT } from '../i18n/useT.ts';

interface Tested {
  name: string;
  /** PostgreSQL, MySQL or MariaDB. */
  product: string;
  serverVersion: string;
}

export default function DatasourceTestDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const source = rows[0];
  const test = useQuery({
    queryKey: ['datasource-test', source.id],
    gcTime: 0,
    retry: false,
    // the dialog shows the failure itself: no toast
    queryFn: () => http.post<Tested>(`${model.api}/test`, undefined, { searchParams: { id: String(source.id) }, silent: true }),
  });
  const close = () => onClose(false);
  return (
    <Modal
      open
      title={`${t('develop.testConnection')}: ${String(source.name)}`}
      onCancel={close}
      footer={<Button onClick={close}>{t('common.ok')}</Button>}
      destroyOnHidden
    >
      {test.isPending && (
        <Spin description={t('develop.testing', { name: String(source.name) })}>
          <div style={{ minHeight: 80 }} />
        </Spin>
      )}
      {test.isSuccess && (
        <Result
          status="success"
          title={t('develop.connected', { name: test.data.name, product: test.data.product, version: test.data.serverVersion })}
        />
      )}
      {test.isError && <Result status="error" title={t('develop.connectFailed')} subTitle={(test.error as Error).message} />}
    </Modal>
  );
}
