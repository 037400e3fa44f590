// The open-source flavour of the platform, as its Saber client speaks it (issue #20): the sign-in
// through /blade-auth/token with every value in the query string, the password SM2-encrypted with
// the installation's public key (sm-crypto, cipher mode C1C2C3, as the client does), the captcha in
// the R envelope, refresh and logout; and every API route reached without its /api prefix, as the
// client's development proxy and root-mounted gateways send it. The fixtures are ours, written from
// what the client sends and reads.
import { sm2 } from 'sm-crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodesOf } from '../../src/engine/tree/forest.ts';
import { databaseKinds, startServer, type TestServer } from './harness.ts';

interface Row {
  id: string;
  parentId: string;
  parentName: string;
  hasChildren: boolean;
  children?: Row[];
  [field: string]: unknown;
}

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;
/** What the client's login form does with the typed password: sm-crypto, cipher mode 0 (C1C2C3). */
const encrypt = (password: string, publicKey: string) => sm2.doEncrypt(password, publicKey, 0);

describe.each(databaseKinds())('the SpringBlade flavour on %s', (kind) => {
  let server: TestServer;
  let publicKey: string;

  beforeAll(async () => {
    server = await startServer(kind);
    const res = await server.app.inject({ method: 'GET', url: '/blade-auth/public-key' });
    publicKey = JSON.parse(res.body).data.publicKey;
  });
  afterAll(async () => server?.dispose());

  async function json(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, query?: Record<string, string>) {
    const res = await server.app.inject({ method, url, query, headers: { authorization: SABER, ...headers } });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  }

  async function captcha() {
    const { body } = await json('GET', '/blade-auth/captcha');
    const [row] = await server.db.query<{ code: string }>(`SELECT code FROM zs_captcha WHERE key = $1`, [body.data.key]);
    return { key: body.data.key as string, code: row.code, image: body.data.image as string };
  }

  /** The client's sign-in: POST with an empty body, the captcha in headers. */
  async function signIn(account: string, password: string, options: { lang?: string; cipher?: string } = {}) {
    const c = await captcha();
    return json(
      'POST',
      '/blade-auth/token',
      { 'captcha-key': c.key, 'captcha-code': c.code, ...(options.lang ? { 'accept-language': options.lang } : {}) },
      { grantType: 'captcha', tenantId: '000000', account, password: options.cipher ?? encrypt(password, publicKey), type: 'account' },
    );
  }

  it('serves the public key a client is configured with, under both paths', async () => {
    expect(publicKey).toMatch(/^04[0-9a-f]{128}$/);
    const prefixed = await json('GET', '/api/blade-auth/public-key');
    expect(prefixed.body).toMatchObject({ code: 200, success: true, data: { publicKey, algorithm: 'SM2' } });
  });

  it('answers the captcha in the envelope, as a data URL of five characters', async () => {
    const c = await captcha();
    expect(c.image).toMatch(/^data:image\/[a-z+]+;base64,/);
    expect(c.code).toMatch(/^[a-z0-9]{5}$/);
  });

  it('signs in with the encrypted password and answers the token in camelCase', async () => {
    const { status, body } = await signIn('admin', 'admin');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true });
    const info = body.data;
    for (const field of [
      'accessToken',
      'refreshToken',
      'tokenType',
      'expiresIn',
      'userId',
      'tenantId',
      'account',
      'userName',
      'authority',
      'avatar',
    ])
      expect(info, field).toHaveProperty(field);
    expect(info).toMatchObject({ tokenType: 'bearer', tenantId: '000000', account: 'admin' });
    expect(info.authority).toContain('admin');
    // the token opens the API, with and without the prefix
    const auth = { 'blade-auth': `bearer ${info.accessToken}` };
    for (const url of ['/blade-system/user/page?current=1&size=5', '/api/blade-system/user/page?current=1&size=5']) {
      const page = await json('GET', url, auth);
      expect(page.status, url).toBe(200);
      expect(page.body.data.records.length, url).toBeGreaterThan(0);
    }
  });

  it('refuses a wrong password, and a ciphertext under another key, alike and in the envelope', async () => {
    const wrong = await signIn('admin', 'not-the-password');
    const otherKey = await signIn('admin', 'admin', { cipher: encrypt('admin', sm2.generateKeyPairHex().publicKey) });
    const garbage = await signIn('admin', 'admin', { cipher: 'zz-not-hex' });
    for (const refused of [wrong, otherKey, garbage]) {
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ code: 400, success: false, data: null, msg: '用户名或密码错误' });
    }
    const english = await signIn('admin', 'not-the-password', { lang: 'en' });
    expect(english.body.msg).toBe('Wrong user name or password');
  });

  it('refuses a wrong captcha', async () => {
    const c = await captcha();
    const { status, body } = await json(
      'POST',
      '/blade-auth/token',
      { 'captcha-key': c.key, 'captcha-code': 'zzzzz' },
      { grantType: 'captcha', tenantId: '000000', account: 'admin', password: encrypt('admin', publicKey) },
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 400, success: false, data: null });
  });

  it('refreshes through the same route, and logout ends the session', async () => {
    const first = (await signIn('admin', 'admin')).body.data;
    const refreshed = await json(
      'POST',
      '/blade-auth/token',
      { 'blade-auth': `bearer ${first.accessToken}` },
      {
        grantType: 'refresh_token',
        refreshToken: first.refreshToken,
        scope: 'all',
      },
    );
    expect(refreshed.body).toMatchObject({ code: 200, success: true, data: { tenantId: '000000', account: 'admin' } });
    const token = refreshed.body.data.accessToken as string;
    expect(token).toBeTruthy();
    const auth = { 'blade-auth': `bearer ${token}` };
    expect((await json('GET', '/blade-system/user/page', auth)).status).toBe(200);
    const out = await json('POST', '/blade-auth/logout', auth);
    expect(out.body).toMatchObject({ code: 200, success: true });
    const after = await json('GET', '/blade-system/user/page', auth);
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 401, success: false });
  });

  it('an unprefixed path needs a token like the prefixed one, and an unknown one is a 404 in the envelope', async () => {
    const anonymous = await server.app.inject({ method: 'GET', url: '/blade-system/user/page' });
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ code: 401, success: false });
    const token = await server.token();
    const unknown = await server.app.inject({
      method: 'GET',
      url: '/blade-system/no-such-route',
      headers: { 'blade-auth': `bearer ${token}` },
    });
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 404, success: false });
    // the client's own pages are never taken for the API (the page when the client is built, else a 404)
    for (const page of ['/login', '/wel/index', '/construct/project', '/system/user']) {
      const answer = await server.app.inject({ method: 'GET', url: page });
      expect([200, 404], `${page}: ${answer.statusCode} ${answer.body.slice(0, 80)}`).toContain(answer.statusCode);
      if (answer.statusCode === 200) expect(answer.body, page).toContain('<!doctype html>');
    }
  });

  it('answers HEAD like GET, without a body, on a document type’s routes and their aliases, prefixed or not', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    for (const url of ['/api/construct/project/list', '/construct/project/list', '/blade-system/user/page']) {
      const get = await server.app.inject({ method: 'GET', url, headers: auth });
      const head = await server.app.inject({ method: 'HEAD', url, headers: auth });
      expect([get.statusCode, head.statusCode], url).toEqual([200, 200]);
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
      expect(head.body, url).toBe('');
    }
    expect((await server.app.inject({ method: 'HEAD', url: '/api/construct/project/no-such-action', headers: auth })).statusCode).toBe(404);
    // a path the type answers to with another method only is no route for this one
    expect((await server.app.inject({ method: 'POST', url: '/api/construct/project/list', headers: auth })).statusCode).toBe(404);
  });

  it("answers the cascading region picker level by level, the country's provinces by default", async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const provinces = (await json('GET', '/blade-system/region/select', auth)).body.data;
    expect(provinces).toHaveLength(34);
    expect(provinces[0]).toMatchObject({ code: '11', name: '北京市', parentCode: '00' });
    const cities = (await json('GET', '/blade-system/region/select?code=32', auth)).body.data;
    expect(cities.map((c: { name: string }) => c.name)).toContain('南京市');
    expect(cities.every((c: { parentCode: string }) => c.parentCode === '32')).toBe(true);
    expect((await json('GET', '/blade-system/region/select?code=320102', auth)).body.data).toEqual([]);
  });

  it('lists the data sources for the code generator to pick from', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const saved = await server.app.inject({
      method: 'POST',
      url: '/blade-develop/datasource/save',
      headers: auth,
      payload: { name: '报表库', url: 'postgres://report:secret-pass@127.0.0.1:5432/report' },
    });
    expect(JSON.parse(saved.body).code).toBe(200);
    const { body } = await json('GET', '/blade-develop/datasource/select', auth);
    expect(body.code).toBe(200);
    expect(body.data).toContainEqual(expect.objectContaining({ id: expect.any(String), name: '报表库' }));
    expect(JSON.stringify(body.data)).not.toContain('secret-pass');
  });

  it("takes a user as the platform's client sends it: numbers for dictionary keys, a date with its time", async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const [dept] = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' LIMIT 1`);
    const [role] = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' LIMIT 1`);
    const user = {
      account: 'saber_clerk',
      password: 'Clerk#2026',
      password2: 'Clerk#2026',
      name: '小王',
      realName: '王小明',
      sex: 1,
      birthday: '1990-05-01 00:00:00',
      roleId: role.id,
      deptId: dept.id,
      // what the client's grid rows carry along: shown, never stored
      sexName: '男',
      $sex: '男',
    };
    const save = async (body: Record<string, unknown>) =>
      JSON.parse((await server.app.inject({ method: 'POST', url: '/blade-system/user/submit', headers: auth, payload: body })).body);
    const saved = await save(user);
    expect(saved, JSON.stringify(saved)).toMatchObject({ code: 200, success: true });
    const [stored] = await server.db.query<{ sex: string; birthday: string }>(
      `SELECT sex, to_char(birthday, 'YYYY-MM-DD') AS birthday FROM blade_user WHERE account = 'saber_clerk'`,
    );
    expect(stored).toEqual({ sex: '1', birthday: '1990-05-01' });
    // exact on the way out: the same values our own client would have stored
    const detail = (await json('GET', `/blade-system/user/detail?id=${saved.data.id}`, auth)).body.data;
    expect(detail).toMatchObject({ sex: '1', birthday: '1990-05-01' });
    // a time with a zone could be another day: refused, nothing stored
    const zoned = await save({ ...user, account: 'saber_zoned', birthday: '1990-05-01T20:00:00Z' });
    expect(zoned).toMatchObject({ code: 400, success: false });
    expect(await server.db.query(`SELECT 1 FROM blade_user WHERE account = 'saber_zoned'`)).toEqual([]);
  });

  it('takes a dictionary entry whose key the client sends as a number, and stores it as our own client does', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const [sex] = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_dict WHERE code = 'sex' AND parent_id = 0`);
    const saved = JSON.parse(
      (
        await server.app.inject({
          method: 'POST',
          url: '/blade-system/dict/submit',
          headers: auth,
          payload: { parentId: sex.id, code: 'sex', dictKey: 3, dictValue: '未知', sort: 3, remark: '', isSealed: 0 },
        })
      ).body,
    );
    expect(saved, JSON.stringify(saved)).toMatchObject({ code: 200, data: { dictKey: '3' } });
    const [stored] = await server.db.query<{ key: string }>(`SELECT dict_key AS key FROM blade_dict WHERE id = $1`, [saved.data.id]);
    expect(stored.key).toBe('3');
  });

  it('takes a data source as a JDBC URL with the user and password in their own fields', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const save = async (body: Record<string, unknown>) =>
      JSON.parse((await server.app.inject({ method: 'POST', url: '/blade-develop/datasource/submit', headers: auth, payload: body })).body);
    const saved = await save({
      name: '旧平台库',
      url: 'jdbc:postgresql://127.0.0.1:5432/blade?currentSchema=public&ssl=false',
      username: 'blade',
      password: 'blade-pass',
      driverClass: 'org.postgresql.Driver',
    });
    expect(saved, JSON.stringify(saved)).toMatchObject({
      code: 200,
      data: { host: '127.0.0.1', port: 5432, databaseName: 'blade', username: 'blade' },
    });
    expect(JSON.stringify(saved)).not.toContain('blade-pass');
    const inUrl = await save({ name: '旧平台库二', url: 'jdbc:postgresql://127.0.0.1/blade2?user=reader&password=p' });
    expect(inUrl).toMatchObject({ code: 200, data: { port: 5432, databaseName: 'blade2', username: 'reader' } });
    const mysql = await save({
      name: '旧库三',
      url: 'jdbc:mysql://127.0.0.1:3306/blade?useSSL=false',
      username: 'root',
      driverClass: 'com.mysql.cj.jdbc.Driver',
    });
    expect(mysql).toMatchObject({ code: 200, data: { driverClass: 'com.mysql.cj.jdbc.Driver', port: 3306, databaseName: 'blade' } });
    // an engine we do not connect to is refused in the caller's language, and nothing is kept
    const oracle = await save({
      name: '旧库四',
      url: 'jdbc:oracle:thin:@127.0.0.1:1521:orcl',
      username: 'root',
      driverClass: 'oracle.jdbc.OracleDriver',
    });
    expect(oracle).toMatchObject({ code: 400, success: false });
    expect(oracle.msg).toContain('连接地址的格式不正确');
    expect(await server.db.query(`SELECT 1 FROM blade_datasource WHERE name = '旧库四'`)).toEqual([]);
  });

  it('creates a department from a form that has no category (a department, by default)', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const [parent] = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' LIMIT 1`);
    const saved = JSON.parse(
      (
        await server.app.inject({
          method: 'POST',
          url: '/blade-system/dept/submit',
          headers: auth,
          payload: {
            parentId: parent.id,
            deptName: '质检部',
            fullName: '质量检验部',
            sort: 9,
            remark: '',
            parentName: '总部',
            hasChildren: false,
          },
        })
      ).body,
    );
    expect(saved, JSON.stringify(saved)).toMatchObject({ code: 200, success: true });
    const detail = (await json('GET', `/blade-system/dept/detail?id=${saved.data.id}`, auth)).body.data;
    expect(detail).toMatchObject({ deptName: '质检部', deptCategory: '2' });
  });

  it('lists users with the names of their roles, departments and posts beside the ids', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    for (const url of ['/blade-system/user/list?account=admin', '/blade-system/user/page?account=admin']) {
      const [admin] = (await json('GET', url, auth)).body.data.records;
      const [role] = await server.db.query<{ name: string }>(`SELECT role_name AS name FROM blade_role WHERE id = $1`, [
        admin.roleId.split(',')[0],
      ]);
      const [dept] = await server.db.query<{ name: string }>(`SELECT dept_name AS name FROM blade_dept WHERE id = $1`, [
        admin.deptId.split(',')[0],
      ]);
      expect(admin.roleName.split(','), url).toContain(role.name);
      expect(admin.deptName.split(','), url).toContain(dept.name);
      expect(admin, url).toHaveProperty('postName');
    }
  });
  it('lists departments, dictionaries, menus and roles as forests: children, hasChildren and parentName on every node', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const lists = { dept: 'deptName', dict: 'dictValue', 'dict-biz': 'dictValue', menu: 'name', role: 'roleName' };
    for (const [entity, title] of Object.entries(lists)) {
      const url = `/blade-system/${entity}/list`;
      // the client sends its paging to these lists too, and reads a plain array
      const { body } = await json('GET', `${url}?current=1&size=10`, auth);
      expect(body.code, url).toBe(200);
      expect(Array.isArray(body.data), url).toBe(true);
      const nodes = nodesOf<Row>(body.data);
      expect(nodes.length, url).toBeGreaterThan(body.data.length);
      const byId = new Map(nodes.map((n) => [n.id, n]));
      for (const node of nodes) {
        expect(typeof node.id, url).toBe('string');
        expect(node.hasChildren, `${url} ${node.id}`).toBe(Boolean(node.children));
        if (node.children) expect(node.children.length, url).toBeGreaterThan(0);
        for (const child of node.children ?? []) expect(child.parentId, url).toBe(node.id);
        const parent = byId.get(node.parentId);
        expect(node.parentName, `${url} ${node.id}`).toBe(parent ? parent[title] : '顶级');
      }
      // a search's finds: a record whose parent is not found is a root, and still names its parent
      const child = nodes.find((n) => byId.has(n.parentId))!;
      const found = (await json('GET', url, auth, { [`${title}_equal`]: String(child[title]) })).body.data as Row[];
      const root = found.find((n) => n.id === child.id);
      expect(root, `${url} ${child[title]}`).toMatchObject({ parentId: child.parentId, parentName: byId.get(child.parentId)![title] });
    }
    const english = (await json('GET', '/blade-system/role/list', { ...auth, 'accept-language': 'en' })).body.data as Row[];
    expect(english[0].parentName).toBe('Top level');
  });
  it("points the menus of the platform's own pages where its client keeps their views", async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const routes = nodesOf<{ path: string; children?: { path: string }[] }>(
      (await json('GET', '/blade-system/menu/routes', auth)).body.data,
    );
    const paths = routes.map((m) => m.path);
    for (const view of [
      '/desk/notice',
      '/system/user',
      '/system/dept',
      '/system/post',
      '/system/dict',
      '/system/menu',
      '/system/topmenu',
      '/system/param',
      '/system/tenant',
      '/system/client',
      '/authority/role',
      '/authority/datascope',
      '/authority/apiscope',
      '/base/region',
      '/monitor/log/usual',
      '/monitor/log/api',
      '/monitor/log/error',
      '/tool/code',
      '/tool/datasource',
      '/report/reportlist',
    ])
      expect(paths, view).toContain(view);
  });
  it('changes a password the client sends as text, as it sends it from the profile page', async () => {
    const signedIn = await signIn('clerk', 'clerk');
    expect(signedIn.body.code, JSON.stringify(signedIn.body)).toBe(200);
    const auth = { 'blade-auth': `bearer ${signedIn.body.data.accessToken}` };
    const change = (query: Record<string, string>) => json('POST', '/blade-system/user/update-password', auth, query);
    expect((await change({ oldPassword: 'nope', newPassword: 'Clerk#2027', newPassword1: 'Clerk#2027' })).body.msg).toBe('原密码不正确');
    expect((await change({ oldPassword: 'clerk', newPassword: 'Clerk#2027', newPassword1: 'Clerk#2028' })).body.msg).toBe(
      '两次输入的密码不一致',
    );
    expect((await change({ oldPassword: 'clerk', newPassword: 'Clerk#2027', newPassword1: 'Clerk#2027' })).body.code).toBe(200);
    expect((await signIn('clerk', 'clerk')).body.code).toBe(400);
    expect((await signIn('clerk', 'Clerk#2027')).body.code).toBe(200);
  });

  it('keeps the scope rules as the client writes them: an API path without /api, a data rule with its class and fields', async () => {
    const auth = { 'blade-auth': `bearer ${await server.token()}` };
    const [menu] = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = 'notice' AND category = 1`);
    const post = async (url: string, payload: Record<string, unknown>) =>
      JSON.parse((await server.app.inject({ method: 'POST', url, headers: auth, payload })).body);
    const api = await post('/blade-system/api-scope/submit', {
      menuId: menu.id,
      resourceCode: 'notice_list',
      scopeName: '通知列表',
      scopePath: '/blade-desk/notice/list',
      scopeType: '1',
    });
    expect(api, JSON.stringify(api)).toMatchObject({ code: 200, data: { scopePath: '/api/blade-desk/notice/list' } });
    const data = await post('/blade-system/data-scope/submit', {
      menuId: menu.id,
      resourceCode: 'notice',
      scopeName: '本人可见',
      scopeColumn: 'create_user',
      scopeType: 2,
      scopeField: '*',
      scopeClass: 'org.springblade.desk.mapper.NoticeMapper.selectNoticePage',
    });
    expect(data, JSON.stringify(data)).toMatchObject({ code: 200 });
    const detail = (await json('GET', `/blade-system/data-scope/detail?id=${data.data.id}`, auth)).body.data;
    expect(detail).toMatchObject({ scopeField: '*', scopeClass: 'org.springblade.desk.mapper.NoticeMapper.selectNoticePage' });
  });
});
