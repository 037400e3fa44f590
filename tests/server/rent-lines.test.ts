// A turnover lease settlement's lines worked out from the lease's approved entry and exit checks
// (R-RENT-2, R-RENT-4): the clerk picks the contract and the period, the server answers each
// contract line with its opening, entered and exited quantities, quantity × days by the contract's
// day rule, and what the period's exits lost or damaged. Every number is worked out by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveByTurns, ok, tokenOf } from './approval.ts';
import { goods, project } from './fixtures.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const CONTRACT = '/api/construct/expenditureContract';
const CHECK = '/api/construct/materialTurnoverCheck';
const SETTLEMENT = '/api/construct/materialTurnoverMonthlySettlement';

describe.each(databaseKinds())('turnover rent lines from the checks on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let approvers: Api[];
  let site: { id: string };
  let contract: any;
  let tube: any;
  let clamp: any;
  let jack: any;

  const june = (extra: Record<string, string> = {}) => ({
    projectId: site.id,
    expenditureContractCode: contract.code,
    startDate: '2026-06-01',
    endDate: '2026-06-30',
    ...extra,
  });
  const lineOf = (lines: any[], goodsId: string) => lines.find((l) => l.goodsId === goodsId);

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
    approvers = [client(server, await tokenOf(server, 'manager')), client(server, await tokenOf(server, 'costmgr'))];
    site = await project(admin);
    const yard = ok(
      await admin.post('/api/construct/warehouse/save', {
        projectId: site.id,
        name: '周转材料堆场',
        warehouseType: 'project',
        status: 'enabled',
      }),
    );
    const lessor = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '江苏恒久架管租赁有限公司',
        subcontractorTypes: ['turnover_lessor'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    tube = await goods(admin, { name: '脚手架钢管', unit: 'm', isTurnover: true, referencePrice: 18 });
    clamp = await goods(admin, { name: '扣件', unit: '套', isTurnover: true, referencePrice: 6 });
    jack = await goods(admin, { name: '顶托', unit: '个', isTurnover: true, referencePrice: 30 });
    contract = ok(
      await admin.post(`${CONTRACT}/save`, {
        name: '钢管扣件租赁合同',
        projectId: site.id,
        subcontractorId: lessor.id,
        expenditureContractType: 'turnover_lease',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-05-01',
        startDate: '2026-05-01',
        contractAmount: 50_000,
        taxRate: 9,
        rentDayRule: 'both',
        performanceStatus: 'performing',
        settlementStatus: 'none',
        details: [
          { goodsId: tube.id, quantity: 1000, priceInclTax: 0.012, taxRate: 9 },
          { goodsId: clamp.id, quantity: 500, priceInclTax: 0.006, taxRate: 9 },
        ],
      }),
    );
    await approveByTurns(admin, approvers, CONTRACT, contract.id);

    const movement = async (checkType: string, checkDate: string, lines: Record<string, unknown>[], approve = true) => {
      const saved = ok(
        await admin.post(`${CHECK}/save`, {
          projectId: site.id,
          checkType,
          checkDate,
          warehouseId: yard.id,
          subcontractorId: lessor.id,
          expenditureContractCode: contract.code,
          inspectorName: '周小军',
          details: lines,
        }),
      );
      if (approve) await approveByTurns(admin, approvers, CHECK, saved.id);
    };
    await movement('entry', '2026-05-10', [{ goodsId: tube.id, qty: 1000, dailyRate: 0.012 }]);
    await movement('entry', '2026-06-05', [{ goodsId: clamp.id, qty: 500, dailyRate: 0.006 }]);
    await movement('exit', '2026-06-20', [{ goodsId: tube.id, qty: 400, lostQty: 10, damagedQty: 5, dailyRate: 0.012 }]);
    await movement('entry', '2026-06-25', [{ goodsId: jack.id, qty: 100, dailyRate: 0.02 }]);
    // neither a check still in draft nor one after the period counts
    await movement('entry', '2026-06-15', [{ goodsId: tube.id, qty: 999, dailyRate: 0.012 }], false);
    await movement('entry', '2026-07-02', [{ goodsId: tube.id, qty: 300, dailyRate: 0.012 }]);
  }, 300_000);

  afterAll(async () => server?.dispose());

  it("answers every contract line with the period's quantities and quantity × days, then the goods moved without a line", async () => {
    const lines = ok(await admin.get(`${SETTLEMENT}/rentLines`, june()));
    expect(lines.map((l: any) => l.goodsId)).toEqual([tube.id, clamp.id, jack.id]);
    // 600 × 30 days + 400 × 1..20 June; the exit reported 10 lost and 5 damaged
    expect(lineOf(lines, tube.id)).toMatchObject({
      contractDetailId: contract.details[0].id,
      goodsName: '脚手架钢管',
      unit: 'm',
      dailyRate: 0.012,
      taxRate: 9,
      openingQty: 1000,
      enteredQty: 0,
      exitedQty: 400,
      qtyDays: 26000,
      lostQty: 10,
      damagedQty: 5,
    });
    // 500 × 5..30 June
    expect(lineOf(lines, clamp.id)).toMatchObject({
      contractDetailId: contract.details[1].id,
      openingQty: 0,
      enteredQty: 500,
      qtyDays: 13000,
      lostQty: 0,
    });
    // not on the contract: at its check's daily rate, 100 × 25..30 June
    expect(lineOf(lines, jack.id)).toMatchObject({ goodsName: '顶托', dailyRate: 0.02, enteredQty: 100, qtyDays: 600 });
    expect(lineOf(lines, jack.id).contractDetailId).toBeUndefined();
  });

  it("charges the entry and exit days as the day rule asked, the contract's by default", async () => {
    const lines = ok(await admin.get(`${SETTLEMENT}/rentLines`, june({ rentDayRule: 'neither' })));
    expect(lines.map((l: any) => l.qtyDays)).toEqual([600 * 30 + 400 * 19, 500 * 25, 100 * 5]);
    const may = ok(await admin.get(`${SETTLEMENT}/rentLines`, june({ startDate: '2026-05-01', endDate: '2026-05-31' })));
    // 1000 × 10..31 May; the clamps' line is there with nothing to charge; the jacks had not come
    expect(may.map((l: any) => [l.goodsId, l.qtyDays])).toEqual([
      [tube.id, 22000],
      [clamp.id, 0],
    ]);
  });

  it('a settlement saved with the lines charges their rent', async () => {
    const lines = ok(await admin.get(`${SETTLEMENT}/rentLines`, june()));
    const saved = ok(
      await admin.post(`${SETTLEMENT}/save`, {
        ...june(),
        subcontractorId: contract.subcontractorId,
        period: '2026-06',
        settlementType: 'interim',
        reporterName: '周小军',
        rentDayRule: 'both',
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 0,
        details: lines.slice(0, 2),
      }),
    );
    // 26000 × 0.012 + 13000 × 0.006
    expect(saved.details.map((l: any) => l.rentAmount)).toEqual([312, 78]);
    expect(saved.rentAmount).toBe(390);
  });

  it("answers bad parameters with a clear 400 and another tenant's project with 404", async () => {
    const refused = async (query: Record<string, string>) => {
      const { body } = await admin.get(`${SETTLEMENT}/rentLines`, query);
      expect(body).toMatchObject({ code: 400, success: false });
      return body.msg as string;
    };
    expect(await refused(june({ expenditureContractCode: '' }))).toContain('expenditureContractCode');
    expect(await refused(june({ endDate: '2026-05-31' }))).toContain('2026-05-31');
    expect(await refused(june({ startDate: '2026-02-30' }))).toContain('2026-02-30');
    expect(await refused(june({ rentDayRule: 'sometimes' }))).toContain('sometimes');
    const elsewhere = await project(admin);
    expect(await refused(june({ projectId: elsewhere.id }))).toContain(contract.code);
    const other = await server.newTenant();
    expect((await client(server, other.token).get(`${SETTLEMENT}/rentLines`, june())).body.code).toBe(404);
  });
});
