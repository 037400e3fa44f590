// Settlement cumulatives (开累, x-cumulative) over HTTP, as a project's clerk and manager would meet
// them: two approved months of a subcontract settlement, then the third month's form is pre-filled
// with what was settled before, by line and in total; drafts and documents in approval never count;
// a second settlement of the same contract in approval and a period going backwards are refused;
// approving writes the contract's settled totals back, a rejection leaves them; another tenant sees
// none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedSubcontract, approveAs, ok, tokenOf, type ContractKeys } from './approval.ts';
import { project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const CONTRACT = '/api/construct/expenditureContract';
const FLOW = '/api/blade-flow';

describe.each(databaseKinds())('settlement cumulatives on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let manager: Api;
  let keys: ContractKeys;
  let contractId: string;

  const approve = (base: string, id: string) => approveAs(admin, manager, base, id);

  /** A settlement as the clerk fills it in; the previous values it sends are nonsense the server must ignore. */
  function settlement(period: string, earthwork: number, concrete: number) {
    const [y, m] = period.split('-');
    return {
      ...keys,
      period,
      settlementType: 'interim',
      startDate: `${y}-${m}-01`,
      endDate: `${y}-${m}-28`,
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      reporterName: '王会计',
      previousCumulativeAmount: 1,
      previousCumulativePayable: 1,
      details: [
        {
          itemCode: '010101',
          itemName: '土方开挖',
          unit: 'm3',
          contractQty: 1000,
          thisQty: earthwork,
          thisPrice: 30,
          taxRate: 9,
          previousCumulativeQty: 999,
          previousCumulativeAmount: 999,
        },
        { itemCode: '010502', itemName: 'C30混凝土浇筑', unit: 'm3', contractQty: 500, thisQty: concrete, thisPrice: 600, taxRate: 9 },
      ],
    };
  }

  const cumulative = async (query: Record<string, string> = {}) => ok(await admin.get(`${SETTLEMENT}/cumulative`, { ...keys, ...query }));

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    manager = client(server, await tokenOf(server, 'manager'));
    const site = await project(admin);
    const subcontract = await approvedSubcontract(admin, manager, site.id, '1#楼土建分包合同', [
      { itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 30, taxRate: 9 },
      { itemCode: '010502', itemName: 'C30混凝土浇筑', unit: 'm3', quantity: 500, priceInclTax: 600, taxRate: 9 },
    ]);
    expect(subcontract.contract).toMatchObject({ contractAmount: 330000, settlementStatus: 'none' });
    contractId = subcontract.contract.id;
    keys = subcontract.keys;
  }, 120_000);

  afterAll(async () => server?.dispose());

  let july: any;

  it('two approved months, then the third shows what was settled before, by line and in total', async () => {
    // May: 200 m³ × 30 + 100 m³ × 600 = 66,000; payable 66,000 × 80 % − 3 % retention 1,980 = 50,820
    const may = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-05', 200, 100)));
    expect(may).toMatchObject({ previousCumulativeAmount: 0, thisAmountInclTax: 66000, cumulativeAmount: 66000, thisPayableAmount: 50820 });
    expect(may.details[0]).toMatchObject({ previousCumulativeQty: 0, previousCumulativeAmount: 0, cumulativeQty: 200 });
    await approve(SETTLEMENT, may.id);
    // June: 300 × 30 + 50 × 600 = 39,000; payable 31,200 − 1,170 = 30,030
    const june = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-06', 300, 50)));
    expect(june).toMatchObject({
      previousCumulativeAmount: 66000,
      cumulativeAmount: 105000,
      previousCumulativePayable: 50820,
      cumulativePayable: 80850,
    });
    await approve(SETTLEMENT, june.id);

    const answer = await cumulative();
    expect(answer).toMatchObject({
      lastApprovedPeriod: '2026-06',
      period: '2026-07',
      approving: null,
      header: { previousCumulativeAmount: 105000, previousCumulativePayable: 80850 },
      totals: { thisAmountInclTax: 105000, retentionAmount: 3150, thisPayableAmount: 80850 },
      contract: { code: keys.expenditureContractCode, contractAmount: 330000, currentAmount: 330000, retentionRate: 3, paymentRatio: 80 },
    });
    expect(answer.lines).toEqual([
      expect.objectContaining({
        key: { itemCode: '010101' },
        previous: { previousCumulativeQty: 500, previousCumulativeAmount: 15000 },
        contractQty: 1000,
        remainingQty: 500,
      }),
      expect.objectContaining({
        key: { itemCode: '010502' },
        previous: { previousCumulativeQty: 150, previousCumulativeAmount: 90000 },
        contractQty: 500,
        remainingQty: 350,
      }),
    ]);
    // as of June, only May counts
    expect((await cumulative({ period: '2026-06' })).header.previousCumulativeAmount).toBe(66000);

    // July is filled in by the server, whatever the client sent: 100 × 30 + 20 × 600 = 15,000
    july = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-07', 100, 20)));
    expect(july).toMatchObject({
      previousCumulativeAmount: 105000,
      thisAmountInclTax: 15000,
      cumulativeAmount: 120000,
      previousCumulativePayable: 80850,
    });
    expect(july.details[0]).toMatchObject({
      previousCumulativeQty: 500,
      previousCumulativeAmount: 15000,
      cumulativeQty: 600,
      cumulativeAmount: 18000,
      completionRate: 60,
    });
    expect(july.details[1]).toMatchObject({
      previousCumulativeQty: 150,
      previousCumulativeAmount: 90000,
      cumulativeQty: 170,
      cumulativeAmount: 102000,
    });
    // a draft never counts
    expect((await cumulative()).header.previousCumulativeAmount).toBe(105000);
  });

  it('approval writes the settled totals back into the contract', async () => {
    const contract = ok(await admin.get(`${CONTRACT}/detail`, { id: contractId }));
    expect(contract).toMatchObject({
      cumulativeSettledAmount: 105000,
      cumulativePayableAmount: 80850,
      remainingAmount: 225000,
      settlementStatus: 'partial',
    });
    expect(contract.details.map((r: any) => [r.itemCode, r.settledQuantity, r.settledAmount])).toEqual([
      ['010101', 500, 15000],
      ['010502', 150, 90000],
    ]);
  });

  it("refuses a second settlement of the contract in approval, in the caller's language, and changes nothing", async () => {
    const submitted = ok(await admin.post(`${SETTLEMENT}/submit`, { id: july.id }));
    expect(submitted.approvalStatus).toBe('approving');
    expect((await cumulative()).approving).toEqual({ id: july.id, code: july.code });
    const august = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-08', 10, 0)));
    const zh = await admin.post(`${SETTLEMENT}/submit`, { id: august.id });
    expect(zh.body.code).toBe(400);
    expect(zh.body.msg).toContain(`${july.code} 正在审批中`);
    expect(zh.body.msg).toContain('同一项目/分包合同/合同乙方同时只能有一张单据在审批');
    const en = await adminEn.post(`${SETTLEMENT}/submit`, { id: august.id });
    expect(en.body.msg).toContain('one document per Project / Subcontract / Counterparty may be in approval at a time');
    expect(ok(await admin.get(`${SETTLEMENT}/detail`, { id: august.id })).approvalStatus).toBe('draft');
    // in approval does not count either
    expect((await cumulative()).header.previousCumulativeAmount).toBe(105000);
    ok(await admin.post(`${SETTLEMENT}/remove`, undefined, { ids: august.id }));
  });

  it('refuses a period going backwards, on save and on submit', async () => {
    const back = await admin.post(`${SETTLEMENT}/save`, settlement('2026-06', 1, 1));
    expect(back.status).toBe(400);
    expect(back.body.data.errors).toEqual([
      { path: '/period', message: expect.stringContaining('2026-06 必须晚于已审批或审批中的 2026-07') },
    ]);
    const en = await adminEn.post(`${SETTLEMENT}/save`, settlement('2026-07', 1, 1));
    expect(en.body.data.errors[0].message).toContain('2026-07 must be later than 2026-07');
    expect((await admin.get(`${SETTLEMENT}/list`, { period: '2026-06', projectId: keys.projectId })).body.data.total).toBe(1);
  });

  it('approving the third month moves the totals on; examine and filing ask by project', async () => {
    await approve(SETTLEMENT, july.id);
    expect(ok(await admin.get(`${CONTRACT}/detail`, { id: contractId }))).toMatchObject({
      cumulativeSettledAmount: 120000,
      remainingAmount: 210000,
    });
    const filing = ok(await admin.get('/api/construct/subcontractSettlementFiling/cumulative', { projectId: keys.projectId }));
    expect(filing).toMatchObject({ header: { interimCumulativeAmount: 120000 }, totals: { thisAmountInclTax: 120000 }, contract: null });
    const narrowed = ok(await admin.get('/api/construct/subcontractSettlementFiling/cumulative', keys));
    expect(narrowed.contract).toMatchObject({ code: keys.expenditureContractCode, cumulativeSettledAmount: 120000 });
    ok(await admin.get('/api/construct/subcontractMonthlyExamine/cumulative', { projectId: keys.projectId }));
    const missing = await adminEn.get('/api/construct/subcontractMonthlyExamine/cumulative');
    expect(missing.body).toMatchObject({ code: 400, msg: 'Missing required parameter: projectId' });
    expect((await admin.get(`${SETTLEMENT}/cumulative`, { projectId: keys.projectId })).body.code).toBe(400);
  });

  it('a rejected settlement counts neither in the cumulatives nor in the contract', async () => {
    const august = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-08', 50, 10)));
    expect(august).toMatchObject({ previousCumulativeAmount: 120000, thisAmountInclTax: 7500, cumulativeAmount: 127500 });
    const submitted = ok(await admin.post(`${SETTLEMENT}/submit`, { id: august.id }));
    const [task] = ok(await manager.get(`${FLOW}/work/claim-list`, { size: '100' })).records.filter(
      (r: any) => r.processInstanceId === submitted.processInstanceId,
    );
    ok(await manager.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
    ok(await manager.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, comment: '工程量与现场签认不符' }));
    expect(ok(await admin.get(`${SETTLEMENT}/detail`, { id: august.id })).approvalStatus).toBe('rejected');
    expect(await cumulative()).toMatchObject({
      lastApprovedPeriod: '2026-07',
      approving: null,
      header: { previousCumulativeAmount: 120000 },
    });
    expect(ok(await admin.get(`${CONTRACT}/detail`, { id: contractId }))).toMatchObject({
      cumulativeSettledAmount: 120000,
      remainingAmount: 210000,
    });
  });

  it('another tenant sees nothing of it', async () => {
    const other = client(server, (await server.newTenant()).token);
    const answer = ok(await other.get(`${SETTLEMENT}/cumulative`, keys));
    expect(answer).toMatchObject({
      lastApprovedPeriod: null,
      approving: null,
      contract: null,
      header: { previousCumulativeAmount: 0 },
      lines: [],
    });
  });
});
