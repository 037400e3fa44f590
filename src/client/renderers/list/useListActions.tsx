// What the list's buttons do and who sees them. Add, edit, delete and export need the button
// permission `${menu.code}_<action>`; view needs none: whoever can open the list may read a record
// (the server lets every reader fetch the detail, with or without `_view`). An entity's extension
// may show a standard action disabled (the tenant package's view) and adds its own actions, each
// opening its dialog with the rows it applies to.
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useAtomValue } from 'jotai';
import { useState, type ReactNode } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom, permissionAtom } from '../../state/session.ts';
import { invalidateEntity } from '../data.ts';
import type { EntityAction, Row } from '../extensions.ts';
import { useRegistry } from '../registry.ts';
import { useHttp } from '../http-context.tsx';

export type StandardAction = 'add' | 'edit' | 'view' | 'delete' | 'export';

/** Hands a downloaded file to the browser under its name. */
export function saveFile(blob: Blob, filename: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * Whether the user's buttons grant a standard action on the entity: view always; records the server
 * alone writes (x-entity.readOnly, logs) are only read and exported.
 */
export function grantedAction(model: EntityModel, permissions: Record<string, boolean>, action: StandardAction): boolean {
  if (action === 'view') return true;
  if (model.readOnly && action !== 'export') return false;
  return permissions[`${model.menu?.code ?? model.key}_${action}`] === true;
}

export function useListActions(model: EntityModel, onRemoved: (ids: string[]) => void) {
  const t = useT();
  const http = useHttp();
  const queryClient = useQueryClient();
  const { message, modal } = App.useApp();
  const permissions = useAtomValue(permissionAtom);
  const lang = useAtomValue(langAtom);
  const extension = useRegistry().lists?.[model.key] ?? {};
  const [open, setOpen] = useState<{ action: EntityAction; rows: Row[] } | null>(null);
  const granted = (action: StandardAction) => grantedAction(model, permissions, action);
  const disabled = (action: StandardAction) => extension.disabledActions?.includes(action) ?? false;
  const holds = (action: EntityAction) => !action.permission || permissions[action.permission] === true;

  const refresh = () => invalidateEntity(queryClient, http, model.key);

  /** Asks 确定将选择数据删除?, removes, says 删除成功 and refreshes the list. */
  const remove = (ids: string[]) => {
    if (!ids.length) {
      void message.warning(t('common.selectOne'));
      return;
    }
    modal.confirm({
      content: t('common.deleteConfirm'),
      okType: 'danger',
      onOk: async () => {
        await http.post(`${model.api}/remove`, undefined, { searchParams: { ids: ids.join(',') } });
        void message.success(t('common.deleted'));
        onRemoved(ids);
        await refresh();
      },
    });
  };

  const exportList = async (filters: Record<string, string>) => {
    const { blob, filename } = await http.blob(`${model.api}/export`, filters);
    saveFile(blob, filename && filename !== 'download' ? filename : t('list.exportFile', { name: model.label[lang] }));
  };

  /** A toolbar action checks its selection first (请选择至少一条数据 / 请选择一条数据). */
  const run = (action: EntityAction, rows: Row[]) => {
    if (action.selection && !rows.length) return void message.warning(t('common.selectOne'));
    if (action.selection === 'one' && rows.length !== 1) return void message.warning(t('list.selectExactlyOne'));
    setOpen({ action, rows });
  };

  const Dialog = open?.action.dialog;
  const dialog: ReactNode =
    Dialog && open ? (
      <Dialog
        model={model}
        rows={open.rows}
        onClose={(changed) => {
          setOpen(null);
          if (changed) void refresh();
        }}
      />
    ) : null;

  return {
    granted,
    disabled,
    remove,
    exportList,
    refresh,
    run,
    dialog,
    rowActions: (extension.rowActions ?? []).filter(holds),
    toolbarActions: (extension.toolbarActions ?? []).filter(holds),
  };
}

export type ListActions = ReturnType<typeof useListActions>;
