// Hostile requests that aim at the process rather than at the data (issue #18, holes 1, 7 and 8),
// on each database:
// - query keys and body keys named after members of Object.prototype (constructor, __proto__,
//   toString, hasOwnProperty …) on every GET route of the API and on every entity's save: never a
//   500, always the envelope, a refusal in the caller's language;
// - megabyte strings of the shapes that made the API log's URL-password mask quadratic, in the
//   anonymous guest registration and in authenticated saves: the answer is prompt, and so is the
//   next request while the hostile one is logged (the log masks after the answer has left);
// - JSON nested 10,000 deep and bodies of 200,000 keys: refused before they are walked, 400/413.
// The stalls are looked for on the real server in a process of its own (tests/server/child-server.ts):
// a server in the test's process would hold the test's own clock, and a stall of hours would hang
// the run instead of failing it. "Prompt" is a generous bound (PROMPT_MS): it proves the event loop
// was not held, it does not time the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, seededDataPlace, spawnServer, type ChildServer } from './child-server.ts';
import { apiRoutes, databaseKinds, startServer, type TestServer } from './harness.ts';
import { PROTOTYPE_NAMES } from '../support/prototype-names.ts';

/** What "answers promptly" means here: far above a normal answer on a loaded machine, far below a stall. */
const PROMPT_MS = 15_000;
const CJK = /[\u4e00-\u9fff]/;
/** The query strings tried on every GET route: bare keys, operator suffixes, sort columns. */
const PROTO_QUERIES = [
  'constructor=x',
  '__proto__=x',
  'toString=x',
  'hasOwnProperty_like=x',
  'valueOf_equal=1',
  '__proto___null=',
  'descs=constructor',
  'ascs=__proto__,toString',
  'ids=1&valueField=constructor',
  'parentId=1&constructor=1',
];

/** GET routes left out: an event stream stays open, and a logout would end the session the test runs as. */
const SKIPPED = /\/(stream|events|subscribe|logout)(\/|$)/;

interface Reply {
  status: number;
  body: any;
  text: string;
  ms: number;
}

/**
 * A problem with an answer: a 5xx, or a refusal that is not the envelope or not in the caller's
 * language (a 200 may be a workbook, the OpenAPI document or the platform's own shapes).
 */
function fault(what: string, reply: { status: number; body: any; text: string }, lang: 'zh' | 'en'): string | undefined {
  if (reply.status >= 500) return `${what}: ${reply.status} ${reply.text.slice(0, 200)}`;
  if (reply.status === 200) return undefined;
  if (reply.body === null) return `${what}: ${reply.status} not JSON: ${reply.text.slice(0, 100)}`;
  const { code, success, msg } = reply.body;
  if (typeof code !== 'number' || typeof success !== 'boolean' || typeof msg !== 'string' || !msg)
    return `${what}: not the envelope: ${reply.text.slice(0, 200)}`;
  if (!success && lang === 'zh' && !CJK.test(msg)) return `${what}: refusal not in Chinese: ${msg}`;
  return undefined;
}

function parsed(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

describe.each(databaseKinds())('keys named after members of Object.prototype on %s (hole 7)', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = await server.token();
  }, 400_000);
  afterAll(() => server?.dispose());

  async function call(method: 'GET' | 'POST', url: string, lang: 'zh' | 'en', body?: string) {
    const res = await server.app.inject({
      method,
      url,
      payload: body,
      headers: {
        'blade-auth': `bearer ${token}`,
        'accept-language': lang,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
    });
    return { status: res.statusCode, text: res.body, body: parsed(res.body) };
  }

  /** Every GET route of the API, its path parameters filled in. */
  function getRoutes(): string[] {
    return apiRoutes(server)
      .filter(([method]) => method === 'GET')
      .map(([, path]) => path.replace(/\*$/, 'x.txt').replace(/:(\w+)/g, '1'))
      .filter((url) => !SKIPPED.test(url));
  }

  it('never answer 500 on any GET route (list, all, export, options, user/list and the others)', async () => {
    const routes = getRoutes();
    expect(routes).toEqual(
      expect.arrayContaining([
        '/api/construct/project/list',
        '/api/construct/project/all',
        '/api/construct/project/export',
        '/api/construct/project/options',
        '/api/blade-system/user/list',
      ]),
    );
    const failures: string[] = [];
    let n = 0;
    for (const route of routes) {
      for (const query of PROTO_QUERIES) {
        const lang = n++ % 2 ? 'en' : 'zh';
        const what = `${lang} GET ${route}?${query}`;
        const found = fault(what, await call('GET', `${route}?${query}`, lang), lang);
        if (found) failures.push(found);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('the project list refuses them as unknown filters and sorts, in the caller language', async () => {
    for (const query of ['constructor=x', '__proto__=x', 'toString=x', 'hasOwnProperty_like=x']) {
      const reply = await call('GET', `/api/construct/project/list?${query}`, 'en');
      expect({ query, status: reply.status, msg: reply.body?.msg }).toEqual({
        query,
        status: 400,
        msg: expect.stringContaining(query.split('=')[0]),
      });
    }
    const sort = await call('GET', '/api/construct/project/list?descs=constructor', 'zh');
    expect(sort.status).toBe(400);
    expect(sort.body.msg).toMatch(CJK);
  });

  it('a body that would poison a prototype is refused as it was before the shape check: 400, not JSON', async () => {
    for (const body of ['{"__proto__":{"isAdmin":true}}', '{"name":"x","rows":[{"constructor":{"prototype":{"isAdmin":true}}}]}']) {
      const reply = await call('POST', '/api/construct/project/save', 'en', body);
      expect({ body, status: reply.status, msg: reply.body?.msg }).toEqual({
        body,
        status: 400,
        msg: 'The request body is not valid JSON',
      });
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('never answer 500 as body keys of any entity save, update or submit', async () => {
    const failures: string[] = [];
    let n = 0;
    const saves = getRoutes()
      .filter((url) => url.endsWith('/list'))
      .map((url) => url.slice(0, -'/list'.length));
    expect(saves.length).toBeGreaterThan(30);
    for (const api of saves) {
      for (const action of ['save', 'update', 'submit']) {
        for (const name of PROTOTYPE_NAMES) {
          const lang = n++ % 2 ? 'en' : 'zh';
          const body = `{"${name}":"x","id":"1"}`;
          const found = fault(`${lang} POST ${api}/${action} ${body}`, await call('POST', `${api}/${action}`, lang, body), lang);
          if (found) failures.push(found);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

/** The environment of a child server on `kind`, and how to clean up after it. */
describe.each(databaseKinds())('hostile bodies against the server process on %s (holes 1 and 8)', (kind) => {
  let server: ChildServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  let base: string;
  let token: string;

  beforeAll(async () => {
    const environment = await seededDataPlace(kind);
    cleanup = environment.cleanup;
    server = await spawnServer(environment.env);
    base = server.url;
    token = await loginAs(base);
  }, 400_000);
  afterAll(async () => {
    if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
      server.proc.kill('SIGKILL');
      await server.exited;
    }
    await cleanup?.();
  });

  /** One request on the socket, given up after `timeoutMs` (a stalled server fails the test instead of hanging it). */
  async function call(
    method: string,
    path: string,
    options: { body?: string; auth?: boolean; lang?: 'zh' | 'en'; timeoutMs?: number } = {},
  ): Promise<Reply> {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method,
      body: options.body,
      headers: {
        ...(options.auth === false ? {} : { 'blade-auth': `bearer ${token}` }),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        'accept-language': options.lang ?? 'zh',
      },
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    return { status: res.status, body: parsed(text), text, ms: performance.now() - started };
  }

  /** The next requests (health, a list, health) answer within PROMPT_MS each: nothing holds the event loop. */
  async function expectPrompt(after: string) {
    for (const path of ['/api/health', '/api/construct/project/list?size=1', '/api/health']) {
      const started = performance.now();
      let status: number | string;
      try {
        status = (await call('GET', path, { timeoutMs: PROMPT_MS })).status;
      } catch (err) {
        status = (err as Error).name;
      }
      const prompt = performance.now() - started < PROMPT_MS;
      expect({ after, path, status, prompt }).toEqual({ after, path, status: 200, prompt: true });
    }
  }

  describe('hole 1: megabyte strings in text fields, masked for the API log after the answer', () => {
    const MB = 1024 * 1024;
    /** The shapes that made the URL-password mask quadratic, and their neighbours (about 2 MB each). */
    const SHAPES: Record<string, string> = {
      letters: 'a'.repeat(2 * MB),
      'a scheme that never ends': `a://x:${'y'.repeat(2 * MB)}`,
      'letters, then a URL': `${'a'.repeat(2 * MB)}://u:p@h`,
      'schemes without users': 'ab://'.repeat(400_000),
      'users without passwords': 'a://:'.repeat(400_000),
      'passwords without @': 'a://u:p'.repeat(300_000),
      'colons and at signs': 'a:@/'.repeat(500_000),
    };
    let n = 0;

    /**
     * The API log's parameters of the request marked `marker`, read through the API: the log is
     * written after the answer, in batches every second, so it is waited for (within a bound).
     */
    async function loggedParams(path: string, marker: string): Promise<string | undefined> {
      const deadline = performance.now() + 30_000;
      for (;;) {
        const reply = await call(
          'GET',
          `/api/blade-log/api/list?requestUri_equal=${encodeURIComponent(path)}&params_like=${marker}&size=1`,
        );
        const params = reply.body?.data?.records?.[0]?.params;
        if (params !== undefined || performance.now() > deadline) return params;
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    it.each(Object.entries(SHAPES))(
      '%s: guest registration (anonymous) answers, is logged, and the next request is prompt',
      async (_shape, text) => {
        const marker = `attack-${kind}-${++n}`;
        const path = '/api/blade-system/user/register-guest';
        const reply = await call('POST', path, {
          auth: false,
          body: JSON.stringify({ tenantId: '000000', account: marker, password: 'postgres://u:secret@h/db', name: text }),
        });
        expect(reply.status).toBeLessThan(500);
        expect(reply.ms).toBeLessThan(PROMPT_MS);
        await expectPrompt(`register-guest with ${_shape}`);
        const params = await loggedParams(path, marker);
        expect(params).toContain(marker);
        expect(params?.length).toBeLessThanOrEqual(8000);
        expect(params).not.toContain('secret');
      },
    );

    it.each(Object.entries(SHAPES))(
      '%s: an authenticated save answers, is logged, and the next request is prompt',
      async (_shape, text) => {
        const marker = `attack-${kind}-${++n}`;
        const path = '/api/construct/project/save';
        const reply = await call('POST', path, {
          body: JSON.stringify({ code: marker, remark: `see mysql://root:hunter2@db:3306 ${text.slice(0, 1000)}`, name: text }),
        });
        expect(reply.status).toBeLessThan(500);
        expect(reply.body?.success).toBe(false);
        expect(reply.ms).toBeLessThan(PROMPT_MS);
        await expectPrompt(`project/save with ${_shape}`);
        const params = await loggedParams(path, marker);
        expect(params).toContain(marker);
        expect(params?.length).toBeLessThanOrEqual(8000);
        expect(params).not.toContain('hunter2');
      },
    );

    it('a hostile body being logged does not hold a request sent at the same time', async () => {
      const hostile = call('POST', '/api/blade-system/user/register-guest', {
        auth: false,
        body: JSON.stringify({ tenantId: '000000', name: SHAPES.letters, remark: SHAPES['passwords without @'] }),
      });
      // the concurrent requests start while the hostile body is on its way, and go on after its answer
      const concurrent = (async () => {
        for (let i = 0; i < 3; i++) await expectPrompt('a concurrent hostile body');
      })();
      const [reply] = await Promise.all([hostile, concurrent]);
      expect(reply.status).toBeLessThan(500);
      await expectPrompt('the hostile body answered');
    });
  });

  describe('hole 8: deep nesting and key floods are refused before they are walked', () => {
    const DEPTH = 10_000;
    const BODIES: Record<string, () => string> = {
      'arrays 10,000 deep': () => `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`,
      'objects 10,000 deep': () => `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
      'a field nested 10,000 deep': () => `{"name":${'[{"a":'.repeat(DEPTH / 2)}1${'}]'.repeat(DEPTH / 2)}}`,
    };
    const FLOODS: Record<string, () => string> = {
      '200,000 keys in one object': () => `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":0`).join(',')}}`,
      '300,000 one-key objects': () => `{"rows":[${Array.from({ length: 300_000 }, () => '{"a":0}').join(',')}]}`,
      '1,000,000 array elements': () => `{"rows":[${Array.from({ length: 1_000_000 }, () => '0').join(',')}]}`,
    };
    const ROUTES = [
      ['/api/blade-system/user/register-guest', false],
      ['/api/construct/project/save', true],
    ] as const;

    for (const [path, auth] of ROUTES) {
      it.each(Object.entries(BODIES))(
        `%s: 400 in the caller's language on ${path}, and the next request is prompt`,
        async (_what, body) => {
          const zh = await call('POST', path, { auth, body: body() });
          expect({ status: zh.status, msg: zh.body?.msg }).toEqual({
            status: 400,
            msg: expect.stringMatching(/请求体的嵌套超过 \d+ 层的上限/),
          });
          const en = await call('POST', path, { auth, body: body(), lang: 'en' });
          expect({ status: en.status, msg: en.body?.msg }).toEqual({
            status: 400,
            msg: expect.stringMatching(/^The request body is nested deeper than the limit of \d+ levels$/),
          });
          expect(zh.ms).toBeLessThan(PROMPT_MS);
          await expectPrompt(`${_what} on ${path}`);
        },
      );

      it.each(Object.entries(FLOODS))(
        `%s: 413 in the caller's language on ${path}, and the next request is prompt`,
        async (_what, body) => {
          const text = body();
          const zh = await call('POST', path, { auth, body: text });
          expect({ status: zh.status, msg: zh.body?.msg }).toEqual({
            status: 413,
            msg: expect.stringMatching(/^请求体(中一个对象的字段|的值)超过 \d+ 个的上限$/),
          });
          expect(zh.ms).toBeLessThan(PROMPT_MS);
          await expectPrompt(`${_what} on ${path}`);
          const en = await call('POST', path, { auth, body: text, lang: 'en' });
          expect({ status: en.status, msg: en.body?.msg }).toEqual({
            status: 413,
            msg: expect.stringMatching(
              /^(An object in the request body has more than the limit of \d+ fields|The request body holds more than the limit of \d+ values)$/,
            ),
          });
        },
      );
    }
  });
});
