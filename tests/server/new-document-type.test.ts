// Issue #22's proof: a document type with approval reaches a running installation from files alone.
// An installation starts on its data, stops, gets the files of tests/fixtures/new-document-type
// (a schema, its BPMN, a dictionary file and their manifest lines: 安全检查记录, a type nobody here
// wrote) copied into its schema root, and starts again on the same data. Then a non-administrator
// the schema grants the type to (the seeded clerk, role project_clerk) finds it in the sidebar under
// its new group, saves a record with rows (its new dictionaries accepted, its total computed, its
// conditional field required), submits it and sees the approval routed by the amount: the first task
// goes to the project manager role up to the threshold and to the cost manager role above it.
// Nothing the installation had changes. On the embedded database, on PostgreSQL, and for a tenant
// on its own database.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { Config } from '../../src/server/config.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { checkSchemaSet } from '../../src/server/reference-checks.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { ok, tokenOf } from './approval.ts';
import { testConfig } from './config.ts';
import { project } from './fixtures.ts';
import { client, createTestDatabase, databaseKinds, seededTemplate, type Api, type DbKind, type TestServer } from './harness.ts';

const FIXTURE = join(PROJECT_ROOT, 'tests/fixtures/new-document-type');
const DOC = '/api/construct/safetyInspection';
const FLOW = '/api/blade-flow';
const MANIFEST = 'entities.manifest.json';
/** The menu group and entry the fixture's schema declares (x-entity.menu). */
const GROUP = { code: 'cost_safety', name: '安全管理' };
const ENTRY = { code: 'safety_inspection', name: '安全检查记录' };
/** The platform's flow.amountThreshold (schemas/seed/40-workflow.json): the BPMN's condition reads it. */
const THRESHOLD = 500_000;
/** Every test starts the server twice. */
const STARTS_TIMEOUT = 300_000;

/** The installation's schema root: a copy of the schema set this tree ships. */
function installationSchemas(): string {
  const root = mkdtempSync(join(tmpdir(), 'zs-new-type-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(root, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, MANIFEST), join(root, MANIFEST));
  return root;
}

/** What an implementer does: copies the fixture's files into the schema root and adds its manifest lines. */
function addDocumentType(root: string): void {
  cpSync(join(FIXTURE, 'schemas'), join(root, 'schemas'), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(root, MANIFEST), 'utf8'));
  const lines = JSON.parse(readFileSync(join(FIXTURE, 'manifest-lines.json'), 'utf8'));
  manifest.dictionaries.push(...lines.dictionaries);
  Object.assign(manifest.entities, lines.entities);
  writeFileSync(join(root, MANIFEST), JSON.stringify(manifest, null, 2));
}

/** An installation's data as a first start left it (the run's seeded database), and how to remove it. */
async function seededData(kind: DbKind): Promise<{ config: Partial<Config>; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const { url, drop } = await createTestDatabase({ seeded: true });
    return { config: { databaseUrl: url }, cleanup: drop };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'zs-new-type-data-'));
  // the server's embedded database lives in <DATA_DIR>/pg
  const db = await openPglite(join(dataDir, 'pg'), { loadDataDir: seededTemplate() });
  await db.close();
  return { config: { dataDir }, cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** The server as main.ts runs it: it opens the data itself and closes it when it stops. */
function start(data: Partial<Config>, schemaDir: string): Promise<App> {
  return createApp(testConfig({ ...data, schemaDir }), { logger: false });
}

/** A user's API, signed as login signs it (role ids and aliases from the database). */
async function userApi(app: App, account: string, tenantId: string): Promise<Api> {
  return client(app as TestServer, await tokenOf(app, account, tenantId));
}

interface MenuNode {
  code: string;
  name: string;
  path: string;
  children?: MenuNode[];
}

/** Every menu code of a tree answer (the sidebar's routes, the buttons), depth first. */
function codesOf(nodes: MenuNode[]): string[] {
  return nodes.flatMap((n) => [n.code, ...codesOf(n.children ?? [])]);
}

/** What a user of the installation sees of it: the sidebar, the buttons, and how many records each list has. */
async function viewOf(api: Api, lists: string[]) {
  const totals: Record<string, number> = {};
  for (const list of lists) totals[list] = ok(await api.get(`${list}/list`, { size: '1' })).total;
  return {
    menus: codesOf(ok(await api.get('/api/blade-system/menu/routes'))),
    buttons: codesOf(ok(await api.get('/api/blade-system/menu/buttons'))),
    totals,
  };
}

/** The lists the clerk reads before and after: the demo's records must all be there after the restart. */
const DEMO_LISTS = [
  '/api/construct/project',
  '/api/construct/materialTotalDemand',
  '/api/construct/expenditureContract',
  '/api/construct/goodsArchives',
];

/** A safety inspection of `projectId` with hazard rows of [quantity, unit cost]. */
function inspection(projectId: string, title: string, rows: [number, number][], extra: Record<string, unknown> = {}) {
  return {
    projectId,
    title,
    inspectionDate: '2026-11-20',
    inspectionType: 'special',
    inspectorName: '周安全',
    conclusion: 'rectify',
    rectifyDeadline: '2026-11-30',
    details: rows.map(([rectifyQty, unitCost], i) => ({
      location: `3号楼外脚手架第${i + 1}层`,
      hazard: '连墙件缺失',
      hazardLevel: i === 0 ? 'major' : 'general',
      responsibleParty: '南京恒通建筑劳务有限公司',
      rectifyQty,
      unitCost,
    })),
    ...extra,
  };
}

/** The approvals one user may claim of a process instance: the candidate group the process picked. */
async function claimable(api: Api, processInstanceId: string) {
  const list = ok(await api.get(`${FLOW}/work/claim-list`, { size: '100' }));
  return list.records.filter((r: any) => r.processInstanceId === processInstanceId);
}

interface People {
  clerk: Api;
  manager: Api;
  costManager: Api;
}

/**
 * The checks a tenant's users make after the restart: the sidebar gained the group and its entry
 * (nothing else), saving with rows works, submit routes by amount, the category names the type.
 */
function documentTypeChecks(context: () => { app: App; people: People; projectId: string; before: Awaited<ReturnType<typeof viewOf>> }) {
  it('says on its ready line what the restart added: the dictionaries, the group and entry with their buttons, grants and the process; nothing updated', () => {
    const notes = context().app.startup.notes.filter((n) => n.startsWith('reference data:'));
    // menus and buttons are shared (once); dictionaries, grants and processes count per tenant
    expect(notes).toEqual([
      expect.stringMatching(
        /^reference data: \d+ dictionaries, \d+ dictionary items, 2 menus, 5 buttons, \d+ grants, \d+ process(es)? added$/,
      ),
    ]);
  });

  it('shows the clerk the new group and entry in the sidebar, with the granted buttons; the project manager may view it', async () => {
    const { people, before } = context();
    const routes: MenuNode[] = ok(await people.clerk.get('/api/blade-system/menu/routes'));
    const group = routes.find((r) => r.code === GROUP.code);
    expect(group).toMatchObject({ name: GROUP.name });
    expect(group?.children?.map((c) => [c.code, c.name, c.path])).toEqual([[ENTRY.code, ENTRY.name, '/cost-safety/safetyInspection']]);
    const after = await viewOf(people.clerk, []);
    // the sidebar gained the group and its entry, and lost nothing
    expect(after.menus.filter((c) => !before.menus.includes(c))).toEqual([GROUP.code, ENTRY.code]);
    expect(before.menus.filter((c) => !after.menus.includes(c))).toEqual([]);
    // and buttons: the entry's five, nothing else
    expect(after.buttons.filter((c) => !before.buttons.includes(c)).sort()).toEqual(
      [GROUP.code, ENTRY.code, ...['add', 'delete', 'edit', 'export', 'view'].map((a) => `${ENTRY.code}_${a}`)].sort(),
    );
    expect(before.buttons.filter((c) => !after.buttons.includes(c))).toEqual([]);
    const manager = await viewOf(people.manager, []);
    expect(manager.menus).toContain(ENTRY.code);
    expect(manager.buttons.filter((c) => c.startsWith(`${ENTRY.code}_`))).toEqual([`${ENTRY.code}_view`]);
  });

  it('saves a record with rows: the new dictionaries answer and are checked, the total is computed, the conditional field is required', async () => {
    const { people, projectId } = context();
    const levels = ok(await people.clerk.get('/api/blade-system/dict-biz/dictionary', { code: 'safety_hazard_level' }));
    expect(levels.map((d: any) => [d.dictKey, d.dictValue])).toEqual([
      ['general', '一般隐患'],
      ['major', '重大隐患'],
    ]);
    const saved = ok(
      await people.clerk.post(
        `${DOC}/save`,
        inspection(projectId, '11月安全专项检查', [
          [10, 150],
          [5, 200],
        ]),
      ),
    );
    expect(saved).toMatchObject({ code: expect.stringMatching(/^AQJC/), totalRectifyCost: 2500, approvalStatus: 'draft' });
    const detail = ok(await people.clerk.get(`${DOC}/detail`, { id: saved.id }));
    expect(detail.details.map((r: any) => [r.hazardLevel, r.rectifyCost])).toEqual([
      ['major', 1500],
      ['general', 1000],
    ]);

    const withoutDeadline = await people.clerk.post(
      `${DOC}/save`,
      inspection(projectId, '缺整改期限', [[1, 1]], { rectifyDeadline: undefined }),
    );
    expect(withoutDeadline.body.data.errors).toEqual([{ path: '/rectifyDeadline', message: expect.stringContaining('整改期限') }]);
    // passed needs no deadline
    ok(
      await people.clerk.post(
        `${DOC}/save`,
        inspection(projectId, '复查合格', [[1, 1]], { conclusion: 'passed', rectifyDeadline: undefined }),
      ),
    );
    const unknownValue = await people.clerk.post(`${DOC}/save`, inspection(projectId, '未知结论', [[1, 1]], { conclusion: 'sunny' }));
    expect(unknownValue.body.data.errors).toEqual([{ path: '/conclusion', message: '检查结论的值 sunny 不在字典 safety_conclusion 中' }]);
  });

  it('routes a submitted record by its amount: up to the threshold to the project manager, above it to the cost manager first', async () => {
    const { people, projectId } = context();
    const small = ok(await people.clerk.post(`${DOC}/save`, inspection(projectId, '小额整改', [[10, 150]])));
    const large = ok(await people.clerk.post(`${DOC}/save`, inspection(projectId, '大额整改', [[1, THRESHOLD + 100_000]])));
    expect(large.totalRectifyCost).toBeGreaterThan(THRESHOLD);

    const underway = ok(await people.clerk.post(`${DOC}/submit`, { id: small.id }));
    expect(underway.approvalStatus).toBe('approving');
    expect((await claimable(people.manager, underway.processInstanceId)).map((t: any) => t.taskName)).toEqual(['项目经理审批']);
    expect(await claimable(people.costManager, underway.processInstanceId)).toEqual([]);

    const above = ok(await people.clerk.post(`${DOC}/submit`, { id: large.id }));
    expect((await claimable(people.costManager, above.processInstanceId)).map((t: any) => t.taskName)).toEqual(['成本经理审批']);
    expect(await claimable(people.manager, above.processInstanceId)).toEqual([]);
  });

  it('names the process by the type in the 流程类型 category: the start list and the flow dictionary', async () => {
    const { people } = context();
    const start = ok(await people.clerk.get(`${FLOW}/work/start-list`, { size: '100', category: 'flow_safetyInspection' }));
    expect(start.records.map((p: any) => [p.key, p.name, p.categoryName])).toEqual([
      ['safetyInspection', '安全检查记录审批', '安全检查记录'],
    ]);
    const categories = ok(await people.clerk.get('/api/blade-system/dict/dictionary', { code: 'flow' }));
    expect(categories.find((d: any) => d.dictKey === 'safetyInspection')).toMatchObject({ dictValue: '安全检查记录' });
  });

  it('keeps everything the installation had: the demo records of every list', async () => {
    const { people, before } = context();
    expect((await viewOf(people.clerk, Object.keys(before.totals))).totals).toEqual(before.totals);
  });
}

describe('the schema set with the new document type', () => {
  it('passes schemas:check', async () => {
    const schemaDir = installationSchemas();
    try {
      addDocumentType(schemaDir);
      expect((await checkSchemaSet(schemaDir)).issues).toEqual([]);
    } finally {
      rmSync(schemaDir, { recursive: true, force: true });
    }
  });
});

describe.each(databaseKinds())('a document type added from files to an installation on %s', (kind) => {
  let data: Awaited<ReturnType<typeof seededData>>;
  let schemaDir: string;
  let app: App;
  let people: People;
  let projectId: string;
  let before: Awaited<ReturnType<typeof viewOf>>;

  beforeAll(async () => {
    data = await seededData(kind);
    schemaDir = installationSchemas();
    const running = await start(data.config, schemaDir);
    const clerk = await userApi(running, 'clerk', '000000');
    before = await viewOf(clerk, DEMO_LISTS);
    expect((await clerk.get(`${DOC}/list`)).status).toBe(404);
    await running.close();

    addDocumentType(schemaDir);
    app = await start(data.config, schemaDir);
    people = {
      clerk: await userApi(app, 'clerk', '000000'),
      manager: await userApi(app, 'manager', '000000'),
      costManager: await userApi(app, 'costmgr', '000000'),
    };
    [{ id: projectId }] = ok(await people.clerk.get('/api/construct/project/list', { size: '1' })).records;
  }, STARTS_TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await data?.cleanup();
    rmSync(schemaDir, { recursive: true, force: true });
  });

  documentTypeChecks(() => ({ app, people, projectId, before }));
});

// ---- a tenant on its own database (needs a PostgreSQL main database: always on the test server) ----

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

describe('a document type added from files reaches a tenant on its own database (PostgreSQL)', () => {
  const tenantDatabase = `zs_new_type_${randomBytes(4).toString('hex')}`;
  let main: { url: string; drop: () => Promise<void> };
  let schemaDir: string;
  let app: App;
  let tenantId: string;
  let people: People;
  let projectId: string;
  let before: Awaited<ReturnType<typeof viewOf>>;

  /** A user of the tenant holding the tenant's copy of a business role. */
  async function hire(admin: Api, running: App, account: string, alias: string, realName: string) {
    const [role] = await running.db.query<{ id: string }>(
      `SELECT id::text AS id FROM blade_role WHERE tenant_id = $1 AND role_alias = $2`,
      [tenantId, alias],
    );
    ok(
      await admin.post('/api/blade-system/user/save', {
        account,
        password: `${account}2026`,
        name: realName,
        realName,
        roleId: role.id,
        status: 1,
      }),
    );
  }

  beforeAll(async () => {
    main = await createTestDatabase({ seeded: true });
    await onServer(`CREATE DATABASE ${tenantDatabase}`);
    schemaDir = installationSchemas();
    const data = { databaseUrl: main.url };

    const running = await start(data, schemaDir);
    const platform = client(running as TestServer, await tokenOf(running, 'admin'));
    tenantId = ok(
      await platform.post('/api/blade-system/tenant/save', { tenantName: '独立库建设公司', linkman: '测试', accountNumber: -1 }),
    ).tenantId;
    const source = ok(await platform.post('/api/blade-develop/datasource/save', { name: '独立库', url: databaseUrl(tenantDatabase) })).id;
    ok(await platform.post('/api/blade-system/tenant/datasource', undefined, { tenantId, datasourceId: source }));
    const admin = await userApi(running, 'admin', tenantId);
    await hire(admin, running, 'clerk', 'project_clerk', '钱经办');
    await hire(admin, running, 'pm', 'project_manager', '赵经理');
    await hire(admin, running, 'cost', 'cost_manager', '孙成本');
    await project(admin);
    before = await viewOf(await userApi(running, 'clerk', tenantId), ['/api/construct/project']);
    await running.close();

    addDocumentType(schemaDir);
    app = await start(data, schemaDir);
    people = {
      clerk: await userApi(app, 'clerk', tenantId),
      manager: await userApi(app, 'pm', tenantId),
      costManager: await userApi(app, 'cost', tenantId),
    };
    [{ id: projectId }] = ok(await people.clerk.get('/api/construct/project/list', { size: '1' })).records;
  }, STARTS_TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await main?.drop();
    await onServer(`DROP DATABASE IF EXISTS ${tenantDatabase} WITH (FORCE)`);
    rmSync(schemaDir, { recursive: true, force: true });
  });

  documentTypeChecks(() => ({ app, people, projectId, before }));

  it("keeps the tenant's records of the new type on its own database, none on the main one", async () => {
    const saved = ok(await people.clerk.post(`${DOC}/save`, inspection(projectId, '独立库检查', [[2, 300]])));
    const tenantDb = new pg.Client({ connectionString: databaseUrl(tenantDatabase) });
    await tenantDb.connect();
    try {
      const { rows } = await tenantDb.query('SELECT total_rectify_cost::float AS total FROM construct_safety_inspection WHERE id = $1', [
        saved.id,
      ]);
      expect(rows).toEqual([{ total: 600 }]);
    } finally {
      await tenantDb.end();
    }
    expect(await app.db.query('SELECT 1 FROM construct_safety_inspection WHERE tenant_id = $1', [tenantId])).toEqual([]);
  });
});
