// Renders an admin component as the app would hold it: jotai store, react-query, the renderers'
// HTTP context (a fake API), antd's locale and App (toasts). Used by the component tests.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach } from 'vitest';
import { HttpProvider, type RendererHttp } from '../../renderers/http-context.tsx';
import { appStore, langAtom } from '../../state/session.ts';

// each test starts on an empty document (vitest runs without globals, so no automatic cleanup)
afterEach(cleanup);

export function renderWith(ui: ReactNode, http: RendererHttp, lang: 'zh' | 'en' = 'zh') {
  appStore.set(langAtom, lang);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <HttpProvider value={http}>
          <ConfigProvider locale={lang === 'en' ? enUS : zhCN}>
            <App>{ui}</App>
          </ConfigProvider>
        </HttpProvider>
      </QueryClientProvider>
    </JotaiProvider>,
  );
}
