// Three server processes on one PostgreSQL database behind Debian's nginx, configured with the
// site file deploy/nginx/zhusuan.conf (its only copy; docs/deployment.md describes it): a client
// going through nginx does not notice that different processes answer it. nginx's access log says
// which process answered each request.
// Then the caches each process keeps: a change made through one process is what another serves
// as soon as PostgreSQL has delivered the writer's signal to it (asynchronously, after the commit:
// milliseconds, more on a loaded machine), long before the caches would expire on their own.
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { clientHash } from '../../src/server/security/passwords.ts';
import { httpApi, loginAs, spawnServer, type ChildServer } from './child-server.ts';
import { createTestDatabase, databaseKinds } from './harness.ts';
import { startNginx, type Nginx } from './nginx-proxy.ts';
import { subscribeLive, type LiveSubscription } from './sse-client.ts';

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const MESSAGES = '/api/blade-message/message';

describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('three processes behind nginx on %s', () => {
  let servers: ChildServer[] = [];
  let nginx: Nginx | undefined;
  let database: pg.Client;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    const { url, drop } = await createTestDatabase();
    dropDatabase = drop;
    // every login of this file comes from 127.0.0.1: the per-address limit would count them all together
    const env = {
      DATABASE_URL: url,
      ZS_TEST_CAPTCHA: 'expose',
      ZS_POOL_SIZE: '4',
      ZS_TRUST_PROXY: 'loopback',
      ZS_LOGIN_LIMIT_ADDRESS: '1000',
    };
    servers = await Promise.all([spawnServer(env), spawnServer(env), spawnServer(env)]);
    // several nginx workers whatever the machine's cores: what balances the streams must be shared by them
    nginx = await startNginx(
      servers.map((s) => Number(new URL(s.url).port)),
      8,
    );
    database = new pg.Client({ connectionString: url });
    await database.connect();
  }, 600_000);

  afterAll(async () => {
    await database?.end();
    await nginx?.stop();
    for (const server of servers) server.proc.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
    await dropDatabase();
  }, 60_000);

  /** A request through nginx, marked so that the access log tells which process answered it. */
  const through = (path: string, probe: string, init: RequestInit = {}) =>
    fetch(`${nginx!.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-probe': probe } });

  /** The process (127.0.0.1:port) that answered the request marked `probe` (logged once it was sent). */
  const servedBy = async (probe: string) => {
    for (let i = 0; i < 50; i++) {
      const line = nginx!.answered().find((l) => l.probe === probe);
      if (line) return line.upstream;
      await sleep(50);
    }
    throw new Error(`no access-log line for ${probe}:\n${nginx!.output()}`);
  };

  const sql = async <T = any>(text: string, params: unknown[] = []) => (await database.query(text, params)).rows as T[];

  function tokenRequest(probe: string, username: string, password: string, captcha?: { key: string; code: string }) {
    const query = new URLSearchParams({
      tenantId: '000000',
      username,
      password: clientHash(password),
      grant_type: captcha ? 'captcha' : 'password',
      scope: 'all',
      type: 'account',
    });
    return through(`/api/blade-auth/oauth/token?${query}`, probe, {
      method: 'POST',
      headers: {
        authorization: SABER,
        'tenant-id': '000000',
        ...(captcha ? { 'captcha-key': captcha.key, 'captcha-code': captcha.code } : {}),
      },
    });
  }

  async function tokenThrough(probe: string, username: string): Promise<string> {
    const body = await (await tokenRequest(probe, username, username)).json();
    expect(body.access_token, JSON.stringify(body)).toBeTruthy();
    return body.access_token;
  }

  const auth = (token: string) => ({ 'blade-auth': `bearer ${token}` });

  it('a token issued by the process that answered the login lists through the others', async () => {
    const token = await tokenThrough('login', 'admin');
    for (let i = 0; i < 4; i++) {
      const res = await through('/api/construct/project/list?current=1&size=5', `list-${i}`, { headers: auth(token) });
      expect(res.status).toBe(200);
      expect((await res.json()).code).toBe(200);
    }
    const login = await servedBy('login');
    const lists = await Promise.all([0, 1, 2, 3].map((i) => servedBy(`list-${i}`)));
    expect(lists.some((upstream) => upstream !== login)).toBe(true);
    expect(new Set([login, ...lists]).size).toBe(3);
  });

  it('a captcha issued by one process is checked by another, once', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const issued = await through('/api/blade-auth/oauth/captcha', `captcha-${attempt}`);
      const captcha = { key: (await issued.json()).key as string, code: issued.headers.get('x-test-captcha-code')! };
      const login = await tokenRequest(`captcha-login-${attempt}`, 'admin', 'admin', captcha);
      expect((await login.json()).access_token).toBeTruthy();
      if ((await servedBy(`captcha-${attempt}`)) === (await servedBy(`captcha-login-${attempt}`))) continue;
      expect((await tokenRequest(`captcha-again-${attempt}`, 'admin', 'admin', captcha)).status).toBe(400);
      return;
    }
    throw new Error('nginx sent the captcha and its check to the same process five times in a row');
  });

  it('a message sent through one process reaches the subscribers streaming through the others, at once', async () => {
    const admin = await tokenThrough('admin-for-message', 'admin');
    const clerk = await tokenThrough('clerk-login', 'clerk');
    const [{ id: clerkId }] = await sql(`SELECT id::text AS id FROM blade_user WHERE account = 'clerk' AND tenant_id = '000000'`);
    // three open streams: least_conn puts each on another process; each says `ready` while open,
    // which it could not through a buffering proxy
    const streams: LiveSubscription[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const stream = await subscribeLive(nginx!.url, clerk);
        expect(stream.status).toBe(200);
        await stream.next('ready', 10_000);
        streams.push(stream);
      }
      const sent = await through(`${MESSAGES}/save`, 'send', {
        method: 'POST',
        headers: { ...auth(admin), 'content-type': 'application/json' },
        body: JSON.stringify({ type: '1', receiverIds: clerkId, title: '跨进程通知', content: '经 nginx 发出,各进程订阅者都应收到。' }),
      });
      expect((await sent.json()).code).toBe(200);
      for (const stream of streams) expect((await stream.next('message', 10_000)).data.title).toBe('跨进程通知');
    } finally {
      for (const stream of streams) stream.close();
    }
    // a stream is logged when it ends
    for (let i = 0; i < 50 && nginx!.answered().filter((l) => l.path === `${MESSAGES}/subscribe`).length < 3; i++) await sleep(100);
    const streamedBy = nginx!
      .answered()
      .filter((l) => l.path === `${MESSAGES}/subscribe`)
      .map((l) => l.upstream);
    expect(new Set(streamedBy).size).toBe(3);
    const sender = await servedBy('send');
    expect(streamedBy.filter((upstream) => upstream !== sender)).toHaveLength(2);
  });

  it("passes the server's compression through: one encoding, applied once", async () => {
    const res = await through('/api/openapi.json', 'openapi', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    // fetch undoes the one encoding it was told of: compressed twice, this would not parse
    expect((await res.json()).openapi).toMatch(/^3\./);
  });

  describe('caches: a change through process A, served by process B once the signal reached it', () => {
    /** Well under the caches' own time limits (grants 10 s, parameters 30 s). */
    const SIGNAL_DELIVERY = { timeout: 3_000, interval: 20 };

    const { catalog } = compile(readSchemaSource());
    let a: ReturnType<typeof httpApi>;
    let b: ReturnType<typeof httpApi>;

    beforeAll(async () => {
      const admin = await loginAs(servers[0].url);
      a = httpApi(servers[0].url, admin);
      b = httpApi(servers[1].url, admin);
    });

    it("a role's grants", async () => {
      const alias = `nginx_${Date.now().toString(36)}`;
      const role = await a.ok('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 });
      await a.ok('/api/blade-system/user/save', {
        account: alias,
        password: 'secret1',
        name: alias,
        realName: alias,
        roleId: role.id,
        status: 1,
      });
      const user = httpApi(servers[1].url, await loginAs(servers[1].url, alias, 'secret1'));
      const [projects] = await sql<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = $1 AND is_deleted = 0`, [
        catalog.entities.project.menu!.code,
      ]);
      const grant = (menuIds: string[]) =>
        a.ok('/api/blade-system/role/grant', { roleIds: [role.id], menuIds, dataScopeIds: [], apiScopeIds: [] });
      const listOnB = async () => (await user.get('/api/construct/project/list')).code;

      expect(await listOnB()).toBe(403); // B now holds the role's (empty) grants
      await grant([projects.id]);
      await expect.poll(listOnB, SIGNAL_DELIVERY).toBe(200);
      await grant([]);
      await expect.poll(listOnB, SIGNAL_DELIVERY).toBe(403);
    });

    it('a dictionary entry', async () => {
      const [entry] = await sql<{ id: string; key: string }>(
        `SELECT id::text AS id, dict_key AS key FROM blade_dict_biz WHERE tenant_id = '000000' AND code = 'project_type' AND parent_id <> 0 AND is_deleted = 0 ORDER BY sort LIMIT 1`,
      );
      const valueOnB = async () =>
        ((await b.get('/api/blade-system/dict-biz/dictionary', { code: 'project_type' })).data as any[]).find(
          (d) => d.dictKey === entry.key,
        )?.dictValue;
      expect(await valueOnB()).toBeTruthy();
      await a.ok('/api/blade-system/dict-biz/updatePart', { id: entry.id, dictValue: '房屋建筑(改名)' });
      // B serves the new value once A's signal reached it, not necessarily by the next request
      await expect.poll(valueOnB, SIGNAL_DELIVERY).toBe('房屋建筑(改名)');
    });

    it('a parameter (the API log of reads)', async () => {
      const path = '/api/blade-system/dict/dictionary';
      const [param] = await sql<{ id: string }>(
        `SELECT id::text AS id FROM blade_param WHERE tenant_id = '000000' AND param_key = 'log.apiReads' AND is_deleted = 0`,
      );
      let reads = 0;
      /**
       * Whether B logs a read made now (each read is marked). The log is written in batches every
       * second: rather than wait for the next batch, B's client-log upload is asked to store what
       * B has queued (it answers once stored, its batches in order) before the table is read.
       */
      const readLoggedOnB = async () => {
        const marker = `read-${++reads}`;
        await b.get(path, { code: 'yes_no', marker });
        expect((await b.post('/api/blade-auth/oauth/client-logs', [])).code).toBe(200);
        const [{ n }] = await sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM blade_log_api WHERE request_uri = $1 AND method = 'GET' AND params LIKE $2`,
          [path, `%${marker}%`],
        );
        return n > 0;
      };
      const untilDelivered = { timeout: 10_000, interval: 50 };

      await a.ok('/api/blade-system/param/updatePart', { id: param.id, paramValue: 'false' });
      await expect.poll(readLoggedOnB, untilDelivered).toBe(false);
      await a.ok('/api/blade-system/param/updatePart', { id: param.id, paramValue: 'true' });
      await expect.poll(readLoggedOnB, untilDelivered).toBe(true);
    });
  });

  describe('sessions: ended through one process, refused by every process once the signal reached it', () => {
    /** Well under the 30 s for which a process may keep a user's token generation on its own. */
    const SIGNAL_DELIVERY = { timeout: 3_000, interval: 20 };
    let admin: ReturnType<typeof httpApi>;
    let clerkRole: string;
    let administratorRole: string;
    let seq = 0;

    beforeAll(async () => {
      admin = httpApi(servers[0].url, await loginAs(servers[0].url));
      const role = async (alias: string) =>
        (
          await sql<{ id: string }>(
            `SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = $1 AND is_deleted = 0`,
            [alias],
          )
        )[0].id;
      clerkRole = await role('project_clerk');
      administratorRole = await role('administrator');
    });

    async function newUser(roleId = clerkRole) {
      const account = `rev${++seq}${Date.now().toString(36)}`;
      const user = await admin.ok('/api/blade-system/user/save', {
        account,
        password: account,
        name: account,
        realName: account,
        roleId,
        status: 1,
      });
      return { id: user.id as string, account };
    }

    /** What each process answers the token on a call that needs nothing but a valid one. */
    const statuses = (token: string) =>
      Promise.all(servers.map(async (s) => (await fetch(`${s.url}/api/blade-auth/oauth/user-info`, { headers: auth(token) })).status));

    /**
     * Every process first accepts the token (so each holds the user's generation in its cache),
     * then `end` runs through one of them, and every process refuses the token within the bound.
     */
    async function endedEverywhere(token: string, end: () => Promise<unknown>) {
      expect(await statuses(token)).toEqual([200, 200, 200]);
      await end();
      await expect.poll(() => statuses(token), SIGNAL_DELIVERY).toEqual([401, 401, 401]);
    }

    it('logout through nginx; a login right after it works on every process', async () => {
      const user = await newUser();
      const token = await tokenThrough('rev-login', user.account);
      await endedEverywhere(token, async () => {
        const out = await through('/api/blade-auth/oauth/logout', 'rev-logout', { method: 'POST', headers: auth(token) });
        expect(await out.json()).toEqual({ success: 'true', msg: 'success' });
      });
      expect(await statuses(await tokenThrough('rev-again', user.account))).toEqual([200, 200, 200]);
    });

    it('a disabled administrator can no longer create an administrator through any process', async () => {
      const boss = await newUser(administratorRole);
      const token = await loginAs(servers[1].url, boss.account, boss.account);
      await endedEverywhere(token, () => admin.ok('/api/blade-system/user/updatePart', { id: boss.id, status: 0 }));
      for (const server of servers) {
        const attempt = await httpApi(server.url, token).post('/api/blade-system/user/save', {
          account: `evil${seq}`,
          password: 'evil123',
          name: 'evil',
          realName: 'evil',
          roleId: administratorRole,
          status: 1,
        });
        expect(attempt.code).toBe(401);
      }
      expect(await sql(`SELECT 1 FROM blade_user WHERE account = $1`, [`evil${seq}`])).toHaveLength(0);
    });

    it('a role change, a password reset and a removal through process C', async () => {
      const user = await newUser();
      const c = httpApi(servers[2].url, await loginAs(servers[2].url));
      await endedEverywhere(await loginAs(servers[0].url, user.account, user.account), () =>
        c.post('/api/blade-system/user/grant', undefined, { userIds: user.id, roleIds: administratorRole }),
      );
      await endedEverywhere(await loginAs(servers[1].url, user.account, user.account), () =>
        c.post('/api/blade-system/user/reset-password', undefined, { userIds: user.id }),
      );
      await endedEverywhere(await loginAs(servers[0].url, user.account, '123456'), async () => {
        expect((await c.post('/api/blade-system/user/remove', undefined, { ids: user.id })).code).toBe(200);
      });
    });
  });
});
