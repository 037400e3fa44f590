// The security headers are on every answer: the client's page and files (when built), the API's
// answers, its refusals and its errors. And no API route but sign-in's answers without a token:
// logs, reports and diagrams included (the platform's /log/** was open to anyone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, RESOURCE_POLICY } from '../../src/server/http/security-headers.ts';
import { AUTH_PUBLIC_PATHS } from '../../src/server/modules/auth/routes.ts';
import { ORGANIZATION_PUBLIC_PATHS } from '../../src/server/modules/system/organization.ts';
import { USER_PUBLIC_PATHS } from '../../src/server/modules/system/user.ts';
import { apiRoutes, databaseKinds, startServer, type TestServer } from './harness.ts';

const PUBLIC = new Set(['/api/openapi.json', '/api/health', ...AUTH_PUBLIC_PATHS, ...USER_PUBLIC_PATHS, ...ORGANIZATION_PUBLIC_PATHS]);

describe.each(databaseKinds())('security headers on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(() => server?.dispose());

  const get = async (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

  it('are on pages, files, API answers, refusals and errors', async () => {
    const token = await server.token();
    const answers = {
      page: await get('/'),
      clientRoute: await get('/construct/project'),
      file: await get('/assets/missing.js'),
      health: await get('/api/health'),
      list: await get('/api/construct/project/list', { 'blade-auth': `bearer ${token}` }),
      unauthorised: await get('/api/construct/project/list'),
      badRequest: await get('/api/construct/project/detail?id=abc', { 'blade-auth': `bearer ${token}` }),
      unknownRoute: await get('/api/nothing-here'),
    };
    // the app's pages take the page's policy; JSON (answers, refusals, errors) one that allows nothing
    const pages = new Set(['page', 'clientRoute']);
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers['content-security-policy'], what).toBe(pages.has(what) ? CONTENT_SECURITY_POLICY : RESOURCE_POLICY);
      expect(res.headers['x-content-type-options'], what).toBe('nosniff');
      expect(res.headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], what).toBe(pages.has(what) ? 'SAMEORIGIN' : undefined);
    }
    expect(answers.list.statusCode).toBe(200);
    expect(answers.unauthorised.statusCode).toBe(401);
    expect(answers.badRequest.statusCode).toBe(400);
  });

  it('let scripts, stylesheets and JSON opened on their own load and run nothing', async () => {
    expect(RESOURCE_POLICY).toBe("default-src 'none'; frame-ancestors 'self'");
    const page = await get('/');
    const assets = [...page.body.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const res = await get(asset);
      expect(res.statusCode, asset).toBe(200);
      expect(res.headers['content-security-policy'], asset).toBe(RESOURCE_POLICY);
    }
  });

  it('let no other site frame the app and allow no inline or foreign script', () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['frame-ancestors']).toEqual(["'self'"]);
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
    expect(directives['script-src'].every((s: string) => s.startsWith("'"))).toBe(true);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
  });

  it('a repeated query parameter is refused with the envelope, not a server error', async () => {
    const token = await server.token();
    const res = await get('/api/construct/project/list?name=a&name=b', { 'blade-auth': `bearer ${token}` });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 400, success: false, msg: '参数 name 只能给出一次' });
    const huge = await get('/api/construct/project/detail?id=9223372036854775808', {
      'blade-auth': `bearer ${token}`,
      'accept-language': 'en',
    });
    expect(huge.statusCode).toBe(400);
    expect(JSON.parse(huge.body).msg).toBe('Parameter id is not a valid id: 9223372036854775808');
  });

  it('every API route but sign-in, registration, tenant info and health answers 401 without a token', async () => {
    const routes = apiRoutes(server);
    // the generic routes of the document types are among them (they answer behind one catch-all, from a table)
    expect(routes.filter(([, url]) => url.startsWith('/api/construct/')).length).toBeGreaterThan(500);
    expect(routes.filter(([, url]) => url.startsWith('/api/blade-log/') || url.startsWith('/api/blade-report/')).length).toBeGreaterThan(
      10,
    );
    const open: string[] = [];
    for (const [method, route] of routes) {
      if (PUBLIC.has(route)) continue;
      const res = await server.app.inject({ method: method as 'GET', url: route.replace(/\*$/, 'x.txt').replace(/:(\w+)/g, '1') });
      if (res.statusCode !== 401) open.push(`${method} ${route}: ${res.statusCode}`);
    }
    expect(open).toEqual([]);
  });
});
