// Every document's detail rows answer as a read-only resource of their own, as the platform's API has
// them (laborMonthlySettlementDetail, materialTotalDemandDetail, …): derived from the document's
// schema, listed with the document's filters, read by whoever reads the document, within its data
// scopes and the caller's tenant, never written but through the document's form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
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
import { demand, demandRow, expenseContract, goods, project, supplier } from './fixtures.ts';

const { catalog } = compile(readSchemaSource(), { validators: 'lazy' });
const LABOUR = '/api/construct/laborMonthlySettlement';
const LABOUR_ROWS = '/api/construct/laborMonthlySettlementDetail';
const DEMAND = '/api/construct/materialTotalDemand';
const DEMAND_ROWS = '/api/construct/materialTotalDemandDetail';
const CHECK_ROWS = '/api/construct/materialCheckDetail';
type Row = Record<string, any>;

describe.each(databaseKinds())('detail rows as a resource of their own on %s', (kind) => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let admin: Api;
  let tower: string;
  let villa: string;
  let towerDemand: Row;
  let villaDemand: Row;
  let settlement: Row;
  let check: Row;

  const list = async (url: string, query: Record<string, string>, as: Api = admin) => {
    const res = await as.get(`${url}/list`, query);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
    return res.body.data.records as Row[];
  };
  const ids = (rows: Row[]) => rows.map((r) => r.id);

  /** A user of a new role of the tenant holding these menus and buttons (and data-scope rules). */
  async function member(codes: string[], dataScopeIds: string[] = []) {
    const { roleId, api } = await roleMember(server, admin, tenant.tenantId);
    await grantRole(server, admin, roleId, codes, dataScopeIds);
    return api;
  }

  beforeAll(async () => {
    server = await startServer(kind);
    tenant = await server.newTenant('明细行公司');
    admin = client(server, tenant.token);
    tower = (await project(admin)).id;
    villa = (await project(admin, { name: '滨江别墅区' })).id;
    const rebar = await goods(admin);
    const cement = await goods(admin, { name: '水泥', unit: 't', referencePrice: 520 });
    towerDemand = await demand(admin, tower, [demandRow(rebar.id, 100, 4000), demandRow(cement.id, 40, 500)]);
    villaDemand = await demand(admin, villa, [demandRow(cement.id, 12, 510)], { title: '别墅区材料总计划' });

    const team = await supplier(admin, { name: '江苏建工劳务有限公司', subcontractorTypes: ['labor'] });
    const contract = await expenseContract(
      admin,
      tower,
      team.id,
      [
        { itemCode: 'LW-01', itemName: '钢筋制作安装', unit: 't', quantity: 480, priceInclTax: 850, taxRate: 3 },
        { itemCode: 'LW-02', itemName: '模板安拆', unit: 'm2', quantity: 12000, priceInclTax: 45, taxRate: 3 },
      ],
      { name: '主体结构劳务分包合同', expenditureContractType: 'labor', taxRate: 3 },
    );
    const saved = await admin.post(`${LABOUR}/save`, {
      projectId: tower,
      expenditureContractCode: contract.code,
      subcontractorId: team.id,
      period: '2026-05',
      settlementType: 'interim',
      startDate: '2026-05-01',
      endDate: '2026-05-31',
      taxRate: 3,
      paymentRatio: 80,
      reporterName: '王会计',
      details: contract.details.map((line: Row, i: number) => ({
        contractDetailId: line.id,
        itemType: 'work_item',
        itemName: line.itemName,
        unit: line.unit,
        unitPrice: line.priceInclTax,
        workPart: '1#楼主体',
        quantity: 40 + i,
      })),
    });
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200 });
    settlement = (await admin.get(`${LABOUR}/detail`, { id: saved.body.data.id })).body.data;

    const warehouse = await admin.post('/api/construct/warehouse/save', { projectId: villa, name: '1#材料库', status: 'enabled' });
    const checked = await admin.post('/api/construct/materialCheck/save', {
      projectId: villa,
      warehouseId: warehouse.body.data.id,
      checkDate: '2026-05-08',
      inspectorName: '赵材料员',
      details: [{ goodsId: rebar.id, deliveredQty: 30, acceptedQty: 29 }],
    });
    expect(checked.body, JSON.stringify(checked.body)).toMatchObject({ code: 200 });
    check = (await admin.get('/api/construct/materialCheck/detail', { id: checked.body.data.id })).body.data;
  });
  afterAll(() => server?.dispose());

  it("lists a labour settlement's rows in their order with the settlement's code, project, contract, period and status", async () => {
    const rows = await list(LABOUR_ROWS, { projectId: tower });
    expect(rows).toEqual([
      expect.objectContaining({
        id: settlement.details[0].id,
        laborMonthlySettlementId: settlement.id,
        sortNo: 1,
        code: settlement.code,
        projectId: tower,
        expenditureContractCode: settlement.expenditureContractCode,
        subcontractorId: settlement.subcontractorId,
        period: '2026-05',
        settlementType: 'interim',
        approvalStatus: 'draft',
        itemName: '钢筋制作安装',
        quantity: 40,
        amount: settlement.details[0].amount,
      }),
      expect.objectContaining({ id: settlement.details[1].id, sortNo: 2, itemName: '模板安拆', quantity: 41 }),
    ]);
    expect(settlement.details[0].amount).toBe(34000);
    expect(await list(LABOUR_ROWS, { projectId: villa })).toEqual([]);
    expect(ids(await list(LABOUR_ROWS, { code: settlement.code, itemName: '模板' }))).toEqual([settlement.details[1].id]);
    expect(ids(await list(LABOUR_ROWS, { period: '2026-04' }))).toEqual([]);
  });

  it("filters a demand's rows by the demand's project, title and id, and sorts them by a row field", async () => {
    expect(ids(await list(DEMAND_ROWS, { projectId: tower }))).toEqual(ids(towerDemand.details));
    expect(ids(await list(DEMAND_ROWS, { projectId: villa }))).toEqual(ids(villaDemand.details));
    expect(ids(await list(DEMAND_ROWS, { title: '别墅' }))).toEqual(ids(villaDemand.details));
    expect(ids(await list(DEMAND_ROWS, { materialTotalDemandId: towerDemand.id, descs: 'designQty' }))).toEqual(ids(towerDemand.details));
    expect(ids(await list(DEMAND_ROWS, { materialTotalDemandId: towerDemand.id, ascs: 'designQty' }))).toEqual(
      ids(towerDemand.details).reverse(),
    );
    expect(ids(await list(CHECK_ROWS, { projectId: villa }))).toEqual(ids(check.details));
    const bad = await admin.get(`${DEMAND_ROWS}/list`, { projectId: 'not-an-id' });
    expect(bad.status).toBe(400);
  });

  it('answers one row by id with its document fields, and exports the rows found or one row', async () => {
    const one = await admin.get(`${LABOUR_ROWS}/detail`, { id: settlement.details[1].id });
    expect(one.body.data).toMatchObject({
      id: settlement.details[1].id,
      code: settlement.code,
      projectId: tower,
      itemName: '模板安拆',
      unit: 'm2',
      quantity: 41,
    });
    expect((await admin.get(`${LABOUR_ROWS}/detail`, { id: towerDemand.details[0].id })).status).toBe(404);
    for (const query of [{ projectId: tower }, { id: settlement.details[0].id as string }] as Record<string, string>[]) {
      const exported = await admin.get(`${LABOUR_ROWS}/export`, query);
      expect(exported.status, JSON.stringify(query)).toBe(200);
      expect(String(exported.headers['content-type'])).toContain('spreadsheetml');
    }
  });

  it("has no write call: every write path is 'not found', for the administrator too, and the rows stay", async () => {
    for (const url of [LABOUR_ROWS, DEMAND_ROWS, CHECK_ROWS])
      for (const action of ['save', 'update', 'submit', 'updatePart', 'remove']) {
        const res = await admin.post(
          `${url}/${action}`,
          { id: towerDemand.details[0].id, designQty: 1 },
          { ids: towerDemand.details[0].id },
        );
        expect(res.status, `${url}/${action}`).toBe(404);
        expect(res.body, `${url}/${action}`).toMatchObject({ code: 404, success: false });
      }
    expect((await list(DEMAND_ROWS, { materialTotalDemandId: towerDemand.id })).map((r) => r.designQty)).toEqual([100, 40]);
  });

  it("follows the document's form: an edited row changes, a removed document's rows vanish", async () => {
    const spare = await demand(admin, villa, [demandRow(villaDemand.details[0].goodsId, 5, 500)], { title: '临时计划' });
    const updated = await admin.post(`${DEMAND}/update`, { ...spare, details: [{ ...spare.details[0], designQty: 7 }] });
    expect(updated.body.code, JSON.stringify(updated.body)).toBe(200);
    expect((await list(DEMAND_ROWS, { materialTotalDemandId: spare.id })).map((r) => r.designQty)).toEqual([7]);
    expect((await admin.post(`${DEMAND}/remove`, undefined, { ids: spare.id })).body.code).toBe(200);
    expect(await list(DEMAND_ROWS, { materialTotalDemandId: spare.id })).toEqual([]);
    expect((await admin.get(`${DEMAND_ROWS}/detail`, { id: spare.details[0].id })).status).toBe(404);
  });

  it("is read by whoever reads the document, exported with the document's export grant, and by nobody else", async () => {
    const outsider = await member(['project']);
    for (const path of ['list', 'export']) expect((await outsider.get(`${DEMAND_ROWS}/${path}`)).status, path).toBe(403);
    expect((await outsider.get(`${DEMAND_ROWS}/detail`, { id: towerDemand.details[0].id })).status).toBe(403);
    expect((await outsider.get(`${LABOUR_ROWS}/list`)).status).toBe(403);

    const reader = await member(['material_total_demand']);
    expect(ids(await list(DEMAND_ROWS, { projectId: villa }, reader))).toEqual(ids(villaDemand.details));
    expect((await reader.get(`${DEMAND_ROWS}/detail`, { id: towerDemand.details[0].id })).body.data.title).toBe(towerDemand.title);
    expect((await reader.get(`${DEMAND_ROWS}/export`)).status).toBe(403);
    // reading a demand's rows opens no other document's rows
    expect((await reader.get(`${LABOUR_ROWS}/list`)).status).toBe(403);
    const exporter = await member(['material_total_demand', 'material_total_demand_export']);
    expect((await exporter.get(`${DEMAND_ROWS}/export`)).status).toBe(200);
  });

  it("applies the document's data scopes: a role that reads its own demands reads their rows only", async () => {
    const tree = (await admin.get('/api/blade-system/menu/grant-tree')).body.data.dataScope as TreeNode[];
    const own = findNode(findNode(tree, catalog.entities.materialTotalDemand.label.zh)?.children ?? [], '本人');
    expect(own, 'the demand menu offers the rule 本人').toBeDefined();
    const clerk = await member(['material_total_demand', 'material_total_demand_add', 'project', 'goods_archives'], [own!.id]);
    const mine = await demand(clerk, tower, [demandRow(towerDemand.details[0].goodsId, 3, 4000)], { title: '本人的计划' });
    expect(ids(await list(DEMAND_ROWS, {}, clerk))).toEqual(ids(mine.details));
    expect(ids(await list(DEMAND_ROWS, { projectId: tower }, clerk))).toEqual(ids(mine.details));
    expect((await clerk.get(`${DEMAND_ROWS}/detail`, { id: towerDemand.details[0].id })).status).toBe(404);
    // the administrator still reads every row
    expect(ids(await list(DEMAND_ROWS, { projectId: tower }))).toEqual(
      expect.arrayContaining([...ids(mine.details), ...ids(towerDemand.details)]),
    );
  });

  it("keeps each tenant to its own rows, by list, by id and by the document's code", async () => {
    const other = client(server, (await server.newTenant('别家公司')).token);
    const theirProject = (await project(other)).id;
    const theirs = await demand(other, theirProject, [demandRow((await goods(other)).id, 9, 100)]);
    expect(ids(await list(DEMAND_ROWS, {}, other))).toEqual(ids(theirs.details));
    expect(await list(LABOUR_ROWS, {}, other)).toEqual([]);
    expect((await other.get(`${LABOUR_ROWS}/detail`, { id: settlement.details[0].id })).status).toBe(404);
    expect((await other.get(`${DEMAND_ROWS}/detail`, { id: towerDemand.details[0].id })).status).toBe(404);
    // codes are numbered per tenant: the same code finds each tenant's own rows only
    expect(ids(await list(DEMAND_ROWS, { code_equal: theirs.code }))).not.toContain(theirs.details[0].id);
    expect(ids(await list(DEMAND_ROWS, { projectId: theirProject }))).toEqual([]);
    expect((await admin.get(`${DEMAND_ROWS}/detail`, { id: theirs.details[0].id })).status).toBe(404);
  });

  it("describes every document's rows in the OpenAPI document, reads only", async () => {
    const document = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    for (const model of Object.values(catalog.entities).filter((m) => m.derived)) {
      const paths = Object.keys(document.paths).filter((p) => p.startsWith(`${model.api}/`));
      expect(paths.sort(), model.key).toEqual(['detail', 'export', 'list', 'options'].map((p) => `${model.api}/${p}`));
    }
    for (const url of [LABOUR_ROWS, DEMAND_ROWS, CHECK_ROWS]) expect(document.paths[`${url}/list`], url).toBeDefined();
    expect(Object.keys(document.components.schemas.laborMonthlySettlementDetail.properties)).toEqual(
      expect.arrayContaining(['laborMonthlySettlementId', 'code', 'projectId', 'approvalStatus', 'itemName', 'amount']),
    );
  });
});
