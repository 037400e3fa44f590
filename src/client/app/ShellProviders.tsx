// What the pages behind the sign-in render inside: the server-data cache (TanStack Query) and antd's
// locale and theme, with its stylesheet in a build (antd-stylesheet.ts).
// The login page uses none of them, so the first page a visitor loads stays small (its script is the
// entry alone); everything behind it loads them with this module.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useAtomValue } from 'jotai';
import { use, type ReactNode } from 'react';
import { langAtom, themeAtom } from '../state/session.ts';
import { antdStylesheet, antdStylesheetLoaded, staticAntdStyles } from './antd-stylesheet.ts';
import { antdThemeFor } from './themes.ts';

// one cache for the whole visit, shared by every mount of these providers (the shell's, the login page's dialog)
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

export default function ShellProviders({ children }: { children: ReactNode }) {
  const lang = useAtomValue(langAtom);
  const theme = useAtomValue(themeAtom);
  // antd's date pickers take their month and weekday names from dayjs's global locale
  dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');
  if (staticAntdStyles && !antdStylesheetLoaded()) use(antdStylesheet());
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={lang === 'zh' ? zhCN : enUS} theme={{ ...antdThemeFor(theme), zeroRuntime: staticAntdStyles }}>
        <AntApp>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
