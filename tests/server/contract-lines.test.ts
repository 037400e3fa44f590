// An expense contract's lines as a resource of their own (expenditureContractMaterial, x-entity.rowsOf):
// read with their contract's code, name, project and status, only while the contract lives, only in
// the caller's tenant, by whoever may read the contract; written only through the contract's form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { expenseContract, goods, project, supplier } from './fixtures.ts';

const LINES = '/api/construct/expenditureContractMaterial';
const CONTRACT = '/api/construct/expenditureContract';

describe.each(databaseKinds())('expense contract lines as a resource on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let projectId: string;
  let rebar: Record<string, any>;
  let cement: Record<string, any>;
  let steel: Record<string, any>;
  let labour: Record<string, any>;

  const lines = async (query: Record<string, string>, as: Api = api) => {
    const res = await as.get(`${LINES}/list`, query);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
    return res.body.data.records as Record<string, any>[];
  };

  beforeAll(async () => {
    server = await startServer(kind);
    api = client(server, await server.token());
    projectId = (await project(api)).id;
    rebar = await goods(api);
    cement = await goods(api, { name: '水泥', unit: 't', referencePrice: 520 });
    const seller = await supplier(api);
    steel = await expenseContract(api, projectId, seller.id, [
      { goodsId: rebar.id, quantity: 500, priceInclTax: 4150 },
      { goodsId: cement.id, quantity: 80, priceInclTax: 520, remark: '袋装' },
    ]);
    const team = await supplier(api, { name: '江苏建工劳务有限公司', subcontractorTypes: ['labor'] });
    labour = await expenseContract(
      api,
      projectId,
      team.id,
      [{ itemCode: 'LW-01', itemName: '钢筋制作安装', unit: 't', quantity: 480, priceInclTax: 850, taxRate: 3 }],
      {
        name: '主体结构劳务分包合同',
        expenditureContractType: 'labor',
        taxRate: 3,
      },
    );
  });
  afterAll(() => server?.dispose());

  it("lists a contract's lines in their order with the contract's code, name, project, counterparty, type and status", async () => {
    const records = await lines({ expenditureContractCode_equal: steel.code });
    expect(records).toEqual([
      expect.objectContaining({
        id: steel.details[0].id,
        expenditureContractId: steel.id,
        sortNo: 1,
        expenditureContractCode: steel.code,
        contractName: '钢筋采购合同',
        projectId,
        subcontractorId: steel.subcontractorId,
        expenditureContractType: 'material',
        approvalStatus: 'draft',
        goodsId: rebar.id,
        goodsName: '螺纹钢',
        spec: rebar.spec,
        unit: 't',
        quantity: 500,
        priceInclTax: 4150,
        taxRate: 13,
        amountInclTax: 2075000,
        remainingQuantity: 500,
      }),
      expect.objectContaining({
        id: steel.details[1].id,
        sortNo: 2,
        goodsId: cement.id,
        goodsName: '水泥',
        amountInclTax: 41600,
        remark: '袋装',
      }),
    ]);
  });

  it('filters by contract id, project, counterparty, goods, type and searched names', async () => {
    expect((await lines({ expenditureContractId: steel.id })).map((r) => r.id)).toEqual(steel.details.map((d: any) => d.id));
    expect((await lines({ projectId })).length).toBe(3);
    expect((await lines({ goodsId: cement.id })).map((r) => r.id)).toEqual([steel.details[1].id]);
    expect((await lines({ subcontractorId: labour.subcontractorId })).map((r) => r.itemName)).toEqual(['钢筋制作安装']);
    expect((await lines({ expenditureContractType: 'labor', itemName: '钢筋' })).map((r) => r.id)).toEqual([labour.details[0].id]);
    expect(await lines({ contractName: '劳务', goodsName: '螺纹' })).toEqual([]);
    const sorted = await lines({ projectId, descs: 'amountInclTax' });
    expect(sorted.map((r) => r.amountInclTax)).toEqual([2075000, 408000, 41600]);
  });

  it('answers one line by id with its contract fields, and labels lines for pickers', async () => {
    const res = await api.get(`${LINES}/detail`, { id: labour.details[0].id });
    expect(res.body.data).toMatchObject({
      expenditureContractCode: labour.code,
      contractName: '主体结构劳务分包合同',
      itemCode: 'LW-01',
      quantity: 480,
      priceInclTax: 850,
    });
    const options = await api.get(`${LINES}/options`, { ids: steel.details[1].id });
    expect(options.body.data.records).toEqual([{ value: steel.details[1].id, label: `${steel.code} 水泥 ${cement.spec} t` }]);
    const exported = await api.get(`${LINES}/export`, { expenditureContractCode: steel.code });
    expect(exported.status).toBe(200);
    expect(String(exported.headers['content-type'])).toContain('spreadsheetml');
  });

  it("follows the contract's form: an edited line changes, a removed line and a removed contract's lines vanish", async () => {
    const seller = await supplier(api);
    const spare = await expenseContract(api, projectId, seller.id, [
      { goodsId: rebar.id, quantity: 10, priceInclTax: 4000 },
      { goodsId: cement.id, quantity: 5, priceInclTax: 500 },
    ]);
    const [kept, dropped] = spare.details;
    const updated = await api.post(`${CONTRACT}/update`, { ...spare, details: [{ ...kept, quantity: 12 }] });
    expect(updated.body.code, JSON.stringify(updated.body)).toBe(200);
    expect((await lines({ expenditureContractId: spare.id })).map((r) => [r.id, r.quantity, r.amountInclTax])).toEqual([
      [kept.id, 12, 48000],
    ]);
    expect((await api.get(`${LINES}/detail`, { id: dropped.id })).status).toBe(404);

    expect((await api.post(`${CONTRACT}/remove`, undefined, { ids: spare.id })).body.code).toBe(200);
    expect(await lines({ expenditureContractId: spare.id })).toEqual([]);
    const gone = await api.get(`${LINES}/detail`, { id: kept.id });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 404, success: false });
    expect(gone.body.msg).toContain('支出合同清单');
  });

  it('keeps each tenant to its own lines, by list, by id and by label', async () => {
    const tenant = await server.newTenant();
    const theirs = client(server, tenant.token);
    const theirProject = (await project(theirs)).id;
    const theirGoods = await goods(theirs);
    const theirContract = await expenseContract(theirs, theirProject, (await supplier(theirs)).id, [
      { goodsId: theirGoods.id, quantity: 5, priceInclTax: 100 },
    ]);
    expect((await lines({}, theirs)).map((r) => r.id)).toEqual([theirContract.details[0].id]);
    expect((await theirs.get(`${LINES}/detail`, { id: steel.details[0].id })).status).toBe(404);
    expect((await theirs.get(`${LINES}/options`, { ids: steel.details[0].id })).body.data.records).toEqual([]);
    // codes are numbered per tenant: the same code names our own contract's lines, never theirs
    expect((await lines({ expenditureContractCode_equal: theirContract.code })).map((r) => r.id)).not.toContain(
      theirContract.details[0].id,
    );
    expect((await api.get(`${LINES}/detail`, { id: theirContract.details[0].id })).status).toBe(404);
  });

  it('has no write call: every write path is "not found" in the envelope, for the administrator too', async () => {
    for (const action of ['save', 'update', 'submit', 'updatePart', 'remove']) {
      const res = await api.post(
        `${LINES}/${action}`,
        { id: steel.details[0].id, expenditureContractId: steel.id, quantity: 1 },
        { ids: steel.details[0].id },
      );
      expect(res.status, action).toBe(404);
      expect(res.body, action).toMatchObject({ code: 404, success: false });
    }
    expect((await lines({ expenditureContractId: steel.id })).map((r) => r.quantity)).toEqual([500, 80]);
  });

  it('describes only reads in the OpenAPI document', async () => {
    const document = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body) as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(document.paths).filter((p) => p.startsWith(`${LINES}/`));
    expect(paths.sort()).toEqual([`${LINES}/detail`, `${LINES}/export`, `${LINES}/list`, `${LINES}/options`]);
  });

  it('is read by whoever may read the contracts or holds its own menu, and by nobody else', async () => {
    const tenant = await server.newTenant('清单权限公司');
    const admin = client(server, tenant.token);
    const contract = await expenseContract(admin, (await project(admin)).id, (await supplier(admin)).id, [
      { goodsId: (await goods(admin)).id, quantity: 1, priceInclTax: 1 },
    ]);
    const userWith = async (codes: string[]) => {
      const alias = `r${Math.random().toString(36).slice(2, 10)}`;
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
      return client(
        server,
        await server.tokens.sign({ tenant_id: tenant.tenantId, user_id: '1', dept_id: '', role_id: role.body.data.id, role_name: alias }),
      );
    };
    const nobody = await userWith(['project']);
    expect((await nobody.get(`${LINES}/list`)).status).toBe(403);
    expect((await nobody.get(`${LINES}/export`)).status).toBe(403);
    for (const codes of [['expenditure_contract'], ['expenditure_contract_material']]) {
      const reader = await userWith(codes);
      expect(
        (await lines({}, reader)).map((r) => r.id),
        codes[0],
      ).toEqual([contract.details[0].id]);
      expect((await reader.get(`${LINES}/export`)).status, codes[0]).toBe(403);
    }
    expect((await (await userWith(['expenditure_contract_export'])).get(`${LINES}/export`)).status).toBe(200);
  });
});
