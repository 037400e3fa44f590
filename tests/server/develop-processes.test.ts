// Code generation's install across the processes of one installation: two apps on the same
// database and the same schema folder. After an install in A, B hears of it on the cache bus
// (LISTEN/NOTIFY; on PGlite the two apps share one embedded database in this process) and serves
// the new document type: its routes, its schema set for browsers and its OpenAPI description,
// without a restart.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { testConfig } from './config.ts';
import { client, createTestDatabase, databaseKinds, openTestDb, type Api, type TestServer } from './harness.ts';

const DEV = '/api/blade-develop';
const TABLE = 'biz_pour_record';
const API = '/api/blade-custom/pour-record';

function schemaCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zs-develop-processes-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'entities.manifest.json'), join(dir, 'entities.manifest.json'));
  return dir;
}

/** The platform administrator's API on one app. */
async function adminOf(app: App, kind: TestServer['kind']): Promise<Api> {
  const token = await app.tokens.sign({
    tenant_id: '000000',
    user_id: '1123598821738675201',
    dept_id: '1123598813738675201',
    role_name: 'administrator',
  });
  return client({ ...app, kind } as TestServer, token);
}

/** The version of the schema set an app answers browsers. */
async function versionOn(api: Api): Promise<string> {
  return JSON.parse((await api.get('/api/schemas')).raw.toString()).version;
}

/** Polls until `check` passes or the time is up (a notification crosses processes asynchronously). */
async function eventually(check: () => Promise<void>, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe.each(databaseKinds())('an install reaches every process on %s', (kind) => {
  let a: App;
  let b: App;
  let schemaDir: string;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    schemaDir = schemaCopy();
    const config = testConfig({ schemaDir });
    if (kind === 'postgres') {
      // two pools, two LISTEN connections: as two server processes have
      const { url, drop } = await createTestDatabase();
      a = await createApp({ ...config, databaseUrl: url });
      b = await createApp({ ...config, databaseUrl: url });
      dispose = drop;
    } else {
      const { db, drop } = await openTestDb(kind);
      a = await createApp(config, { db, logger: false });
      b = await createApp(config, { db, logger: false });
      dispose = drop;
    }
  }, 240_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dispose?.();
    rmSync(schemaDir, { recursive: true, force: true });
  });

  it('serves the new type on B after A installed it: routes, schema set and OpenAPI', async () => {
    const onA = await adminOf(a, kind);
    const onB = await adminOf(b, kind);
    const versionBefore = await versionOn(onB);
    expect((await onB.get(`${API}/list`)).status).toBe(404);

    await a.db.exec(`CREATE TABLE ${TABLE} (id bigint PRIMARY KEY, pour_no varchar(40) NOT NULL, crew integer)`);
    const model = await onA.post(`${DEV}/model/save`, {
      modelName: '浇筑记录',
      modelNameEn: 'Pour record',
      modelCode: 'pourRecord',
      modelTable: TABLE,
    });
    const fields = (await onA.get(`${DEV}/model/table-info`, { modelId: model.body.data.id })).body.data.fields;
    await onA.post(`${DEV}/model-prototype/submit-list`, fields, { modelId: model.body.data.id });
    const code = await onA.post(`${DEV}/code/save`, {
      codeName: '浇筑记录',
      modelId: model.body.data.id,
      folder: 'custom',
      apiPath: API,
      menuParent: 'develop',
    });
    const installed = await onA.post(`${DEV}/code/install`, undefined, { id: code.body.data.id });
    expect([installed.body.code, installed.body.msg]).toEqual([200, expect.any(String)]);

    await eventually(async () => expect(await versionOn(onB)).toBe(installed.body.data.version));
    expect(installed.body.data.version).not.toBe(versionBefore);
    // a record saved through B is read through A: one table, both processes serve it
    const saved = await onB.post(`${API}/save`, { pourNo: 'P-0001', crew: 12 });
    expect(saved.body).toMatchObject({ code: 200, data: { pourNo: 'P-0001', crew: 12 } });
    expect((await onA.get(`${API}/detail`, { id: saved.body.data.id })).body.data.pourNo).toBe('P-0001');
    const refused = await onB.post(`${API}/save`, { crew: 1 });
    expect(refused.body.data.errors[0].path).toBe('/pourNo');
    const openapi = JSON.parse((await onB.get('/api/openapi.json')).raw.toString());
    expect(Object.keys(openapi.paths)).toContain(`${API}/list`);
  });
});
