import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer } from './harness.ts';

describe.each(databaseKinds())('smoke on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(() => server?.dispose());

  it('lists seeded dictionaries', async () => {
    const api = client(server, await server.token());
    const res = await api.get('/api/blade-system/dict/dictionary', { code: 'sex' });
    expect(res.body).toMatchObject({ code: 200, success: true });
    expect(res.body.data.map((d: any) => d.dictValue)).toEqual(['男', '女']);
  });
});
