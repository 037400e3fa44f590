// The header: collapse toggle, top menu (home + the tenant's top menus; choosing one reloads the
// sidebar), menu search, error-log badge, lock, theme picker, full screen, language, and the
// avatar dropdown (dashboard, user info, switch department/role when switch mode is on, logout).
import {
  BgColorsOutlined,
  BugOutlined,
  CompressOutlined,
  DownOutlined,
  ExpandOutlined,
  HomeOutlined,
  LockOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { App, AutoComplete, Avatar, Badge, Button, Dropdown, Input, Layout, Modal, Space, Tooltip } from 'antd';
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { authApi } from '../api/client.ts';
import { loadMenus } from '../app/bootstrap.ts';
import { lazyWhenOpen } from '../app/lazy.ts';
import type { ShellColours } from '../app/themes.ts';
import { THEMES, website, type ThemeName } from '../app/website.ts';
import { menuName, useT } from '../i18n/useT.ts';
import {
  collapseAtom,
  errorLogAtom,
  langAtom,
  lockPasswordAtom,
  menusAtom,
  themeAtom,
  topMenuIdAtom,
  userInfoAtom,
} from '../state/session.ts';
import { pageMenus } from '../state/menus.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { logout } from './logout.ts';
import { MenuSearch } from './MenuSearch.tsx';
import { NotificationBell } from './notifications/NotificationBell.tsx';

// opened from the user menu now and then: their code (and antd's Table, Form, Select) loads when they open
const ErrorLogDialog = lazyWhenOpen(() => import('./ErrorLog.tsx').then((m) => m.ErrorLogDialog));
const SwitchDialog = lazyWhenOpen(() => import('./SwitchDialog.tsx').then((m) => m.SwitchDialog));

export function Header({ colours }: { colours: ShellColours }) {
  const t = useT();
  const { modal, message } = App.useApp();
  const [collapsed, setCollapsed] = useAtom(collapseAtom);
  const [theme, setTheme] = useAtom(themeAtom);
  const [, setLock] = useAtom(lockPasswordAtom);
  const [topMenuId] = useAtom(topMenuIdAtom);
  const user = useAtomValue(userInfoAtom);
  const logs = useAtomValue(errorLogAtom);
  const menus = useAtomValue(menusAtom);
  const lang = useAtomValue(langAtom);
  const [, navigate] = useLocation();
  const [topMenus, setTopMenus] = useState<{ id: string; name: string; nameEn?: string }[]>([]);
  const [searching, setSearching] = useState(false);
  const [showLogs, setShowLogs] = useState(false);
  const [locking, setLocking] = useState(false);
  const [lockValue, setLockValue] = useState('');
  const [switching, setSwitching] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const text = { color: colours.headerText };

  useEffect(() => {
    authApi
      .topMenus()
      .then(setTopMenus)
      .catch(() => undefined);
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const leaves = useMemo(() => pageMenus(menus), [menus]);
  const [query, setQuery] = useState('');
  const options = leaves
    .filter((m) => query && menuName(m, lang).toLowerCase().includes(query.toLowerCase()))
    .slice(0, 10)
    .map((m) => ({ value: m.path, label: menuName(m, lang) }));

  const lockScreen = () => {
    if (!lockValue) return message.error(t('lock.required'));
    setLock(lockValue);
    setLocking(false);
    setLockValue('');
    navigate('/lock');
  };

  const confirmLogout = () =>
    modal.confirm({
      title: t('header.logout'),
      content: t('header.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => logout(navigate),
    });

  const userItems = [
    { key: 'dashboard', label: t('header.dashboard'), onClick: () => navigate('/wel/dashboard') },
    { key: 'info', label: t('header.userInfo'), onClick: () => navigate('/info/index') },
    ...(website.switchMode ? [{ key: 'switch', label: t('header.switch'), onClick: () => setSwitching(true) }] : []),
    { type: 'divider' as const },
    { key: 'logout', label: t('header.logout'), onClick: confirmLogout },
  ];

  return (
    <Layout.Header className="zs-header" style={{ background: colours.header }}>
      <Space size={4}>
        <Button
          type="text"
          style={text}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={() => setCollapsed(!collapsed)}
          aria-label={t('header.collapse')}
        />
        <div className="zs-top-menu">
          <Button
            type={topMenuId === null ? 'link' : 'text'}
            style={text}
            icon={<HomeOutlined />}
            onClick={() => {
              void loadMenus(null);
              navigate(website.firstPage.path);
            }}
          >
            {t('menu.home')}
          </Button>
          {topMenus.map((m) => (
            <Button
              key={m.id}
              type={topMenuId === m.id ? 'link' : 'text'}
              style={topMenuId === m.id ? undefined : text}
              onClick={() => void loadMenus(m.id)}
            >
              {menuName(m, lang)}
            </Button>
          ))}
        </div>
      </Space>
      <Space size={2}>
        <AutoComplete
          options={options}
          onSearch={setQuery}
          onSelect={(path: string) => navigate(path)}
          style={{ width: 180 }}
          value={query}
          onChange={setQuery}
        >
          <Input size="small" prefix={<SearchOutlined />} placeholder={t('header.search')} aria-label={t('header.search')} />
        </AutoComplete>
        <Tooltip title={t('header.search')}>
          <Button type="text" style={text} icon={<SearchOutlined />} onClick={() => setSearching(true)} data-testid="menu-search" />
        </Tooltip>
        <Tooltip title={t('header.errorLog')}>
          <Badge count={logs.length} overflowCount={website.logBadgeMax} size="small">
            <Button type="text" style={text} icon={<BugOutlined />} onClick={() => setShowLogs(true)} data-testid="error-log" />
          </Badge>
        </Tooltip>
        <Tooltip title={t('header.lock')}>
          <Button type="text" style={text} icon={<LockOutlined />} onClick={() => setLocking(true)} data-testid="lock" />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            selectedKeys: [theme],
            items: THEMES.map((name) => ({ key: name, label: t(`theme.${name}`) })),
            onClick: ({ key }) => setTheme(key as ThemeName),
          }}
        >
          <Button type="text" style={text} icon={<BgColorsOutlined />} aria-label={t('header.theme')} data-testid="theme-picker" />
        </Dropdown>
        <NotificationBell color={colours.headerText} />
        <Tooltip title={t('header.fullscreen')}>
          <Button
            type="text"
            style={text}
            icon={fullscreen ? <CompressOutlined /> : <ExpandOutlined />}
            onClick={() =>
              (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()).catch(() => undefined)
            }
          />
        </Tooltip>
        <LanguageSwitch color={colours.headerText} />
        <Dropdown trigger={['click']} menu={{ items: userItems }}>
          <Button type="text" style={text} data-testid="user-menu">
            <Avatar size="small" src={user?.avatar || undefined}>
              {user?.real_name?.slice(0, 1)}
            </Avatar>
            <span className="zs-user-name">{user?.real_name || user?.account}</span>
            <DownOutlined />
          </Button>
        </Dropdown>
      </Space>
      <MenuSearch open={searching} onClose={() => setSearching(false)} />
      <ErrorLogDialog open={showLogs} onClose={() => setShowLogs(false)} />
      {website.switchMode && <SwitchDialog open={switching} onClose={() => setSwitching(false)} />}
      <Modal
        title={t('lock.title')}
        open={locking}
        onOk={lockScreen}
        onCancel={() => setLocking(false)}
        okText={t('lock.set')}
        cancelText={t('common.cancel')}
        destroyOnHidden
      >
        <Input.Password
          value={lockValue}
          onChange={(e) => setLockValue(e.target.value)}
          onPressEnter={lockScreen}
          placeholder={t('lock.password')}
          aria-label={t('lock.password')}
        />
      </Modal>
    </Layout.Header>
  );
}
