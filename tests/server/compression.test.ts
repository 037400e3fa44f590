// What a browser receives from `npm start` itself, with no proxy in front: the client's files in the
// best encoding it accepts (from the build's .br/.gz copies), hashed files cached for a year and the
// page revalidated by its ETag; large API answers compressed, small ones and event streams not.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD } from '../../src/server/http/compression.ts';
import { databaseKinds, startServer, type TestServer } from './harness.ts';

const BROWSER = 'gzip, deflate, br, zstd';
const SCRIPT = `export const rows = [${Array.from({ length: 2000 }, (_, i) => `{id:${i},name:"第${i}行"}`).join(',')}];\n`;
const PAGE = `<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>\n`;

/** A built client as `vite build` leaves it: each file with its .br and .gz beside it. */
function builtClient(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zs-client-'));
  mkdirSync(join(dir, 'assets'));
  const write = (path: string, text: string) => {
    writeFileSync(join(dir, path), text);
    writeFileSync(join(dir, `${path}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${path}.gz`), gzipSync(text));
  };
  write('index.html', PAGE);
  write('assets/index-Ab12Cd34.js', SCRIPT);
  return dir;
}

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString();
  if (encoding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
}

describe.each(databaseKinds())('compression and caching on %s', (kind) => {
  let server: TestServer;
  let clientDir: string;
  let token: string;

  beforeAll(async () => {
    clientDir = builtClient();
    server = await startServer(kind, { clientDir });
    token = await server.token();
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });
  const signedIn = (url: string, headers: Record<string, string> = {}) => get(url, { 'blade-auth': `bearer ${token}`, ...headers });

  it('sends a hashed file in the best encoding the browser accepts, cached for a year', async () => {
    for (const [accepts, expected] of [
      [BROWSER, 'br'],
      ['gzip, deflate', 'gzip'],
      ['identity', undefined],
      ['', undefined],
    ] as const) {
      const res = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': accepts });
      expect(res.statusCode, accepts).toBe(200);
      expect(res.headers['content-encoding'], accepts).toBe(expected);
      expect(String(res.headers.vary).toLowerCase(), accepts).toContain('accept-encoding');
      expect(res.headers['cache-control'], accepts).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type'], accepts).toMatch(/javascript/);
      expect(decoded(res.rawPayload, expected), accepts).toBe(SCRIPT);
    }
    const br = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': BROWSER });
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
  });

  it('has the browser revalidate the page: no-cache with an ETag, 304 when it has not changed', async () => {
    for (const url of ['/', '/construct/project']) {
      const first = await get(url, { 'accept-encoding': BROWSER });
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('no-cache');
      expect(decoded(first.rawPayload, first.headers['content-encoding'] as string), url).toBe(PAGE);
      const etag = first.headers.etag as string;
      expect(etag, url).toBeTruthy();
      const again = await get(url, { 'accept-encoding': BROWSER, 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length, url).toBe(0);
    }
  });

  it('compresses a large API answer on the fly and leaves a small one as it is', async () => {
    for (const [accepts, expected] of [
      [BROWSER, 'br'],
      ['gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      const res = await get('/api/openapi.json', { 'accept-encoding': accepts });
      expect(res.statusCode, accepts).toBe(200);
      expect(res.headers['content-encoding'], accepts).toBe(expected);
      expect(String(res.headers.vary).toLowerCase(), accepts).toContain('accept-encoding');
      expect(JSON.parse(decoded(res.rawPayload, expected)).openapi, accepts).toMatch(/^3\./);
    }
    const list = await signedIn('/api/blade-system/dict/list', { 'accept-encoding': BROWSER });
    expect(list.headers['content-encoding']).toBe('br');
    const text = decoded(list.rawPayload, 'br');
    expect(text.length).toBeGreaterThan(COMPRESS_THRESHOLD);
    expect(list.rawPayload.length).toBeLessThan(text.length / 3);
    expect(JSON.parse(text).success).toBe(true);

    const health = await get('/api/health', { 'accept-encoding': BROWSER });
    expect(health.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body).data.status).toBe('UP');
  });

  it('sends the schema set compressed once per version, and 304 for the version the browser has', async () => {
    const br = await signedIn('/api/schemas', { 'accept-encoding': BROWSER });
    expect(br.headers['content-encoding']).toBe('br');
    const set = JSON.parse(decoded(br.rawPayload, 'br'));
    expect(Object.keys(set.files).length).toBeGreaterThan(10);
    const gzip = await signedIn('/api/schemas', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gzip.rawPayload, 'gzip'))).toEqual(set);
    expect(br.rawPayload.length).toBeLessThan(gzip.rawPayload.length);
    const plain = await signedIn('/api/schemas');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body).version).toBe(set.version);
    const again = await signedIn('/api/schemas', { 'accept-encoding': BROWSER, 'if-none-match': br.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it("soon sends the schema set in Brotli's smallest encoding", async () => {
    const plain = await signedIn('/api/schemas');
    const smallest = brotliCompressSync(plain.rawPayload, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    // made on a thread of the pool when the set is first asked for; until then a quicker, larger one answers
    await expect
      .poll(async () => (await signedIn('/api/schemas', { 'accept-encoding': BROWSER })).rawPayload.length, {
        timeout: 20_000,
        interval: 100,
      })
      .toBeLessThanOrEqual(smallest + 64);
  });

  it('does not compress the event stream: each event arrives as it is sent', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const address = server.app.server.address() as { port: number };
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${address.port}/api/blade-message/message/subscribe`, {
      headers: { 'blade-auth': `bearer ${token}`, accept: 'text/event-stream', 'accept-encoding': BROWSER },
      signal: controller.signal,
    });
    try {
      if (!res.body) throw new Error('no event stream');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('content-encoding')).toBeNull();
      // the first event is a few bytes: a compressor would hold it back until its buffer filled
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!/event: ready/.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += value;
      }
      expect(text).toMatch(/event: ready/);
    } finally {
      controller.abort();
    }
  });
});
