// Access control on the server: button grants for every entity and action, data scopes, API
// scopes, menus filtered by grants and packages, and a tenant administrator confined to its tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import type { EntityModel } from '../../src/engine/model/types.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { dependencyOrder, sampleRecord, type SampleContext } from '../../src/engine/sample/sample.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { project } from './fixtures.ts';

const { catalog } = compile(readSchemaSource());
const tenantEntities = dependencyOrder(catalog).filter((m) => m.scope === 'tenant' && m.menu && !m.readOnly);
/** Entities the server alone writes (logs): read and exported by grant, never written through the API. */
const readOnlyEntities = Object.values(catalog.entities).filter((m) => m.readOnly && m.menu);
const otherEntities = Object.values(catalog.entities).filter((m) => m.scope !== 'tenant');

describe.each(databaseKinds())('access control on %s', (kind) => {
  let server: TestServer;
  let platform: Api;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let tenantAdmin: Api;
  const ids = new Map<string, Record<string, unknown>>();

  /** A role of the tenant holding exactly these menu codes, and a token of a user with it. */
  async function userWith(codes: string[], deptId?: string): Promise<{ api: Api; userId: string; roleId: string }> {
    const alias = `r${Math.random().toString(36).slice(2, 10)}`;
    const role = await tenantAdmin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 });
    expect(role.body.code, JSON.stringify(role.body)).toBe(200);
    const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
    expect(
      (
        await tenantAdmin.post('/api/blade-system/role/grant', {
          roleIds: [role.body.data.id],
          menuIds: menus.map((m) => m.id),
          dataScopeIds: [],
          apiScopeIds: [],
        })
      ).body.code,
    ).toBe(200);
    const user = await tenantAdmin.post('/api/blade-system/user/save', {
      account: alias,
      password: 'secret1',
      name: alias,
      realName: alias,
      roleId: role.body.data.id,
      deptId,
      status: 1,
    });
    expect(user.body.code, JSON.stringify(user.body)).toBe(200);
    const token = await server.tokens.sign({
      tenant_id: tenant.tenantId,
      user_id: user.body.data.id,
      dept_id: deptId ?? '',
      role_id: role.body.data.id,
      role_name: alias,
    });
    return { api: client(server, token), userId: user.body.data.id, roleId: role.body.data.id };
  }

  /**
   * The matrices' user: one role and account of the tenant whose grants each check sets to exactly
   * `codes` (a grant empties the permission caches at once). An account per check would cost a password
   * hash each, some 700 of them across the two databases.
   */
  let probe: Promise<{ api: Api; roleId: string }> | undefined;
  async function probeWith(codes: string[]): Promise<Api> {
    probe ??= userWith([]);
    const { api, roleId } = await probe;
    const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
    const grant = await tenantAdmin.post('/api/blade-system/role/grant', {
      roleIds: [roleId],
      menuIds: menus.map((m) => m.id),
      dataScopeIds: [],
      apiScopeIds: [],
    });
    expect(grant.body.code, JSON.stringify(grant.body)).toBe(200);
    return api;
  }

  beforeAll(async () => {
    server = await startServer(kind);
    platform = client(server, await server.token());
    tenant = await server.newTenant('权限测试公司');
    tenantAdmin = client(server, tenant.token);
    const ctx: SampleContext = { catalog, ids, seq: 500 };
    for (const model of tenantEntities) {
      const res = await tenantAdmin.post(`${model.api}/save`, sampleRecord(model, ctx));
      expect(res.body.code, `${model.key}: ${JSON.stringify(res.body)}`).toBe(200);
      ids.set(model.key, res.body.data);
    }
  });
  afterAll(() => server?.dispose());

  /** Each action of an entity as a client performs it; answers the HTTP status. */
  async function perform(api: Api, model: EntityModel, action: string): Promise<number> {
    const existing = ids.get(model.key)!;
    switch (action) {
      case 'view':
        return (await api.get(`${model.api}/list`)).status;
      case 'add':
        return (await api.post(`${model.api}/save`, sampleRecord(model, { catalog, ids, seq: Math.floor(Math.random() * 1e6) }))).status;
      case 'edit':
        return (await api.post(`${model.api}/updatePart`, { id: existing.id })).status;
      case 'export':
        return (await api.get(`${model.api}/export`, { id: String(existing.id) })).status;
      default: {
        const victim = await tenantAdmin.post(
          `${model.api}/save`,
          sampleRecord(model, { catalog, ids, seq: Math.floor(Math.random() * 1e6) }),
        );
        return (await api.post(`${model.api}/remove`, undefined, { ids: victim.body.data.id })).status;
      }
    }
  }

  const ACTIONS = ['view', 'add', 'edit', 'delete', 'export'];
  /**
   * Grants an action needs besides its own: whoever writes a report must be able to read the entity it
   * reports on (the sample's: projects); exporting runs it, which also reads its definition.
   */
  const ALSO_NEEDS: Record<string, Record<string, string[]>> = {
    report: { add: ['project'], edit: ['project'], export: ['report', 'project'] },
  };

  it.each(tenantEntities.map((m) => [m.key, m] as const))('%s: each action needs its grant', async (_key, model) => {
    const nobody = await probeWith([]);
    for (const action of ACTIONS) expect(await perform(nobody, model, action), `${action} without grant`).toBe(403);
    const code = model.menu!.code;
    for (const action of ACTIONS) {
      const needs = ALSO_NEEDS[model.key]?.[action] ?? [];
      const granted = await probeWith(action === 'view' ? [code] : [`${code}_${action}`, ...needs]);
      expect(await perform(granted, model, action), `${action} with ${code}_${action}`).toBe(200);
    }
  });

  it.each(readOnlyEntities.map((m) => [m.key, m] as const))(
    '%s (written by the server alone): reading and export need their grant; no write exists',
    async (_key, model) => {
      const nobody = await probeWith([]);
      expect((await nobody.get(`${model.api}/list`)).status).toBe(403);
      expect((await nobody.get(`${model.api}/export`)).status).toBe(403);
      const code = model.menu!.code;
      expect((await (await probeWith([code])).get(`${model.api}/list`)).status).toBe(200);
      expect((await (await probeWith([`${code}_export`])).get(`${model.api}/export`)).status).toBe(200);
      for (const action of ['save', 'update', 'submit', 'updatePart', 'remove'])
        expect((await tenantAdmin.post(`${model.api}/${action}`, {})).status, action).toBe(404);
    },
  );

  it('lets whoever may write a document read what it refers to', async () => {
    const writer = await userWith(['material_total_demand_add']);
    expect((await writer.api.get('/api/construct/project/list')).status).toBe(200);
    expect((await writer.api.get('/api/construct/goodsArchives/list')).status).toBe(200);
    expect((await writer.api.get('/api/blade-system/user/list')).status).toBe(403);
  });

  it('keeps platform entities to the platform tenant, even for a tenant administrator', async () => {
    for (const model of otherEntities) {
      const write = await tenantAdmin.post(`${model.api}/save`, {});
      // shared rows a tenant may add to (data-scope rules) are its to write: an empty one is refused as invalid
      expect(write.status, model.key).toBe(model.tenantRows ? 400 : 403);
      if (model.scope === 'platform') expect((await tenantAdmin.get(`${model.api}/list`)).status, model.key).toBe(403);
      else expect((await tenantAdmin.get(`${model.api}/list`)).status, model.key).toBe(200);
    }
  });

  it("a tenant administrator cannot reach another tenant's users, roles or departments", async () => {
    const [theirUser] = await server.db.query(`SELECT id::text AS id FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`);
    const [theirRole] = await server.db.query(
      `SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'administrator'`,
    );
    const [theirDept] = await server.db.query(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' LIMIT 1`);
    expect((await tenantAdmin.get('/api/blade-system/user/detail', { id: theirUser.id })).status).toBe(404);
    expect((await tenantAdmin.get('/api/blade-system/role/detail', { id: theirRole.id })).status).toBe(404);
    expect((await tenantAdmin.get('/api/blade-system/dept/detail', { id: theirDept.id })).status).toBe(404);
    const users = await tenantAdmin.get('/api/blade-system/user/list', { size: '500' });
    expect(users.body.data.records.every((u: any) => u.tenantId === tenant.tenantId)).toBe(true);
    expect((await tenantAdmin.post('/api/blade-system/user/updatePart', { id: theirUser.id, realName: '夺权' })).status).toBe(404);
    expect((await tenantAdmin.post('/api/blade-system/user/reset-password', undefined, { userIds: theirUser.id })).status).toBe(404);
    expect(
      (await tenantAdmin.post('/api/blade-system/user/grant', undefined, { userIds: theirUser.id, roleIds: tenant.roleId })).status,
    ).toBe(404);
    expect(
      (await tenantAdmin.post('/api/blade-system/role/grant', { roleIds: [theirRole.id], menuIds: [], dataScopeIds: [], apiScopeIds: [] }))
        .status,
    ).toBe(404);
    expect((await tenantAdmin.post('/api/blade-system/role/remove', undefined, { ids: theirRole.id })).status).toBe(404);
    const still = await platform.get('/api/blade-system/user/detail', { id: theirUser.id });
    expect(still.body.data.realName).toBe('管理员');
    expect((await platform.get('/api/blade-system/role/detail', { id: theirRole.id })).status).toBe(200);
  });

  it('data scopes narrow the rows a role sees', async () => {
    const dept = await tenantAdmin.post('/api/blade-system/dept/save', {
      parentId: '0',
      deptCategory: '1',
      deptName: '一分公司',
      fullName: '一分公司',
      sort: 1,
    });
    const sub = await tenantAdmin.post('/api/blade-system/dept/save', {
      parentId: dept.body.data.id,
      deptCategory: '2',
      deptName: '项目部',
      fullName: '一分公司项目部',
      sort: 1,
    });
    const other = await tenantAdmin.post('/api/blade-system/dept/save', {
      parentId: '0',
      deptCategory: '1',
      deptName: '二分公司',
      fullName: '二分公司',
      sort: 2,
    });
    expect(sub.body.data.ancestors).toBe(`0,${dept.body.data.id}`);
    const codes = ['project', 'project_add', 'party_a_add'];
    const inSub = await userWith(codes, sub.body.data.id);
    const inOther = await userWith(codes, other.body.data.id);
    const a = await project(inSub.api, { name: '项目部的项目', projectType: 'municipal' });
    const b = await project(inOther.api, { name: '二分公司的项目', projectType: 'building' });

    const [menu] = await server.db.query(`SELECT id::text AS id FROM blade_menu WHERE code = 'project'`);
    const rule = async (scopeType: string, scopeValue?: string) => {
      const res = await platform.post('/api/blade-system/data-scope/save', {
        menuId: menu.id,
        resourceCode: `project_${scopeType}`,
        scopeName: `项目 ${scopeType}`,
        scopeType,
        ...(scopeValue && { scopeValue }),
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(200);
      return res.body.data.id as string;
    };
    const own = await rule('2');
    const ownDept = await rule('3');
    const deptTree = await rule('4');
    const custom = await rule('5', JSON.stringify({ projectType: { _eq: 'municipal' } }));
    const seen = async (who: { api: Api; roleId: string }, scopeId: string) => {
      await tenantAdmin.post('/api/blade-system/role/grant', {
        roleIds: [who.roleId],
        menuIds: (await server.db.query(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes])).map((m) => m.id),
        dataScopeIds: [scopeId],
        apiScopeIds: [],
      });
      return (await who.api.get('/api/construct/project/list', { size: '100' })).body.data.records.map((r: any) => r.id);
    };
    const boss = await userWith(codes, dept.body.data.id);
    const all = (await tenantAdmin.get('/api/construct/project/list', { size: '100' })).body.data.records.map((r: any) => r.id);
    expect(all).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await seen(inOther, own)).toEqual([b.id]);
    expect(await seen(inSub, ownDept)).toEqual([a.id]);
    expect(await seen(boss, ownDept)).toEqual([]);
    expect(await seen(boss, deptTree)).toEqual([a.id]);
    expect(await seen(inOther, custom)).toEqual(expect.arrayContaining([a.id]));
    expect((await seen(inOther, custom)).includes(b.id)).toBe(false);
    // a row outside the scope is "not found" by id as well
    await seen(inOther, own);
    expect((await inOther.api.get('/api/construct/project/detail', { id: a.id })).status).toBe(404);
  });

  it('an API scope closes its paths to roles without it', async () => {
    const [menu] = await server.db.query(`SELECT id::text AS id FROM blade_menu WHERE code = 'party_a'`);
    const scope = await platform.post('/api/blade-system/api-scope/save', {
      menuId: menu.id,
      resourceCode: 'party_a_api',
      scopeName: '甲方接口',
      scopePath: '/api/construct/partyA',
      scopeType: '2',
    });
    expect(scope.body.code, JSON.stringify(scope.body)).toBe(200);
    await server.access.invalidate();
    const withoutScope = await userWith(['party_a']);
    expect((await withoutScope.api.get('/api/construct/partyA/list')).status).toBe(403);
    await tenantAdmin.post('/api/blade-system/role/grant', {
      roleIds: [withoutScope.roleId],
      menuIds: (await server.db.query(`SELECT id::text AS id FROM blade_menu WHERE code = 'party_a'`)).map((m) => m.id),
      dataScopeIds: [],
      apiScopeIds: [scope.body.data.id],
    });
    expect((await withoutScope.api.get('/api/construct/partyA/list')).status).toBe(200);
    await platform.post('/api/blade-system/api-scope/remove', undefined, { ids: scope.body.data.id });
  });

  it('any member may read who created a record (user labels by id), and nothing more of users', async () => {
    const clerk = await userWith(['cost_master', 'project', 'project_view']);
    const names = await clerk.api.get('/api/blade-system/user/options', { ids: tenant.adminId });
    expect(names.status).toBe(200);
    expect(names.body.data.records).toEqual([{ value: tenant.adminId, label: expect.any(String) }]);
    // no search, no filters, no list, no other tenant's users
    expect((await clerk.api.get('/api/blade-system/user/options', { keyword: 'a' })).status).toBe(403);
    expect((await clerk.api.get('/api/blade-system/user/options', { ids: tenant.adminId, phone_like: '1' })).status).toBe(403);
    expect((await clerk.api.get('/api/blade-system/user/list')).status).toBe(403);
    const elsewhere = await server.newTenant('另一家公司');
    const otherAdmin = await clerk.api.get('/api/blade-system/user/options', { ids: elsewhere.adminId });
    expect(otherAdmin.body.data.records).toEqual([]);
  });

  it('serves each user the menus and buttons of their grants', async () => {
    const clerk = await userWith(['cost_master', 'project', 'project_view']);
    const routes = (await clerk.api.get('/api/blade-system/menu/routes')).body.data;
    expect(routes.map((r: any) => r.code)).toEqual(['cost_master']);
    expect(routes[0].children.map((c: any) => c.code)).toEqual(['project']);
    expect(routes[0].children[0].children).toBeUndefined();
    const buttons = (await clerk.api.get('/api/blade-system/menu/buttons')).body.data;
    const leaves: string[] = [];
    const walk = (n: any) => (n.children?.length ? n.children.forEach(walk) : leaves.push(n.code));
    buttons.forEach(walk);
    expect(leaves).toEqual(['project_view']);
    const everything = (await platform.get('/api/blade-system/menu/routes')).body.data.map((r: any) => r.code);
    expect(everything).toEqual(expect.arrayContaining(['cost_master', 'cost_material', 'system', 'authority', 'base']));
  });

  it('a tenant package limits what a tenant sees and can grant', async () => {
    const menus = await server.db.query<{ id: string; code: string }>(
      `SELECT id::text AS id, code FROM blade_menu WHERE code IN ('cost_master', 'project', 'project_view')`,
    );
    const pkg = await platform.post('/api/blade-system/tenant-package/save', {
      packageName: '项目基础版',
      menuId: menus.map((m) => m.id).join(','),
    });
    expect(pkg.body.code, JSON.stringify(pkg.body)).toBe(200);
    expect(
      (
        await platform.post('/api/blade-system/tenant/package-setting', undefined, {
          tenantId: tenant.tenantId,
          packageId: pkg.body.data.id,
        })
      ).body.code,
    ).toBe(200);
    const routes = (await tenantAdmin.get('/api/blade-system/menu/routes')).body.data;
    expect(routes.map((r: any) => r.code)).toEqual(['cost_master']);
    expect(routes[0].children.map((c: any) => c.code)).toEqual(['project']);
    const [userMenu] = await server.db.query(`SELECT id::text AS id FROM blade_menu WHERE code = 'user'`);
    const grant = await tenantAdmin.post('/api/blade-system/role/grant', {
      roleIds: [tenant.roleId],
      menuIds: [userMenu.id],
      dataScopeIds: [],
      apiScopeIds: [],
    });
    expect(grant.status).toBe(403);
    expect((await tenantAdmin.get('/api/blade-system/user/list')).status).toBe(403);
    await platform.post('/api/blade-system/tenant/package-setting', undefined, { tenantId: tenant.tenantId, packageId: '' });
  });
});
