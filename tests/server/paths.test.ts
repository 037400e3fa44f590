// Issue #18.2: every security decision (token needed, public path, API scope) is taken on the path
// the router matches, never on another spelling of it. The requests go over a real socket with the
// path exactly as written (app.inject and fetch would normalise it first): letters percent-encoded
// in upper- and lower-case hex, doubly encoded, an encoded slash or dot, `//`, `/./`, `/../`, `;`, a
// trailing `/`. A spelling the router takes for the same route is refused (400) before anything
// else; one it takes for no route is 404; none answers data without a token or past a scope.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project, userOfRole } from './fixtures.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

interface Answer {
  status: number;
  body: any;
}

/** GET/POST with the path sent as written. */
function send(port: number, path: string, token?: string, method = 'GET', lang?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { ...(token ? { 'blade-auth': `bearer ${token}` } : {}), ...(lang ? { 'accept-language': lang } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: any = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const hex = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16);
  return `%${upper ? h.toUpperCase() : h.toLowerCase()}`;
};

/** Other spellings of `path` (`/api/a/b/c`): what a client may send hoping a check reads it differently from the router. */
export function spellings(path: string): string[] {
  const segments = path.split('/').slice(1);
  const out = new Set<string>();
  const join = (s: string[]) => `/${s.join('/')}`;
  segments.forEach((segment, i) => {
    const with_ = (value: string) => join(segments.map((s, j) => (j === i ? value : s)));
    // a letter whose hex code has a letter in it (upper and lower case), and one whose code has none
    const lettered = [...segment].findIndex((c) => /[a-f]/.test(c.charCodeAt(0).toString(16)) && /[A-Za-z]/.test(c));
    if (lettered >= 0) {
      for (const upper of [true, false])
        out.add(with_(segment.slice(0, lettered) + hex(segment[lettered], upper) + segment.slice(lettered + 1)));
    }
    out.add(with_(hex(segment[0], false) + segment.slice(1)));
    out.add(with_([...segment].map((c) => hex(c, true)).join('')));
    // doubly encoded: %25 then the code
    out.add(with_(`%25${segment.charCodeAt(0).toString(16)}${segment.slice(1)}`));
    if (i < segments.length - 1) {
      for (const slash of ['%2F', '%2f']) out.add(`/${segments.slice(0, i + 1).join('/')}${slash}${segments.slice(i + 1).join('/')}`);
      out.add(`/${segments.slice(0, i + 1).join('/')}//${segments.slice(i + 1).join('/')}`);
      out.add(`/${segments.slice(0, i + 1).join('/')}/./${segments.slice(i + 1).join('/')}`);
      out.add(`/${segments.slice(0, i + 1).join('/')}/%2e/${segments.slice(i + 1).join('/')}`);
      out.add(`/${segments.slice(0, i + 1).join('/')}/x/../${segments.slice(i + 1).join('/')}`);
      out.add(`/${segments.slice(0, i + 1).join('/')};x/${segments.slice(i + 1).join('/')}`);
    }
  });
  out.add(`/${path}`);
  out.add(`${path}/`);
  out.add(`${path};`);
  out.add(`${path};jsessionid=1`);
  out.add(`${path}/.`);
  out.add(`${path}%3F`);
  out.add(`${path}%23`);
  out.delete(path);
  return [...out];
}

describe.each(databaseKinds())('paths spelled differently on %s', (kind) => {
  let server: TestServer;
  let port: number;
  let tenantAdmin: Api;
  /** A member of a tenant with the project menu but not the API scope over it. */
  let clerk: string;
  /** The same, with the API scope granted. */
  let granted: string;

  const SCHEMAS = '/api/schemas';
  const PROJECTS = '/api/construct/project/list';

  beforeAll(async () => {
    server = await startServer(kind);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as { port: number }).port;
    const platform = client(server, await server.token());
    const tenant = await server.newTenant('路径测试公司');
    tenantAdmin = client(server, tenant.token);
    const [menu] = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = 'project'`);
    const scope = await platform.post('/api/blade-system/api-scope/save', {
      menuId: menu.id,
      resourceCode: 'project_api',
      scopeName: '项目接口',
      scopePath: '/api/construct/project/*',
      scopeType: '2',
    });
    expect(scope.body.code, JSON.stringify(scope.body)).toBe(200);
    const member = async (apiScopeIds: string[]) => {
      const alias = `p${Math.random().toString(36).slice(2, 10)}`;
      const role = await tenantAdmin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 });
      const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [
        ['project', 'project_view'],
      ]);
      expect(
        (
          await tenantAdmin.post('/api/blade-system/role/grant', {
            roleIds: [role.body.data.id],
            menuIds: menus.map((m) => m.id),
            dataScopeIds: [],
            apiScopeIds,
          })
        ).body.code,
      ).toBe(200);
      const userId = await userOfRole(tenantAdmin, alias, role.body.data.id);
      return server.tokens.sign({ tenant_id: tenant.tenantId, user_id: userId, role_id: role.body.data.id, role_name: alias });
    };
    clerk = await member([]);
    granted = await member([scope.body.data.id]);
  });
  afterAll(() => server?.dispose());

  it('the plain paths answer as they should (the matrix below means something)', async () => {
    expect((await send(port, SCHEMAS)).status).toBe(401);
    expect((await send(port, SCHEMAS, await server.token())).status).toBe(200);
    expect((await send(port, PROJECTS)).status).toBe(401);
    expect((await send(port, PROJECTS, clerk)).status).toBe(403);
    expect((await send(port, PROJECTS, granted)).status).toBe(200);
    expect((await send(port, '/api/blade-auth/oauth/captcha')).status).toBe(200);
  });

  it('no spelling of a path answers without a token', async () => {
    // 403: the built client's file server refuses a path such as `//api/schemas` itself
    for (const path of [SCHEMAS, PROJECTS, '/api/blade-system/user/list', '/api/blade-auth/oauth/user-info']) {
      for (const spelled of spellings(path)) {
        const answer = await send(port, spelled);
        expect([400, 401, 403, 404], `${spelled}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`).toContain(answer.status);
      }
    }
  });

  it('no spelling of a path gets past an API scope', async () => {
    for (const path of [PROJECTS, '/api/construct/project/page', '/api/construct/project/detail']) {
      for (const spelled of spellings(path)) {
        const answer = await send(port, spelled, clerk);
        expect([400, 403, 404], `${spelled}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`).toContain(answer.status);
      }
    }
  });

  it('a public path does not open another route, however it is spelled', async () => {
    const publicPaths = ['/api/blade-auth/oauth/captcha', '/api/blade-auth/oauth/token', '/api/health', '/api/openapi.json'];
    for (const pub of publicPaths) {
      for (const tail of [
        '/../../../construct/project/list',
        '/..%2f..%2f..%2fconstruct%2fproject%2flist',
        '%2F..%2F..%2F..%2Fconstruct%2Fproject%2Flist',
        ';/../../../construct/project/list',
        '/%2e%2e/%2e%2e/%2e%2e/construct/project/list',
      ]) {
        const spelled = pub + tail;
        const answer = await send(port, spelled);
        expect([400, 401, 403, 404], `${spelled}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`).toContain(answer.status);
      }
    }
    // a public route with a letter encoded is refused like any other path
    expect((await send(port, '/api/blade-auth/oauth/%63aptcha')).status).toBe(400);
  });

  it("a letter percent-encoded in the path is refused before anything else, in the caller's language", async () => {
    // encoded twice, the first segment would otherwise be a page of the built client (200)
    expect((await send(port, '/%2561pi/schemas')).status).toBe(400);
    const zh = await send(port, '/%61pi/schemas');
    expect(zh.status).toBe(400);
    expect(zh.body).toMatchObject({ code: 400, success: false, data: null });
    expect(zh.body.msg).toContain('%61');
    const en = await send(port, '/api/construct/%70roject/list', clerk, 'GET', 'en');
    expect(en.status).toBe(400);
    expect(en.body.msg).toMatch(/percent-encod/i);
  });

  it('a remove spelled with an encoded letter removes nothing (the delete audit reads the path as sent)', async () => {
    const admin = await server.token();
    const { id } = await project(client(server, admin));
    const answer = await send(port, `/api/construct/project/%72emove?ids=${id}`, admin, 'POST');
    expect(answer.status).toBe(400);
    const [row] = await server.db.query<{ is_deleted: number }>(`SELECT is_deleted FROM construct_project WHERE id = $1`, [id]);
    expect(row.is_deleted).toBe(0);
  });

  it('a path with non-ASCII text percent-encoded (UTF-8) is not refused for it', async () => {
    const answer = await send(port, `/api/construct/%E9%A1%B9%E7%9B%AE/list`, await server.token());
    expect(answer.status).toBe(404);
  });
});
