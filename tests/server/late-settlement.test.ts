// late_settlement (c), the periodic check: a subcontract examined in June and not settled for June by
// 31 July gets one tip on the contract for 2026-06 from 1 August on (with a message to the project's
// managers), no second one on later rounds, and the tip is closed by the system once June's settlement
// is in approval; a month settled in time raises nothing, a draft settlement does not count, and a
// second tenant is left alone. The rounds run with a fixed "today" (the warning module's job, app.jobs.lateSettlements).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveByTurns, ok, tokenOf, type ContractKeys } from './approval.ts';
import { project } from './fixtures.ts';
import type { LateSettlementCheck } from '../../src/packs/cost/server/warning/late-job.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const TIPS = '/api/construct/warnTip';
const CONTRACT = '/api/construct/expenditureContract';
const EXAMINE = '/api/construct/subcontractMonthlyExamine';
const SETTLEMENT = '/api/construct/subcontractMonthlySettlement';
const INBOX = '/api/blade-message/message/my/list';

describe.each(databaseKinds())('late settlement (c): the periodic check on %s', (kind) => {
  let server: TestServer;
  let admin: Api;
  let manager: Api;
  let approvers: Api[];
  let contract: any;
  let keys: ContractKeys;
  let june: any;
  let juneExamined: any;

  /** The warning module's job (app.jobs): its rounds run here with a fixed "today". */
  const lateSettlements = () => server.jobs.lateSettlements as LateSettlementCheck;
  const tipsOf = async (sourceId: string) =>
    (ok(await admin.get(`${TIPS}/list`, { sourceId, size: '100', ascs: 'period' })).records as any[]).filter(
      (t) => t.warnType === 'late_settlement',
    );
  const open = (tips: any[]) => tips.filter((t) => t.warnStatus === 'unread' || t.warnStatus === 'read');

  const examine = (period: string) => ({
    ...keys,
    period,
    examineDate: `${period}-25`,
    qualityScore: 90,
    safetyScore: 88,
    progressScore: 85,
    civilizedScore: 92,
    cooperationScore: 90,
    examinerNames: '李建国、赵敏',
  });
  const settlement = (period: string) => ({
    ...keys,
    period,
    settlementType: 'interim',
    startDate: `${period}-01`,
    endDate: `${period}-28`,
    taxRate: 9,
    paymentRatio: 80,
    retentionRate: 3,
    reporterName: '王会计',
    details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', contractQty: 1000, thisQty: 100, thisPrice: 1000, taxRate: 9 }],
  });

  beforeAll(async () => {
    server = await startServer(kind);
    admin = client(server, await server.token());
    manager = client(server, await tokenOf(server, 'manager'));
    approvers = [manager, client(server, await tokenOf(server, 'costmgr'))];
    // the project names 李建国 (the seeded user "manager") as its project manager
    const site = await project(admin, { projectManagerName: '李建国' });
    const team = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京恒通建筑劳务有限公司',
        subcontractorTypes: ['subcontract'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    contract = ok(
      await admin.post(`${CONTRACT}/save`, {
        name: '2#楼土方分包合同',
        projectId: site.id,
        subcontractorId: team.id,
        expenditureContractType: 'subcontract',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-05-20',
        startDate: '2026-06-01',
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 3,
        performanceStatus: 'performing',
        settlementStatus: 'none',
        details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 1000, taxRate: 9 }],
      }),
    );
    await approveByTurns(admin, approvers, CONTRACT, contract.id);
    keys = { projectId: site.id, expenditureContractCode: contract.code, subcontractorId: team.id };
  }, 300_000);

  afterAll(async () => server?.dispose());

  it('raises one tip for June from 1 August on, with a message to the project manager, and no second one', async () => {
    // June's examination in approval: activity in June
    juneExamined = ok(await admin.post(`${EXAMINE}/save`, examine('2026-06')));
    ok(await admin.post(`${EXAMINE}/submit`, { id: juneExamined.id }));
    // July's only a draft: no activity
    ok(await admin.post(`${EXAMINE}/save`, examine('2026-07')));
    const inboxBefore = ok(await manager.get(INBOX, { size: '100' })).total;

    // June's settlement is due by 31 July (the end of the following month)
    expect(await lateSettlements().run('2026-07-31')).toMatchObject({ ran: true, raised: 0, closed: 0 });
    expect(await tipsOf(contract.id)).toEqual([]);

    const first = await lateSettlements().run('2026-08-01');
    expect(first).toMatchObject({ ran: true, raised: 1, closed: 0 });
    expect(first.tenants).toBeGreaterThanOrEqual(1);
    const [tip] = await tipsOf(contract.id);
    expect(tip).toMatchObject({
      warnType: 'late_settlement',
      warnLevel: 'warning',
      warnStatus: 'unread',
      period: '2026-06',
      projectId: keys.projectId,
      sourceEntity: 'expenditureContract',
      sourceId: contract.id,
      sourceCode: contract.code,
      expenditureContractCode: contract.code,
      subcontractorId: keys.subcontractorId,
    });
    expect(tip.message).toBe('2026-06 有分包月度考核,截至 2026-07-31 仍无该期结算');
    const english = client(server, await server.token(), 'en');
    expect(ok(await english.get(`${TIPS}/detail`, { id: tip.id })).message).toBe(
      'Monthly subcontract examination in 2026-06, but no settlement for that period by 2026-07-31',
    );

    // one message to the project manager naming the contract
    const inbox = ok(await manager.get(INBOX, { size: '100' }));
    expect(inbox.total).toBe(inboxBefore + 1);
    expect(inbox.records.find((m: any) => m.title.includes(contract.code))).toMatchObject({
      type: '3',
      title: `预警:支出合同 ${contract.code} 触发 1 条预警`,
    });

    // later rounds: the same tip, nothing new, no second message
    expect(await lateSettlements().run('2026-08-02')).toMatchObject({ raised: 0, closed: 0 });
    expect(await lateSettlements().run('2026-09-15')).toMatchObject({ raised: 0, closed: 0 });
    expect((await tipsOf(contract.id)).map((t) => [t.id, t.period])).toEqual([[tip.id, '2026-06']]);
    expect(ok(await manager.get(INBOX, { size: '100' })).total).toBe(inboxBefore + 1);
  });

  it('a draft settlement leaves the tip open; one in approval closes it, and it stays closed', async () => {
    june = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-06')));
    expect(await lateSettlements().run('2026-08-03')).toMatchObject({ raised: 0, closed: 0 });
    expect(open(await tipsOf(contract.id))).toHaveLength(1);

    ok(await admin.post(`${SETTLEMENT}/submit`, { id: june.id }));
    expect(await lateSettlements().run('2026-08-04')).toMatchObject({ raised: 0, closed: 1 });
    const [closed] = await tipsOf(contract.id);
    expect(closed).toMatchObject({ period: '2026-06', warnStatus: 'handled', handlerName: '系统' });
    expect(closed.handleOpinion).toContain('该月已有结算');

    await approveByTurns(admin, approvers, SETTLEMENT, june.id);
    expect(await lateSettlements().run('2026-08-05')).toMatchObject({ raised: 0, closed: 0 });
    expect((await tipsOf(contract.id)).map((t) => t.warnStatus)).toEqual(['handled']);
  });

  it('a month settled in time raises nothing; a later unsettled one gets its own tip', async () => {
    // September: examined and settled (in approval) by 31 October; October: examined, never settled
    // (one examination of a contract in approval at a time: June's is approved first, then each)
    await approveByTurns(admin, approvers, EXAMINE, juneExamined.id);
    for (const period of ['2026-09', '2026-10'])
      await approveByTurns(admin, approvers, EXAMINE, ok(await admin.post(`${EXAMINE}/save`, examine(period))).id);
    const september = ok(await admin.post(`${SETTLEMENT}/save`, settlement('2026-09')));
    ok(await admin.post(`${SETTLEMENT}/submit`, { id: september.id }));
    // 1 December: October's was due by 30 November; across the year end nothing changes on 1 January
    expect(await lateSettlements().run('2026-12-01')).toMatchObject({ raised: 1, closed: 0 });
    expect(await lateSettlements().run('2027-01-01')).toMatchObject({ raised: 0, closed: 0 });
    expect((await tipsOf(contract.id)).map((t) => [t.period, t.warnStatus])).toEqual([
      ['2026-06', 'handled'],
      ['2026-10', 'unread'],
    ]);
  });

  it('leaves a second tenant alone', async () => {
    const other = await server.newTenant();
    const report = await lateSettlements().run('2027-01-02');
    expect(report).toMatchObject({ ran: true, raised: 0, closed: 0 });
    expect(report.tenants).toBeGreaterThanOrEqual(2);
    const tip = server.catalog.entities.warnTip;
    const [row] = await server.db.query(`SELECT count(*)::int AS n FROM ${tip.table} WHERE tenant_id = $1`, [other.tenantId]);
    expect(row.n).toBe(0);
    // its administrator sees none of the first tenant's tips
    const otherAdmin = client(server, other.token);
    expect(ok(await otherAdmin.get(`${TIPS}/list`, { size: '100' })).total).toBe(0);
  });

  it('with two processes on one PostgreSQL database, a round runs in one of them only', async () => {
    if (server.db.kind !== 'postgres') return;
    // the lock of a round held by another session: this process skips its round
    const held = server.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(7420019, hashtext('late-settlement'))`);
      const report = await lateSettlements().run('2027-01-03');
      expect(report).toEqual({ ran: false, tenants: 0, raised: 0, closed: 0 });
    });
    await held;
    expect(await lateSettlements().run('2027-01-03')).toMatchObject({ ran: true });
  });
});
