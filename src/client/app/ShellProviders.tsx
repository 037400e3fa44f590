// What the pages behind the sign-in render inside: the server-data cache (TanStack Query), react-intl,
// and antd's locale and theme. The login page uses none of them, so the first page a visitor loads
// stays small (its script is the entry alone); everything behind it loads them with this module.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { catalogs } from '../i18n/messages.ts';
import { langAtom, themeAtom } from '../state/session.ts';
import { antdThemeFor } from './themes.ts';

// one cache for the whole visit, shared by every mount of these providers (the shell's, the login page's dialog)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

export default function ShellProviders({ children }: { children: ReactNode }) {
  const lang = useAtomValue(langAtom);
  const theme = useAtomValue(themeAtom);
  return (
    <QueryClientProvider client={queryClient}>
      <IntlProvider locale={lang === 'zh' ? 'zh-CN' : 'en'} messages={catalogs[lang]}>
        <ConfigProvider locale={lang === 'zh' ? zhCN : enUS} theme={antdThemeFor(theme)}>
          <AntApp>{children}</AntApp>
        </ConfigProvider>
      </IntlProvider>
    </QueryClientProvider>
  );
}
