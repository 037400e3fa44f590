// Master data and the platform's extra calls (docs/api.md): a referenced record can be disabled but not
// removed; a disabled one is not offered by pickers or `all`, yet old documents still show and keep
// it; the aliases declared by x-entity.routes (partyA/all, project/allList, constructionContract/
// submitApply) answer like their targets, under the same permissions; export of every record and list.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { dependencyOrder, sampleRecord } from '../../src/engine/sample/sample.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { userOfRole } from './fixtures.ts';

const { catalog } = compile(readSchemaSource());
const { entities } = catalog;
const MASTER = ['partyA', 'subcontractor', 'warehouse', 'goodsArchives', 'goodsClassify'] as const;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Row = Record<string, any>;

/** The entities a record of `keys` needs (its required references, transitively), in creation order. */
function needed(keys: readonly string[]): string[] {
  const wanted = new Set<string>();
  const visit = (key: string) => {
    if (wanted.has(key)) return;
    wanted.add(key);
    const model = entities[key];
    for (const f of [...model.fields, ...model.details.flatMap((d) => d.fields)])
      if (f.ref && f.required && f.ref.entity !== key) visit(f.ref.entity);
  };
  keys.forEach(visit);
  return dependencyOrder(catalog)
    .map((m) => m.key)
    .filter((k) => wanted.has(k));
}

describe.each(databaseKinds())('master data and extra calls on %s', (kind) => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let admin: Api;
  let adminEn: Api;
  let seq = 1000;
  /** One live record per entity, the references of new samples. */
  const ids = new Map<string, Row>();

  const sample = (key: string, overrides: Row = {}) => ({ ...sampleRecord(entities[key], { catalog, ids, seq: ++seq }), ...overrides });
  async function save(key: string, overrides: Row = {}, api: Api = admin): Promise<Row> {
    const res = await api.post(`${entities[key].api}/save`, sample(key, overrides));
    expect(res.body, `${key}: ${JSON.stringify(res.body)}`).toMatchObject({ code: 200, success: true });
    return res.body.data;
  }

  /** A role of the tenant holding exactly these menu codes, and a client of a user with it. */
  async function userWith(codes: string[]): Promise<Api> {
    const alias = `m${Math.random().toString(36).slice(2, 10)}`;
    const role = await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 });
    const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
    expect(
      (
        await admin.post('/api/blade-system/role/grant', {
          roleIds: [role.body.data.id],
          menuIds: menus.map((m) => m.id),
          dataScopeIds: [],
          apiScopeIds: [],
        })
      ).body.code,
    ).toBe(200);
    const userId = await userOfRole(admin, alias, role.body.data.id);
    return client(
      server,
      await server.tokens.sign({
        tenant_id: tenant.tenantId,
        user_id: userId,
        dept_id: '',
        role_id: role.body.data.id,
        role_name: alias,
      }),
    );
  }

  /** Someone in the tenant holding the role alias, so that approvals can reach that role's task. */
  async function staff(alias: string) {
    const [existing] = await server.db.query<{ id: string }>(
      `SELECT id::text AS id FROM blade_role WHERE tenant_id = $1 AND role_alias = $2 AND is_deleted = 0`,
      [tenant.tenantId, alias],
    );
    const roleId =
      existing?.id ??
      (await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 5 })).body.data.id;
    await userOfRole(admin, alias, roleId, { account: `${alias}1` });
  }

  beforeAll(async () => {
    server = await startServer(kind);
    tenant = await server.newTenant('主数据测试公司');
    admin = client(server, tenant.token);
    adminEn = client(server, tenant.token, 'en');
    for (const alias of ['project_manager', 'cost_manager']) await staff(alias);
    for (const key of needed([
      ...MASTER,
      'project',
      'constructionContract',
      'expenditureContract',
      'laborSettlementFinalization',
      'materialTotalDemand',
      'materialCheck',
    ])) {
      ids.set(key, await save(key));
    }
  });
  afterAll(() => server?.dispose());

  const disable = async (key: string, id: string) => {
    const res = await admin.post(`${entities[key].api}/updatePart`, { id, status: 'disabled' });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, data: { status: 'disabled' } });
  };

  describe('the extra calls', () => {
    it('partyA/all answers every enabled client of the tenant, unpaged, as plain records', async () => {
      const live = await save('partyA', { name: '南京市江北新区建设投资有限公司' });
      const off = await save('partyA', { name: '已停用的建设单位' });
      await disable('partyA', off.id);
      const res = await admin.get('/api/construct/partyA/all');
      expect(res.body).toMatchObject({ code: 200, success: true });
      const names = res.body.data.map((r: Row) => r.name);
      expect(names).toContain(live.name);
      expect(names).not.toContain(off.name);
      expect(res.body.data.find((r: Row) => r.id === live.id)).toMatchObject({ id: live.id, name: live.name, status: 'enabled' });
      // the list's filters narrow it; another tenant's clients are never in it
      expect((await admin.get('/api/construct/partyA/all', { name: '江北新区' })).body.data.map((r: Row) => r.id)).toEqual([live.id]);
      const platform = client(server, await server.token());
      expect((await platform.get('/api/construct/partyA/all')).body.data.map((r: Row) => r.id)).not.toContain(live.id);
    });

    it('project/all and project/allList answer the live projects (a removed one is gone)', async () => {
      const kept = await save('project', { name: '浦口区丽岛路人才公寓' });
      const gone = await save('project', { name: '将被删除的项目' });
      expect((await admin.post('/api/construct/project/remove', undefined, { ids: gone.id })).body.code).toBe(200);
      const all = (await admin.get('/api/construct/project/all')).body.data;
      const allList = (await admin.get('/api/construct/project/allList')).body.data;
      expect(allList).toEqual(all);
      expect(all.map((r: Row) => r.id)).toContain(kept.id);
      expect(all.map((r: Row) => r.id)).not.toContain(gone.id);
      expect(all).toHaveLength((await admin.get('/api/construct/project/list', { size: '500' })).body.data.total);
    });

    it('constructionContract: save, update, and submitApply starting its approval like submit', async () => {
      const draft = await save('constructionContract', { name: '人才公寓二期施工总承包合同' });
      expect(draft.approvalStatus).toBe('draft');
      const updated = await admin.post('/api/construct/constructionContract/update', {
        ...draft,
        name: '人才公寓二期施工总承包合同(补充)',
      });
      expect(updated.body).toMatchObject({ code: 200, data: { name: '人才公寓二期施工总承包合同(补充)', code: draft.code } });
      const applied = await admin.post('/api/construct/constructionContract/submitApply', { id: draft.id });
      expect(applied.body, JSON.stringify(applied.body)).toMatchObject({ code: 200, data: { id: draft.id, approvalStatus: 'approving' } });
      expect(applied.body.data.processInstanceId).toBeTruthy();
      // a new one straight into approval, then locked like any document in approval
      const fresh = await admin.post('/api/construct/constructionContract/submitApply', sample('constructionContract'));
      expect(fresh.body).toMatchObject({ code: 200, data: { approvalStatus: 'approving' } });
      const again = await adminEn.post('/api/construct/constructionContract/submitApply', { id: fresh.body.data.id });
      expect(again.status).toBe(400);
      expect(again.body.msg).toMatch(/approval|approv/i);
    });

    it('laborSettlementFinalization: save, update and submit', async () => {
      const draft = await save('laborSettlementFinalization');
      expect(draft).toMatchObject({ approvalStatus: 'draft', code: expect.stringMatching(/^LWDA-\d{6}-\d{4}$/) });
      const updated = await admin.post('/api/construct/laborSettlementFinalization/update', { ...draft, auditUnit: '江苏天衡造价咨询' });
      expect(updated.body).toMatchObject({ code: 200, data: { auditUnit: '江苏天衡造价咨询' } });
      const submitted = await admin.post('/api/construct/laborSettlementFinalization/submit', { id: draft.id });
      expect(submitted.body).toMatchObject({ code: 200, data: { approvalStatus: 'approving' } });
    });

    it('expenditureContract/detail finds a contract by its code, with its lines', async () => {
      const contract = ids.get('expenditureContract')!;
      const byCode = await admin.get('/api/construct/expenditureContract/detail', { code: contract.code });
      expect(byCode.body.data).toMatchObject({ id: contract.id, code: contract.code, name: contract.name });
      expect(byCode.body.data.details).toHaveLength(contract.details.length);
      const missing = await adminEn.get('/api/construct/expenditureContract/detail', { code: 'ZCHT-000000-0000' });
      expect(missing.status).toBe(404);
      expect(missing.body.msg).toBe(`${entities.expenditureContract.label.en} not found`);
    });

    it('goodsClassify: tree and lazy-list', async () => {
      const root = await save('goodsClassify', { parentId: '0', name: '周转材料' });
      const child = await save('goodsClassify', { parentId: root.id, name: '钢管' });
      const tree = (await admin.get('/api/construct/goodsClassify/tree')).body.data;
      const node = tree.find((n: Row) => n.id === root.id);
      expect(node).toMatchObject({
        title: '周转材料',
        hasChildren: true,
        children: [expect.objectContaining({ id: child.id, title: '钢管' })],
      });
      const level = (await admin.get('/api/construct/goodsClassify/lazy-list', { parentId: root.id })).body.data;
      expect(level).toEqual([expect.objectContaining({ id: child.id, name: '钢管', hasChildren: false })]);
    });

    it('exports every list and every record as a workbook', async () => {
      for (const model of Object.values(entities).filter((m) => m.scope === 'tenant' && m.menu && m.list.export)) {
        const list = await server.app.inject({
          method: 'GET',
          url: `${model.api}/export`,
          headers: { 'blade-auth': `bearer ${tenant.token}` },
        });
        expect(list.statusCode, `${model.key} list: ${list.body.slice(0, 200)}`).toBe(200);
        expect(list.headers['content-type']).toContain(XLSX);
      }
      for (const [key, record] of ids) {
        const one = await server.app.inject({
          method: 'GET',
          url: `${entities[key].api}/export`,
          query: { id: String(record.id) },
          headers: { 'blade-auth': `bearer ${tenant.token}` },
        });
        expect(one.statusCode, `${key} record`).toBe(200);
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(one.rawPayload as unknown as ArrayBuffer);
        expect(book.worksheets.length, key).toBeGreaterThan(0);
      }
    });

    it('aliases need the same grants as their targets', async () => {
      const nobody = await userWith([]);
      expect((await nobody.get('/api/construct/partyA/all')).status).toBe(403);
      expect((await nobody.get('/api/construct/project/allList')).status).toBe(403);
      const reader = await userWith(['party_a', 'project']);
      expect((await reader.get('/api/construct/partyA/all')).status).toBe(200);
      expect((await reader.get('/api/construct/project/allList')).status).toBe(200);
      // whoever may fill in a contract's client may list the clients to pick from
      const contractWriter = await userWith(['construction_contract_add']);
      expect((await contractWriter.get('/api/construct/partyA/all')).status).toBe(200);
      const refused = await reader.post('/api/construct/constructionContract/submitApply', sample('constructionContract'));
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toBe(`没有新增${entities.constructionContract.label.zh}的权限`);
      expect((await contractWriter.post('/api/construct/constructionContract/submitApply', sample('constructionContract'))).body.code).toBe(
        200,
      );
    });

    it('the OpenAPI document describes the extra paths', async () => {
      const doc = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
      expect(doc.paths['/api/construct/partyA/all'].get.responses['200']).toBeDefined();
      expect(doc.paths['/api/construct/project/allList'].get.summary).toMatch(/unpaged/);
      expect(doc.paths['/api/construct/constructionContract/submitApply'].post.summary).toMatch(/same as submit/);
    });
  });

  describe('master data rules', () => {
    // each master entity with a document referring to it, and the field that does
    const referrers: Record<(typeof MASTER)[number], { key: string; field: string; detail?: string }> = {
      partyA: { key: 'constructionContract', field: 'partyAId' },
      subcontractor: { key: 'expenditureContract', field: 'subcontractorId' },
      warehouse: { key: 'materialCheck', field: 'warehouseId' },
      goodsArchives: { key: 'materialTotalDemand', field: 'goodsId', detail: 'details' },
      goodsClassify: { key: 'goodsArchives', field: 'classifyId' },
    };

    /** A referrer document holding `id` (in its first row when the reference is on rows). */
    const holding = (master: (typeof MASTER)[number], id: string): Row => {
      const { key, field, detail } = referrers[master];
      const record = sample(key);
      if (detail) record[detail] = record[detail].map((r: Row) => ({ ...r, [field]: id }));
      else record[field] = id;
      return record;
    };

    it.each(MASTER)('%s: referenced, it cannot be removed but can be disabled', async (master) => {
      const { key } = referrers[master];
      const record = await save(master);
      const doc = await admin.post(`${entities[key].api}/save`, holding(master, record.id));
      expect(doc.body, JSON.stringify(doc.body)).toMatchObject({ code: 200 });
      const refused = await admin.post(`${entities[master].api}/remove`, undefined, { ids: record.id });
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(`${entities[master].label.zh}已被${entities[key].label.zh}引用,不能删除,可以停用`);
      const refusedEn = await adminEn.post(`${entities[master].api}/remove`, undefined, { ids: record.id });
      expect(refusedEn.body.msg).toBe(
        `${entities[master].label.en} is referenced by ${entities[key].label.en} and cannot be deleted; disable it instead`,
      );
      expect((await admin.get(`${entities[master].api}/detail`, { id: record.id })).body.data.status).toBe('enabled');
      await disable(master, record.id);
    });

    it.each(MASTER)(
      '%s: disabled, pickers leave it out, old documents keep showing and holding it, new ones cannot choose it',
      async (master) => {
        const { key, field, detail } = referrers[master];
        const model = entities[master];
        const record = await save(master);
        const old = (await admin.post(`${entities[key].api}/save`, holding(master, record.id))).body.data;
        await disable(master, record.id);

        // pickers (a keyword or a page of choices, with the reference's filter) do not offer it ...
        const title = String(record[model.titleField!]);
        const refField = detail ? entities[key].details.find((d) => d.name === detail)!.fieldMap[field] : entities[key].fieldMap[field];
        const filters = Object.fromEntries(
          Object.entries(refField.ref!.filter ?? {})
            .filter(([, c]) => !JSON.stringify(c).includes('$form'))
            .map(([name, cond]) => [`${name}_equal`, String(Object.values(cond as Row)[0])]),
        );
        const picked = await admin.get(`${model.api}/options`, { keyword: title, ...filters });
        expect(picked.body.data.records.map((o: Row) => o.value)).not.toContain(record.id);
        const browsed = await admin.get(`${model.api}/options`, { size: '500' });
        expect(browsed.body.data.records.map((o: Row) => o.value)).not.toContain(record.id);
        // ... but the old document's label still names it
        const labels = await admin.get(`${model.api}/options`, { ids: record.id });
        expect(labels.body.data.records).toEqual([{ value: record.id, label: expect.stringContaining(title) }]);

        // the old document can still be saved with it
        const kept = await admin.post(`${entities[key].api}/update`, { ...old, remark: '停用后修改' });
        expect(kept.body, JSON.stringify(kept.body)).toMatchObject({ code: 200 });
        const path = detail ? `/${detail}/0/${field}` : `/${field}`;
        const label = detail ? `${entities[key].details[0].label.zh}第1行 ${refField.label.zh}` : refField.label.zh;
        // a new document cannot choose it
        const fresh = await admin.post(`${entities[key].api}/save`, holding(master, record.id));
        expect(fresh.status).toBe(400);
        expect(fresh.body.data.errors).toContainEqual({ path, message: `${label}: ${model.label.zh}“${title}”已停用,不能选用` });
        const freshEn = await adminEn.post(`${entities[key].api}/save`, holding(master, record.id));
        expect(
          freshEn.body.data.errors
            .find((e: Row) => e.path === path)
            .message.endsWith(`: ${model.label.en} "${title}" is disabled and cannot be chosen`),
        ).toBe(true);
        // nor can the old document switch to another disabled one
        const other = await save(master);
        await disable(master, other.id);
        const switched = detail
          ? { ...old, [detail]: old[detail].map((r: Row) => ({ ...r, [field]: other.id })) }
          : { ...old, [field]: other.id };
        expect((await admin.post(`${entities[key].api}/update`, switched)).status).toBe(400);
        // enabled again, it is chosen as before
        expect((await admin.post(`${model.api}/updatePart`, { id: record.id, status: 'enabled' })).body.code).toBe(200);
        expect((await admin.post(`${entities[key].api}/save`, holding(master, record.id))).body.code).toBe(200);
      },
    );
  });
});
