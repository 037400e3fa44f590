// The server connects to no host a tenant names unless the operator allowed it: an object storage
// endpoint outside ZS_OSS_HOSTS is refused before any S3 client is built, in the caller's language.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { S3Factory, S3Settings } from '../../src/server/modules/resource/storage.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, type Api, type TestServer } from './harness.ts';

const OSS = '/api/blade-resource/oss';
const DEV = '/api/blade-develop';

function multipart(filename: string, body: string) {
  const boundary = `----zs${Date.now()}`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${body}\r\n--${boundary}--\r\n`,
  );
  return { payload, 'content-type': `multipart/form-data; boundary=${boundary}` };
}

describe.each(databaseKinds())('outgoing connections on %s', (kind) => {
  let app: App;
  let drop: () => Promise<void>;
  let admin: Api;
  let token: string;
  /** The S3 configurations a client was built for: none may name a refused host. */
  const built: S3Settings[] = [];
  const factory: S3Factory = async (settings) => {
    built.push(settings);
    class Command {
      constructor(readonly input: unknown) {}
    }
    return {
      client: { send: async () => ({}) },
      commands: { PutObjectCommand: Command, GetObjectCommand: Command, DeleteObjectCommand: Command },
    };
  };

  const upload = async (lang: 'zh' | 'en') => {
    const { payload, ...type } = multipart('说明.txt', 'x');
    const res = await app.app.inject({
      method: 'POST',
      url: `${OSS}/endpoint/put-file`,
      payload,
      headers: { ...type, 'blade-auth': `bearer ${token}`, 'accept-language': lang },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  beforeAll(async () => {
    const opened = await openTestDb(kind);
    drop = opened.drop;
    app = await createApp(testConfig({ ossHosts: ['minio.internal.example'] }), { db: opened.db, logger: false, s3Factory: factory });
    const [u] = await app.db.query(
      `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`,
    );
    token = await app.tokens.sign({ tenant_id: '000000', user_id: u.id, dept_id: u.deptId, role_id: u.roleId, role_name: 'administrator' });
    admin = client(app as unknown as TestServer, token);
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  async function enable(ossCode: string, endpoint: string) {
    const saved = await admin.post(`${OSS}/save`, {
      category: '1',
      ossCode,
      endpoint,
      bucketName: 'files',
      accessKey: 'k',
      secretKey: 's',
      maxSizeMb: 2,
      allowedTypes: 'txt',
    });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200 });
    expect((await admin.post(`${OSS}/enable`, undefined, { id: saved.body.data.id })).body.code).toBe(200);
  }

  it('an endpoint on a host outside the allow-list is refused and no client is built', async () => {
    await enable('metadata', 'http://169.254.169.254/latest');
    const refused = await upload('zh');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 400,
      success: false,
      msg: '对象存储地址的主机 169.254.169.254 不在允许连接的主机列表中(ZS_OSS_HOSTS),未尝试连接',
    });
    expect((await upload('en')).body.msg).toBe(
      'Host 169.254.169.254 of the object storage endpoint is not in the allowed hosts (ZS_OSS_HOSTS); no connection was attempted',
    );
    await enable('loopback', 'http://127.0.0.1:9000');
    expect((await upload('zh')).status).toBe(400);
    expect(built).toEqual([]);
  });

  it('an endpoint on an allowed host is used', async () => {
    await enable('minio', 'https://minio.internal.example:9000');
    const res = await upload('zh');
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
    expect(built.map((s) => s.endpoint)).toEqual(['https://minio.internal.example:9000']);
  });
});

// Issue #18, hole 6: a tenant administrator registered 127.0.0.1:5432 and read the platform's own
// database. This machine (loopback, by name, literal or what a name resolves to) and the main
// database's server (its host and port) are the platform's: a tenant's data source or object
// storage there is refused before any connection, whatever the allow-list says; the platform
// administrator keeps them. A failed connection answers one message whatever the cause, so that
// no one learns an open port from a closed one.
describe.each(databaseKinds())("the platform's own addresses on %s", (kind) => {
  /** The main database's server as the operator named it (a non-routable address: nothing answers there). */
  const MAIN_HOST = '10.255.255.1';
  let app: App;
  let drop: () => Promise<void>;
  let platform: Api;
  let tenant: Api;
  let tenantToken: string;
  let platformToken: string;
  const built: S3Settings[] = [];
  /** Sockets opened to the probe listener: a refused target must open none. */
  let probeConnections = 0;
  const servers: Server[] = [];

  const factory: S3Factory = async (settings) => {
    built.push(settings);
    class Command {
      constructor(readonly input: unknown) {}
    }
    class Get extends Command {}
    const send = async (command: unknown) => {
      if (command instanceof Get && settings.endpoint.endsWith(':9001'))
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9001'), { code: 'ECONNREFUSED' });
      return command instanceof Get ? { Body: Readable.from([Buffer.from('x')]), ContentLength: 1 } : {};
    };
    return { client: { send }, commands: { PutObjectCommand: Command, GetObjectCommand: Get, DeleteObjectCommand: Command } };
  };

  async function listen(onConnection: (socket: Socket) => void): Promise<number> {
    const server = createServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  beforeAll(async () => {
    const opened = await openTestDb(kind);
    drop = opened.drop;
    app = await createApp(
      testConfig({
        databaseUrl: `postgres://zs@${MAIN_HOST}:5432/zhusuan`,
        // the operator allowed this machine and the main server's host (a mistake this guards against)
        datasourceHosts: ['127.0.0.1', 'localhost', '::1', '2130706433', MAIN_HOST],
        ossHosts: ['127.0.0.1', 'localhost', MAIN_HOST],
      }),
      { db: opened.db, logger: false, s3Factory: factory },
    );
    const [u] = await app.db.query(
      `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`,
    );
    platformToken = await app.tokens.sign({
      tenant_id: '000000',
      user_id: u.id,
      dept_id: u.deptId,
      role_id: u.roleId,
      role_name: 'administrator',
    });
    platform = client(app as unknown as TestServer, platformToken);
    const created = await platform.post('/api/blade-system/tenant/save', { tenantName: '租户B', linkman: '测试', accountNumber: -1 });
    const tenantId = created.body.data.tenantId;
    const [b] = await app.db.query(
      `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
      [tenantId],
    );
    tenantToken = await app.tokens.sign({ tenant_id: tenantId, user_id: b.id, dept_id: b.deptId, role_id: b.roleId, role_name: 'admin' });
    tenant = client(app as unknown as TestServer, tenantToken);
  });
  afterAll(async () => {
    for (const server of servers) server.close();
    await app?.close();
    await drop?.();
  });

  async function datasource(api: Api, name: string, fields: Record<string, unknown>): Promise<string> {
    const saved = await api.post(`${DEV}/datasource/save`, {
      name,
      databaseName: 'postgres',
      username: 'postgres',
      password: 'pw',
      ...fields,
    });
    expect(saved.body.code, JSON.stringify(saved.body)).toBe(200);
    return saved.body.data.id;
  }

  /** Every call that connects to a data source. */
  const connecting = (api: Api, id: string) => [
    () => api.post(`${DEV}/datasource/test`, undefined, { id }),
    () => api.get(`${DEV}/model/table-list`, { datasourceId: id }),
    () => api.get(`${DEV}/model/table-info`, { tableName: 'zs_setting', datasourceId: id }),
  ];

  it("a tenant's data source on this machine or on the main database's server is refused before any connection", async () => {
    const probe = await listen((socket) => {
      probeConnections++;
      socket.destroy();
    });
    const targets: [string, Record<string, unknown>][] = [
      ['127.0.0.1', { host: '127.0.0.1', port: probe }],
      ['localhost', { host: 'localhost', port: probe }],
      ['::1', { host: '::1', port: probe }],
      // a name of the allow-list that resolves to this machine
      ['2130706433', { host: '2130706433', port: probe }],
      [MAIN_HOST, { host: MAIN_HOST, port: 5432 }],
    ];
    const postgres = inject('postgresUrl');
    if (postgres) targets.push(['127.0.0.1', { url: postgres }]);
    for (const [i, [host, fields]] of targets.entries()) {
      const id = await datasource(tenant, `本机${i}`, fields);
      for (const call of connecting(tenant, id)) {
        const refused = await call();
        expect(refused.status, `${host}: ${JSON.stringify(refused.body)}`).toBe(400);
        expect(refused.body.msg).toBe(`主机 ${host} 是本机或本系统数据库所在的服务器,只有平台管理员可以连接,未尝试连接`);
      }
    }
    const id = await datasource(tenant, '本机英文', { host: '127.0.0.1', port: probe });
    const en = await client(app as unknown as TestServer, tenantToken, 'en').post(`${DEV}/datasource/test`, undefined, { id });
    expect(en.body.msg).toBe(
      "Host 127.0.0.1 is this machine or the application database's server: only the platform administrator may connect to it; no connection was attempted",
    );
    expect(probeConnections).toBe(0);
    // another port of the main database's host is the operator's to allow: tried, and refused by nothing there
    const other = await datasource(tenant, '主库主机的另一端口', { host: MAIN_HOST, port: 5433 });
    const tried = await tenant.post(`${DEV}/datasource/test`, undefined, { id: other });
    expect(tried.body.msg).toBe('连接数据源 主库主机的另一端口 失败,请检查主机、端口、数据库、用户名和密码');
  });

  it('the platform administrator reaches this machine, and every failed connection answers the same', async () => {
    const closed = await listen(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const notPostgres = await listen((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const silent = await listen(() => undefined);
    const targets: Record<string, Record<string, unknown>> = {
      closed: { host: '127.0.0.1', port: closed },
      'not postgres': { host: '127.0.0.1', port: notPostgres },
      silent: { host: '127.0.0.1', port: silent },
    };
    const postgres = inject('postgresUrl');
    if (postgres) {
      const url = new URL(postgres);
      targets['unknown role'] = { host: url.hostname, port: Number(url.port || 5432), username: 'zs_no_such_role' };
      targets['unknown database'] = {
        host: url.hostname,
        port: Number(url.port || 5432),
        username: decodeURIComponent(url.username),
        databaseName: 'zs_no_such_database',
      };
    }
    const answers: Record<string, unknown> = {};
    for (const [cause, fields] of Object.entries(targets)) {
      const id = await datasource(platform, '探测', fields);
      const res = await platform.post(`${DEV}/datasource/test`, undefined, { id });
      answers[cause] = { status: res.status, msg: res.body.msg };
      await platform.post(`${DEV}/datasource/remove`, undefined, { ids: id });
    }
    const same = { status: 400, msg: '连接数据源 探测 失败,请检查主机、端口、数据库、用户名和密码' };
    expect(answers).toEqual(Object.fromEntries(Object.keys(targets).map((cause) => [cause, same])));
    if (postgres) {
      const id = await datasource(platform, '平台本机库', { url: postgres });
      const reached = await platform.post(`${DEV}/datasource/test`, undefined, { id });
      expect(reached.body, JSON.stringify(reached.body)).toMatchObject({ code: 200 });
    }
  });

  async function enableFor(api: Api, ossCode: string, endpoint: string) {
    const saved = await api.post(`${OSS}/save`, {
      category: '1',
      ossCode,
      endpoint,
      bucketName: 'files',
      accessKey: 'k',
      secretKey: 's',
      maxSizeMb: 2,
      allowedTypes: 'txt',
    });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200 });
    expect((await api.post(`${OSS}/enable`, undefined, { id: saved.body.data.id })).body.code).toBe(200);
  }

  const uploadAs = async (token: string, lang: 'zh' | 'en' = 'zh') => {
    const { payload, ...type } = multipart('说明.txt', 'x');
    const res = await app.app.inject({
      method: 'POST',
      url: `${OSS}/endpoint/put-file`,
      payload,
      headers: { ...type, 'blade-auth': `bearer ${token}`, 'accept-language': lang },
    });
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };

  it("a tenant's object storage on this machine or on the main database's server is refused; the platform's is used", async () => {
    for (const [i, [host, endpoint]] of [
      ['127.0.0.1', 'http://127.0.0.1:9000'],
      ['localhost', 'http://localhost:9000'],
      [MAIN_HOST, `http://${MAIN_HOST}:5432`],
    ].entries()) {
      await enableFor(tenant, `own-${i}`, endpoint);
      const refused = await uploadAs(tenantToken);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.msg).toBe(`对象存储地址的主机 ${host} 是本机或本系统数据库所在的服务器,只有平台租户可以使用,未尝试连接`);
    }
    expect((await uploadAs(tenantToken, 'en')).body.msg).toBe(
      `Host ${MAIN_HOST} of the object storage endpoint is this machine or the application database's server: only the platform tenant may use it; no connection was attempted`,
    );
    expect(built).toEqual([]);
    await enableFor(platform, 'platform-minio', 'http://127.0.0.1:9000');
    const stored = await uploadAs(platformToken);
    expect(stored.body, JSON.stringify(stored.body)).toMatchObject({ code: 200 });
    expect(built.map((s) => s.endpoint)).toEqual(['http://127.0.0.1:9000']);
  });

  it('a file read that fails at the storage answers the storage message, and no log the tenant reads holds the cause', async () => {
    await enableFor(platform, 'platform-down', 'http://127.0.0.1:9001');
    const stored = await uploadAs(platformToken);
    expect(stored.body, JSON.stringify(stored.body)).toMatchObject({ code: 200 });
    const read = await platform.get(`${OSS}/file/${stored.body.data.name}`);
    expect(read.status).toBe(502);
    expect(read.body.msg).toBe('文件存储失败,请检查对象存储配置');
    await app.logs.flush();
    const logged = await app.db.query(`SELECT message FROM blade_log_error WHERE message LIKE '%ECONNREFUSED%'`);
    expect(logged).toEqual([]);
  });
});
