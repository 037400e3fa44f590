// The final settlement of a subcontract (分包结算备案, R-ORDER-2 / R-FIN) over HTTP: it is refused
// while another settlement of the contract is not approved; once approved the contract takes its
// final amount and is finally settled and completed; after it no settlement of the contract is saved
// or submitted; another tenant cannot reach the contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedSubcontract, approveAs, EARTHWORK_LINE, earthworkSettlement, ok, tokenOf, type ContractKeys } from './approval.ts';
import { project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';

const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const FILING = '/api/construct/subcontractSettlementFiling';
const CONTRACT = '/api/construct/expenditureContract';

describe.each(databaseKinds())('final settlement of a subcontract on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let manager: Api;
  let keys: ContractKeys;
  let contractId: string;
  let june: any;
  let filing: any;

  const approve = (base: string, id: string) => approveAs(admin, manager, base, id);
  const contract = async () => ok(await admin.get(`${CONTRACT}/detail`, { id: contractId }));

  const settlement = (period: string, qty: number) => earthworkSettlement(keys, period, qty);

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    manager = client(server, await tokenOf(server, 'manager'));
    const site = await project(admin);
    const subcontract = await approvedSubcontract(admin, manager, site.id, '2#楼土方分包合同', [EARTHWORK_LINE]);
    contractId = subcontract.contract.id;
    keys = subcontract.keys;
    // May approved: 600 m³ × 30 = 18,000
    await approve(SETTLEMENT, ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-05', 600))).id);
    june = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-06', 300)));
  }, 180_000);

  afterAll(async () => server?.dispose());

  it("is refused while another settlement of the contract is not approved, naming it, in the caller's language", async () => {
    // the filing takes the approved interim settlements' total itself: 18,000 (June is a draft)
    filing = ok(
      await admin.post(`${FILING}/save`, {
        ...keys,
        reportedAmount: 30000,
        finalAmount: 28765.43,
        taxRate: 9,
        retentionRate: 3,
        cumulativePaidAmount: 14400,
        filingNo: 'BA-2026-018',
        filingDate: '2026-07-20',
        interimCumulativeAmount: 1,
      }),
    );
    expect(filing).toMatchObject({ interimCumulativeAmount: 18000, adjustmentAmount: 10765.43, auditReduction: 1234.57 });
    const zh = await admin.post(`${FILING}/submit`, { id: filing.id });
    expect(zh.body).toMatchObject({ code: 400, success: false });
    expect(zh.body.msg).toContain(`${june.code} 尚未审批通过:定案前,该合同的每张结算都须审批通过或删除`);
    const en = await adminEn.post(`${FILING}/submit`, { id: filing.id });
    expect(en.body.msg).toContain(
      `${june.code} is not approved: before the final settlement every settlement of the contract must be approved or deleted`,
    );
    expect(ok(await admin.get(`${FILING}/detail`, { id: filing.id })).approvalStatus).toBe('draft');
    expect(await contract()).toMatchObject({
      cumulativeSettledAmount: 18000,
      settlementStatus: 'partial',
      performanceStatus: 'performing',
    });
  });

  it('once approved, the contract takes the final amount and is finally settled and completed', async () => {
    await approve(SETTLEMENT, june.id);
    expect((await contract()).cumulativeSettledAmount).toBe(27000);
    await approve(FILING, filing.id);
    // 28,765.43 final; remaining 30,000 − 28,765.43 = 1,234.57
    expect(await contract()).toMatchObject({
      cumulativeSettledAmount: 28765.43,
      remainingAmount: 1234.57,
      settlementStatus: 'final',
      performanceStatus: 'completed',
    });
  });

  it('after it, no settlement of the contract is saved, and a second filing is refused too', async () => {
    const july = await admin.post(`${SETTLEMENT}/save`, settlement('2026-07', 10));
    expect(july.body.code).toBe(400);
    expect(july.body.msg).toContain(
      `合同 ${keys.expenditureContractCode} 已由分包结算备案 ${filing.code} 定案(审批通过),不能再保存或提交该合同的结算`,
    );
    const again = await adminEn.post(`${FILING}/save`, {
      ...keys,
      reportedAmount: 1,
      finalAmount: 1,
      taxRate: 9,
      filingNo: 'BA-2026-019',
      filingDate: '2026-07-21',
    });
    expect(again.body.msg).toContain(`Contract ${keys.expenditureContractCode} was finalised by`);
    expect((await admin.get(`${SETTLEMENT}/list`, { expenditureContractCode: keys.expenditureContractCode })).body.data.total).toBe(2);
    expect(await contract()).toMatchObject({ cumulativeSettledAmount: 28765.43, settlementStatus: 'final' });
  });

  it('another tenant cannot reach the contract: its filing names unknown references, not this finalisation', async () => {
    const other = client(server, (await server.newTenant()).token);
    const answer = await other.post(`${FILING}/save`, {
      ...keys,
      reportedAmount: 1,
      finalAmount: 1,
      taxRate: 9,
      filingNo: 'X',
      filingDate: '2026-07-21',
    });
    // the other tenant has no such project or contract: refused as unknown references, not as finalised
    expect(answer.body.code).toBe(400);
    expect(JSON.stringify(answer.body)).not.toContain('定案(审批通过)');
  });
});
