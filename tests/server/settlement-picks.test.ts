// Monthly settlements take their lines from the chosen expense contract's lines (x-detail.pickFrom):
// material, concrete, turnover lease, equipment lease, labour and subcontract settlements keep the
// contract line's id with the values the form copied, and the server refuses a line of another
// contract or tenant, and the same line twice (per settlement, or per receiving check / pouring part
// / machine where the settlement's rows are split that way).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import type { PickSource } from '../../src/engine/model/types.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { count, expenseContract, goods, project, supplier } from './fixtures.ts';

const { catalog } = compile(readSchemaSource(), { validators: 'lazy' });
type Row = Record<string, any>;

/** What a settlement kind needs: its contract's type and lines, and what the clerk types on a picked row. */
interface Kind {
  key: string;
  contractType: string;
  counterparty: string;
  lines: (api: Api) => Promise<Row[]>;
  entries: (context: { checkId: string }, i: number) => Row;
}

const KINDS: Kind[] = [
  {
    key: 'materialMonthlySettlement',
    contractType: 'material',
    counterparty: 'material_supplier',
    lines: async (api) => [
      { goodsId: (await goods(api)).id, quantity: 500, priceInclTax: 4150 },
      { goodsId: (await goods(api, { name: '水泥', unit: 't' })).id, quantity: 80, priceInclTax: 520 },
    ],
    entries: ({ checkId }, i) => ({ materialCheckId: checkId, thisQty: 10 + i }),
  },
  {
    key: 'materialConcreteMonthlySettlement',
    contractType: 'concrete',
    counterparty: 'concrete_supplier',
    lines: async () => [
      { itemName: 'C30 商品混凝土', unit: 'm3', concreteGrade: 'C30', quantity: 3000, priceInclTax: 480, taxRate: 3 },
      { itemName: 'C35P6 商品混凝土', unit: 'm3', concreteGrade: 'C35P6', quantity: 800, priceInclTax: 530, taxRate: 3 },
    ],
    entries: (_c, i) => ({ pourDate: '2026-05-10', pourPart: `1#楼${i + 3}层顶板`, pouringMethod: 'pump', ticketQty: 120 }),
  },
  {
    key: 'materialTurnoverMonthlySettlement',
    contractType: 'turnover_lease',
    counterparty: 'turnover_lessor',
    lines: async (api) => [
      {
        goodsId: (await goods(api, { name: '钢管', unit: 'm', isTurnover: true, goodsType: 'turnover' })).id,
        quantity: 20000,
        priceInclTax: 0.012,
        leaseDuration: 180,
      },
      {
        goodsId: (await goods(api, { name: '扣件', unit: '个', isTurnover: true, goodsType: 'turnover' })).id,
        quantity: 9000,
        priceInclTax: 0.008,
        leaseDuration: 180,
      },
    ],
    entries: () => ({ qtyDays: 31000 }),
  },
  {
    key: 'equipmentLeaseMonthlySettlement',
    contractType: 'equipment_lease',
    counterparty: 'equipment_lessor',
    lines: async (api) => [
      {
        goodsId: (await goods(api, { name: 'QTZ80 塔吊', spec: 'QTZ80(5610)', unit: '台·月' })).id,
        quantity: 2,
        priceInclTax: 32000,
        taxRate: 9,
      },
      {
        goodsId: (await goods(api, { name: '施工升降机', spec: 'SC200/200', unit: '台·月' })).id,
        quantity: 1,
        priceInclTax: 12000,
        taxRate: 9,
      },
    ],
    entries: (_c, i) => ({ equipmentNo: `TC-0${i + 1}`, leaseMode: 'month', billedQty: 1 }),
  },
  {
    key: 'laborMonthlySettlement',
    contractType: 'labor',
    counterparty: 'labor',
    lines: async () => [
      { itemCode: 'LW-01', itemName: '钢筋制作安装', unit: 't', quantity: 480, priceInclTax: 850, taxRate: 3 },
      { itemCode: 'LW-02', itemName: '模板安拆', unit: 'm2', quantity: 12000, priceInclTax: 45, taxRate: 3 },
    ],
    entries: () => ({ itemType: 'work_item', workPart: '1#楼主体', quantity: 40 }),
  },
  {
    key: 'subcontractMonthlySettlement',
    contractType: 'subcontract',
    counterparty: 'subcontract',
    lines: async () => [
      { itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 30, taxRate: 9 },
      { itemCode: '010502', itemName: 'C30混凝土浇筑', unit: 'm3', quantity: 500, priceInclTax: 600, taxRate: 9, changedQuantity: 520 },
    ],
    entries: () => ({ thisQty: 50 }),
  },
];

/** The picker of a settlement's rows that offers its contract's lines. */
function contractPick(key: string): PickSource {
  return catalog.entities[key].details[0].pickFrom.find((p) => p.rowId === 'contractDetailId')!;
}

/** A row as the form makes it from a picked line: the line's id and the mapped values. */
function picked(pick: PickSource, line: Row): Row {
  const row: Row = { [pick.rowId]: line.id };
  for (const [target, source] of Object.entries(pick.map))
    if (line[source] !== undefined && line[source] !== null) row[target] = line[source];
  return row;
}

describe.each(databaseKinds())('settlement lines picked from the expense contract on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let en: Api;
  let projectId: string;
  let checkId: string;
  const contracts = new Map<string, { main: Row; other: Row }>();

  const header = (contract: Row) => ({
    projectId,
    expenditureContractCode: contract.code,
    subcontractorId: contract.subcontractorId,
    period: '2026-05',
    settlementType: 'interim',
    startDate: '2026-05-01',
    endDate: '2026-05-31',
    taxRate: 9,
    paymentRatio: 80,
    reporterName: '王会计',
  });
  const body = (k: Kind, contract: Row, lines: Row[], entries: (i: number) => Row = (i) => k.entries({ checkId }, i)) => ({
    ...header(contract),
    details: lines.map((line, i) => ({ ...picked(contractPick(k.key), line), ...entries(i) })),
  });
  const apiOf = (k: Kind) => catalog.entities[k.key].api;

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    api = client(server, token);
    en = client(server, token, 'en');
    projectId = (await project(api)).id;
    const warehouse = await api.post('/api/construct/warehouse/save', { projectId, name: '1#材料库', status: 'enabled' });
    const check = await api.post('/api/construct/materialCheck/save', {
      projectId,
      warehouseId: warehouse.body.data.id,
      checkDate: '2026-05-08',
      inspectorName: '赵材料员',
      details: [{ goodsId: (await goods(api)).id, deliveredQty: 30, acceptedQty: 30 }],
    });
    expect(check.body, JSON.stringify(check.body)).toMatchObject({ code: 200 });
    checkId = check.body.data.id;
    for (const k of KINDS) {
      const counterparty = (await supplier(api, { subcontractorTypes: [k.counterparty] })).id;
      const make = async () =>
        expenseContract(api, projectId, counterparty, await k.lines(api), {
          expenditureContractType: k.contractType,
          name: `${k.contractType} 合同`,
        });
      contracts.set(k.key, { main: await make(), other: await make() });
    }
  });
  afterAll(() => server?.dispose());

  it.each(KINDS.map((k) => [k.key, k] as const))(
    '%s: rows keep the picked contract lines with the values copied from them',
    async (_key, k) => {
      const { main } = contracts.get(k.key)!;
      const res = await api.post(`${apiOf(k)}/save`, body(k, main, main.details));
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
      const pick = contractPick(k.key);
      const rows = (await api.get(`${apiOf(k)}/detail`, { id: res.body.data.id })).body.data.details as Row[];
      expect(rows.map((r) => r.contractDetailId)).toEqual(main.details.map((l: Row) => l.id));
      rows.forEach((row, i) => {
        for (const [target, source] of Object.entries(pick.map))
          if (main.details[i][source] !== null) expect(row[target], `${target} ← ${source}`).toEqual(main.details[i][source]);
      });
    },
  );

  it.each(KINDS.map((k) => [k.key, k] as const))(
    '%s: a line of another contract is refused, naming the row, and nothing is saved',
    async (_key, k) => {
      const { main, other } = contracts.get(k.key)!;
      const before = await count(api, `${apiOf(k)}/list`);
      const res = await api.post(`${apiOf(k)}/save`, body(k, main, [main.details[0], other.details[1]]));
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([
        { path: '/details/1/contractDetailId', message: expect.stringMatching(/^.+第2行 合同清单行不属于所选的.+合同$/) },
      ]);
      expect(await count(api, `${apiOf(k)}/list`)).toBe(before);
    },
  );

  it.each(KINDS.map((k) => [k.key, k] as const))('%s: the same contract line twice is refused with a clear message', async (_key, k) => {
    const { main } = contracts.get(k.key)!;
    const before = await count(api, `${apiOf(k)}/list`);
    const line = main.details[1];
    // the clerk picked one line twice and typed the same entries on both rows
    const res = await api.post(
      `${apiOf(k)}/save`,
      body(k, main, [main.details[0], line, line], (i) => k.entries({ checkId }, Math.min(i, 1))),
    );
    expect(res.status).toBe(400);
    const per = contractPick(k.key).unique!.map((name) => catalog.entities[k.key].details[0].fieldMap[name].label.zh);
    const rule = per.length ? `同一清单行在同一${per.join('、')}下只能选一次` : '同一清单行在一张单据中只能选一次';
    expect(res.body.data.errors).toEqual([
      { path: '/details/2/contractDetailId', message: expect.stringMatching(new RegExp(`第3行 合同清单行与第2行重复,${rule}$`)) },
    ]);
    expect(await count(api, `${apiOf(k)}/list`)).toBe(before);
  });

  it('lets a material settlement take one contract line once per receiving check', async () => {
    const k = KINDS[0];
    const { main } = contracts.get(k.key)!;
    const warehouse = await api.post('/api/construct/warehouse/save', { projectId, name: '2#材料库', status: 'enabled' });
    const second = await api.post('/api/construct/materialCheck/save', {
      projectId,
      warehouseId: warehouse.body.data.id,
      checkDate: '2026-05-20',
      inspectorName: '赵材料员',
      details: [{ goodsId: main.details[0].goodsId, deliveredQty: 12, acceptedQty: 12 }],
    });
    const line = main.details[0];
    const res = await api.post(
      `${apiOf(k)}/save`,
      body(k, main, [line, line], (i) => ({ materialCheckId: i ? second.body.data.id : checkId, thisQty: 12 })),
    );
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
    expect(res.body.data.details.map((r: Row) => r.contractDetailId)).toEqual([line.id, line.id]);
  });

  it('says so in English', async () => {
    const k = KINDS[5];
    const { main } = contracts.get(k.key)!;
    const res = await en.post(`${apiOf(k)}/save`, body(k, main, [main.details[0], main.details[0]]));
    expect(res.body.data.errors).toEqual([
      {
        path: '/details/1/contractDetailId',
        message: 'Bill of quantities lines row 2 Contract line repeats row 1: a line can be picked once per document',
      },
    ]);
  });

  it("refuses another tenant's contract line even under a contract of the same code", async () => {
    const tenant = await server.newTenant();
    const theirs = client(server, tenant.token);
    const theirProject = (await project(theirs)).id;
    const k = KINDS[5];
    const theirContract = await expenseContract(
      theirs,
      theirProject,
      (await supplier(theirs, { subcontractorTypes: ['subcontract'] })).id,
      await k.lines(theirs),
      { expenditureContractType: 'subcontract' },
    );
    const ours = contracts.get(k.key)!.main;
    const sent = { ...body(k, theirContract, [ours.details[0]]), projectId: theirProject };
    const res = await theirs.post(`${apiOf(k)}/save`, sent);
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      { path: '/details/0/contractDetailId', message: expect.stringContaining(`引用的记录不存在: ${ours.details[0].id}`) },
    ]);
  });
});
