import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer } from './harness.ts';

describe.each(databaseKinds())('authentication on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind);
  });
  afterAll(() => server?.dispose());

  it('refuses data without a token, with the platform message', async () => {
    const res = await client(server).get('/api/construct/project/list');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, success: false, data: null, msg: '缺失令牌,鉴权失败' });
  });

  it('refuses a malformed token', async () => {
    const res = await client(server, 'not.a.jwt').get('/api/construct/project/list');
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('请求未授权');
  });

  it('refuses an expired token', async () => {
    const expired = await server.tokens.sign({ tenant_id: '000000', user_id: '1' }, -60);
    const res = await client(server, expired).get('/api/construct/project/list');
    expect(res.status).toBe(401);
  });

  it('refuses a token signed with another key (no default secret to forge with)', async () => {
    const forged = await new SignJWT({ tenant_id: '000000', user_id: '1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('zhusuan')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('bladexisapowerfulmicroservicearchitectureupgradedandoptimizedfromacommercialproject'));
    const res = await client(server, forged).get('/api/construct/project/list');
    expect(res.status).toBe(401);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ tenant_id: '000000', user_id: '1', iss: 'zhusuan', exp: 9999999999 })).toString(
      'base64url',
    );
    const res = await client(server, `${header}.${payload}.`).get('/api/construct/project/list');
    expect(res.status).toBe(401);
  });

  it('answers in English when the caller prefers it', async () => {
    const res = await client(server, undefined, 'en').get('/api/construct/project/list');
    expect(res.body.msg).toBe('Token missing, authentication failed');
  });

  it('accepts a valid token', async () => {
    const res = await client(server, await server.token()).get('/api/construct/project/list');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, success: true, msg: '操作成功' });
  });

  it('generated a signing key on first start and keeps it in the database', async () => {
    const rows = await server.db.query(`SELECT value FROM zs_setting WHERE key = 'jwt.secret'`);
    expect(rows).toHaveLength(1);
    expect(String(rows[0].value).length).toBeGreaterThanOrEqual(43);
  });

  it('answers a health probe without a token, telling nothing about any tenant', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, success: true, data: { status: 'UP' }, msg: 'ok' });
  });

  it('publishes an OpenAPI document of every entity without a token', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe('3.1.0');
    for (const model of Object.values(server.catalog.entities)) {
      for (const route of ['list', 'detail', 'export']) expect(doc.paths[`${model.api}/${route}`], `${model.api}/${route}`).toBeDefined();
      // entities the server alone writes (logs) describe no write call
      for (const route of ['save', 'update', 'submit', 'updatePart', 'remove']) {
        expect(doc.paths[`${model.api}/${route}`], `${model.api}/${route}`)[model.readOnly ? 'toBeUndefined' : 'toBeDefined']();
      }
      expect(doc.components.schemas[model.key].properties.id).toBeDefined();
    }
    expect(doc.components.schemas.materialTotalDemand.properties.details.items.properties.designQty.type).toBe('number');
  });

  it('answers an unknown API path with the envelope', async () => {
    const res = await client(server, await server.token()).get('/api/construct/nothing/list');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 404, success: false });
  });
});
