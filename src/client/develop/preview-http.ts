// The API a generated document's preview talks to: its own calls (list, detail, save, ...) are
// answered in memory from sample records of its schema, so trying the form writes nothing; every
// other call (dictionaries, the referenced entities' pickers) goes to the real server.
import { sampleRecord } from '../../engine/sample/sample.ts';
import type { EntityCatalog, EntityModel } from '../../engine/model/types.ts';
import type { RendererHttp } from '../renderers/http-context.tsx';

type Row = Record<string, any>;

export function previewHttp(real: RendererHttp, catalog: EntityCatalog, model: EntityModel, count = 5): RendererHttp {
  const sample = { catalog, ids: new Map<string, Row>(), seq: 1 };
  const rows: Row[] = Array.from({ length: count }, (_, i) => ({
    ...sampleRecord(model, sample),
    id: String(9_100_000 + i),
    createTime: '2026-11-20 09:00:00',
  }));
  const own = (url: string) => url.startsWith(`${model.api}/`);
  const answer = (url: string, params: Record<string, unknown> = {}, body?: unknown): any => {
    const action = url.slice(model.api.length + 1);
    if (action === 'list') return { records: rows, total: rows.length, size: rows.length, current: 1, pages: 1 };
    if (action === 'detail') return rows.find((r) => r.id === String(params.id)) ?? rows[0];
    if (action === 'options') return { records: [], total: 0, size: 10, current: 1, pages: 0 };
    return { ...(body as Row), id: (body as Row)?.id ?? String(9_200_000 + rows.length) };
  };
  return {
    get: (async (url: string, params?: Record<string, unknown>) =>
      own(url) ? answer(url, params) : real.get(url, params as never)) as RendererHttp['get'],
    post: (async (url: string, body?: unknown, options?: { searchParams?: Record<string, unknown> }) =>
      own(url) ? answer(url, options?.searchParams, body) : real.post(url, body, options as never)) as RendererHttp['post'],
    blob: real.blob,
  };
}
