// 数据源配置 of a tenant: the PostgreSQL database its business data lives on — one of the platform's
// data sources, or none for the main database. Saving moves the data there (POST
// tenant/datasource?tenantId=&datasourceId=): the server copies it, checks row counts and sums, then
// switches; the tenant's writes wait meanwhile. docs/operations.md#tenants-on-their-own-databases.
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Select } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useT } from '../i18n/useT.ts';
import { fetchOptions } from '../renderers/data.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { langAtom } from '../state/session.ts';
import { GrantBody } from './GrantBody.tsx';
import { SelectedRows } from './SelectedRows.tsx';
import { useSubmit } from './useSubmit.ts';

const MAIN = '';
/** The platform's own tenant: the server keeps its data on the main database. */
const PLATFORM_TENANT = '000000';

export default function TenantDatasourceDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const tenant = rows[0];
  const platform = String(tenant.tenantId) === PLATFORM_TENANT;
  const source = model.fieldMap.datasourceId;
  const sources = useQuery({
    queryKey: ['options', source.ref!.entity, 'all'],
    queryFn: () => fetchOptions(http, source.ref!.entity, { size: 500 }),
  });
  const current = tenant.datasourceId ? String(tenant.datasourceId) : MAIN;
  const [picked, setPicked] = useState(current);
  const { submit, busy } = useSubmit(() => onClose(true));
  const save = () =>
    submit((h) =>
      h.post(`${model.api}/datasource`, undefined, { searchParams: { tenantId: String(tenant.tenantId), datasourceId: picked } }),
    );
  const label = source.label[lang];
  const options = [{ value: MAIN, label: t('admin.tenant.mainDatabase') }, ...(sources.data?.records ?? [])];

  return (
    <Modal
      open
      width={520}
      title={t('admin.tenant.datasource')}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okText={t('admin.tenant.move')}
      okButtonProps={{ disabled: platform || picked === current || !sources.isSuccess }}
    >
      <SelectedRows model={model} rows={rows} />
      <GrantBody loading={sources.isLoading} error={sources.error}>
        <Form layout="vertical">
          <Form.Item label={label}>
            <Select
              aria-label={label}
              disabled={platform}
              showSearch={{ optionFilterProp: 'label' }}
              value={picked}
              onChange={setPicked}
              options={options}
            />
          </Form.Item>
        </Form>
        <Alert
          type={platform ? 'warning' : 'info'}
          showIcon
          title={t(platform ? 'admin.tenant.platformStays' : 'admin.tenant.moveExplained')}
        />
      </GrantBody>
    </Modal>
  );
}
