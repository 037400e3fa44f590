// A password someone else knows is changed before anything else: a new tenant's admin, an account
// reset by an administrator, or anyone signing in with the tenant's initial password gets a token
// (must_change_password: true) that opens only their own info, the password change and sign-out;
// every other call answers 403 in the caller's language. The change ends the duty, and the demo
// accounts with their own passwords sign in as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHash } from '../../src/server/security/passwords.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const FORCED = '请先修改初始密码,修改后才能继续使用系统';

describe.each(databaseKinds())('the initial password on %s', (kind) => {
  let server: TestServer;
  let admin: Api;

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
  });
  afterAll(() => server?.dispose());

  async function token(query: Record<string, string>, tenantId = '000000') {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      query: { tenantId, scope: 'all', ...query },
      headers: { authorization: SABER, 'tenant-id': tenantId },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }
  const login = (username: string, password: string, tenantId = '000000') =>
    token({ username, password: clientHash(password), grant_type: 'password' }, tenantId);

  /** A new account's roles and department: the demo clerk's. */
  async function likeClerk() {
    const [clerk] = await server.db.query(
      `SELECT role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = '000000' AND account = 'clerk'`,
    );
    return { ...clerk, userType: '1', status: 1 };
  }

  const change = (api: Api, oldPassword: string, newPassword: string) =>
    api.post('/api/blade-system/user/update-password', undefined, {
      oldPassword: clientHash(oldPassword),
      newPassword: clientHash(newPassword),
      newPassword1: clientHash(newPassword),
    });

  it("makes a new tenant's admin change the initial password before anything else", async () => {
    const tenant = await server.newTenant('初始密码公司');
    const first = await login('admin', '123456', tenant.tenantId);
    expect(first.status).toBe(200);
    expect(first.body.must_change_password).toBe(true);
    const me = client(server, first.body.access_token);

    // what the change needs answers; everything else is refused, in the caller's language
    expect((await me.get('/api/blade-system/user/info')).body.data.account).toBe('admin');
    const routes = await me.get('/api/blade-system/menu/routes');
    expect(routes.status).toBe(403);
    expect(routes.body.msg).toBe(FORCED);
    const write = await me.post('/api/blade-system/dept/submit', {
      parentId: '0',
      deptName: '偷建部门',
      fullName: '偷建部门',
      deptCategory: '1',
      sort: 1,
    });
    expect(write.status).toBe(403);
    expect((await client(server, first.body.access_token, 'en').get('/api/blade-system/user/page')).body.msg).toBe(
      'Change your initial password first; the system opens once it is changed',
    );
    expect(await server.db.query(`SELECT 1 FROM blade_dept WHERE tenant_id = $1 AND dept_name = '偷建部门'`, [tenant.tenantId])).toEqual(
      [],
    );
    // a refreshed token keeps the duty
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, tenant.tenantId);
    expect(refreshed.body.must_change_password).toBe(true);
    const again = client(server, refreshed.body.access_token);
    expect((await again.get('/api/blade-system/menu/routes')).status).toBe(403);

    // the same password again is no change
    expect((await change(again, '123456', '123456')).body.msg).toBe('新密码不能与原密码相同');
    expect((await change(again, '123456', 'Company#2026')).body.code).toBe(200);
    // the change ends every session; the new password signs in to normal work
    expect((await again.get('/api/blade-system/user/info')).status).toBe(401);
    const changed = await login('admin', 'Company#2026', tenant.tenantId);
    expect(changed.body.must_change_password).toBe(false);
    const free = client(server, changed.body.access_token);
    expect((await free.get('/api/blade-system/menu/routes')).status).toBe(200);
    expect(
      (
        await free.post('/api/blade-system/dept/submit', {
          parentId: '0',
          deptName: '工程部',
          fullName: '工程部',
          deptCategory: '1',
          sort: 2,
        })
      ).body.code,
    ).toBe(200);
  });

  it('makes an account reset by an administrator change the password, and never back to the initial one', async () => {
    const created = await admin.post('/api/blade-system/user/submit', {
      ...(await likeClerk()),
      account: 'reset_li',
      password: 'own-pass-1',
      name: '李四',
      realName: '李四',
    });
    expect(created.body.code).toBe(200);
    const own = await login('reset_li', 'own-pass-1');
    expect(own.body.must_change_password).toBe(false);
    // the initial password is no new password
    expect((await change(client(server, own.body.access_token), 'own-pass-1', '123456')).body.msg).toBe('新密码不能是初始密码');

    expect((await admin.post('/api/blade-system/user/reset-password', undefined, { userIds: created.body.data.id })).body.code).toBe(200);
    const reset = await login('reset_li', '123456');
    expect(reset.body.must_change_password).toBe(true);
    expect((await client(server, reset.body.access_token).get('/api/blade-system/menu/buttons')).status).toBe(403);
    expect((await change(client(server, reset.body.access_token), '123456', 'own-pass-2')).body.code).toBe(200);
    expect((await login('reset_li', 'own-pass-2')).body.must_change_password).toBe(false);
  });

  it('makes anyone who signs in with the initial password change it, also on an installation from before the rule', async () => {
    const created = await admin.post('/api/blade-system/user/submit', {
      ...(await likeClerk()),
      account: 'init_wang',
      password: '123456',
      name: '王五',
      realName: '王五',
    });
    expect(created.body.code).toBe(200);
    // as stored before the rule: no duty recorded
    await server.db.query(`UPDATE zs_credential SET must_change = false WHERE subject = 'user' AND subject_id = $1`, [
      created.body.data.id,
    ]);
    const first = await login('init_wang', '123456');
    expect(first.body.must_change_password).toBe(true);
    expect((await client(server, first.body.access_token).get('/api/blade-system/menu/routes')).body.msg).toBe(FORCED);
  });

  it('lets the demo administrator and users with their own passwords sign in to normal work', async () => {
    for (const account of ['admin', 'clerk']) {
      const res = await login(account, account);
      expect(res.body.must_change_password).toBe(false);
      expect((await client(server, res.body.access_token).get('/api/blade-system/menu/routes')).status).toBe(200);
    }
  });
});
