// Failed logins neither tell which accounts exist nor let anyone lock an account out (issue #18,
// hole 5). A wrong password costs the same work whether the account exists or not; failures are
// counted per account and client address, and after account.failCount (5) of them from one address
// that address needs the captcha for that account, the password grant included, while the right
// password still works from everywhere else and, with a captcha, from there too; failures spread
// over many addresses (ZS_LOGIN_LIMIT_ACCOUNT) require the captcha of every address that never
// signed in to the account; the per-address limit stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { clientHash } from '../../src/server/security/passwords.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, type Api, type TestServer } from './harness.ts';
import { userOfRole } from './fixtures.ts';

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
const PER_ADDRESS = 20;
const PER_ACCOUNT = 10;

interface Attempt {
  username: string;
  password: string;
  from: string;
  grant?: 'password' | 'captcha';
  captcha?: { key: string; code: string };
  lang?: 'en';
}

describe.each(databaseKinds())('failed logins on %s', (kind) => {
  let server: App;
  let drop: () => Promise<void>;
  let admin: Api;
  let roleId: string;

  beforeAll(async () => {
    const opened = await openTestDb(kind);
    drop = opened.drop;
    server = await createApp(testConfig({ loginLimits: { perAddress: PER_ADDRESS, perAccount: PER_ACCOUNT } }), {
      db: opened.db,
      logger: false,
    });
    const token = await server.tokens.sign({
      tenant_id: '000000',
      user_id: '1123598821738675201',
      dept_id: '1123598813738675201',
      role_name: 'administrator',
    });
    admin = client(server as unknown as TestServer, token);
    [{ id: roleId }] = await server.db.query(
      `SELECT id::text AS id FROM blade_role WHERE role_alias = 'project_clerk' AND tenant_id = '000000'`,
    );
  });
  afterAll(async () => {
    await server?.close();
    await drop?.();
  });

  const newUser = (account: string, password: string) => userOfRole(admin, account, roleId, { password });

  async function captcha(): Promise<{ key: string; code: string }> {
    const res = await server.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha', remoteAddress: '192.0.2.250' });
    const key = JSON.parse(res.body).key as string;
    const [row] = await server.db.query(`SELECT code FROM zs_captcha WHERE key = $1`, [key]);
    return { key, code: row.code as string };
  }

  async function login(a: Attempt) {
    const grant = a.grant ?? 'password';
    const c = a.captcha ?? (grant === 'captcha' ? await captcha() : undefined);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      remoteAddress: a.from,
      query: {
        tenantId: '000000',
        username: a.username,
        password: clientHash(a.password),
        grant_type: grant,
        scope: 'all',
        type: 'account',
      },
      headers: {
        authorization: SABER,
        'tenant-id': '000000',
        ...(c ? { 'captcha-key': c.key, 'captcha-code': c.code } : {}),
        ...(a.lang ? { 'accept-language': a.lang } : {}),
      },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  async function failTimes(n: number, username: string, from: string) {
    for (let i = 0; i < n; i++) {
      const res = await login({ username, password: `wrong-${i}`, from });
      expect(res, `failure ${i + 1} of ${username} from ${from}`).toEqual({
        status: 400,
        body: { error: 'invalid_grant', error_description: '用户名或密码错误' },
      });
    }
  }

  const CAPTCHA_REQUIRED = { status: 400, body: { error: 'captcha_required', error_description: '登录失败次数较多,请输入验证码后再登录' } };

  it('a wrong password does the same work and gets the same answer whether the account exists or not', async () => {
    await newUser('timing', 'right-pass');
    const seen: string[] = [];
    const original = server.identity.verify;
    server.identity.verify = async (secret, stored) => {
      seen.push(stored);
      return original(secret, stored);
    };
    try {
      const work = async (username: string) => {
        seen.length = 0;
        const res = await login({ username, password: 'wrong', from: '198.51.100.1' });
        return { res, hashes: seen.map((hash) => hash.split('$').slice(0, 4).join('$')) };
      };
      const existing = await work('timing');
      const missing = await work('no-such-account');
      expect(existing.res).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: '用户名或密码错误' } });
      expect(missing.res).toEqual(existing.res);
      // the client's secret, then the password: an scrypt verification of the same cost either way
      expect(missing.hashes).toEqual(existing.hashes);
      expect(existing.hashes).toEqual(['scrypt$16384$8$1', 'scrypt$16384$8$1']);
    } finally {
      server.identity.verify = original;
    }
  });

  it('after five failures from one address that address needs the captcha, the same for a missing account; the right password works elsewhere', async () => {
    await newUser('victim', 'right-pass');
    const attacker = '203.0.113.5';
    await failTimes(5, 'victim', attacker);
    await failTimes(5, 'ghost', attacker);
    // the sixth try from there: no password is checked, and the answer does not tell the two apart
    expect(await login({ username: 'victim', password: 'right-pass', from: attacker })).toEqual(CAPTCHA_REQUIRED);
    expect(await login({ username: 'ghost', password: 'right-pass', from: attacker })).toEqual(CAPTCHA_REQUIRED);
    expect((await login({ username: 'victim', password: 'x', from: attacker, lang: 'en' })).body.error_description).toBe(
      'Several failed logins: enter the captcha to log in (Captcha-Key and Captcha-Code)',
    );
    // a wrong captcha is refused as such
    expect(
      (await login({ username: 'victim', password: 'right-pass', from: attacker, captcha: { key: (await captcha()).key, code: 'zzzzz' } }))
        .body.error_description,
    ).toBe('验证码不正确');

    // the owner is not locked out: from another address, and with the web's captcha grant from that one
    expect((await login({ username: 'victim', password: 'right-pass', from: '198.51.100.7' })).status).toBe(200);
    expect((await login({ username: 'victim', password: 'right-pass', from: attacker, grant: 'captcha' })).status).toBe(200);
    // a success clears that address's failures
    expect((await login({ username: 'victim', password: 'right-pass', from: attacker })).status).toBe(200);
  });

  it('the password grant with a valid captcha signs in after failures; only the pair that failed is held', async () => {
    await newUser('script', 'script-pass');
    const from = '203.0.113.9';
    await failTimes(5, 'script', from);
    expect(await login({ username: 'script', password: 'script-pass', from })).toEqual(CAPTCHA_REQUIRED);
    // another account from the same address is not held
    expect((await login({ username: 'timing', password: 'right-pass', from })).status).toBe(200);
    const signed = await login({ username: 'script', password: 'script-pass', from, captcha: await captcha() });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.account).toBe('script');
  });

  it('failures spread over many addresses need the captcha of new addresses, not of one that signed in before', async () => {
    await newUser('spread', 'spread-pass');
    const home = '198.51.100.20';
    expect((await login({ username: 'spread', password: 'spread-pass', from: home })).status).toBe(200);
    // ten failures, two from each of five addresses: no address reaches its own five
    for (let i = 0; i < PER_ACCOUNT / 2; i++) {
      await failTimes(2, 'spread', `203.0.113.${100 + i}`);
      await failTimes(2, 'nobody-spread', `203.0.113.${100 + i}`);
    }
    expect(await login({ username: 'spread', password: 'spread-pass', from: '203.0.113.200' })).toEqual(CAPTCHA_REQUIRED);
    expect(await login({ username: 'nobody-spread', password: 'spread-pass', from: '203.0.113.200' })).toEqual(CAPTCHA_REQUIRED);
    expect((await login({ username: 'spread', password: 'spread-pass', from: home })).status).toBe(200);
    expect((await login({ username: 'spread', password: 'spread-pass', from: '203.0.113.200', captcha: await captcha() })).status).toBe(
      200,
    );
  });

  it('failures are counted in the database, and user/unlock clears them', async () => {
    const id = await newUser('unlockme', 'unlock-pass');
    const from = '203.0.113.30';
    await failTimes(5, 'unlockme', from);
    expect(await login({ username: 'unlockme', password: 'unlock-pass', from })).toEqual(CAPTCHA_REQUIRED);
    const [row] = await server.db.query(
      `SELECT failures FROM zs_login_failure WHERE tenant_id = '000000' AND account = 'unlockme' AND address = $1`,
      [from],
    );
    expect(row.failures).toBe(5);
    expect((await admin.post('/api/blade-system/user/unlock', undefined, { userIds: id })).body.code).toBe(200);
    expect((await login({ username: 'unlockme', password: 'unlock-pass', from })).status).toBe(200);
  });

  it('keeps the per-address limit, whatever the account', async () => {
    const from = '203.0.113.60';
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 2; i++)
      statuses.push((await login({ username: i % 2 ? 'timing' : `missing-${i}`, password: 'wrong', from })).status);
    expect(statuses.slice(0, PER_ADDRESS).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(PER_ADDRESS)).toEqual([429, 429]);
    // another address is not held by it
    expect((await login({ username: 'timing', password: 'right-pass', from: '198.51.100.61' })).status).toBe(200);
  });
});
