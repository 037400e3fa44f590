// The sidebar: the server's menu. Items whose meta roles exclude the user's role are hidden (no
// roles: visible); open mode 2 with an http path opens a new window; a tip when there is no menu.
import {
  AppstoreOutlined,
  ControlOutlined,
  DatabaseOutlined,
  FundOutlined,
  InboxOutlined,
  ProjectOutlined,
  SafetyOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Empty, Menu, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { createElement, useMemo } from 'react';
import { useLocation } from 'wouter';
import type { ShellColours } from '../app/themes.ts';
import { menuName, useT } from '../i18n/useT.ts';
import { collapseAtom, langAtom, menusAtom, userInfoAtom, type MenuNode } from '../state/session.ts';

type Item = Required<MenuProps>['items'][number];

/** Visible to the user: no roles set, or one of the user's roles listed. */
export function visibleFor(menu: MenuNode, roles: string[]): boolean {
  const wanted = menu.meta?.roles;
  return !wanted || wanted.length === 0 || wanted.some((r) => roles.includes(r));
}

export const isExternal = (menu: MenuNode) => /^https?:\/\//.test(menu.path ?? '');

/**
 * Menu icons by the menu's `source`, the Ant Design icon's name in lower case without "Outlined"
 * (`fund` → FundOutlined); a small set keeps the icon font out of the bundle.
 */
const ICONS: Record<string, typeof AppstoreOutlined> = Object.fromEntries(
  Object.entries({
    AppstoreOutlined,
    ControlOutlined,
    DatabaseOutlined,
    FundOutlined,
    InboxOutlined,
    ProjectOutlined,
    SafetyOutlined,
    SettingOutlined,
  }).map(([name, component]) => [name.replace(/Outlined$/, '').toLowerCase(), component]),
);

function icon(name: string | undefined) {
  return createElement(ICONS[name ?? ''] ?? AppstoreOutlined);
}

export function Sidebar({ colours }: { colours: ShellColours }) {
  const t = useT();
  const menus = useAtomValue(menusAtom);
  const lang = useAtomValue(langAtom);
  const user = useAtomValue(userInfoAtom);
  const collapsed = useAtomValue(collapseAtom);
  const [location, navigate] = useLocation();
  const roles = (user?.role_name ?? '').split(',');

  const items = useMemo(() => {
    const build = (list: MenuNode[]): Item[] =>
      list
        .filter((m) => m.category === 1 && visibleFor(m, roles))
        .map((m) => {
          const children = (m.children ?? []).filter((c) => c.category === 1);
          return children.length
            ? { key: m.path || m.id, icon: icon(m.source), label: menuName(m, lang), children: build(children) }
            : { key: m.path || m.id, icon: icon(m.source), label: menuName(m, lang), 'data-external': isExternal(m) ? '1' : undefined };
        });
    return build(menus);
  }, [menus, lang, roles.join(',')]);

  if (!menus.length)
    return (
      <Empty
        className="zs-menu-empty"
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={<span style={{ color: '#909399' }}>{t('menu.empty')}</span>}
      />
    );

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const all: MenuNode[] = [];
    const walk = (list: MenuNode[]) => list.forEach((m) => (all.push(m), walk(m.children ?? [])));
    walk(menus);
    const menu = all.find((m) => (m.path || m.id) === key);
    if (menu && isExternal(menu)) {
      if (menu.isOpen === 2) window.open(menu.path, '_blank', 'noopener');
      else navigate(`/myiframe/${encodeURIComponent(menu.path)}`);
      return;
    }
    navigate(key);
  };

  return (
    <Menu
      mode="inline"
      theme={colours.siderMenu}
      style={{ background: colours.sider, borderInlineEnd: 0 }}
      items={items}
      selectedKeys={[location.replace(/\/index$/, '')]}
      defaultOpenKeys={collapsed ? [] : menus.map((m) => m.path || m.id)}
      onClick={onClick}
    />
  );
}
