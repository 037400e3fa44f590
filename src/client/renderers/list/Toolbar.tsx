// The buttons above a list: add, batch delete, export and the entity's own toolbar actions (each
// only for those who hold its button), then the selection count, refresh and column settings.
import { DeleteOutlined, DownloadOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import type { Row } from '../extensions.ts';
import type { ListActions } from './useListActions.tsx';

export interface ToolbarProps {
  model: EntityModel;
  actions: ListActions;
  selected: Row[];
  filters: Record<string, string>;
  onAdd: () => void;
  onRefresh: () => void;
  /** The column settings button. */
  settings: ReactNode;
}

export function Toolbar({ model, actions, selected, filters, onAdd, onRefresh, settings }: ToolbarProps) {
  const t = useT();
  const [exporting, setExporting] = useState(false);
  const batchDelete = model.list.batchActions.includes('delete') && actions.granted('delete');
  const canExport = model.list.export && actions.granted('export');
  const exportNow = () => {
    setExporting(true);
    actions
      .exportList(filters)
      .catch(() => undefined)
      .finally(() => setExporting(false));
  };
  return (
    <div className="zs-list-toolbar">
      <Space wrap>
        {actions.granted('add') && (
          <Button type="primary" icon={<PlusOutlined />} disabled={actions.disabled('add')} onClick={onAdd}>
            {t('common.add')}
          </Button>
        )}
        {batchDelete && (
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={actions.disabled('delete')}
            onClick={() => actions.remove(selected.map((r) => String(r.id)))}
          >
            {t('common.delete')}
          </Button>
        )}
        {canExport && (
          <Button icon={<DownloadOutlined />} loading={exporting} disabled={actions.disabled('export')} onClick={exportNow}>
            {t('common.export')}
          </Button>
        )}
        {actions.toolbarActions.map((action) => (
          <Button key={action.key} danger={action.danger} onClick={() => actions.run(action, selected)}>
            {t(action.label)}
          </Button>
        ))}
      </Space>
      <Space>
        {selected.length > 0 && <Typography.Text type="secondary">{t('list.selected', { count: selected.length })}</Typography.Text>}
        <Tooltip title={t('list.refresh')}>
          <Button icon={<ReloadOutlined />} aria-label={t('list.refresh')} onClick={onRefresh} />
        </Tooltip>
        {settings}
      </Space>
    </div>
  );
}
