// Issue #18.3 and #18.4: an access token stops working at once when its user logs out, is
// disabled, removed, changes or is given a new password, or gets other roles or departments — not
// an hour later when it expires. A login right after a logout (the same second) works. Only the
// platform administrator may empty every process's permission caches. And a user who ever signed
// in (the logs name them) can be removed: logs record history, they hold nothing back.
// The same on three processes behind nginx: tests/server/nginx.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHash } from '../../src/server/security/passwords.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

describe.each(databaseKinds())('ending sessions on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let administratorRole: string;
  let clerkRole: string;
  let otherRole: string;
  let deptId: string;
  let otherDept: string;
  let seq = 0;

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
    const role = async (alias: string) =>
      (
        await server.db.query<{ id: string }>(
          `SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = $1 AND is_deleted = 0`,
          [alias],
        )
      )[0].id;
    administratorRole = await role('administrator');
    clerkRole = await role('project_clerk');
    otherRole = (
      await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: '会话测试角色', roleAlias: 'session_test', sort: 9 })
    ).body.data.id;
    const depts = await server.db.query<{ id: string }>(
      `SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 2`,
    );
    [deptId, otherDept] = depts.map((d) => d.id);
  });
  afterAll(() => server?.dispose());

  /** A new user of the platform tenant (its own account, so login limits per account never bite). */
  async function newUser(roleId = clerkRole): Promise<{ id: string; account: string }> {
    const account = `sess${++seq}${Math.random().toString(36).slice(2, 6)}`;
    const res = await admin.post('/api/blade-system/user/save', {
      account,
      password: 'secret1',
      name: account,
      realName: account,
      roleId,
      deptId,
      status: 1,
    });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.data.id, account };
  }

  async function login(account: string, password = 'secret1'): Promise<{ access_token: string; refresh_token: string; user_id: string }> {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      query: {
        tenantId: '000000',
        username: account,
        password: clientHash(password),
        grant_type: 'password',
        scope: 'all',
        type: 'account',
      },
      headers: { authorization: SABER, 'tenant-id': '000000' },
    });
    const body = JSON.parse(res.body);
    expect(body.access_token, res.body).toBeTruthy();
    return body;
  }

  /** The status a token gets on a call that needs nothing but a valid token. */
  const accepted = async (token: string) => (await client(server, token).get('/api/blade-auth/oauth/user-info')).status;

  it('logout ends the access token at once, and a login right after it works (the same second)', async () => {
    const user = await newUser();
    const first = await login(user.account);
    expect(await accepted(first.access_token)).toBe(200);
    const out = await server.app.inject({
      method: 'GET',
      url: '/api/blade-auth/oauth/logout',
      headers: { 'blade-auth': `bearer ${first.access_token}` },
    });
    expect(JSON.parse(out.body)).toEqual({ success: 'true', msg: 'success' });
    expect(await accepted(first.access_token)).toBe(401);
    expect((await client(server, first.access_token, 'en').get('/api/construct/project/list')).body.msg).toBe('Unauthorized request');
    // log in, out and in again without pause: each new token works, each logged-out one does not
    let previous = first.access_token;
    for (let i = 0; i < 3; i++) {
      const again = await login(user.account);
      expect(await accepted(again.access_token)).toBe(200);
      expect(await accepted(previous)).toBe(401);
      await server.app.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/logout',
        headers: { 'blade-auth': `bearer ${again.access_token}` },
      });
      expect(await accepted(again.access_token)).toBe(401);
      previous = again.access_token;
    }
    expect(await accepted((await login(user.account)).access_token)).toBe(200);
  });

  it('a disabled administrator can no longer create an administrator with the token it had', async () => {
    const boss = await newUser(administratorRole);
    const token = (await login(boss.account)).access_token;
    const mine = client(server, token);
    expect((await mine.get('/api/blade-system/user/list')).status).toBe(200);
    expect((await admin.post('/api/blade-system/user/updatePart', { id: boss.id, status: 0 })).body.code).toBe(200);
    const attempt = await mine.post('/api/blade-system/user/save', {
      account: `evil${seq}`,
      password: 'secret1',
      name: 'evil',
      realName: 'evil',
      roleId: administratorRole,
      status: 1,
    });
    expect(attempt.status).toBe(401);
    expect(await server.db.query(`SELECT 1 FROM blade_user WHERE account = $1`, [`evil${seq}`])).toHaveLength(0);
    // enabled again, the old token stays void; a new login works
    expect((await admin.post('/api/blade-system/user/updatePart', { id: boss.id, status: 1 })).body.code).toBe(200);
    expect(await accepted(token)).toBe(401);
    expect(await accepted((await login(boss.account)).access_token)).toBe(200);
  });

  it('disabling through a full update ends the session too', async () => {
    const user = await newUser();
    const token = (await login(user.account)).access_token;
    const stored = (await admin.get('/api/blade-system/user/detail', { id: user.id })).body.data;
    expect((await admin.post('/api/blade-system/user/update', { ...stored, status: 0 })).body.code).toBe(200);
    expect(await accepted(token)).toBe(401);
  });

  it('a role change (grant or edit) and a department change end the session', async () => {
    const user = await newUser();
    const byGrant = (await login(user.account)).access_token;
    expect((await admin.post('/api/blade-system/user/grant', undefined, { userIds: user.id, roleIds: otherRole })).body.code).toBe(200);
    expect(await accepted(byGrant)).toBe(401);
    const byEdit = (await login(user.account)).access_token;
    expect((await admin.post('/api/blade-system/user/updatePart', { id: user.id, roleId: `${otherRole},${clerkRole}` })).body.code).toBe(
      200,
    );
    expect(await accepted(byEdit)).toBe(401);
    const byDept = (await login(user.account)).access_token;
    expect((await admin.post('/api/blade-system/user/updatePart', { id: user.id, deptId: otherDept })).body.code).toBe(200);
    expect(await accepted(byDept)).toBe(401);
  });

  it('a change that grants nothing new keeps the session: the same roles in another order, the profile', async () => {
    const user = await newUser();
    expect((await admin.post('/api/blade-system/user/updatePart', { id: user.id, roleId: `${clerkRole},${otherRole}` })).body.code).toBe(
      200,
    );
    const token = (await login(user.account)).access_token;
    expect(
      (await admin.post('/api/blade-system/user/updatePart', { id: user.id, roleId: `${otherRole},${clerkRole}`, realName: '改名' })).body
        .code,
    ).toBe(200);
    expect((await client(server, token).post('/api/blade-system/user/update-info', { phone: '13800000000' })).body.code).toBe(200);
    expect(await accepted(token)).toBe(200);
  });

  it('a password change ends every session of the user; so does a reset', async () => {
    const user = await newUser();
    const one = (await login(user.account)).access_token;
    const two = (await login(user.account)).access_token;
    const changed = await client(server, one).post('/api/blade-system/user/update-password', undefined, {
      oldPassword: clientHash('secret1'),
      newPassword: clientHash('secret2'),
      newPassword1: clientHash('secret2'),
    });
    expect(changed.body.code).toBe(200);
    expect(await accepted(one)).toBe(401);
    expect(await accepted(two)).toBe(401);
    const three = (await login(user.account, 'secret2')).access_token;
    expect(await accepted(three)).toBe(200);
    expect((await admin.post('/api/blade-system/user/reset-password', undefined, { userIds: user.id })).body.code).toBe(200);
    expect(await accepted(three)).toBe(401);
  });

  it('a reused refresh token ends the access tokens as well', async () => {
    const user = await newUser();
    const session = await login(user.account);
    const refresh = (token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/token',
        query: { grant_type: 'refresh_token', refresh_token: token, tenantId: '000000' },
        headers: { authorization: SABER, 'tenant-id': '000000' },
      });
    const next = JSON.parse((await refresh(session.refresh_token)).body);
    expect(await accepted(next.access_token)).toBe(200);
    expect((await refresh(session.refresh_token)).statusCode).toBe(400);
    expect(await accepted(next.access_token)).toBe(401);
  });

  it('a user who signed in and worked can be removed: every log names them and holds nothing back; the token ends', async () => {
    const user = await newUser();
    const token = (await login(user.account)).access_token;
    const mine = client(server, token);
    expect((await mine.get('/api/blade-auth/oauth/user-info')).status).toBe(200);
    // a write of theirs (the API log) and an error log uploaded from their browser
    const uploaded = await mine.post('/api/blade-auth/oauth/client-logs', [
      { type: 'error', message: 'x', stack: '', url: '/wel/index', time: '2026-11-22 10:00:00', info: '' },
    ]);
    expect(uploaded.body.code).toBe(200);
    await server.logs.flush();
    // every entity the server alone writes (the logs) that refers to users has a row naming this one
    const logRefs = Object.values(server.catalog.entities)
      .filter((m) => m.readOnly && !m.rowsOf)
      .flatMap((m) => m.fields.filter((f) => f.ref?.entity === 'user').map((f) => ({ log: m, column: f.column })));
    expect(logRefs.length).toBeGreaterThanOrEqual(3);
    const naming = async () =>
      Promise.all(
        logRefs.map(
          async ({ log, column }) =>
            (await server.db.query(`SELECT count(*)::int AS n FROM ${log.table} WHERE ${column} = $1`, [user.id]))[0].n as number,
        ),
      );
    const before = await naming();
    expect(
      before.every((n) => n > 0),
      JSON.stringify(logRefs.map((r, i) => [r.log.key, before[i]])),
    ).toBe(true);

    const removed = await admin.post('/api/blade-system/user/remove', undefined, { ids: user.id });
    expect(removed.body, JSON.stringify(removed.body)).toMatchObject({ code: 200, success: true });
    expect(await accepted(token)).toBe(401);
    const [row] = await server.db.query<{ is_deleted: number }>(`SELECT is_deleted FROM blade_user WHERE id = $1`, [user.id]);
    expect(row.is_deleted).toBe(1);
    // history stays as it was written
    await server.logs.flush();
    const after = await naming();
    after.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(before[i]));
  });

  it("only the platform administrator empties every process's permission caches", async () => {
    const clerk = await newUser();
    const refused = await client(server, (await login(clerk.account)).access_token).get('/api/blade-auth/oauth/clear-cache');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 403, success: false, msg: '请求被拒绝' });
    const tenant = await server.newTenant('清缓存测试公司');
    expect((await client(server, tenant.token, 'en').get('/api/blade-auth/oauth/clear-cache')).body).toMatchObject({
      code: 403,
      msg: 'Request denied',
    });
    expect((await admin.get('/api/blade-auth/oauth/clear-cache')).status).toBe(200);
  });
});
