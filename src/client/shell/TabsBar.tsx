// The tab bar: one tab per visited route, right-click menu (clear cache, close others, close all).
import { Dropdown, Tabs } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useAtom, useAtomValue } from 'jotai';
import { useLocation } from 'wouter';
import { website } from '../app/website.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { useT } from '../i18n/useT.ts';
import { langAtom, tabsAtom, type Tab } from '../state/session.ts';
import { closeAll, closeOthers, closeTab, type TabsResult } from './tabs.ts';

export function TabsBar() {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [tabs, setTabs] = useAtom(tabsAtom);
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const apply = ({ tabs: next, goTo }: TabsResult) => {
    setTabs(next);
    if (goTo && goTo !== location) navigate(goTo);
  };
  const label = (tab: Tab) => {
    const meta = tab.meta as { titleKey?: MessageKey; zh?: string; en?: string } | undefined;
    if (meta?.titleKey) return t(meta.titleKey);
    if (meta?.zh) return lang === 'en' ? (meta.en ?? meta.zh) : meta.zh;
    return tab.value === website.firstPage.path ? t('title.home') : tab.label;
  };
  const menu = {
    items: [
      { key: 'cache', label: t('tabs.clearCache') },
      { key: 'others', label: t('tabs.closeOthers') },
      { key: 'all', label: t('tabs.closeAll') },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'cache') queryClient.clear();
      if (key === 'others') apply(closeOthers(tabs, location));
      if (key === 'all') apply(closeAll(tabs, website.firstPage.path));
    },
  };
  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      <div className="zs-tabs" data-testid="tabs">
        <Tabs
          type="editable-card"
          size="small"
          hideAdd
          activeKey={location}
          onChange={(key) => navigate(key)}
          onEdit={(key, action) => action === 'remove' && apply(closeTab(tabs, String(key), location))}
          items={tabs.map((tab) => ({ key: tab.value, label: label(tab), closable: tab.close && tabs.length > 1 }))}
        />
      </div>
    </Dropdown>
  );
}
