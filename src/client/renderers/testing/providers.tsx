// What the app gives a screen, for component tests: the jotai store (language, permissions, user),
// react-query with a cache of its own, the renderers' HTTP context (usually the in-memory API) and
// registry (the built-in widgets and displays unless told), the client's texts (react-intl; both
// languages at hand, so that a test sees English at once), antd's locale and App (toasts, confirmations).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider } from 'jotai';
import { useState, type ReactElement, type ReactNode } from 'react';
import { provideMessages } from '../../i18n/intl.ts';
import { en } from '../../i18n/messages.en.ts';
import { TextsProvider } from '../../i18n/TextsProvider.tsx';
import { appStore, langAtom, permissionAtom, userInfoAtom, type UserInfo } from '../../state/session.ts';
import { HttpProvider, type RendererHttp } from '../http-context.tsx';
import { RegistryContext, type RendererRegistry } from '../registry.ts';

provideMessages('en', en);

export function TestProviders({
  http,
  lang = 'zh',
  registry = {},
  children,
}: {
  http: RendererHttp;
  lang?: 'zh' | 'en';
  registry?: RendererRegistry;
  children: ReactNode;
}) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  appStore.set(langAtom, lang);
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <HttpProvider value={http}>
          <RegistryContext.Provider value={registry}>
            <TextsProvider>
              <ConfigProvider locale={lang === 'en' ? enUS : zhCN}>
                <AntApp>{children}</AntApp>
              </ConfigProvider>
            </TextsProvider>
          </RegistryContext.Provider>
        </HttpProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}

export interface TestSetup {
  http: RendererHttp;
  lang?: 'zh' | 'en';
  /** Button codes the user holds ({material_total_demand_add: true, …}). */
  permissions?: Record<string, boolean>;
  userId?: string;
  /** The user's tenant (default: none said). */
  tenantId?: string;
  /** The renderers' registry (default: the built-in widgets and displays, no list actions). */
  registry?: RendererRegistry;
}

/** Renders `ui` signed in as a user with these buttons, over `http`. */
export function renderWithApi(ui: ReactElement, { http, lang = 'zh', permissions = {}, userId = '1001', tenantId, registry }: TestSetup) {
  appStore.set(permissionAtom, permissions);
  appStore.set(userInfoAtom, { user_id: userId, account: 'tester', ...(tenantId && { tenant_id: tenantId }) } as UserInfo);
  const wrap = (node: ReactElement) => (
    <TestProviders http={http} lang={lang} registry={registry}>
      {node}
    </TestProviders>
  );
  const result = render(wrap(ui));
  return { ...result, rerender: (next: ReactElement) => result.rerender(wrap(next)) };
}
