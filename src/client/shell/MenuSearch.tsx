// The menu search overlay: prefix match on menu names, case-insensitive; Esc closes it.
import { Input, List, Modal } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { pageMenus } from '../state/menus.ts';
import { menuName, useT } from '../i18n/useT.ts';
import { langAtom, menusAtom, type MenuNode } from '../state/session.ts';

/** Menus whose name (in either language) starts with the query, ignoring case. */
export function searchMenus(menus: MenuNode[], query: string, lang: 'zh' | 'en'): MenuNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return pageMenus(menus).filter((m) => menuName(m, lang).toLowerCase().startsWith(q));
}

export function MenuSearch({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const menus = useAtomValue(menusAtom);
  const lang = useAtomValue(langAtom);
  const [query, setQuery] = useState('');
  const [, navigate] = useLocation();
  const hits = useMemo(() => searchMenus(menus, query, lang), [menus, query, lang]);
  const go = (m: MenuNode) => {
    navigate(m.path);
    setQuery('');
    onClose();
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} closable={false} keyboard destroyOnHidden className="zs-menu-search" width={560}>
      <Input
        autoFocus
        size="large"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={t('header.search')}
        aria-label={t('header.search')}
        onPressEnter={() => hits[0] && go(hits[0])}
      />
      <List
        dataSource={hits}
        renderItem={(m) => (
          <List.Item onClick={() => go(m)} style={{ cursor: 'pointer' }}>
            {menuName(m, lang)} <span style={{ color: '#909399' }}>{m.path}</span>
          </List.Item>
        )}
      />
    </Modal>
  );
}
