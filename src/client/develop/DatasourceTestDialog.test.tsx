// @vitest-environment happy-dom
// 测试连接: the stored data source is tested on the server; success names the server's version,
// a refusal (a host outside the allow-list) or a failed connection is shown as the server words
// it, in the user's language.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http.ts';
import { catalog } from '../renderers/catalog.ts';
import type { RendererHttp } from '../renderers/http-context.tsx';
import { renderWithApi } from '../renderers/testing/providers.tsx';
import DatasourceTestDialog from './DatasourceTestDialog.tsx';

const datasource = () => catalog().entities.datasource;
const row = { id: '7001', name: '成本库' };

function answering(post: RendererHttp['post']) {
  return { get: vi.fn(), post: vi.fn(post), blob: vi.fn() } as unknown as RendererHttp & { post: ReturnType<typeof vi.fn> };
}

afterEach(cleanup);

describe('测试连接 of a data source', () => {
  it('tests the stored settings by id and shows the server version, without a toast', async () => {
    const http = answering(async () => ({ name: '成本库', product: 'PostgreSQL', serverVersion: '16.4' }) as never);
    renderWithApi(<DatasourceTestDialog model={datasource()} rows={[row]} onClose={() => undefined} />, { http });
    expect(await screen.findByText('连接成功:成本库(PostgreSQL 16.4)')).toBeTruthy();
    expect(http.post).toHaveBeenCalledWith('/api/blade-develop/datasource/test', undefined, { searchParams: { id: '7001' }, silent: true });
  });

  it('names MySQL and MariaDB servers as what they are', async () => {
    const http = answering(async () => ({ name: '旧平台库', product: 'MariaDB', serverVersion: '10.11.19-MariaDB' }) as never);
    renderWithApi(<DatasourceTestDialog model={datasource()} rows={[row]} onClose={() => undefined} />, { http, lang: 'en' });
    expect(await screen.findByText('Connected: 旧平台库 (MariaDB 10.11.19-MariaDB)')).toBeTruthy();
  });

  it('shows the refusal as the server words it, in English for an English user', async () => {
    const refusal = 'Host 10.0.0.9 is not in the allowed hosts (ZS_DATASOURCE_HOSTS); no connection was attempted';
    const http = answering(async () => {
      throw new ApiError(400, refusal, { code: 400, msg: refusal });
    });
    renderWithApi(<DatasourceTestDialog model={datasource()} rows={[row]} onClose={() => undefined} />, { http, lang: 'en' });
    expect(await screen.findByText('Connection failed')).toBeTruthy();
    expect(screen.getByText(refusal)).toBeTruthy();
    expect(screen.getByText('Test connection: 成本库')).toBeTruthy();
  });
});
