// Issue #25, part 1: a tenant package holds every menu. Its menus live in a link table
// (x-db.link on menuId) instead of one comma-joined text column that capped a package at about 210
// menus (菜单不能超过4000个字符); the API still answers the platform's comma-joined menuId, access
// reads the link table, an installation from before has its packages' menus moved into the table
// once at start-up, and a request naming more menus than a package may hold is refused clearly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSchema } from '../../src/server/db/sync.ts';
import { ok } from './approval.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const PACKAGES = '/api/blade-system/tenant-package';

describe.each(databaseKinds())('tenant packages (%s)', (kind) => {
  let server: TestServer;
  let platform: Api;
  let everyMenu: string[];

  beforeAll(async () => {
    server = await startServer(kind);
    platform = client(server, await server.token());
    everyMenu = (await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE is_deleted = 0 ORDER BY sort, id`)).map(
      (m) => m.id,
    );
  });
  afterAll(async () => server?.dispose());

  const menusOf = async (codes: string[]) =>
    (
      await server.db.query<{ id: string }>(
        `WITH RECURSIVE sub AS (SELECT id FROM blade_menu WHERE code = ANY($1::text[]) AND is_deleted = 0
           UNION SELECT m.id FROM blade_menu m JOIN sub ON m.parent_id = sub.id WHERE m.is_deleted = 0)
         SELECT id::text AS id FROM sub`,
        [codes],
      )
    ).map((r) => r.id);

  it('come seeded: every menu a tenant can use, and one per top-level group', async () => {
    const seeded = ok(await platform.get(`${PACKAGES}/list`, { size: '100' })).records as { packageName: string; menuId: string }[];
    // the pages of platform records (tenants, packages, OAuth clients) are no tenant's
    const platformOnly = new Set(await menusOf(['tenant', 'tenant_package', 'client']));
    expect(platformOnly.size).toBeGreaterThan(2);
    const all = seeded.find((p) => p.packageName === '全部菜单');
    expect(all?.menuId.split(',').sort()).toEqual(everyMenu.filter((id) => !platformOnly.has(id)).sort());
    const groups = await server.db.query<{ name: string; code: string }>(
      `SELECT name, code FROM blade_menu WHERE parent_id = 0 AND category = 1 AND is_deleted = 0`,
    );
    expect(groups).not.toEqual([]);
    for (const group of groups) {
      const pkg = seeded.find((p) => p.packageName === group.name);
      const menus = (await menusOf([group.code])).filter((id) => !platformOnly.has(id));
      expect(pkg?.menuId.split(',').sort(), group.name).toEqual(menus.sort());
    }
  });

  it('hold every menu: saved, read back in detail and list, found by a menu', async () => {
    const menuId = everyMenu.join(',');
    // longer than a varchar(4000) column would hold: why the menus are kept in a link table
    expect(menuId.length).toBeGreaterThan(4000);
    const saved = ok(await platform.post(`${PACKAGES}/save`, { packageName: `整套_${kind}`, menuId }));
    expect(saved.menuId).toBe(menuId);
    expect(ok(await platform.get(`${PACKAGES}/detail`, { id: saved.id })).menuId).toBe(menuId);
    const listed = ok(await platform.get(`${PACKAGES}/list`, { packageName: `整套_${kind}` })).records;
    expect(listed.map((p: { menuId: string }) => p.menuId)).toEqual([menuId]);
    // the platform's clients find the packages that hold a menu
    const last = everyMenu[everyMenu.length - 1];
    const holding = ok(await platform.get(`${PACKAGES}/list`, { menuId_equal: last, size: '100' })).records.map(
      (p: { id: string }) => p.id,
    );
    expect(holding).toContain(saved.id);
    // an update replaces the menus, keeping the order sent
    const fewer = [everyMenu[5], everyMenu[1], everyMenu[3]].join(',');
    ok(await platform.post(`${PACKAGES}/update`, { ...saved, menuId: fewer }));
    expect(ok(await platform.get(`${PACKAGES}/detail`, { id: saved.id })).menuId).toBe(fewer);
    ok(await platform.post(`${PACKAGES}/updatePart`, { id: saved.id, menuId: menuId }));
    expect(ok(await platform.get(`${PACKAGES}/detail`, { id: saved.id })).menuId).toBe(menuId);
  });

  it("give a tenant on them its grants, read from the package's link table", async () => {
    const pkg = ok(await platform.post(`${PACKAGES}/save`, { packageName: `全部_${kind}`, menuId: everyMenu.join(',') }));
    const created = ok(
      await platform.post('/api/blade-system/tenant/save', {
        tenantName: `整套租户_${kind}`,
        linkman: '测试',
        accountNumber: -1,
        packageId: pkg.id,
      }),
    );
    const [admin] = await server.db.query<{ id: string; roleId: string; deptId: string }>(
      `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
      [created.tenantId],
    );
    const [{ granted }] = await server.db.query<{ granted: number }>(
      `SELECT count(*)::int AS granted FROM blade_role_menu WHERE role_id = $1::bigint AND tenant_id = $2`,
      [admin.roleId, created.tenantId],
    );
    expect(granted).toBe(everyMenu.length);
    const tenantAdmin = client(
      server,
      await server.token({
        tenant_id: created.tenantId,
        user_id: admin.id,
        dept_id: admin.deptId,
        role_id: admin.roleId,
        role_name: 'admin',
      }),
    );
    expect((await tenantAdmin.get('/api/blade-desk/notice/list')).status).toBe(200);
    expect((await tenantAdmin.get('/api/blade-system/user/list')).status).toBe(200);

    // the package narrows what its tenants may use at once: without the notice menus, the
    // role's stored grant of them no longer opens the list
    const notice = new Set(await menusOf(['notice']));
    ok(await platform.post(`${PACKAGES}/update`, { ...pkg, menuId: everyMenu.filter((id) => !notice.has(id)).join(',') }));
    expect((await tenantAdmin.get('/api/blade-desk/notice/list')).status).toBe(403);
    expect((await tenantAdmin.get('/api/blade-system/user/list')).status).toBe(200);
    const routes = JSON.stringify(ok(await tenantAdmin.get('/api/blade-system/menu/routes')));
    expect(routes).not.toContain('"code":"notice"');
    expect(routes).toContain('"code":"user"');
  });

  it('refuse more menus than a package holds, clearly, in the caller’s language, changing nothing', async () => {
    const tooMany = Array.from({ length: 5001 }, (_, i) => String(1000000000000000000n + BigInt(i))).join(',');
    const before = ok(await platform.get(`${PACKAGES}/list`, { size: '100' })).total;
    const zh = await platform.post(`${PACKAGES}/save`, { packageName: `过多_${kind}`, menuId: tooMany });
    expect(zh.status).toBe(400);
    expect(zh.body.msg).toContain('菜单最多可选5000项,提交了5001项');
    const en = await client(server, await server.token(), 'en').post(`${PACKAGES}/save`, {
      packageName: `toomany_${kind}`,
      menuId: tooMany,
    });
    expect(en.body.msg).toContain('Menu allows at most 5000 item(s), 5001 were sent');
    expect(ok(await platform.get(`${PACKAGES}/list`, { size: '100' })).total).toBe(before);
  });

  it('of an installation from before are moved into the link table once, at start-up', async () => {
    const kept = ok(await platform.post(`${PACKAGES}/save`, { packageName: `旧包_${kind}`, menuId: everyMenu.slice(0, 3).join(',') }));
    // the shape the packages had: one comma-joined text column, no link table
    await server.db.exec(`
      ALTER TABLE blade_tenant_package ADD COLUMN menu_id text;
      UPDATE blade_tenant_package p SET menu_id = (SELECT string_agg(menu_id::text, ',' ORDER BY sort) FROM blade_tenant_package_menu l WHERE l.package_id = p.id);
      DROP TABLE blade_tenant_package_menu;
      DELETE FROM zs_setting WHERE key = 'schema.fingerprint';`);
    const old = everyMenu.slice(0, 250).join(',');
    await server.db.query(`UPDATE blade_tenant_package SET menu_id = $1 WHERE id = $2`, [old, kept.id]);

    const report = await syncSchema(server.db, server.ctx.catalog, 'migrations');
    expect(report.created).toContain('blade_tenant_package_menu');
    expect(report.altered).toContain('blade_tenant_package.menu_id → blade_tenant_package_menu');
    const columns = await server.db.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'blade_tenant_package' AND column_name = 'menu_id'`,
    );
    expect(columns).toHaveLength(0);
    expect(ok(await platform.get(`${PACKAGES}/detail`, { id: kept.id })).menuId).toBe(old);
    const seeded = ok(await platform.get(`${PACKAGES}/list`, { packageName: '全部菜单' })).records[0];
    expect(seeded.menuId.split(',').length).toBeGreaterThan(300);
    // a second start finds nothing to move
    await server.db.query(`DELETE FROM zs_setting WHERE key = 'schema.fingerprint'`);
    expect((await syncSchema(server.db, server.ctx.catalog, 'migrations')).altered).toEqual([]);
  });
});
