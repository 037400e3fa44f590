// Stories and component tests of the displays, the list and the detail view: an in-memory API
// (testing/fake-http.ts) and a query cache of its own, so two stories never share cached pages.
// Storybook's preview (and the tests' render helper) supply jotai, antd's ConfigProvider and App.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { HttpProvider, type RendererHttp } from '../http-context.tsx';

export function FakeApi({ http, children }: { http: RendererHttp; children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <HttpProvider value={http}>{children}</HttpProvider>
    </QueryClientProvider>
  );
}
