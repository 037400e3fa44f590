// Storybook decorators for the admin screens: a fresh fake API and query cache per story (so a
// loading story never shows another story's cached answer), and the button permissions it holds.
import type { Decorator } from '@storybook/react-vite';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { HttpProvider, type RendererHttp } from '../../renderers/http-context.tsx';
import { appStore, permissionAtom } from '../../state/session.ts';

export function withFakeApi(make: () => RendererHttp, permissions: string[] = []): Decorator {
  return function FakeApi(Story) {
    const [http] = useState(make);
    const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false } } }));
    appStore.set(permissionAtom, Object.fromEntries(permissions.map((p) => [p, true])));
    return (
      <QueryClientProvider client={client}>
        <HttpProvider value={http}>
          <Story />
        </HttpProvider>
      </QueryClientProvider>
    );
  };
}

/** A dialog's onClose in a story: reports to the console instead of closing. */
export const logClose = (changed: boolean) => console.info('dialog closed', { changed });
