// Low-code tooling (/api/blade-develop): data sources whose password is sealed and never answered,
// an allow-list of hosts checked before any connection, a table read from information_schema turned
// into a model, its fields and a generated schema that passes the dialect and the linter, and the
// administrator's additive install that serves the new document type without a restart. Each on the
// embedded database and on PostgreSQL, with another tenant kept out.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { createApp } from '../../src/server/app.ts';
import { PROJECT_ROOT, readSchemaSource } from '../../src/server/schema-source.ts';
import { countConnections, OUTSIDE_HOST } from '../support/listener.ts';
import { testConfig } from './config.ts';
import type { SchemaSource } from '../../src/engine/model/source.ts';
import { client, databaseKinds, openTestDb, type Api, type TestServer } from './harness.ts';

const DEV = '/api/blade-develop';
const PASSWORD = 'Pw-never-shown-7319';
/** A non-routable address: a connection attempt there would hang until its timeout. */
const BLACKHOLE = '10.255.255.1';
const TABLE = 'biz_site_diary';

/** GET /api/schemas as a browser reads it: the schema set, not enveloped. */
async function schemaSet(api: Api) {
  const answer = await api.get('/api/schemas');
  return { ...answer, set: answer.status === 200 ? (JSON.parse(answer.raw.toString()) as SchemaSource & { version: string }) : undefined };
}

/** A copy of the schema set that install may write into. */
function schemaCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zs-develop-schemas-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'entities.manifest.json'), join(dir, 'entities.manifest.json'));
  return dir;
}

describe.each(databaseKinds())('low-code tooling on %s', (kind) => {
  let server: TestServer;
  let schemaDir: string;
  let admin: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;

  beforeAll(async () => {
    schemaDir = schemaCopy();
    const { db, drop } = await openTestDb(kind);
    const app = await createApp(testConfig({ schemaDir }), { db, logger: false });
    const token = (claims = {}) =>
      app.tokens.sign({
        tenant_id: '000000',
        user_id: '1123598821738675201',
        dept_id: '1123598813738675201',
        role_name: 'administrator',
        ...claims,
      });
    server = {
      ...app,
      kind,
      token,
      newTenant: undefined as never,
      dispose: async () => {
        await app.close();
        await drop();
      },
    };
    admin = client(server, await token());
    const tenant = await admin.post('/api/blade-system/tenant/save', { tenantName: '另一家公司', linkman: '测试', accountNumber: -1 });
    const tenantId = tenant.body.data.tenantId;
    const [b] = await app.db.query(
      `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
      [tenantId],
    );
    other = client(
      server,
      await app.tokens.sign({ tenant_id: tenantId, user_id: b.id, dept_id: b.deptId, role_id: b.roleId, role_name: 'admin' }),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.dispose();
    rmSync(schemaDir, { recursive: true, force: true });
  });

  describe('data sources', () => {
    it('parses a postgres:// URL, keeps the password sealed apart and never answers it', async () => {
      const saved = await admin.post(`${DEV}/datasource/save`, {
        name: '成本库',
        url: `postgres://report:${PASSWORD}@127.0.0.1:5432/cost`,
      });
      expect(saved.body.code).toBe(200);
      expect(saved.body.data).toMatchObject({ host: '127.0.0.1', port: 5432, databaseName: 'cost', username: 'report' });
      expect(saved.body.data).not.toHaveProperty('url');
      const id = saved.body.data.id;
      const answers = [
        saved,
        await admin.get(`${DEV}/datasource/detail`, { id }),
        await admin.get(`${DEV}/datasource/list`),
        await admin.get(`${DEV}/datasource/export`, { id }),
        await admin.post(`${DEV}/datasource/update`, {
          id,
          name: '成本库',
          host: '127.0.0.1',
          port: 5432,
          databaseName: 'cost',
          username: 'report',
          password: '',
        }),
      ];
      for (const answer of answers) expect(answer.raw.toString('latin1')).not.toContain(PASSWORD);
      // the detail holds the placeholder "set, unchanged" where the secrets are: an edit form that
      // posts the whole record back (the platform's client does) changes nothing of them
      expect(answers[1].body.data).toMatchObject({ password: '******', url: '******' });
      const [stored] = await server.db.query(`SELECT secret FROM blade_datasource_secret WHERE datasource_id = $1`, [id]);
      expect(stored.secret).toMatch(/^v1\./);
      expect(stored.secret).not.toContain(PASSWORD);
      const resent = await admin.post(`${DEV}/datasource/submit`, { ...answers[1].body.data, remark: '原样提交' });
      expect(resent.body, JSON.stringify(resent.body)).toMatchObject({ code: 200, data: { remark: '原样提交', username: 'report' } });
      const [kept] = await server.db.query(`SELECT secret FROM blade_datasource_secret WHERE datasource_id = $1`, [id]);
      expect(kept.secret).toBe(stored.secret);
      await server.logs.flush();
      const logged = await server.db.query(`SELECT params FROM blade_log_api WHERE request_uri LIKE $1`, [`${DEV}/datasource/%`]);
      expect(logged.length).toBeGreaterThan(0);
      for (const row of logged) expect(String(row.params)).not.toContain(PASSWORD);
    });

    it("refuses anything but a plain PostgreSQL or MySQL URL, in the caller's language, storing nothing", async () => {
      for (const url of [
        'jdbc:oracle:thin:@127.0.0.1:1521:orcl',
        'mysql://root:x@127.0.0.1/db?socketPath=/tmp/mysql.sock',
        `postgres://u:p@127.0.0.1/db?host=${BLACKHOLE}`,
        'postgres://127.0.0.1/db',
        'postgres://u@127.0.0.1/',
      ]) {
        const zh = await admin.post(`${DEV}/datasource/save`, { name: `坏地址${url.length}`, url });
        expect(zh.status, url).toBe(400);
        expect(zh.body.msg).toMatch(/连接地址|请填写连接地址/);
      }
      const en = await client(server, await server.token(), 'en').post(`${DEV}/datasource/save`, {
        name: 'bad',
        url: 'postgres://root@h/db?sslmode=disable',
      });
      expect(en.body.msg).toContain('postgres://user:password@host:port/database');
      const none = await admin.post(`${DEV}/datasource/save`, { name: '不完整' });
      expect(none.body.msg).toBe('请填写连接地址,或主机、数据库和用户名');
      const list = await admin.get(`${DEV}/datasource/list`, { size: '100' });
      expect(list.body.data.records.map((r: any) => r.name)).toEqual(['成本库']);
    });

    it('refuses a host outside the allow-list before any connection is attempted', async () => {
      // a listener on a loopback address the allow-list leaves out: it would see an attempt
      const outside = await countConnections();
      try {
        const saved = await admin.post(`${DEV}/datasource/save`, {
          name: '外部库',
          host: OUTSIDE_HOST,
          port: outside.port,
          databaseName: 'x',
          username: 'u',
          password: PASSWORD,
        });
        const id = saved.body.data.id;
        for (const call of [
          () => admin.post(`${DEV}/datasource/test`, undefined, { id }),
          () => admin.get(`${DEV}/model/table-list`, { datasourceId: id }),
        ]) {
          const refused = await call();
          expect(refused.status).toBe(400);
          expect(refused.body.msg).toBe(`主机 ${OUTSIDE_HOST} 不在允许连接的主机列表中(ZS_DATASOURCE_HOSTS),未尝试连接`);
          expect(refused.raw.toString()).not.toContain(PASSWORD);
        }
        expect(outside.connections()).toBe(0);
      } finally {
        await outside.close();
      }
    });

    it.runIf(inject('postgresUrl'))('connects to an allowed host with the password it opened', async () => {
      const saved = await admin.post(`${DEV}/datasource/save`, { name: '测试库', url: inject('postgresUrl') });
      expect(saved.body.code).toBe(200);
      const tested = await admin.post(`${DEV}/datasource/test`, undefined, { id: saved.body.data.id });
      expect(tested.body.code).toBe(200);
      expect(tested.body.data.serverVersion).toMatch(/^\d+/);
      expect(tested.body.data.product).toBe('PostgreSQL');
      const tables = await admin.get(`${DEV}/model/table-list`, { datasourceId: saved.body.data.id });
      expect(Array.isArray(tables.body.data)).toBe(true);
    });

    it('keeps another tenant out: list, detail, test and the application database', async () => {
      const [mine] = (await admin.get(`${DEV}/datasource/list`)).body.data.records;
      const list = await other.get(`${DEV}/datasource/list`);
      expect(list.body.code).toBe(200);
      expect(list.body.data.total).toBe(0);
      expect((await other.get(`${DEV}/datasource/detail`, { id: mine.id })).status).toBe(404);
      expect((await other.post(`${DEV}/datasource/test`, undefined, { id: mine.id })).status).toBe(404);
      expect((await other.post(`${DEV}/datasource/remove`, undefined, { ids: mine.id })).status).toBe(404);
      const main = await other.get(`${DEV}/model/table-list`);
      expect(main.status).toBe(400);
      expect(main.body.msg).toBe('只有平台租户可以读取本系统数据库的表结构,请选择数据源');
    });
  });

  describe('from a table to a served document type', () => {
    let modelId: string;
    let codeId: string;

    it('reads a table of the database and proposes its fields', async () => {
      await server.db.exec(`CREATE TABLE ${TABLE} (id bigint PRIMARY KEY, title varchar(100) NOT NULL, work_date date, headcount integer, cost numeric(18,2), note text);
        COMMENT ON COLUMN ${TABLE}.title IS '日志标题'; COMMENT ON COLUMN ${TABLE}.work_date IS '施工日期';`);
      const tables = await admin.get(`${DEV}/model/table-list`);
      expect(tables.body.data.map((t: any) => t.tableName)).toContain(TABLE);
      const info = await admin.get(`${DEV}/model/table-info`, { tableName: TABLE });
      expect(info.body.data.fields.map((f: any) => [f.propertyName, f.fieldType, f.comment, f.isRequired])).toEqual([
        ['title', 'string', '日志标题', true],
        ['workDate', 'date', '施工日期', false],
        ['headcount', 'integer', 'headcount', false],
        ['cost', 'money', 'cost', false],
        ['note', 'text', 'note', false],
      ]);
      const missing = await admin.get(`${DEV}/model/table-info`, { tableName: 'no_such_table' });
      expect(missing.body.msg).toBe('数据表 no_such_table 不存在');
    });

    it("keeps a model's fields together: submit-list replaces them all or none", async () => {
      const model = await admin.post(`${DEV}/model/save`, {
        modelName: '施工日志',
        modelNameEn: 'Site diary',
        modelCode: 'siteDiary',
        modelTable: TABLE,
      });
      modelId = model.body.data.id;
      const info = (await admin.get(`${DEV}/model/table-info`, { modelId })).body.data;
      const fields = info.fields.map((f: any) => ({ ...f, isQuery: f.propertyName === 'title' || f.propertyName === 'workDate' }));
      const bad = await admin.post(`${DEV}/model-prototype/submit-list`, [...fields, { ...fields[0], propertyName: 'Not-valid' }], {
        modelId,
      });
      expect(bad.status).toBe(400);
      expect((await admin.get(`${DEV}/model-prototype/select`, { modelId })).body.data).toEqual([]);
      const ok = await admin.post(`${DEV}/model-prototype/submit-list`, fields, { modelId });
      expect(ok.body.code).toBe(200);
      const again = await admin.post(`${DEV}/model-prototype/submit-list`, fields, { modelId });
      expect(again.body.code).toBe(200);
      const selected = (await admin.get(`${DEV}/model-prototype/select`, { modelId })).body.data;
      expect(selected.map((p: any) => p.propertyName)).toEqual(['title', 'workDate', 'headcount', 'cost', 'note']);
      expect((await other.get(`${DEV}/model-prototype/select`, { modelId })).status).toBe(404);
    });

    it('generates a schema that passes the dialect and the linter, for review and download', async () => {
      const code = await admin.post(`${DEV}/code/save`, {
        codeName: '施工日志',
        modelId,
        folder: 'custom',
        apiPath: '/api/blade-custom/site-diary',
        menuParent: 'develop',
      });
      codeId = code.body.data.id;
      const gen = await admin.post(`${DEV}/code/gen-code`, undefined, { ids: codeId });
      expect(gen.body.code).toBe(200);
      const [result] = gen.body.data;
      expect(result).toMatchObject({
        key: 'siteDiary',
        file: 'schemas/custom/site-diary.schema.json',
        manifestEntry: { siteDiary: 'schemas/custom/site-diary.schema.json' },
        issues: [],
      });
      expect(result.schema['x-search'].fields).toEqual([
        { field: 'title', operator: 'like' },
        { field: 'workDate', operator: 'dateRange' },
      ]);
      // the same check the server starts with, done here on its own
      const source = readSchemaSource(schemaDir);
      const { catalog } = compile({
        ...source,
        files: { ...source.files, [result.file]: result.schema },
        manifest: { ...source.manifest, entities: { ...source.manifest.entities, siteDiary: result.file } },
      });
      expect(catalog.entities.siteDiary.fields.map((f) => f.name)).toEqual(
        expect.arrayContaining(['title', 'workDate', 'headcount', 'cost', 'note']),
      );
      const download = await admin.get(`${DEV}/code/download`, { id: codeId });
      expect(download.headers['content-disposition']).toBe('attachment; filename="site-diary.schema.json"');
      expect(JSON.parse(download.raw.toString())).toEqual(result.schema);
      const copy = await admin.post(`${DEV}/code/copy`, undefined, { id: codeId });
      expect(copy.body.data).toMatchObject({ codeName: '施工日志-copy', modelId, apiPath: '/api/blade-custom/site-diary' });
      expect((await other.post(`${DEV}/code/gen-code`, undefined, { ids: codeId })).status).toBe(404);
    });

    it('answers the schema set to signed-in users only, tagged with its version', async () => {
      expect((await client(server).get('/api/schemas')).status).toBe(401);
      const { status, headers, set } = await schemaSet(other);
      expect(status).toBe(200);
      expect(headers.etag).toBe(`"${set!.version}"`);
      expect(set!.manifest.entities.project).toBe('schemas/construct/project.schema.json');
      expect(Object.keys(set!.files)).toContain('schemas/construct/project.schema.json');
      expect(set!.meta.length).toBeGreaterThan(0);
      // what the browser compiles its catalog from compiles here too
      expect(Object.keys(compile(set!).catalog.entities)).toEqual(Object.keys(server.catalog.entities));
      const again = await server.app.inject({
        method: 'GET',
        url: '/api/schemas',
        headers: { 'blade-auth': `bearer ${await server.token()}`, 'if-none-match': headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const zipped = await server.app.inject({
        method: 'GET',
        url: '/api/schemas',
        headers: { 'blade-auth': `bearer ${await server.token()}`, 'accept-encoding': 'gzip, deflate' },
      });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(set);
    });

    it('installs only for the platform administrator, then serves the new type without a restart', async () => {
      expect((await other.post(`${DEV}/code/install`, undefined, { id: codeId })).status).toBe(403);
      expect((await admin.get('/api/blade-custom/site-diary/list')).status).toBe(404);
      const before = (await schemaSet(admin)).set!;
      const installed = await admin.post(`${DEV}/code/install`, undefined, { id: codeId });
      expect(installed.body).toMatchObject({ code: 200, data: { key: 'siteDiary', api: '/api/blade-custom/site-diary', table: TABLE } });
      expect(existsSync(join(schemaDir, 'schemas/custom/site-diary.schema.json'))).toBe(true);
      expect(JSON.parse(readFileSync(join(schemaDir, 'entities.manifest.json'), 'utf8')).entities.siteDiary).toBe(
        'schemas/custom/site-diary.schema.json',
      );
      // the repository's own set is untouched
      expect(existsSync(join(PROJECT_ROOT, 'schemas/custom/site-diary.schema.json'))).toBe(false);

      const saved = await admin.post('/api/blade-custom/site-diary/save', {
        title: '三号楼浇筑',
        workDate: '2026-11-20',
        headcount: 12,
        cost: 3456.785,
      });
      expect(saved.body.code).toBe(200);
      expect(saved.body.data).toMatchObject({ title: '三号楼浇筑', workDate: '2026-11-20', headcount: 12, cost: 3456.79 });
      const found = await admin.get('/api/blade-custom/site-diary/list', { title: '浇筑' });
      expect(found.body.data.records.map((r: any) => r.id)).toEqual([saved.body.data.id]);
      // like every type: without the /api prefix too, and its export, which the browser opens itself, takes the token from the query
      const unprefixed = await admin.get('/blade-custom/site-diary/list', { title: '浇筑' });
      expect(unprefixed.body.data.records.map((r: any) => r.id)).toEqual([saved.body.data.id]);
      const exported = await server.app.inject({
        method: 'GET',
        url: `/api/blade-custom/site-diary/export?blade-auth=${encodeURIComponent(`bearer ${await server.token()}`)}`,
      });
      expect(exported.statusCode).toBe(200);
      expect(exported.headers['content-type']).toContain('spreadsheetml');
      const missingTitle = await admin.post('/api/blade-custom/site-diary/save', { headcount: 1 });
      expect(missingTitle.status).toBe(400);
      expect(missingTitle.body.data.errors[0].path).toBe('/title');
      // another tenant is granted nothing: it neither reads the type nor finds the record
      expect((await other.get('/api/blade-custom/site-diary/detail', { id: saved.body.data.id })).status).toBe(403);
      const [menu] = await server.db.query(`SELECT name, path FROM blade_menu WHERE code = 'site_diary' AND is_deleted = 0`);
      expect(menu).toEqual({ name: '施工日志', path: '/custom/site-diary' });
      // the platform's administrator role holds the menu and its buttons, as in its grant tree
      const granted = await server.db.query(
        `SELECT m.code FROM blade_role_menu rm JOIN blade_menu m ON m.id = rm.menu_id JOIN blade_role r ON r.id = rm.role_id
          WHERE r.role_alias = 'administrator' AND rm.tenant_id = '000000' AND m.code LIKE 'site_diary%' ORDER BY m.code`,
      );
      expect(granted.map((g) => g.code)).toEqual([
        'site_diary',
        'site_diary_add',
        'site_diary_delete',
        'site_diary_edit',
        'site_diary_export',
        'site_diary_view',
      ]);

      // browsers load the new set (a new version), and the OpenAPI document describes the type
      const after = (await schemaSet(admin)).set!;
      expect(after.version).not.toBe(before.version);
      expect(installed.body.data.version).toBe(after.version);
      expect(after.manifest.entities.siteDiary).toBe('schemas/custom/site-diary.schema.json');
      expect(compile(after).catalog.entities.siteDiary.menu?.path).toBe('/custom/site-diary');
      const openapi = JSON.parse((await admin.get('/api/openapi.json')).raw.toString());
      expect(Object.keys(openapi.paths)).toContain('/api/blade-custom/site-diary/list');
    });

    it('refuses to write a change to an existing document type, saying why', async () => {
      const again = await admin.post(`${DEV}/code/install`, undefined, { id: codeId });
      expect(again.status).toBe(400);
      expect(again.body.msg).toContain('只能新增单据类型,不能修改已有的:单据键 siteDiary 已存在');
      const clash = await admin.post(`${DEV}/model/save`, {
        modelName: '项目副本',
        modelNameEn: 'Projects again',
        modelCode: 'projectAgain',
        modelTable: 'construct_project',
      });
      await admin.post(
        `${DEV}/model-prototype/submit-list`,
        [{ jdbcName: 'name', propertyName: 'name', comment: '名称', commentEn: 'Name', fieldType: 'string' }],
        { modelId: clash.body.data.id },
      );
      const clashCode = await admin.post(`${DEV}/code/save`, {
        codeName: '项目副本',
        modelId: clash.body.data.id,
        folder: 'custom',
        apiPath: '/api/blade-custom/project-again',
        menuParent: 'develop',
      });
      const refused = await client(server, await server.token(), 'en').post(`${DEV}/code/install`, undefined, {
        id: clashCode.body.data.id,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toContain('table construct_project belongs to project');
      expect(JSON.parse(readFileSync(join(schemaDir, 'entities.manifest.json'), 'utf8')).entities.projectAgain).toBeUndefined();

      // a menu group that does not exist: refused before anything is written
      const orphan = await admin.post(`${DEV}/code/save`, {
        codeName: '无菜单',
        modelId: clash.body.data.id,
        folder: 'custom',
        apiPath: '/api/blade-custom/orphan',
        menuParent: 'nowhere',
      });
      const noMenu = await admin.post(`${DEV}/code/install`, undefined, { id: orphan.body.data.id });
      expect(noMenu.body.msg).toBe('上级菜单 nowhere 不存在');

      // an existing table whose column the model would change: the database refuses, nothing is written
      await server.db.exec(`CREATE TABLE biz_odd (id bigint PRIMARY KEY, amount text)`);
      const odd = await admin.post(`${DEV}/model/save`, { modelName: '异型', modelNameEn: 'Odd', modelCode: 'odd', modelTable: 'biz_odd' });
      await admin.post(
        `${DEV}/model-prototype/submit-list`,
        [{ jdbcName: 'amount', propertyName: 'amount', comment: '金额', commentEn: 'Amount', fieldType: 'money' }],
        { modelId: odd.body.data.id },
      );
      const oddCode = await admin.post(`${DEV}/code/save`, {
        codeName: '异型',
        modelId: odd.body.data.id,
        folder: 'custom',
        apiPath: '/api/blade-custom/odd',
        menuParent: 'develop',
      });
      const changed = await admin.post(`${DEV}/code/install`, undefined, { id: oddCode.body.data.id });
      expect(changed.status).toBe(400);
      expect(changed.body.msg).toContain('biz_odd.amount: the model says numeric(18,2), the database has text');
      expect(existsSync(join(schemaDir, 'schemas/custom/odd.schema.json'))).toBe(false);
    });
  });
});
