// What a user may read, they can read the labels of (issue #25, part 4): a reader of a record may
// look up the display labels of the records it refers to (options?ids=), labels only, without the
// referenced type's menu; a keyword or filters still need that menu; another tenant's ids answer
// nothing; a user reading no referring type is refused. The home's calls for a restricted user:
// the document types they may read, and their own role names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { demand, demandRow, goods, partyA, project, userOfRole } from './fixtures.ts';

describe.each(databaseKinds())('labels of referenced records (%s)', (kind) => {
  let server: TestServer;
  let admin: Api;
  let tenantId: string;
  /** Project list only (江北项目经理), the demand list only, and nothing of the cost documents. */
  let projectReader: Api;
  let demandReader: Api;
  let outsider: Api;
  let owner: { id: string; name: string };
  let steel: { id: string; code: string; name: string; spec: string };
  let foreignOwner: { id: string };
  let foreignAdminId: string;

  /** A role of the tenant granted exactly these menus, and a signed-in user holding it. */
  async function userWith(roleName: string, roleAlias: string, codes: string[]): Promise<Api> {
    const role = await admin.post('/api/blade-system/role/save', { parentId: '0', roleName, roleAlias, sort: 9 });
    expect(role.body.code, JSON.stringify(role.body)).toBe(200);
    const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
    const grant = await admin.post('/api/blade-system/role/grant', {
      roleIds: [role.body.data.id],
      menuIds: menus.map((m) => m.id),
      dataScopeIds: [],
      apiScopeIds: [],
    });
    expect(grant.body.code, JSON.stringify(grant.body)).toBe(200);
    const userId = await userOfRole(admin, roleAlias, role.body.data.id);
    const token = await server.tokens.sign({
      tenant_id: tenantId,
      user_id: userId,
      dept_id: '',
      role_id: role.body.data.id,
      role_name: roleAlias,
    });
    return client(server, token);
  }

  beforeAll(async () => {
    server = await startServer(kind);
    const tenant = await server.newTenant('江北建设');
    tenantId = tenant.tenantId;
    admin = client(server, tenant.token);
    owner = await partyA(admin, { name: '南京江北新区建设投资集团' });
    const site = await project(admin, { partyAId: owner.id });
    steel = await goods(admin, { name: '螺纹钢', spec: 'HRB400E Φ25' });
    await demand(admin, site.id, [demandRow(steel.id, 120, 4150)]);
    projectReader = await userWith('江北项目经理', 'jb_pm', ['project']);
    demandReader = await userWith('江北经办员', 'jb_clerk', ['material_total_demand']);
    outsider = await userWith('江北档案员', 'jb_files', ['notice']);
    // the same kind of record in another tenant
    const otherTenant = await server.newTenant('另一家公司');
    foreignAdminId = otherTenant.adminId;
    foreignOwner = await partyA(client(server, otherTenant.token), { name: '别家的甲方' });
  }, 180_000);
  afterAll(() => server?.dispose());

  const partyALabels = (api: Api, query: Record<string, string>) => api.get('/api/construct/partyA/options', query);

  it('a reader of projects names their 建设单位 without the 甲方单位 menu: labels only', async () => {
    expect((await projectReader.get('/api/construct/partyA/list')).status).toBe(403);
    const res = await partyALabels(projectReader, { ids: owner.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.records).toEqual([{ value: owner.id, label: '南京江北新区建设投资集团' }]);
    // the label is all there is: no other column of the record
    expect(Object.keys(res.body.data.records[0]).sort()).toEqual(['label', 'value']);
  });

  it('a reader of demands names their 物资 (the rows refer to goods) without the 物资档案 menu', async () => {
    expect((await demandReader.get('/api/construct/goodsArchives/detail', { id: steel.id })).status).toBe(403);
    const res = await demandReader.get('/api/construct/goodsArchives/options', { ids: steel.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.records).toHaveLength(1);
    expect(res.body.data.records[0].value).toBe(steel.id);
    expect(res.body.data.records[0].label).toContain('螺纹钢');
  });

  it('a keyword or a filter is a search, which still needs the menu', async () => {
    const searches: Record<string, string>[] = [
      { keyword: '江北' },
      { ids: owner.id, keyword: '江北' },
      { ids: owner.id, name_like: '江北' },
      { ids: owner.id, contactPhone: '13800000000' },
    ];
    for (const query of searches) {
      const res = await partyALabels(projectReader, query);
      expect(res.status, JSON.stringify(query)).toBe(403);
      expect(res.body.msg).toBe('没有查看甲方单位的权限');
    }
  });

  it("another tenant's ids answer nothing", async () => {
    const res = await partyALabels(projectReader, { ids: `${foreignOwner.id},${owner.id}` });
    expect(res.status).toBe(200);
    expect(res.body.data.records.map((r: { value: string }) => r.value)).toEqual([owner.id]);
  });

  it('a user who reads nothing referring to them is refused', async () => {
    expect((await partyALabels(outsider, { ids: owner.id })).status).toBe(403);
    expect((await outsider.get('/api/construct/goodsArchives/options', { ids: steel.id })).status).toBe(403);
    // a reader of projects reads no demand: the goods a demand names stay closed to them
    expect((await projectReader.get('/api/construct/goodsArchives/options', { ids: steel.id })).status).toBe(403);
  });

  it("the platform's own people are named to a tenant's user (创建人 of a system dictionary), no other tenant's", async () => {
    const [platformUser] = await server.db.query<{ id: string; name: string }>(
      `SELECT id::text AS id, real_name AS name FROM blade_user WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 1`,
    );
    const res = await outsider.get('/api/blade-system/user/options', { ids: `${platformUser.id},${foreignAdminId}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.records).toHaveLength(1);
    expect(res.body.data.records[0].value).toBe(platformUser.id);
    expect(res.body.data.records[0].label).toContain(platformUser.name);
  });

  it('dictionaries are read by every user: a restricted one sees the labels of dictionary values', async () => {
    for (const [url, code] of [
      ['/api/blade-system/dict-biz/dictionary', 'project_type'],
      ['/api/blade-system/dict/dictionary', 'sex'],
    ]) {
      const res = await outsider.get(url, { code });
      expect(res.status, url).toBe(200);
      expect(res.body.data.length, url).toBeGreaterThan(0);
      expect(res.body.data[0]).toHaveProperty('dictValue');
    }
  });

  it('menu/readable says which document types the user may read (the home asks only for those)', async () => {
    const res = await projectReader.get('/api/blade-system/menu/readable');
    expect(res.status).toBe(200);
    expect(res.body.data).toContain('project');
    expect(res.body.data).not.toContain('expenditureContract');
    expect(res.body.data).not.toContain('partyA');
    // the statistics the home would ask for are indeed refused to this user
    expect((await projectReader.get('/api/construct/project/statisticsData')).status).toBe(403);
    // whoever may write a demand may pick its project; a demand's reader (no buttons) reads no project
    const demands = (await demandReader.get('/api/blade-system/menu/readable')).body.data;
    expect(demands).toContain('materialTotalDemand');
    expect(demands).not.toContain('project');
    // platform records are the platform tenant's, even for a tenant's administrator
    const own = (await admin.get('/api/blade-system/menu/readable')).body.data;
    expect(own).toContain('user');
    expect(own).not.toContain('tenant');
  });

  it("user/info names the user's own roles, which the home shows (not the alias)", async () => {
    const res = await demandReader.get('/api/blade-system/user/info');
    expect(res.status).toBe(200);
    expect(res.body.data.roleName).toBe('江北经办员');
    expect(res.body.data.roleName).not.toContain('jb_clerk');
  });
});
