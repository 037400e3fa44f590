// The providers the form and its widgets need outside the app, for component tests and stories:
// an in-memory API, react-query, the jotai store with the language, antd's locale and App.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider } from 'jotai';
import { useState, type ReactNode } from 'react';
import { appStore, langAtom } from '../../state/session.ts';
import { HttpProvider, type RendererHttp } from '../http-context.tsx';

export function FormProviders({ http, lang = 'zh', children }: { http: RendererHttp; lang?: 'zh' | 'en'; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
  appStore.set(langAtom, lang);
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <HttpProvider value={http}>
          <ConfigProvider locale={lang === 'en' ? enUS : zhCN}>
            <AntApp>{children}</AntApp>
          </ConfigProvider>
        </HttpProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
