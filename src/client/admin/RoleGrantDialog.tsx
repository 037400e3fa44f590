// 权限设置: the menus, data scopes and API scopes of the roles, three tabs of checkbox trees
// (menu/grant-tree, checked from menu/role-tree-keys), saved by POST role/grant. The scope tabs
// show the rules (built-in, the platform's and the tenant's own) of the menus checked on the first.
import { Modal, Tabs } from 'antd';
import type { MessageKey } from '../i18n/messages.ts';
import { useT } from '../i18n/useT.ts';
import { catalog } from '../renderers/catalog.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { CheckTree } from './CheckTree.tsx';
import { rulesOfMenus } from './tree.ts';
import { GrantBody } from './GrantBody.tsx';
import { SelectedRows } from './SelectedRows.tsx';
import { useGrant } from './useGrant.ts';
import { useSubmit } from './useSubmit.ts';

type Kind = 'menu' | 'dataScope' | 'apiScope';

const TABS: { kind: Kind; label: MessageKey }[] = [
  { kind: 'menu', label: 'admin.role.menus' },
  { kind: 'dataScope', label: 'admin.role.dataScopes' },
  { kind: 'apiScope', label: 'admin.role.apiScopes' },
];

export default function RoleGrantDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const menuApi = catalog().entities.menu.api;
  const roleIds = rows.map((r) => String(r.id));
  const grant = useGrant<Kind>({
    name: 'role',
    treeUrl: `${menuApi}/grant-tree`,
    keysUrl: `${menuApi}/role-tree-keys`,
    keysParams: { roleIds: roleIds.join(',') },
    // menus are granted node by node (a menu without its buttons); scopes are the rules, the leaves
    modes: { menu: 'linked', dataScope: 'leaves', apiScope: 'leaves' },
  });
  // the scope tabs offer the rules of the menus checked on the first tab
  const nodesOf = (kind: Kind) => (kind === 'menu' ? grant.nodes(kind) : rulesOfMenus(grant.nodes(kind), new Set(grant.checked('menu'))));
  const { submit, busy } = useSubmit(() => onClose(true));
  const save = () =>
    submit((http) =>
      http.post(`${model.api}/grant`, {
        roleIds,
        menuIds: grant.toSend('menu'),
        dataScopeIds: grant.toSend('dataScope'),
        apiScopeIds: grant.toSend('apiScope'),
      }),
    );

  return (
    <Modal
      open
      width={640}
      title={t('admin.role.grant')}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ disabled: !grant.ready }}
    >
      <SelectedRows model={model} rows={rows} />
      <GrantBody loading={grant.loading} error={grant.error}>
        <Tabs
          items={TABS.map(({ kind, label }) => ({
            key: kind,
            label: t(label),
            children: grant.ready && (
              <CheckTree
                nodes={nodesOf(kind)}
                checked={grant.checked(kind)}
                mode={kind === 'menu' ? 'linked' : 'leaves'}
                expandAll={kind !== 'menu'}
                empty={kind === 'menu' ? undefined : t('admin.role.scopesOfMenus')}
                onChange={(keys) => grant.setChecked(kind, keys)}
              />
            ),
          }))}
        />
      </GrantBody>
    </Modal>
  );
}
