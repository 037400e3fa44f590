// Renders an admin component as the app would hold it (see renderers/testing/providers.tsx).
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach } from 'vitest';
import type { RendererHttp } from '../../renderers/http-context.tsx';
import { TestProviders } from '../../renderers/testing/providers.tsx';

// each test starts on an empty document (vitest runs without globals, so no automatic cleanup)
afterEach(cleanup);

export function renderWith(ui: ReactNode, http: RendererHttp, lang: 'zh' | 'en' = 'zh') {
  return render(
    <TestProviders http={http} lang={lang}>
      {ui}
    </TestProviders>,
  );
}
