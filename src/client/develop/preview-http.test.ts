// The preview's API: a generated document's own calls stay in memory (nothing is saved on the
// server), every other call reaches the real one.
import { describe, expect, it } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import type { RendererHttp } from '../renderers/http-context.tsx';
import { previewHttp } from './preview-http.ts';

function recordingHttp() {
  const calls: string[] = [];
  const http = {
    get: async (url: string) => (calls.push(`GET ${url}`), [{ dictKey: '1', dictValue: '房建' }]),
    post: async (url: string) => (calls.push(`POST ${url}`), null),
    blob: async () => ({ blob: new Blob(), filename: 'x' }),
  } as unknown as RendererHttp;
  return { http, calls };
}

describe('the preview API of a generated document', () => {
  const model = catalog().entities.partyA;

  it('answers its list, detail and save from sample records, without the server', async () => {
    const { http, calls } = recordingHttp();
    const preview = previewHttp(http, catalog(), model, 3);
    const page = await preview.get<{ records: { id: string; name: string }[]; total: number }>(`${model.api}/list`, {});
    expect(page.total).toBe(3);
    expect(page.records.every((r) => typeof r.name === 'string' && r.name.length > 0)).toBe(true);
    expect(await preview.get(`${model.api}/detail`, { id: page.records[1].id })).toEqual(page.records[1]);
    const saved = await preview.post<{ id: string; name: string }>(`${model.api}/save`, { name: '预览单位' });
    expect(saved.name).toBe('预览单位');
    expect(calls).toEqual([]);
  });

  it('sends everything else to the server (dictionaries, other entities)', async () => {
    const { http, calls } = recordingHttp();
    const preview = previewHttp(http, catalog(), model);
    await preview.get('/api/blade-system/dict/dictionary', { code: 'project_type' });
    await preview.post('/api/construct/project/options', undefined);
    expect(calls).toEqual(['GET /api/blade-system/dict/dictionary', 'POST /api/construct/project/options']);
  });
});
