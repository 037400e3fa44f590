// Issue #18.4: a user who ever signed in (the logs name them) can be removed: logs record history,
// they hold nothing back.
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
    const role = async (alias: string) => (await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = $1 AND is_deleted = 0`, [alias]))[0].id;
    administratorRole = await role('administrator');
    clerkRole = await role('project_clerk');
    otherRole = (await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: '会话测试角色', roleAlias: 'session_test', sort: 9 })).body.data.id;
    const depts = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 2`);
    [deptId, otherDept] = depts.map((d) => d.id);
  });
  afterAll(() => server?.dispose());

  /** A new user of the platform tenant (its own account, so login limits per account never bite). */
  async function newUser(roleId = clerkRole): Promise<{ id: string; account: string }> {
    const account = `sess${++seq}${Math.random().toString(36).slice(2, 6)}`;
    const res = await admin.post('/api/blade-system/user/save', { account, password: 'secret1', name: account, realName: account, roleId, deptId, status: 1 });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return { id: res.body.data.id, account };
  }

  async function login(account: string, password = 'secret1'): Promise<{ access_token: string; refresh_token: string; user_id: string }> {
    const res = await server.app.inject({
      method: 'POST', url: '/api/blade-auth/oauth/token',
      query: { tenantId: '000000', username: account, password: clientHash(password), grant_type: 'password', scope: 'all', type: 'account' },
      headers: { authorization: SABER, 'tenant-id': '000000' },
    });
    const body = JSON.parse(res.body);
    expect(body.access_token, res.body).toBeTruthy();
    return body;
  }

  /** The status a token gets on a call that needs nothing but a valid token. */
  const accepted = async (token: string) => (await client(server, token).get('/api/blade-auth/oauth/user-info')).status;

  it('a user who signed in and worked can be removed: every log names them and holds nothing back', async () => {
    const user = await newUser();
    const token = (await login(user.account)).access_token;
    const mine = client(server, token);
    expect((await mine.get('/api/blade-auth/oauth/user-info')).status).toBe(200);
    // a write of theirs (the API log) and an error log uploaded from their browser
    const uploaded = await mine.post('/api/blade-auth/oauth/client-logs', [{ type: 'error', message: 'x', stack: '', url: '/wel/index', time: '2026-11-22 10:00:00', info: '' }]);
    expect(uploaded.body.code).toBe(200);
    await server.logs.flush();
    // every entity the server alone writes (the logs) that refers to users has a row naming this one
    const logRefs = Object.values(server.catalog.entities)
      .filter((m) => m.readOnly && !m.rowsOf)
      .flatMap((m) => m.fields.filter((f) => f.ref?.entity === 'user').map((f) => ({ log: m, column: f.column })));
    expect(logRefs.length).toBeGreaterThanOrEqual(3);
    const naming = async () => Promise.all(logRefs.map(async ({ log, column }) => (await server.db.query(`SELECT count(*)::int AS n FROM ${log.table} WHERE ${column} = $1`, [user.id]))[0].n as number));
    const before = await naming();
    expect(before.every((n) => n > 0), JSON.stringify(logRefs.map((r, i) => [r.log.key, before[i]]))).toBe(true);

    const removed = await admin.post('/api/blade-system/user/remove', undefined, { ids: user.id });
    expect(removed.body, JSON.stringify(removed.body)).toMatchObject({ code: 200, success: true });
    const [row] = await server.db.query<{ is_deleted: number }>(`SELECT is_deleted FROM blade_user WHERE id = $1`, [user.id]);
    expect(row.is_deleted).toBe(1);
    // history stays as it was written
    await server.logs.flush();
    const after = await naming();
    after.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(before[i]));
  });

});
