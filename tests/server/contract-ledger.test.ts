// The expense contract list as the project's contract ledger (合同台账, docs/business-rules.md#cumulatives): approving a
// settlement writes back what the ledger shows — settled, payable, retention held (sums), paid so far
// and the last settled period (the largest value) — and the contract derives % settled and what is
// owed; a settlement in approval or rejected counts for nothing; the list is searched by settlement
// status and exports the ledger columns; the statistics' paid figure is the ledger's. Every expected
// number is worked out by hand in the comments.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedSubcontract, approveByTurns, EARTHWORK_LINE, earthworkSettlement, ok, tokenOf, type ContractKeys } from './approval.ts';
import { project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const CONTRACT = '/api/construct/expenditureContract';
const FLOW = '/api/blade-flow';

describe.each(databaseKinds())('the contract ledger on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let manager: Api;
  let costmgr: Api;
  let keys: ContractKeys;
  let contractId: string;

  const contract = async () => ok(await admin.get(`${CONTRACT}/detail`, { id: contractId }));

  /** A month of earthwork at 30 per m³ (9 % VAT, 80 % payable, 3 % retention) and what was paid on the contract by then. */
  const settlement = (period: string, qty: number, paid: number) => earthworkSettlement(keys, period, qty, { cumulativePaidAmount: paid });

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    manager = client(server, await tokenOf(server, 'manager'));
    costmgr = client(server, await tokenOf(server, 'costmgr'));
    const site = await project(admin);
    // 1,000 m³ × 30 = 30,000
    const subcontract = await approvedSubcontract(admin, manager, site.id, '3#楼土方分包合同', [EARTHWORK_LINE]);
    contractId = subcontract.contract.id;
    keys = subcontract.keys;
  }, 180_000);

  afterAll(async () => server?.dispose());

  it('starts empty: nothing settled, paid or held (empty until a settlement is approved), nothing owed, no period, % settled 0', async () => {
    expect(await contract()).toMatchObject({
      currentAmount: 30000,
      cumulativeSettledAmount: null,
      settledRatio: 0,
      cumulativePayableAmount: null,
      cumulativePaidAmount: null,
      owedAmount: 0,
      retentionHeldAmount: null,
      lastSettledPeriod: null,
      settlementStatus: 'none',
    });
  });

  it('two approved settlements: sums of settled, payable and retention, the latest paid figure and period', async () => {
    // May 600 m³ × 30 = 18,000: retention r2(18,000 × 3 %) = 540, payable r2(18,000 × 80 %) − 540 = 13,860; 10,000 paid by then
    const may = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-05', 600, 10000)));
    await approveByTurns(admin, [manager, costmgr], SETTLEMENT, may.id);
    // June 300 m³ × 30 = 9,000: retention 270, payable 7,200 − 270 = 6,930; 20,000 paid by then
    const june = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-06', 300, 20000)));
    expect([may, june].map((s) => [s.thisAmountInclTax, s.retentionAmount, s.thisPayableAmount])).toEqual([
      [18000, 540, 13860],
      [9000, 270, 6930],
    ]);
    await approveByTurns(admin, [manager, costmgr], SETTLEMENT, june.id);
    // settled 27,000 = 90 % of 30,000; payable 20,790; paid 20,000 (the later, larger figure, not 30,000); owed (R-PAY-4: settled − paid) 27,000 − 20,000 = 7,000; retention 810
    expect(await contract()).toMatchObject({
      cumulativeSettledAmount: 27000,
      settledRatio: 90,
      remainingAmount: 3000,
      cumulativePayableAmount: 20790,
      cumulativePaidAmount: 20000,
      owedAmount: 7000,
      retentionHeldAmount: 810,
      lastSettledPeriod: '2026-06',
      settlementStatus: 'partial',
    });
  });

  it('a settlement in approval, then rejected, changes none of it', async () => {
    // July 100 m³ × 30 = 3,000 with 25,000 paid: in approval, then sent back
    const july = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-07', 100, 25000)));
    const submitted = ok(await admin.post(`${SETTLEMENT}/submit`, { id: july.id }));
    const unchanged = {
      cumulativeSettledAmount: 27000,
      settledRatio: 90,
      cumulativePayableAmount: 20790,
      cumulativePaidAmount: 20000,
      owedAmount: 7000,
      retentionHeldAmount: 810,
      lastSettledPeriod: '2026-06',
    };
    expect(await contract()).toMatchObject(unchanged);
    const [task] = ok(await manager.get(`${FLOW}/work/claim-list`, { size: '100' })).records.filter(
      (r: any) => r.processInstanceId === submitted.processInstanceId,
    );
    ok(await manager.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId }));
    ok(await manager.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, comment: '工程量与现场签认不符' }));
    expect(ok(await admin.get(`${SETTLEMENT}/detail`, { id: july.id })).approvalStatus).toBe('rejected');
    expect(await contract()).toMatchObject(unchanged);
  });

  it('the list is the ledger: searched by project, type and settlement status, exported with its columns', async () => {
    const page = ok(
      await admin.get(`${CONTRACT}/list`, {
        projectId: keys.projectId,
        expenditureContractType: 'subcontract',
        settlementStatus: 'partial',
      }),
    );
    expect(
      page.records.map((r: any) => [
        r.code,
        r.cumulativeSettledAmount,
        r.settledRatio,
        r.cumulativePaidAmount,
        r.owedAmount,
        r.retentionHeldAmount,
        r.lastSettledPeriod,
      ]),
    ).toEqual([[keys.expenditureContractCode, 27000, 90, 20000, 7000, 810, '2026-06']]);
    expect(ok(await admin.get(`${CONTRACT}/list`, { projectId: keys.projectId, settlementStatus: 'none' })).total).toBe(0);
    const res = await adminEn.get(`${CONTRACT}/export`, { projectId: keys.projectId, settlementStatus: 'partial' });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.raw as any);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header).toEqual(
      expect.arrayContaining([
        'Cumulative settled (incl. tax)',
        'Settled (%)',
        'Cumulative payable',
        'Paid so far',
        'Owed',
        'Retention held',
        'Last settled period',
        'Settlement status',
      ]),
    );
    const row = (sheet.getRow(2).values as unknown[]).slice(1);
    const at = (title: string) => row[header.indexOf(title)];
    expect([at('Paid so far'), at('Owed'), at('Retention held'), at('Last settled period')].map(String)).toEqual([
      '20000',
      '7000',
      '810',
      '2026-06',
    ]);
  });

  it("the statistics' paid figure is the ledger's", async () => {
    const stats = ok(await admin.get('/api/construct/project/statisticsData', { projectId: keys.projectId }));
    expect(stats.total).toMatchObject({ settledAmountInclTax: 27000, payableAmount: 20790, retentionHeld: 810, paidAmount: 20000 });
  });

  it('a contract without an amount is 0 % settled rather than a division by zero', async () => {
    const empty = ok(
      await admin.post(`${CONTRACT}/save`, {
        name: '零金额框架协议',
        projectId: keys.projectId,
        subcontractorId: keys.subcontractorId,
        expenditureContractType: 'subcontract',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-04-01',
        startDate: '2026-04-10',
        contractAmount: 0,
        taxRate: 9,
        performanceStatus: 'not_started',
        settlementStatus: 'none',
      }),
    );
    expect(empty).toMatchObject({ currentAmount: 0, settledRatio: 0, owedAmount: 0 });
  });
});
