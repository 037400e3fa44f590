// Data scopes a tenant can use on its own (issue #25, part 3): every document type offers the rules
// derived from its schema (全部数据, 本部门, 本部门及以下, 本人, 所属项目) to every tenant, a tenant's
// administrator grants them to its roles and they narrow what the roles' users read; a tenant adds
// rules of its own, which no other tenant sees; nobody changes the built-in rules, and no tenant
// the platform's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { syncSchema } from '../../src/server/db/sync.ts';
import { syncDerivedScopes } from '../../src/server/security/derived-scopes.ts';
import { SEED_ADMIN } from '../../src/server/seed/seed.ts';
import {
  client,
  databaseKinds,
  findNode,
  grantRole,
  roleMember,
  startServer,
  type Api,
  type TestServer,
  type TreeNode,
} from './harness.ts';
import { project } from './fixtures.ts';

describe.each(databaseKinds())('data scopes a tenant uses on %s', (kind) => {
  let server: TestServer;
  let platform: Api;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let admin: Api;
  const menuIds = async (codes: string[]) =>
    (await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes])).map((m) => m.id);

  /** A role of the tenant with these menus and a user of it in `deptId`; `grant` sets its data scopes. */
  async function member(codes: string[], deptId: string) {
    const { roleId, api } = await roleMember(server, admin, tenant.tenantId, deptId);
    const grant = (dataScopeIds: string[]) => grantRole(server, admin, roleId, codes, dataScopeIds);
    await grant([]);
    return { api, grant };
  }

  async function dept(deptName: string, parentId = '0') {
    const res = await admin.post('/api/blade-system/dept/save', { parentId, deptCategory: '1', deptName, fullName: deptName, sort: 1 });
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return res.body.data.id as string;
  }

  /** The tenant's data-scope rules under a menu of the grant dialog's tree, by name. */
  async function rulesOf(api: Api, menuTitle: string): Promise<Record<string, string>> {
    const tree = (await api.get('/api/blade-system/menu/grant-tree')).body.data.dataScope as TreeNode[];
    const menu = findNode(tree, menuTitle);
    return Object.fromEntries((menu?.children ?? []).map((n) => [n.title, n.id]));
  }

  beforeAll(async () => {
    server = await startServer(kind);
    platform = client(server, await server.token());
    tenant = await server.newTenant();
    admin = client(server, tenant.token);
  });

  afterAll(async () => {
    await server?.dispose();
  });

  it('offers every tenant the rules derived from each document type, in its language', async () => {
    const rules = await rulesOf(admin, '项目');
    expect(Object.keys(rules)).toEqual(['全部数据', '本人', '本部门', '本部门及以下', '所属项目']);
    const demand = await rulesOf(admin, '材料总需用计划');
    expect(Object.keys(demand)).toContain('所属项目');
    // master data that belongs to no project is no document type: no rules of its own
    expect(await rulesOf(admin, '甲方单位')).toEqual({});
    const english = await rulesOf(client(server, tenant.token, 'en'), 'Project');
    expect(Object.keys(english)).toEqual(['All records', 'Own records', 'Own department', 'Own department and below', 'Own projects']);
    // the same rules (ids) for every tenant, listed on the data-scope page as built-in
    const other = client(server, (await server.newTenant()).token);
    expect(await rulesOf(other, '项目')).toEqual(rules);
    const listed = await admin.get('/api/blade-system/data-scope/list', { size: '500', scopeName: '本部门及以下' });
    expect(listed.body.data.records.length).toBeGreaterThanOrEqual(30);
    expect(listed.body.data.records.every((r: any) => r.builtIn === 1 && r.tenantId === '000000')).toBe(true);
  });

  it('keeps the built-in rules and their ids from one start to the next', async () => {
    const before = await rulesOf(admin, '项目');
    expect(await syncDerivedScopes(server.db, server.catalog, 'Asia/Shanghai', SEED_ADMIN)).toBe(0);
    expect(await rulesOf(admin, '项目')).toEqual(before);
  });

  it('follows a changed schema: a rule turned off goes, a changed one keeps its id (and its grants)', async () => {
    const before = await rulesOf(admin, '仓库');
    const copy = structuredClone(readSchemaSource()) as ReturnType<typeof readSchemaSource> & { files: Record<string, any> };
    copy.files['schemas/construct/warehouse.schema.json']['x-entity'].dataScopes = { own: false, ownDept: { field: 'updateUser' } };
    const changed = compile(copy, { validators: 'lazy' }).catalog;
    expect(await syncDerivedScopes(server.db, changed, 'Asia/Shanghai', SEED_ADMIN)).toBe(2);
    const after = await rulesOf(admin, '仓库');
    expect(after).toEqual({
      全部数据: before['全部数据'],
      本部门: before['本部门'],
      本部门及以下: before['本部门及以下'],
      所属项目: before['所属项目'],
    });
    const [rule] = await server.db.query<{ column: string }>(`SELECT scope_column AS column FROM blade_scope_data WHERE id = $1`, [
      before['本部门'],
    ]);
    expect(rule.column).toBe('updateUser');
    // and back: the rule turned on again is a new one
    expect(await syncDerivedScopes(server.db, server.catalog, 'Asia/Shanghai', SEED_ADMIN)).toBe(2);
    const again = await rulesOf(admin, '仓库');
    expect(again['本部门']).toBe(before['本部门']);
    expect(again['本人']).not.toBe(before['本人']);
    expect(Object.keys(again)).toEqual(Object.keys(before));
  });

  it('本部门 and 所属项目 granted by a tenant administrator narrow what a role reads', async () => {
    const company = await dept('第一工程公司');
    const site = await dept('江北项目部', company);
    const centre = await dept('成本中心');
    const codes = ['project', 'project_add', 'party_a_add', 'warehouse', 'warehouse_add'];
    const siteClerk = await member(codes, site);
    const centreClerk = await member(codes, centre);
    const companyHead = await member(codes, company);
    const ours = await project(siteClerk.api, { name: '江北人才公寓' });
    const theirs = await project(centreClerk.api, { name: '成本中心的项目' });
    const warehouse = async (api: Api, projectId: string, name: string) => {
      const res = await api.post('/api/construct/warehouse/save', { projectId, name, status: 'enabled' });
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      return res.body.data.id as string;
    };
    // the centre keeps a warehouse for the site's project; the site one for its own
    const siteStore = await warehouse(siteClerk.api, ours.id, '1#材料库');
    const centreStoreForSite = await warehouse(centreClerk.api, ours.id, '中心库');
    const centreStore = await warehouse(centreClerk.api, theirs.id, '成本中心库');
    const seen = async (who: { api: Api }, path: string) =>
      ((await who.api.get(`/api/construct/${path}/list`, { size: '100' })).body.data.records as any[]).map((r) => r.id).sort();
    const sorted = (...ids: string[]) => ids.sort();

    const warehouseRules = await rulesOf(admin, '仓库');
    const projectRules = await rulesOf(admin, '项目');
    // without a rule, every record
    expect(await seen(centreClerk, 'warehouse')).toEqual(sorted(siteStore, centreStoreForSite, centreStore));
    await centreClerk.grant([warehouseRules['本部门']]);
    expect(await seen(centreClerk, 'warehouse')).toEqual(sorted(centreStoreForSite, centreStore));
    await siteClerk.grant([warehouseRules['本部门'], projectRules['本部门']]);
    expect(await seen(siteClerk, 'warehouse')).toEqual([siteStore]);
    expect(await seen(siteClerk, 'project')).toEqual([ours.id]);
    // own projects: the site's project's records, whoever made them
    await siteClerk.grant([warehouseRules['所属项目'], projectRules['所属项目']]);
    expect(await seen(siteClerk, 'warehouse')).toEqual(sorted(siteStore, centreStoreForSite));
    expect(await seen(siteClerk, 'project')).toEqual([ours.id]);
    expect((await siteClerk.api.get('/api/construct/warehouse/detail', { id: centreStore })).status).toBe(404);
    // the company's head: the projects of the departments below the company too
    await companyHead.grant([warehouseRules['所属项目']]);
    expect(await seen(companyHead, 'warehouse')).toEqual(sorted(siteStore, centreStoreForSite));
    await companyHead.grant([warehouseRules['本部门']]);
    expect(await seen(companyHead, 'warehouse')).toEqual([]);
    await companyHead.grant([warehouseRules['本部门及以下']]);
    expect(await seen(companyHead, 'warehouse')).toEqual([siteStore]);
    await centreClerk.grant([warehouseRules['本人'], warehouseRules['全部数据']]);
    expect(await seen(centreClerk, 'warehouse')).toEqual(sorted(siteStore, centreStoreForSite, centreStore));
  });

  it('a tenant adds rules of its own, which no other tenant sees, grants or changes', async () => {
    const [menu] = await menuIds(['project']);
    const save = await admin.post('/api/blade-system/data-scope/save', {
      menuId: menu,
      resourceCode: 'project_municipal',
      scopeName: '市政项目',
      scopeType: '5',
      scopeValue: JSON.stringify({ projectType: { _eq: 'municipal' } }),
    });
    expect(save.body.code, JSON.stringify(save.body)).toBe(200);
    const id = save.body.data.id as string;
    expect(save.body.data.tenantId).toBe(tenant.tenantId);
    expect((await rulesOf(admin, '项目'))['市政项目']).toBe(id);
    expect((await admin.post('/api/blade-system/data-scope/update', { ...save.body.data, scopeName: '市政工程' })).body.code).toBe(200);

    // the rule narrows the tenant's own role
    const municipalSite = await dept('市政项目部');
    const clerk = await member(['project', 'project_add', 'party_a_add'], municipalSite);
    const municipal = await project(clerk.api, { name: '综合管廊', projectType: 'municipal' });
    await project(clerk.api, { name: '人才公寓', projectType: 'building' });
    await clerk.grant([id]);
    const rows = (await clerk.api.get('/api/construct/project/list', { size: '100' })).body.data.records;
    expect(rows.map((r: any) => r.id)).toEqual([municipal.id]);

    const otherTenant = await server.newTenant();
    const other = client(server, otherTenant.token);
    expect((await rulesOf(other, '项目'))['市政工程']).toBeUndefined();
    const list = await other.get('/api/blade-system/data-scope/list', { size: '500' });
    expect(list.body.data.records.some((r: any) => r.id === id)).toBe(false);
    expect((await other.get('/api/blade-system/data-scope/detail', { id })).status).toBe(404);
    expect((await other.post('/api/blade-system/data-scope/update', { ...save.body.data, scopeName: '夺取' })).status).toBe(404);
    expect((await other.post('/api/blade-system/data-scope/remove', undefined, { ids: id })).status).toBe(404);
    const grant = await other.post('/api/blade-system/role/grant', {
      roleIds: [otherTenant.roleId],
      menuIds: [],
      dataScopeIds: [id],
      apiScopeIds: [],
    });
    expect(grant.status).toBe(403);
    // nor does the platform: the rule is the tenant's
    expect((await platform.get('/api/blade-system/data-scope/detail', { id })).status).toBe(404);
    expect((await admin.get('/api/blade-system/data-scope/detail', { id })).body.data.scopeName).toBe('市政工程');
    expect((await admin.post('/api/blade-system/data-scope/remove', undefined, { ids: id })).body.code).toBe(200);
  });

  it('nobody changes a built-in rule, and no tenant the platform’s, with a clear error', async () => {
    const builtIn = (await rulesOf(admin, '项目'))['本部门'];
    const stored = (await admin.get('/api/blade-system/data-scope/detail', { id: builtIn })).body.data;
    const update = await admin.post('/api/blade-system/data-scope/update', { ...stored, scopeName: '改名' });
    expect(update.status).toBe(403);
    expect(update.body.msg).toContain('由系统根据单据定义生成');
    expect((await admin.post('/api/blade-system/data-scope/remove', undefined, { ids: builtIn })).status).toBe(403);
    expect((await platform.post('/api/blade-system/data-scope/updatePart', { id: builtIn, scopeName: '改名' })).status).toBe(403);
    expect((await platform.post('/api/blade-system/data-scope/remove', undefined, { ids: builtIn })).status).toBe(403);
    expect((await admin.get('/api/blade-system/data-scope/detail', { id: builtIn })).body.data.scopeName).toBe('本部门');

    const [menu] = await menuIds(['project']);
    const platformRule = await platform.post('/api/blade-system/data-scope/save', {
      menuId: menu,
      resourceCode: 'project_building',
      scopeName: '房建项目',
      scopeType: '5',
      scopeValue: JSON.stringify({ projectType: { _eq: 'building' } }),
    });
    expect(platformRule.body.code, JSON.stringify(platformRule.body)).toBe(200);
    const rule = platformRule.body.data;
    expect((await rulesOf(admin, '项目'))['房建项目']).toBe(rule.id);
    const refused = await admin.post('/api/blade-system/data-scope/update', { ...rule, scopeName: '改名' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain('由平台提供');
    const english = await client(server, tenant.token, 'en').post('/api/blade-system/data-scope/remove', undefined, { ids: rule.id });
    expect(english.status).toBe(403);
    expect(english.body.msg).toContain('provided by the platform');
    expect((await platform.get('/api/blade-system/data-scope/detail', { id: rule.id })).body.data.scopeName).toBe('房建项目');
  });

  it("a tenant's menu pickers and grant tree offer only the menus of its package", async () => {
    const codes = ['authority', 'data_scope', 'data_scope_add', 'data_scope_edit', 'data_scope_view', 'cost_master', 'project'];
    const pkg = await platform.post('/api/blade-system/tenant-package/save', {
      packageName: '数据权限试用',
      menuId: (await menuIds(codes)).join(','),
    });
    expect(pkg.body.code, JSON.stringify(pkg.body)).toBe(200);
    const created = await platform.post('/api/blade-system/tenant/save', {
      tenantName: '试用租户',
      linkman: '测试',
      accountNumber: -1,
      packageId: pkg.body.data.id,
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(200);
    const [owner] = await server.db.query<{ id: string; roleId: string; deptId: string }>(
      `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
      [created.body.data.tenantId],
    );
    const trial = client(
      server,
      await server.tokens.sign({
        tenant_id: created.body.data.tenantId,
        user_id: owner.id,
        dept_id: owner.deptId,
        role_id: owner.roleId,
        role_name: 'admin',
      }),
    );
    const titles = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => [n.title, ...titles(n.children ?? [])]);
    const tree = await trial.get('/api/blade-system/menu/tree');
    expect(tree.status).toBe(200);
    expect(titles(tree.body.data).sort()).toEqual(['基础资料', '数据权限', '权限管理', '项目'].sort());
    const top = await trial.get('/api/blade-system/menu/lazy-tree', { parentId: '0' });
    expect(top.body.data.map((n: TreeNode) => n.title).sort()).toEqual(['基础资料', '权限管理'].sort());
    // the rules offered are those of the package's document types
    const rules = (await trial.get('/api/blade-system/menu/grant-tree')).body.data.dataScope as TreeNode[];
    expect(rules.map((n) => n.title)).toEqual(['基础资料']);
    expect(rules[0].children!.map((n) => n.title)).toEqual(['项目']);
    // the platform's pickers offer every menu
    expect(titles((await platform.get('/api/blade-system/menu/tree')).body.data).length).toBeGreaterThan(50);
  });

  // last: it rebuilds the rule table
  it('brings an installation from before tenant rules up to date: its rules are the platform’s, type 6 joins the dictionary', async () => {
    const [menu] = await menuIds(['project']);
    const old = await platform.post('/api/blade-system/data-scope/save', {
      menuId: menu,
      resourceCode: 'project_old',
      scopeName: '旧规则',
      scopeType: '3',
    });
    expect(old.body.code, JSON.stringify(old.body)).toBe(200);
    // the table and the dictionary as an installation had them before: no built-in rules either
    await server.db.query(`DELETE FROM blade_scope_data WHERE built_in = 1`);
    await server.db.query(`ALTER TABLE blade_scope_data DROP COLUMN tenant_id, DROP COLUMN built_in`);
    await server.db.query(`DELETE FROM blade_dict WHERE code = 'data_scope_type' AND dict_key = '6'`);
    await server.db.query(`DELETE FROM zs_setting WHERE key = 'schema.fingerprint'`);
    // what a start does: the columns are added, the rules brought up to date
    await syncSchema(server.db, server.catalog, '/nonexistent-migrations');
    await syncDerivedScopes(server.db, server.catalog, 'Asia/Shanghai', SEED_ADMIN);
    const rules = await rulesOf(admin, '项目');
    expect(rules['旧规则']).toBe(old.body.data.id);
    expect(Object.keys(rules)).toEqual(expect.arrayContaining(['全部数据', '本部门', '所属项目']));
    const stored = (await platform.get('/api/blade-system/data-scope/detail', { id: old.body.data.id })).body.data;
    expect(stored).toMatchObject({ tenantId: '000000', builtIn: 0 });
    const types = await platform.get('/api/blade-system/dict/dictionary', { code: 'data_scope_type' });
    expect(types.body.data.map((d: any) => d.dictValue)).toContain('所属项目');
    expect((await platform.post('/api/blade-system/data-scope/remove', undefined, { ids: old.body.data.id })).body.code).toBe(200);
  });
});
