// The signed-in layout: header tools, the server's menu in the sidebar, tabs, the page, and the
// watermark. It also runs the token refresh timer while a session is open.
import { Layout as AntLayout } from 'antd';
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { authApi } from '../api/client.ts';
import { shellColours } from '../app/themes.ts';
import { startTokenRefresh } from '../app/tokenRefresh.ts';
import { breakpoint } from '../app/website.ts';
import { appStore, collapseAtom, renewSession, themeAtom, userInfoAtom } from '../state/session.ts';
import { getStore, tokenStore } from '../state/storage.ts';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';
import { TabsBar } from './TabsBar.tsx';
import { Watermark } from './Watermark.tsx';

export default function Layout({ children }: { children: ReactNode }) {
  const [collapsed, setCollapsed] = useAtom(collapseAtom);
  const theme = useAtomValue(themeAtom);
  const user = useAtomValue(userInfoAtom);
  const colours = shellColours[theme];

  useEffect(
    () =>
      startTokenRefresh({
        hasToken: () => Boolean(tokenStore.refresh),
        tokenObtainedAt: () => tokenStore.obtainedAt,
        refresh: async () =>
          renewSession(
            await authApi.refresh(tokenStore.refresh, getStore<string>('tenantId') ?? appStore.get(userInfoAtom)?.tenant_id ?? '000000'),
          ),
      }),
    [],
  );

  // below the first breakpoint (768 px) the sidebar folds away by itself
  useEffect(() => {
    const onResize = () => breakpoint(window.innerWidth) === 0 && setCollapsed(true);
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setCollapsed]);

  return (
    <AntLayout className={`zs-shell zs-theme-${theme}`} style={{ minHeight: '100vh' }}>
      <AntLayout.Sider collapsed={collapsed} width={220} collapsedWidth={64} style={{ background: colours.sider }} className="zs-sider">
        <div className="zs-logo" style={{ color: colours.logo }}>
          <span className="zs-logo-mark" style={{ background: colours.logo }}>
            筑
          </span>
          {!collapsed && <span>筑算</span>}
        </div>
        <Sidebar colours={colours} />
      </AntLayout.Sider>
      <AntLayout>
        <Header colours={colours} />
        <TabsBar />
        <AntLayout.Content className="zs-content">{children}</AntLayout.Content>
      </AntLayout>
      {user && <Watermark text={user.real_name || user.account} colour={colours.watermark} />}
    </AntLayout>
  );
}
