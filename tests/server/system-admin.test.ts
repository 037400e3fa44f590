// The administration calls around grants and tenants: grant trees and granted keys, top menus,
// switch mode, tenant lookup by domain, account quotas, OAuth clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHash } from '../../src/server/security/passwords.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

describe.each(databaseKinds())('system administration on %s', (kind) => {
  let server: TestServer;
  let platform: Api;

  beforeAll(async () => {
    server = await startServer(kind);
    platform = client(server, await server.token());
  });
  afterAll(() => server?.dispose());

  const menuIds = async (codes: string[]) =>
    (await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[]) ORDER BY id`, [codes])).map(
      (r) => r.id,
    );

  it('serves the grant trees and the keys a role already holds', async () => {
    const tree = (await platform.get('/api/blade-system/menu/grant-tree')).body.data;
    expect(Object.keys(tree).sort()).toEqual(['apiScope', 'dataScope', 'menu']);
    const system = tree.menu.find((n: any) => n.title === '系统管理');
    const user = system.children.find((n: any) => n.title === '用户管理');
    expect(user.children.map((b: any) => b.title)).toEqual(expect.arrayContaining(['新增', '修改', '删除', '查看', '导出', '密码重置']));
    const [clerkRole] = await server.db.query(`SELECT id::text AS id FROM blade_role WHERE role_alias = 'project_clerk'`);
    const keys = (await platform.get('/api/blade-system/menu/role-tree-keys', { roleIds: clerkRole.id })).body.data;
    expect(keys.menu).toEqual(expect.arrayContaining(await menuIds(['cost_master', 'project', 'material_total_demand_add'])));
    expect(keys.menu).not.toContain((await menuIds(['project_delete']))[0]);
    const en = (await client(server, await server.token(), 'en').get('/api/blade-system/menu/grant-tree')).body.data;
    expect(en.menu.map((n: any) => n.title)).toContain('System');
  });

  it('top menus choose the sidebar', async () => {
    const tops = (await platform.get('/api/blade-system/menu/top-menu')).body.data;
    expect(tops.map((t: any) => t.name)).toEqual(['成本管控', '系统管理']);
    const cost = tops[0];
    const routes = (await platform.get('/api/blade-system/menu/routes', { topMenuId: cost.id })).body.data.map((r: any) => r.code);
    // the cost-control groups in menu order: master data, contracts, materials, turnover, equipment, labour, subcontracting
    expect(routes).toEqual([
      'cost_master',
      'cost_contract',
      'cost_material',
      'cost_turnover',
      'cost_equipment',
      'cost_labor',
      'cost_subcontract',
    ]);
    const keys = (await platform.get('/api/blade-system/menu/top-tree-keys', { topMenuIds: cost.id })).body.data.menu;
    expect(keys).toEqual(expect.arrayContaining(await menuIds(['cost_master', 'project'])));
    const changed = await platform.post('/api/blade-system/topmenu/grant', {
      topMenuIds: [cost.id],
      menuIds: await menuIds(['cost_master']),
    });
    expect(changed.body.code).toBe(200);
    expect((await platform.get('/api/blade-system/menu/routes', { topMenuId: cost.id })).body.data.map((r: any) => r.code)).toEqual([
      'cost_master',
    ]);
  });

  it('switch mode narrows a login to the chosen department and role', async () => {
    const [co1] = await server.db.query(`SELECT id::text AS id FROM blade_dept WHERE dept_name = '第一工程公司'`);
    const [co2] = await server.db.query(`SELECT id::text AS id FROM blade_dept WHERE dept_name = '市政工程公司'`);
    const roles = await server.db.query<{ id: string }>(
      `SELECT id::text AS id FROM blade_role WHERE role_alias IN ('project_clerk', 'cost_manager') ORDER BY role_alias`,
    );
    const created = await platform.post('/api/blade-system/user/save', {
      account: 'twohats',
      password: 'twohats',
      name: '双岗',
      realName: '双岗',
      roleId: roles.map((r) => r.id).join(','),
      deptId: `${co1.id},${co2.id}`,
      status: 1,
    });
    expect(created.body.code).toBe(200);
    const me = client(server, await server.token({ user_id: created.body.data.id, role_name: 'project_clerk' }));
    expect(
      (await me.get('/api/blade-system/dept/select', { userId: created.body.data.id })).body.data.map((d: any) => d.deptName).sort(),
    ).toEqual(['市政工程公司', '第一工程公司'].sort());
    const login = async () => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/token',
        query: { tenantId: '000000', username: 'twohats', password: clientHash('twohats'), grant_type: 'password' },
        headers: {
          authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
          'tenant-id': '000000',
          'dept-id': co2.id,
          'role-id': roles[1].id,
        },
      });
      return JSON.parse(res.body);
    };
    const off = await login();
    expect(off.role_id.split(',').sort()).toEqual(roles.map((r) => r.id).sort());
    const [param] = await server.db.query(
      `SELECT id::text AS id FROM blade_param WHERE param_key = 'account.switchMode' AND tenant_id = '000000'`,
    );
    await platform.post('/api/blade-system/param/updatePart', { id: param.id, paramValue: 'true' });
    const on = await login();
    expect(on).toMatchObject({ dept_id: co2.id, role_id: roles[1].id, role_name: 'project_clerk' });
    await platform.post('/api/blade-system/param/updatePart', { id: param.id, paramValue: 'false' });
  });

  it('finds a tenant by its domain for the login page, without a token', async () => {
    const created = await platform.post('/api/blade-system/tenant/save', {
      tenantName: '域名公司',
      domain: 'https://zs.example.cn',
      accountNumber: 2,
    });
    expect(created.body.data.tenantId).toMatch(/^\d{6}$/);
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/blade-system/tenant/info',
      query: { domain: 'https://zs.example.cn' },
    });
    expect(JSON.parse(res.body).data).toEqual({
      tenantId: created.body.data.tenantId,
      domain: 'https://zs.example.cn',
      backgroundUrl: null,
    });
  });

  it("enforces a tenant's account quota", async () => {
    const created = await platform.post('/api/blade-system/tenant/save', { tenantName: '小微公司', accountNumber: 2 });
    const tenantId = created.body.data.tenantId;
    const [admin] = await server.db.query(`SELECT id::text AS id, role_id AS "roleId" FROM blade_user WHERE tenant_id = $1`, [tenantId]);
    const api = client(
      server,
      await server.tokens.sign({ tenant_id: tenantId, user_id: admin.id, role_id: admin.roleId, role_name: 'admin' }),
    );
    expect(
      (await api.post('/api/blade-system/user/save', { account: 'second', password: 'second', name: '二', realName: '二号', status: 1 }))
        .body.code,
    ).toBe(200);
    const third = await api.post('/api/blade-system/user/save', {
      account: 'third',
      password: 'third',
      name: '三',
      realName: '三号',
      status: 1,
    });
    expect(third.status).toBe(400);
    expect(third.body.msg).toBe('租户账号额度已用完');
  });

  it('tenant settings change only the values sent; an empty expiry means none', async () => {
    const created = await platform.post('/api/blade-system/tenant/save', {
      tenantName: '授权公司',
      accountNumber: 5,
      expireTime: '2030-01-01 00:00:00',
    });
    const { id } = created.body.data;
    const detail = async () => (await platform.get('/api/blade-system/tenant/detail', { id })).body.data;
    expect((await platform.post('/api/blade-system/tenant/setting', undefined, { ids: id, accountNumber: '8' })).body.code).toBe(200);
    expect(await detail()).toMatchObject({ accountNumber: 8, expireTime: '2030-01-01 00:00:00' });
    expect(
      (await platform.post('/api/blade-system/tenant/setting', undefined, { ids: id, accountNumber: '-1', expireTime: '' })).body.code,
    ).toBe(200);
    const after = await detail();
    expect(after.accountNumber).toBe(-1);
    expect(after.expireTime ?? null).toBeNull();
  });

  it("the tenant package picker offers menus with their buttons; a package picked from it keeps the tenant's buttons", async () => {
    const tree = (await platform.get('/api/blade-system/menu/package-tree')).body.data;
    const master = tree.find((n: any) => n.title === '基础资料');
    const project = master.children.find((n: any) => n.title === '项目');
    expect(project.children.map((b: any) => b.title)).toEqual(expect.arrayContaining(['新增', '修改', '删除', '查看']));
    const ids: string[] = [];
    const collect = (n: any) => {
      ids.push(n.id);
      n.children?.forEach(collect);
    };
    collect(master);
    const pkg = await platform.post('/api/blade-system/tenant-package/save', { packageName: '基础资料包', menuId: ids.join(',') });
    expect(pkg.body.code, JSON.stringify(pkg.body)).toBe(200);
    const created = await platform.post('/api/blade-system/tenant/save', { tenantName: '产品包公司', packageId: pkg.body.data.id });
    const [admin] = await server.db.query(`SELECT id::text AS id, role_id AS "roleId" FROM blade_user WHERE tenant_id = $1`, [
      created.body.data.tenantId,
    ]);
    const api = client(
      server,
      await server.tokens.sign({ tenant_id: created.body.data.tenantId, user_id: admin.id, role_id: admin.roleId, role_name: 'admin' }),
    );
    const leaves: string[] = [];
    const walk = (n: any) => (n.children?.length ? n.children.forEach(walk) : leaves.push(n.code));
    (await api.get('/api/blade-system/menu/buttons')).body.data.forEach(walk);
    expect(leaves).toEqual(expect.arrayContaining(['project_add', 'project_edit', 'project_delete']));
    expect(leaves).not.toContain('user_add');
  });

  it('manages OAuth clients without ever showing a secret', async () => {
    const created = await platform.post('/api/blade-system/client/save', {
      clientId: 'mobile_app',
      clientSecret: 'm0bile-secret',
      scope: 'all',
      authorizedGrantTypes: 'password,refresh_token',
      accessTokenValidity: 1800,
      refreshTokenValidity: 86400,
    });
    expect(created.body.code).toBe(200);
    expect(created.body.data).not.toHaveProperty('clientSecret');
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      query: { tenantId: '000000', username: 'admin', password: clientHash('admin'), grant_type: 'password' },
      headers: { authorization: `Basic ${Buffer.from('mobile_app:m0bile-secret').toString('base64')}`, 'tenant-id': '000000' },
    });
    expect(JSON.parse(res.body)).toMatchObject({ client_id: 'mobile_app', expires_in: 1800 });
    const captchaRefused = await server.app.inject({
      method: 'POST',
      url: '/api/blade-auth/oauth/token',
      query: { tenantId: '000000', username: 'admin', password: clientHash('admin'), grant_type: 'captcha' },
      headers: { authorization: `Basic ${Buffer.from('mobile_app:m0bile-secret').toString('base64')}` },
    });
    expect(JSON.parse(captchaRefused.body).error).toBe('unsupported_grant_type');
  });

  it("keeps the platform tenant's data on the main database (tenant/datasource refuses to move it)", async () => {
    const res = await platform.post('/api/blade-system/tenant/datasource', undefined, { tenantId: '000000', datasourceId: '1' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('平台租户的数据只能保存在主数据库');
  });

  it('never removes the platform tenant, alone or among others, and says so in the caller language (issue #25)', async () => {
    const tenants = async () => (await platform.get('/api/blade-system/tenant/list', { size: '100' })).body.data.records;
    const platformTenant = (await tenants()).find((t: { tenantId: string }) => t.tenantId === '000000');
    const other = await server.newTenant('待删除的租户');
    const otherId = (await tenants()).find((t: { tenantId: string }) => t.tenantId === other.tenantId).id;
    const alone = await platform.post('/api/blade-system/tenant/remove', undefined, { ids: platformTenant.id });
    expect(alone.status).toBe(400);
    expect(alone.body.msg).toBe(`${platformTenant.tenantName} 不能删除`);
    const together = await client(server, await server.token(), 'en').post('/api/blade-system/tenant/remove', undefined, {
      ids: `${otherId},${platformTenant.id}`,
    });
    expect(together.body.msg).toBe(`${platformTenant.tenantName} cannot be deleted`);
    // nothing was removed, and the other tenant goes when asked alone
    expect((await tenants()).map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([platformTenant.id, otherId]));
    expect((await platform.post('/api/blade-system/tenant/remove', undefined, { ids: otherId })).body.code).toBe(200);
  });
});
