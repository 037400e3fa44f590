// The warnings a document would raise, asked before saving or submitting it (<api>/earlyWarningPreview): a
// June settlement whose cumulative reaches 120 % of its subcontract answers the critical 超合同金额 warning
// with its figure and threshold, in the caller's language, and nothing is saved or recorded; a stored
// settlement answers what its submission will record; a half-typed form answers what it already holds;
// bad input gets a clear error; another tenant's document is not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedSubcontract, approveByTurns, EARTHWORK_LINE, earthworkSettlement, ok, tokenOf, type ContractKeys } from './approval.ts';
import { count, project } from './fixtures.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const TIPS = '/api/construct/warnTip';
const CONTRACT = '/api/construct/expenditureContract';

describe.each(databaseKinds())('warning preview on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let adminEn: Api;
  let approvers: Api[];
  let keys: ContractKeys;

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    admin = client(server, token);
    adminEn = client(server, token, 'en');
    const manager = client(server, await tokenOf(server, 'manager'));
    approvers = [manager, client(server, await tokenOf(server, 'costmgr'))];
    const site = await project(admin);
    // 1,000 m³ at 30: a contract of 30,000; May settles 600 m³ (18,000, 60 %)
    ({ keys } = await approvedSubcontract(admin, manager, site.id, '5#楼土方分包合同', [EARTHWORK_LINE]));
    const may = ok(await admin.post(`${SETTLEMENT}/save`, earthworkSettlement(keys, '2026-05', 600)));
    await approveByTurns(admin, approvers, SETTLEMENT, may.id);
  }, 300_000);

  afterAll(async () => server?.dispose());

  const preview = async (api: Api, body: unknown) => ok(await api.post(`${SETTLEMENT}/earlyWarningPreview`, body));
  const capOf = (answer: any) => answer.warnings.find((w: any) => w.warnType === 'exceed_contract_amount');

  it('a June settlement reaching 120 % of its contract: the critical warning with figure and threshold, nothing saved', async () => {
    const settlements = await count(admin, `${SETTLEMENT}/list`);
    const tips = await count(admin, `${TIPS}/list`);
    // the form sends its record as it holds it; the server fills the previous cumulative itself
    const june = earthworkSettlement(keys, '2026-06', 600);
    const answer = await preview(admin, june);
    expect(answer.hardControl).toBe(false);
    expect(capOf(answer)).toEqual({
      warnType: 'exceed_contract_amount',
      typeName: '超合同金额(累计结算)',
      warnLevel: 'critical',
      message: '累计结算金额 36,000.00 元超过合同金额 30,000.00 元(120%)',
      actualValue: 36000,
      thresholdValue: 30000,
      sourceDetailId: null,
      goodsId: null,
    });
    // 1,200 m³ of 1,000 on a work item: a warning
    expect(answer.warnings.find((w: any) => w.warnType === 'exceed_contract_qty')).toMatchObject({
      warnLevel: 'warning',
      actualValue: 1200,
      thresholdValue: 1000,
    });
    expect(capOf(await preview(adminEn, june))).toMatchObject({
      typeName: 'Over contract amount',
      message: 'Cumulative settled amount 36,000.00 exceeds the contract amount 30,000.00 (120 %)',
    });
    // 200 m³ more: 80 %, no cap warning
    expect(capOf(await preview(admin, earthworkSettlement(keys, '2026-06', 200)))).toBeUndefined();
    expect(await count(admin, `${SETTLEMENT}/list`)).toBe(settlements);
    expect(await count(admin, `${TIPS}/list`)).toBe(tips);
  });

  it('a stored settlement answers what its save recorded; edited figures replace its own, not add to them', async () => {
    const june = ok(await admin.post(`${SETTLEMENT}/save`, earthworkSettlement(keys, '2026-06', 500)));
    const recorded = ok(await admin.get(`${TIPS}/list`, { sourceId: june.id, size: '100' })).records as any[];
    const stored = ok(await admin.get(`${SETTLEMENT}/earlyWarningPreview`, { id: june.id }));
    expect(stored.warnings.map((w: any) => [w.warnType, w.warnLevel, w.actualValue]).sort()).toEqual(
      recorded.map((t) => [t.warnType, t.warnLevel, t.actualValue]).sort(),
    );
    // 18,000 + 15,000 = 33,000: 110 %
    expect(capOf(stored)).toMatchObject({ actualValue: 33000, thresholdValue: 30000 });
    // the form editing it to 200 m³: 18,000 + 6,000, its stored 15,000 left out
    const detail = ok(await admin.get(`${SETTLEMENT}/detail`, { id: june.id }));
    const edited = { ...detail, details: detail.details.map((r: any) => ({ ...r, thisQty: 200 })) };
    const answer = await preview(admin, edited);
    expect(capOf(answer)).toBeUndefined();
    expect(answer.warnings.find((w: any) => w.warnType === 'near_contract_amount')).toBeUndefined();
  });

  it('a half-typed form answers what it holds; other document types answer theirs', async () => {
    // no lines yet: what a save would record now, a zero settlement; a quantity not yet a number counts as none, no fault
    const types = async (body: unknown) => (await preview(admin, body)).warnings.map((w: any) => w.warnType);
    expect(await types({ ...keys, period: '2026-07', details: [] })).toContain('zero_settlement');
    const typing = earthworkSettlement(keys, '2026-07', 0);
    typing.details[0].thisQty = '12a' as unknown as number;
    expect(await types(typing)).toContain('zero_settlement');
    typing.details[0].thisQty = 1200;
    expect(await types(typing)).toContain('exceed_contract_amount');
    // no project chosen yet: no rule can run
    expect((await preview(admin, { period: '2026-07' })).warnings).toEqual([]);
    // a contract answers its own rules (a document type is bound to its rules by role)
    const contract = ok(await admin.post(`${CONTRACT}/earlyWarningPreview`, { projectId: keys.projectId, details: [] }));
    expect(contract).toEqual({ warnings: [], hardControl: false });
  });

  it("bad input gets a clear error in the caller's language; another tenant's document is not found", async () => {
    const notDocument = await adminEn.post(`${SETTLEMENT}/earlyWarningPreview`, [1, 2]);
    expect(notDocument.body).toMatchObject({ code: 400, success: false });
    expect(notDocument.body.msg).toContain('expects the document as a JSON object');
    expect((await admin.get(`${SETTLEMENT}/earlyWarningPreview`, {})).body).toMatchObject({ code: 400, msg: '缺少必要的请求参数: id' });
    expect((await admin.get(`${SETTLEMENT}/earlyWarningPreview`, { id: 'x' })).body.code).toBe(400);
    const [stored] = ok(await admin.get(`${SETTLEMENT}/list`, { size: '1' })).records;
    const other = client(server, (await server.newTenant()).token);
    expect((await other.get(`${SETTLEMENT}/earlyWarningPreview`, { id: stored.id })).body.code).toBe(404);
    expect((await other.post(`${SETTLEMENT}/earlyWarningPreview`, { ...keys, id: stored.id })).body.code).toBe(404);
  });
});
