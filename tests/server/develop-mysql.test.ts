// Code generation from a MySQL/MariaDB data source, against a real MariaDB server (TEST_MARIADB_URL,
// by default root without a password on 127.0.0.1:3306, as on CI; .ci/run starts it where it is not
// running): the platform's JDBC URL and driver class are taken, the password is sealed and never
// answered, test / table-list / table-info read the server, a model, its fields and the generated
// schema follow from a MariaDB table; a host outside the allow-list is never contacted, a wrong
// password or a silent port is one clear error in the caller's language, and a silent port does not
// hold up the server. Each on the embedded database and on PostgreSQL. The test's MariaDB database
// and user are its own (random names), dropped afterwards.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countConnections, OUTSIDE_HOST } from '../support/listener.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const DEV = '/api/blade-develop';
const MARIADB_URL = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306/test';
const SUFFIX = randomBytes(5).toString('hex');
const DATABASE = `zs_test_${SUFFIX}`;
const USER = `zs_${SUFFIX}`;
const PASSWORD = `Pw-${randomBytes(6).toString('hex')}`;
const TABLE = 'biz_supplier_bill';
const FAILED = (name: string) => `连接数据源 ${name} 失败,请检查主机、端口、数据库、用户名和密码`;

let root: mysql.Connection;
const { hostname: HOST, port } = new URL(MARIADB_URL);
const PORT = Number(port || 3306);

beforeAll(async () => {
  root = await mysql.createConnection({ uri: MARIADB_URL, connectTimeout: 5000 });
  await root.query(`CREATE DATABASE ${DATABASE} CHARACTER SET utf8mb4`);
  await root.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY '${PASSWORD}'`);
  await root.query(`GRANT ALL ON ${DATABASE}.* TO '${USER}'@'%'`);
  await root.query(`CREATE TABLE ${DATABASE}.${TABLE} (
      id bigint PRIMARY KEY,
      tenant_id varchar(12),
      bill_title varchar(100) NOT NULL COMMENT '账单标题',
      supplier_id bigint,
      bill_date date COMMENT '账单日期',
      paid_at datetime,
      line_count int,
      amount decimal(18,2) NOT NULL COMMENT '金额',
      rate decimal(10,4),
      is_settled tinyint(1) NOT NULL DEFAULT 0,
      memo text,
      create_time datetime,
      is_deleted int
    ) COMMENT = '供应商账单'`);
  await root.query(`CREATE VIEW ${DATABASE}.v_open_bills AS SELECT id, bill_title FROM ${DATABASE}.${TABLE}`);
}, 30_000);

afterAll(async () => {
  await root?.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
  await root?.query(`DROP USER IF EXISTS '${USER}'@'%'`);
  await root?.end();
});

describe.each(databaseKinds())('code generation from MariaDB on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let sourceId: string;

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
  }, 120_000);

  afterAll(async () => {
    await server?.dispose();
  });

  it("takes the platform's JDBC URL and driver, seals the password and never answers it", async () => {
    const saved = await admin.post(`${DEV}/datasource/submit`, {
      name: '旧平台库',
      driverClass: 'com.mysql.cj.jdbc.Driver',
      url: `jdbc:mysql://${HOST}:${PORT}/${DATABASE}?useSSL=false&serverTimezone=GMT%2B8`,
      username: USER,
      password: PASSWORD,
    });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({
      code: 200,
      data: { driverClass: 'com.mysql.cj.jdbc.Driver', host: HOST, port: PORT, databaseName: DATABASE, username: USER },
    });
    sourceId = saved.body.data.id;
    const answers = [
      saved,
      await admin.get(`${DEV}/datasource/detail`, { id: sourceId }),
      await admin.get(`${DEV}/datasource/list`),
      await admin.get(`${DEV}/datasource/export`, { id: sourceId }),
      await admin.post(`${DEV}/datasource/test`, undefined, { id: sourceId }),
    ];
    for (const answer of answers) expect(answer.raw.toString('latin1')).not.toContain(PASSWORD);
    expect(answers[1].body.data).toMatchObject({ password: '******', driverClass: 'com.mysql.cj.jdbc.Driver' });
    const [stored] = await server.db.query(`SELECT secret FROM blade_datasource_secret WHERE datasource_id = $1`, [sourceId]);
    expect(stored.secret).toMatch(/^v1\./);
    expect(stored.secret).not.toContain(PASSWORD);
    await server.logs.flush();
    const logged = await server.db.query(`SELECT params FROM blade_log_api WHERE request_uri LIKE $1`, [`${DEV}/datasource/%`]);
    for (const row of logged) expect(String(row.params)).not.toContain(PASSWORD);
    // a mariadb:// URL names its driver itself
    const maria = await admin.post(`${DEV}/datasource/save`, { name: '玛丽亚库', url: `mariadb://${USER}@${HOST}/${DATABASE}` });
    expect(maria.body.data).toMatchObject({ driverClass: 'org.mariadb.jdbc.Driver', port: 3306 });
  });

  it("tests the connection: the server's version with the password it opened", async () => {
    const tested = await admin.post(`${DEV}/datasource/test`, undefined, { id: sourceId });
    const [[{ version }]] = (await root.query('SELECT VERSION() AS version')) as unknown as [[{ version: string }]];
    expect(tested.body, JSON.stringify(tested.body)).toMatchObject({
      code: 200,
      data: { name: '旧平台库', product: /mariadb/i.test(version) ? 'MariaDB' : 'MySQL', serverVersion: version },
    });
  });

  it('lists the tables of the database, not its views', async () => {
    const tables = await admin.get(`${DEV}/model/table-list`, { datasourceId: sourceId });
    expect(tables.body, JSON.stringify(tables.body)).toMatchObject({ code: 200, data: [{ tableName: TABLE, comment: '供应商账单' }] });
  });

  it('proposes the fields of a table, typed from its MySQL column types', async () => {
    const info = await admin.get(`${DEV}/model/table-info`, { tableName: TABLE, datasourceId: sourceId });
    expect(info.body.code).toBe(200);
    expect(info.body.data.fields.map((f: any) => [f.propertyName, f.fieldType, f.maxLength ?? null, f.comment, f.isRequired])).toEqual([
      ['billTitle', 'string', 100, '账单标题', true],
      ['supplierId', 'id', null, 'supplier_id', false],
      ['billDate', 'date', null, '账单日期', false],
      ['paidAt', 'datetime', null, 'paid_at', false],
      ['lineCount', 'integer', null, 'line_count', false],
      ['amount', 'money', null, '金额', true],
      ['rate', 'number', null, 'rate', false],
      ['isSettled', 'boolean', null, 'is_settled', true],
      ['memo', 'text', 4000, 'memo', false],
    ]);
    const missing = await admin.get(`${DEV}/model/table-info`, { tableName: 'no_such_table', datasourceId: sourceId });
    expect(missing.body.msg).toBe('数据表 no_such_table 不存在');
  });

  it('generates a schema from the MariaDB table through a model and its fields', async () => {
    const model = await admin.post(`${DEV}/model/save`, {
      modelName: '供应商账单',
      modelNameEn: 'Supplier bills',
      modelCode: 'supplierBill',
      modelTable: TABLE,
      datasourceId: sourceId,
    });
    expect(model.body, JSON.stringify(model.body)).toMatchObject({ code: 200 });
    const modelId = model.body.data.id;
    const info = await admin.get(`${DEV}/model/table-info`, { modelId });
    // the supplier reference needs its target: a subcontractor of ours
    const fields = info.body.data.fields.map((f: any) => (f.propertyName === 'supplierId' ? { ...f, refEntity: 'subcontractor' } : f));
    expect((await admin.post(`${DEV}/model-prototype/submit-list`, fields, { modelId })).body.code).toBe(200);
    const code = await admin.post(`${DEV}/code/save`, {
      codeName: '供应商账单',
      modelId,
      folder: 'custom',
      apiPath: '/api/blade-custom/supplier-bill',
      menuParent: 'develop',
    });
    const gen = await admin.post(`${DEV}/code/gen-code`, undefined, { ids: code.body.data.id });
    expect(gen.body, JSON.stringify(gen.body)).toMatchObject({ code: 200 });
    const [result] = gen.body.data;
    expect(result).toMatchObject({ key: 'supplierBill', file: 'schemas/custom/supplier-bill.schema.json', issues: [] });
    const { properties, required } = result.schema;
    expect(properties.billTitle).toMatchObject({ type: 'string', maxLength: 100, title: '账单标题' });
    expect(properties.supplierId).toMatchObject({ $ref: '../common/types.schema.json#/$defs/id', 'x-ref': { entity: 'subcontractor' } });
    expect(properties.billDate).toMatchObject({ type: 'string', format: 'date' });
    expect(properties.paidAt).toMatchObject({ type: 'string', format: 'datetime' });
    expect(properties.lineCount).toMatchObject({ type: 'integer' });
    expect(properties.amount).toMatchObject({ $ref: '../common/types.schema.json#/$defs/money' });
    expect(properties.rate).toMatchObject({ $ref: '../common/types.schema.json#/$defs/quantity' });
    expect(properties.isSettled).toMatchObject({ type: 'boolean' });
    expect(properties.memo).toMatchObject({ type: 'string', 'x-ui': { widget: 'textarea' } });
    expect(required).toEqual(['billTitle', 'amount', 'isSettled']);
  });

  it("answers a wrong password with one clear error in the caller's language, changing nothing", async () => {
    const wrong = 'Wrong-pass-5521';
    const saved = await admin.post(`${DEV}/datasource/save`, {
      name: '错密码库',
      driverClass: 'org.mariadb.jdbc.Driver',
      host: HOST,
      port: PORT,
      databaseName: DATABASE,
      username: USER,
      password: wrong,
    });
    const id = saved.body.data.id;
    const before = (await admin.get(`${DEV}/datasource/detail`, { id })).body.data;
    const [secret] = await server.db.query(`SELECT secret FROM blade_datasource_secret WHERE datasource_id = $1`, [id]);
    const zh = await admin.post(`${DEV}/datasource/test`, undefined, { id });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toBe(FAILED('错密码库'));
    const en = await client(server, await server.token(), 'en').get(`${DEV}/model/table-list`, { datasourceId: id });
    expect(en.body.msg).toBe('Could not connect to data source 错密码库; check its host, port, database, user and password');
    for (const answer of [zh, en]) {
      expect(answer.raw.toString()).not.toContain(wrong);
      // the server's own words (Access denied for user …) stay in the server's log
      expect(answer.raw.toString()).not.toMatch(/denied|ER_/i);
    }
    expect((await admin.get(`${DEV}/datasource/detail`, { id })).body.data).toEqual(before);
    expect(await server.db.query(`SELECT secret FROM blade_datasource_secret WHERE datasource_id = $1`, [id])).toEqual([secret]);
  });

  it('refuses a bad URL or a driver that contradicts it, saving nothing', async () => {
    const oracle = await admin.post(`${DEV}/datasource/save`, {
      name: '甲骨文库',
      url: 'jdbc:oracle:thin:@127.0.0.1:1521:orcl',
      username: 'u',
    });
    expect(oracle.status).toBe(400);
    expect(oracle.body.msg).toBe('连接地址的格式不正确');
    const mismatch = await admin.post(`${DEV}/datasource/save`, {
      name: '不符库',
      driverClass: 'org.postgresql.Driver',
      url: `jdbc:mysql://${HOST}:${PORT}/${DATABASE}`,
      username: USER,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.msg).toBe('驱动 org.postgresql.Driver 与连接地址的数据库类型不符');
    const names = (await admin.get(`${DEV}/datasource/list`, { size: '100' })).body.data.records.map((r: any) => r.name);
    expect(names).not.toContain('甲骨文库');
    expect(names).not.toContain('不符库');
  });

  it('refuses a host outside the allow-list before any connection is attempted', async () => {
    const outside = await countConnections();
    try {
      const saved = await admin.post(`${DEV}/datasource/save`, {
        name: '外部MySQL',
        url: `mysql://${USER}:${PASSWORD}@${OUTSIDE_HOST}:${outside.port}/${DATABASE}`,
      });
      const id = saved.body.data.id;
      for (const call of [
        () => admin.post(`${DEV}/datasource/test`, undefined, { id }),
        () => admin.get(`${DEV}/model/table-list`, { datasourceId: id }),
        () => admin.get(`${DEV}/model/table-info`, { datasourceId: id, tableName: TABLE }),
      ]) {
        const refused = await call();
        expect(refused.status).toBe(400);
        expect(refused.body.msg).toBe(`主机 ${OUTSIDE_HOST} 不在允许连接的主机列表中(ZS_DATASOURCE_HOSTS),未尝试连接`);
        expect(refused.raw.toString()).not.toContain(PASSWORD);
      }
      expect(outside.connections()).toBe(0);
      // the password typed inside the URL is masked in the API log too
      await server.logs.flush();
      const logged = await server.db.query(`SELECT params FROM blade_log_api WHERE request_uri LIKE $1`, [`${DEV}/datasource/save%`]);
      expect(logged.length).toBeGreaterThan(0);
      for (const row of logged) expect(String(row.params)).not.toContain(PASSWORD);
    } finally {
      await outside.close();
    }
  });

  it('gives up on a port that never answers within the connect timeout, serving others meanwhile', async () => {
    // accepts the connection and never sends MySQL's greeting
    const silent = await countConnections('127.0.0.1');
    try {
      const saved = await admin.post(`${DEV}/datasource/save`, {
        name: '无应答库',
        url: `jdbc:mysql://127.0.0.1:${silent.port}/${DATABASE}`,
        username: USER,
        password: PASSWORD,
      });
      let settled = false;
      const pending = admin.post(`${DEV}/datasource/test`, undefined, { id: saved.body.data.id }).finally(() => {
        settled = true;
      });
      await expect.poll(() => silent.connections(), { timeout: 5000 }).toBe(1);
      // the server answers other requests while the connection waits
      expect((await admin.get(`${DEV}/datasource/list`)).body.code).toBe(200);
      expect(settled).toBe(false);
      const failed = await pending;
      expect(failed.status).toBe(400);
      expect(failed.body.msg).toBe(FAILED('无应答库'));
    } finally {
      await silent.close();
    }
  }, 30_000);

  it("keeps a tenant off this machine's MySQL and out of the platform's data sources", async () => {
    const tenant = await server.newTenant();
    const other = client(server, tenant.token);
    const saved = await other.post(`${DEV}/datasource/save`, {
      name: '本机库',
      url: `mysql://${USER}:${PASSWORD}@${HOST}:${PORT}/${DATABASE}`,
    });
    const refused = await other.post(`${DEV}/datasource/test`, undefined, { id: saved.body.data.id });
    expect(refused.body.msg).toBe(`主机 ${HOST} 是本机或本系统数据库所在的服务器,只有平台管理员可以连接,未尝试连接`);
    expect((await other.get(`${DEV}/model/table-list`, { datasourceId: sourceId })).status).toBe(404);
    expect((await other.post(`${DEV}/datasource/test`, undefined, { id: sourceId })).status).toBe(404);
  });

  it("does not put a tenant's own database on MySQL", async () => {
    const tenant = await server.newTenant();
    const bind = await admin.post('/api/blade-system/tenant/datasource', undefined, { tenantId: tenant.tenantId, datasourceId: sourceId });
    expect(bind.status).toBe(400);
    expect(bind.body.msg).toBe(
      kind === 'postgres'
        ? '数据源 旧平台库 不是 PostgreSQL 数据库,租户独立数据库只能使用 PostgreSQL'
        : '租户独立数据库需要主数据库为 PostgreSQL(设置 DATABASE_URL),内嵌数据库不支持',
    );
  });
});
