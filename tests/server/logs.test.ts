// The logs (/api/blade-log/{usual|api|error}): what is kept of API calls, errors and audited events,
// that no secret is ever kept, who may read them, and that old rows go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHash } from '../../src/server/security/passwords.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const KINDS = ['usual', 'api', 'error'] as const;

describe.each(databaseKinds())('logs on %s', (kind) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startServer(kind);
    // a route with a bug, standing for any unexpected failure of the server
    server.app.get('/api/test-only/broken', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'amount')");
    });
    admin = client(server, await server.token());
  });
  afterAll(() => server?.dispose());

  const login = (username: string, password: string, tenantId = '000000') =>
    server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      query: { tenantId, username, password: clientHash(password), grant_type: 'password', scope: 'all' },
      headers: { authorization: SABER, 'tenant-id': tenantId, 'captcha-code': 'ab12', 'user-agent': 'logs-test/1.0' },
    });

  /** Every stored log row of every kind, as text. */
  async function everyLogText(): Promise<string> {
    await server.logs.flush();
    const rows = await Promise.all(
      ['blade_log_api', 'blade_log_usual', 'blade_log_error'].map((t) => server.db.query(`SELECT * FROM ${t}`)),
    );
    return JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
  }

  async function list(kind: (typeof KINDS)[number], query: Record<string, string> = {}, api = admin) {
    await server.logs.flush();
    return api.get(`/api/blade-log/${kind}/list`, { size: '100', ...query });
  }

  it('keeps writes in the API log with masked secrets: a login and a user saved with a password', async () => {
    const password = 'S3cret-pass-2026';
    expect((await login('admin', 'admin')).statusCode).toBe(200);
    expect((await login('admin', password)).statusCode).toBe(400);
    const saved = await admin.post('/api/blade-system/user/save', {
      account: 'logtest',
      password,
      name: '日志',
      realName: '日志测试',
      roleId: (await server.db.query(`SELECT id::text AS id FROM blade_role WHERE role_alias = 'project_clerk'`))[0].id,
      status: 1,
    });
    expect(saved.body.code).toBe(200);
    await admin.post('/api/blade-system/user/update-password', undefined, {
      oldPassword: clientHash(password),
      newPassword: clientHash(password),
      newPassword1: clientHash(password),
    });

    const text = await everyLogText();
    for (const secret of [password, clientHash(password), clientHash('admin'), 'ab12']) expect(text).not.toContain(secret);

    const logins = (await list('api', { requestUri: '/api/blade-auth/oauth/token' })).body.data.records;
    expect(logins.length).toBeGreaterThanOrEqual(2);
    const refused = logins.find((r: any) => r.status === 400);
    expect(refused).toMatchObject({ method: 'POST', tenantId: '000000', remoteIp: '127.0.0.1', userAgent: 'logs-test/1.0' });
    expect(JSON.parse(refused.params).query).toMatchObject({ username: 'admin', password: '******', grant_type: 'password' });
    expect(refused.duration).toBeGreaterThanOrEqual(0);

    const saves = (await list('api', { requestUri: '/api/blade-system/user/save' })).body.data.records;
    expect(saves).toHaveLength(1);
    expect(saves[0]).toMatchObject({ status: 200, createUser: '1123598821738675201' });
    expect(JSON.parse(saves[0].params).body).toMatchObject({ account: 'logtest', password: '******' });
    const detail = await admin.get('/api/blade-log/api/detail', { id: saves[0].id });
    expect(detail.body.data.params).toContain('logtest');
    expect(detail.body.data.params).not.toContain(password);
  });

  it('keeps reads out of the API log unless the tenant asks for them', async () => {
    await admin.get('/api/blade-system/param/list', { paramKey: 'reads-probe' });
    expect((await list('api', { requestUri: '/api/blade-system/param/list' })).body.data.total).toBe(0);
  });

  it('refuses anonymous callers and users without the log menus', async () => {
    const clerkToken = await server.token({
      user_id: (await server.db.query(`SELECT id::text AS id FROM blade_user WHERE account = 'clerk'`))[0].id,
      role_name: 'project_clerk',
      role_id: (await server.db.query(`SELECT id::text AS id FROM blade_role WHERE role_alias = 'project_clerk'`))[0].id,
    });
    const clerk = client(server, clerkToken);
    const anonymous = client(server);
    const [someRow] = (await list('api')).body.data.records;
    for (const kind of KINDS) {
      expect((await anonymous.get(`/api/blade-log/${kind}/list`)).status).toBe(401);
      expect((await anonymous.get(`/api/blade-log/${kind}/detail`, { id: someRow.id })).status).toBe(401);
      const listed = await clerk.get(`/api/blade-log/${kind}/list`);
      expect(listed.status).toBe(403);
      expect(listed.body.success).toBe(false);
      expect((await clerk.get(`/api/blade-log/${kind}/detail`, { id: someRow.id })).status).toBe(403);
      expect((await clerk.get(`/api/blade-log/${kind}/export`)).status).toBe(403);
    }
    // no one writes a log through the API, the administrator included, and none is described
    for (const kind of KINDS) expect((await admin.post(`/api/blade-log/${kind}/remove`, undefined, { ids: someRow.id })).status).toBe(404);
    const paths = Object.keys(JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body).paths).filter((p) =>
      p.startsWith('/api/blade-log/'),
    );
    expect(paths.sort()).toEqual(
      KINDS.flatMap((k) => ['detail', 'export', 'list', 'options'].map((a) => `/api/blade-log/${k}/${a}`)).sort(),
    );
    expect((await admin.get('/api/blade-log/api/detail', { id: someRow.id })).body.code).toBe(200);
  });

  it("shows a tenant's logs to that tenant only", async () => {
    const other = await server.newTenant('日志租户');
    const tenantAdmin = client(server, other.token);
    // the tenant's own activity: a failed login and a removed parameter
    await login('admin', 'wrong-password', other.tenantId);
    const param = await tenantAdmin.post('/api/blade-system/param/save', {
      paramName: '租户参数',
      paramKey: 'tenant.logProbe',
      paramValue: '1',
    });
    expect(param.body.code).toBe(200);
    expect((await tenantAdmin.post('/api/blade-system/param/remove', undefined, { ids: param.body.data.id })).body.code).toBe(200);
    await server.logs.flush();

    const stored = await server.db.query(`SELECT id::text AS id FROM blade_log_usual WHERE tenant_id = $1`, [other.tenantId]);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const kind of KINDS) {
      const platform = (await list(kind)).body.data.records;
      expect(platform.every((r: any) => r.tenantId === '000000')).toBe(true);
    }
    expect((await admin.get('/api/blade-log/usual/detail', { id: stored[0].id })).status).toBe(404);

    // the tenant's administrator (granted every menu: the tenant has no package) sees the tenant's
    // rows and nothing of the platform's
    const own = await list('usual', {}, tenantAdmin);
    expect(own.body.data.total).toBeGreaterThanOrEqual(2);
    expect(own.body.data.records.every((r: any) => r.tenantId === other.tenantId)).toBe(true);
    expect(own.body.data.records.map((r: any) => r.event)).toEqual(expect.arrayContaining(['loginFailed', 'delete']));
    const [platformRow] = (await list('usual')).body.data.records;
    expect((await tenantAdmin.get('/api/blade-log/usual/detail', { id: platformRow.id })).status).toBe(404);
    expect((await list('api', { requestUri: '/api/blade-system/user/save' }, tenantAdmin)).body.data.total).toBe(0);
  });

  it('keeps an unexpected error with its stack; the client is told only a generic message and the id', async () => {
    const res = await admin.get('/api/test-only/broken');
    expect(res.status).toBe(500);
    const errorId = res.body.data.errorId as string;
    expect(errorId).toMatch(/^\d+$/);
    expect(res.body.msg).toBe(`服务器异常,请将错误编号 ${errorId} 告知管理员`);
    expect(res.raw.toString()).not.toContain('amount');
    expect(res.raw.toString()).not.toContain('at ');
    const en = await client(server, await server.token(), 'en').get('/api/test-only/broken');
    expect(en.body.msg).toBe(`Internal server error; please quote error number ${en.body.data.errorId} to your administrator`);

    await server.logs.flush();
    const detail = await admin.get('/api/blade-log/error/detail', { id: errorId });
    expect(detail.body.data).toMatchObject({
      source: 'server',
      exceptionName: 'TypeError',
      method: 'GET',
      requestUri: '/api/test-only/broken',
      createUser: '1123598821738675201',
    });
    expect(detail.body.data.message).toContain("reading 'amount'");
    expect(detail.body.data.stackTrace).toMatch(/TypeError[\s\S]*\n\s+at /);
  });

  it('adopts the error logs the browser uploads', async () => {
    const res = await admin.post('/api/blade-auth/oauth/client-logs', [
      {
        type: 'error',
        message: 'ReferenceError: total is not defined',
        stack: 'at Grid (grid.tsx:42)',
        url: '/cost-material/materialTotalDemand',
        time: '2026-11-23 09:00:00',
        info: { token: 'abc', component: 'Grid' },
      },
    ]);
    expect(res.body).toMatchObject({ code: 200, data: { stored: 1 } });
    const [row] = (await list('error', { source: 'client' })).body.data.records;
    expect(row).toMatchObject({
      source: 'client',
      exceptionName: 'error',
      message: 'ReferenceError: total is not defined',
      requestUri: '/cost-material/materialTotalDemand',
      clientTime: '2026-11-23 09:00:00',
    });
    const detail = await admin.get('/api/blade-log/error/detail', { id: row.id });
    expect(JSON.parse(detail.body.data.params)).toEqual({ token: '******', component: 'Grid' });
  });

  it('audits a failed login, a lock, a delete, an unlock and a grant', async () => {
    const roleId = (await server.db.query(`SELECT id::text AS id FROM blade_role WHERE role_alias = 'project_clerk'`))[0].id;
    const user = await admin.post('/api/blade-system/user/save', {
      account: 'audited',
      password: 'right-pass',
      name: '审计',
      realName: '审计测试',
      roleId,
      status: 1,
    });
    for (let i = 0; i < 5; i++) await login('audited', 'wrong-pass');
    const failed = (await list('usual', { event: 'loginFailed', account: 'audited' })).body.data.records;
    expect(failed).toHaveLength(5);
    expect(failed[0]).toMatchObject({ event: 'loginFailed', account: 'audited', tenantId: '000000', remoteIp: '127.0.0.1' });
    expect(JSON.parse(failed[0].detail)).toMatchObject({ reason: 'badCredentials' });
    expect((await list('usual', { event: 'lock', account: 'audited' })).body.data.total).toBe(1);

    await admin.post('/api/blade-system/user/unlock', undefined, { userIds: user.body.data.id });
    const [unlocked] = (await list('usual', { event: 'unlock' })).body.data.records;
    expect(unlocked).toMatchObject({ subject: `user ${user.body.data.id}`, createUser: '1123598821738675201' });

    const param = await admin.post('/api/blade-system/param/save', {
      paramName: '审计删除',
      paramKey: 'audit.removeProbe',
      paramValue: '1',
    });
    expect(param.body.code).toBe(200);
    await admin.post('/api/blade-system/param/remove', undefined, { ids: param.body.data.id });
    const [removed] = (await list('usual', { event: 'delete' })).body.data.records;
    expect(removed).toMatchObject({ event: 'delete', subject: `param ${param.body.data.id}`, createUser: '1123598821738675201' });

    expect((await admin.post('/api/blade-system/user/grant', undefined, { userIds: user.body.data.id, roleIds: roleId })).body.code).toBe(
      200,
    );
    const [granted] = (await list('usual', { event: 'grant' })).body.data.records;
    expect(granted).toMatchObject({ subject: `user ${user.body.data.id}` });
    expect((await list('usual', { event: 'login' })).body.data.total).toBeGreaterThanOrEqual(1);
  });

  it('removes rows older than the retention, in batches, per tenant', async () => {
    const other = await server.newTenant('保留租户');
    await login('admin', 'wrong-password', other.tenantId);
    await server.logs.flush();
    // 2,500 rows of the platform 100 days old, and the tenant's row as old: the tenant keeps 200 days
    await server.db.query(
      `INSERT INTO blade_log_api (id, tenant_id, create_time, update_time, method, request_uri, status, duration)
       SELECT 9000000000 + g, '000000', now() - interval '100 days', now() - interval '100 days', 'POST', '/api/old', 200, 1 FROM generate_series(1, 2500) g`,
    );
    await server.db.query(`UPDATE blade_log_usual SET create_time = now() - interval '100 days' WHERE tenant_id = $1`, [other.tenantId]);
    await client(server, other.token).post('/api/blade-system/param/save', {
      paramName: '日志保留天数',
      paramKey: 'log.retentionDays',
      paramValue: '200',
    });
    await server.logs.flush();
    const before = await server.db.query(`SELECT count(*)::int AS n FROM blade_log_api WHERE tenant_id = '000000'`);

    const removed = await server.logs.purge();
    expect(removed).toBe(2500);
    const [{ n }] = await server.db.query(`SELECT count(*)::int AS n FROM blade_log_api WHERE tenant_id = '000000'`);
    expect(n).toBe(before[0].n - 2500);
    expect((await server.db.query(`SELECT 1 FROM blade_log_usual WHERE tenant_id = $1`, [other.tenantId])).length).toBeGreaterThanOrEqual(
      1,
    );

    // the platform's retention is a parameter too: a 1-day retention, ten days on, removes the rest
    const [param] = await server.db.query(
      `SELECT id::text AS id FROM blade_param WHERE param_key = 'log.retentionDays' AND tenant_id = '000000'`,
    );
    expect(
      (
        await admin.post('/api/blade-system/param/update', {
          id: param.id,
          paramName: '日志保留天数',
          paramKey: 'log.retentionDays',
          paramValue: '1',
        })
      ).body.code,
    ).toBe(200);
    await server.logs.flush();
    await server.logs.purge(new Date(Date.now() + 10 * 86_400_000));
    expect((await server.db.query(`SELECT count(*)::int AS n FROM blade_log_api WHERE tenant_id = '000000'`))[0].n).toBe(0);
    expect((await server.db.query(`SELECT 1 FROM blade_log_usual WHERE tenant_id = $1`, [other.tenantId])).length).toBeGreaterThanOrEqual(
      1,
    );
  });
});
