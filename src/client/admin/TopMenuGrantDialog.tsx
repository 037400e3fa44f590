// 菜单配置 of a top menu: which menus its sidebar shows (menu/grant-top-tree, checked from
// menu/top-tree-keys), saved by POST topmenu/grant.
import { Modal } from 'antd';
import { useT } from '../i18n/useT.ts';
import { catalog } from '../renderers/catalog.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { CheckTree } from './CheckTree.tsx';
import { GrantBody } from './GrantBody.tsx';
import { SelectedRows } from './SelectedRows.tsx';
import { useGrant } from './useGrant.ts';
import { useSubmit } from './useSubmit.ts';

export default function TopMenuGrantDialog({ model, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const menuApi = catalog().entities.menu.api;
  const topMenuIds = rows.map((r) => String(r.id));
  const grant = useGrant<'menu'>({
    name: 'topMenu',
    treeUrl: `${menuApi}/grant-top-tree`,
    keysUrl: `${menuApi}/top-tree-keys`,
    keysParams: { topMenuIds: topMenuIds.join(',') },
    modes: { menu: 'linked' },
  });
  const { submit, busy } = useSubmit(() => onClose(true));
  const save = () => submit((http) => http.post(`${model.api}/grant`, { topMenuIds, menuIds: grant.toSend('menu') }));

  return (
    <Modal
      open
      width={560}
      title={t('admin.topMenu.grant')}
      onCancel={() => onClose(false)}
      onOk={() => void save()}
      confirmLoading={busy}
      okButtonProps={{ disabled: !grant.ready }}
    >
      <SelectedRows model={model} rows={rows} />
      <GrantBody loading={grant.loading} error={grant.error}>
        {grant.ready && (
          <CheckTree
            nodes={grant.nodes('menu')}
            checked={grant.checked('menu')}
            mode="linked"
            onChange={(keys) => grant.setChecked('menu', keys)}
          />
        )}
      </GrantBody>
    </Modal>
  );
}
