// 产品包配置 of a tenant: the package limiting its menus (tenant/package-detail tells the current one),
// saved by POST tenant/package-setting?tenantId=&packageId= (empty: no package, every menu).
import { useQuery } from '@tanstack/react-query';
import { Form, Modal, Select } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useT } from '../i18n/useT.ts';
import { fetchOptions } from '../renderers/data.ts';
import type { ActionDialogProps, Row } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { langAtom } from '../state/session.ts';
import { GrantBody } from './GrantBody.tsx';
import { SelectedRows } from './SelectedRows.tsx';
import { useSubmit } from './useSubmit.ts';

export default function TenantPackageDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const tenantId = String(rows[0].tenantId);
  const packageField = model.fieldMap.packageId;
  const current = useQuery({
    queryKey: ['admin-tenant-package', tenantId],
    queryFn: () => http.get<Row>(`${model.api}/package-detail`, { tenantId }),
    gcTime: 0,
  });
  const packages = useQuery({
    queryKey: ['options', 'tenantPackage', 'all'],
    queryFn: () => fetchOptions(http, 'tenantPackage', { size: 500 }),
  });
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  const value = picked !== undefined ? picked : current.data?.id ? String(current.data.id) : null;
  const { submit, busy } = useSubmit(() => onClose(true));
  const save = () =>
    submit((h) => h.post(`${model.api}/package-setting`, undefined, { searchParams: { tenantId, packageId: value ?? '' } }));
  const label = packageField.label[lang];

  return (
    <Modal
      open
      width={480}
      title={t('admin.tenant.package')}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ disabled: !current.isSuccess }}
    >
      <SelectedRows model={model} rows={rows} />
      <GrantBody loading={current.isLoading || packages.isLoading} error={current.error ?? packages.error}>
        <Form layout="vertical">
          <Form.Item label={label} extra={t('admin.tenant.noPackage')}>
            <Select
              aria-label={label}
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('admin.pleaseSelect', { label })}
              value={value}
              onChange={(v) => setPicked(v ?? null)}
              options={packages.data?.records ?? []}
            />
          </Form.Item>
        </Form>
      </GrantBody>
    </Modal>
  );
}
