// 数据源配置 of a tenant. The server keeps every tenant in the system database (tenant/datasource
// answers "not supported yet") and there is no datasource entity to choose from, so the dialog says
// so and offers nothing to save.
import { Alert, Modal } from 'antd';
import { useT } from '../i18n/useT.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { SelectedRows } from './SelectedRows.tsx';

export default function TenantDatasourceDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  return (
    <Modal open width={480} title={t('admin.tenant.datasource')} onCancel={() => onClose(false)} onOk={() => onClose(false)} okButtonProps={{ disabled: true }}>
      <SelectedRows model={model} rows={rows} />
      <Alert type="info" showIcon title={t('admin.tenant.datasourceUnsupported')} />
    </Modal>
  );
}
