// 角色配置 of the selected users: a role tree with checkboxes (role/tree), starting from the roles all
// of them hold, saved by POST user/grant?userIds=&roleIds=.
import { useQuery } from '@tanstack/react-query';
import { Modal } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useT } from '../i18n/useT.ts';
import { catalog } from '../renderers/catalog.ts';
import type { ActionDialogProps, Row } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { langAtom } from '../state/session.ts';
import { CheckTree } from './CheckTree.tsx';
import { GrantBody } from './GrantBody.tsx';
import { SelectedRows } from './SelectedRows.tsx';
import type { GrantNode } from './tree.ts';
import { useSubmit } from './useSubmit.ts';

/** The roles every one of the users holds (roleId is a comma-joined list). */
export function commonRoles(rows: Row[]): string[] {
  const lists = rows.map((r) =>
    String(r.roleId ?? '')
      .split(',')
      .filter(Boolean),
  );
  return (lists[0] ?? []).filter((id) => lists.every((l) => l.includes(id)));
}

export default function UserRoleDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const roleApi = catalog().entities.role.api;
  const roles = useQuery({ queryKey: ['tree', 'role', 'grant', lang], queryFn: () => http.get<GrantNode[]>(`${roleApi}/tree`) });
  const [checked, setChecked] = useState(() => commonRoles(rows));
  const { submit, busy } = useSubmit(() => onClose(true));
  const save = () =>
    submit((h) =>
      h.post(`${model.api}/grant`, undefined, { searchParams: { userIds: rows.map((r) => r.id).join(','), roleIds: checked.join(',') } }),
    );

  return (
    <Modal
      open
      width={520}
      title={t('admin.user.grant')}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ disabled: !roles.isSuccess || !checked.length }}
    >
      <SelectedRows model={model} rows={rows} />
      <GrantBody loading={roles.isLoading} error={roles.error}>
        {roles.data && <CheckTree nodes={roles.data} checked={checked} mode="free" onChange={setChecked} />}
      </GrantBody>
    </Modal>
  );
}
