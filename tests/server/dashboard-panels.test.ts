// The warnings and settlement-timeliness panels of the cost dashboard (docs/business-rules.md#dashboards) as
// a cost manager reads them, in a tenant of their own: warnings of several types, levels, statuses
// and ages; expense contracts that should settle October 2026 beside ones that should not (completed,
// signed later, a supplementary agreement, a draft, finally settled), October settlements approved,
// in approval, zero and negative, with their approval times. Every number is worked out in the comments.
// Approval states are set directly and the approvals' instances written with known times: the
// workflow itself is tested in workflow.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowText } from '../../src/server/clock.ts';
import { project } from './fixtures.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';

const WARNINGS = '/api/construct/project/warningStatistics';
const TIMELINESS = '/api/construct/project/settlementTimeliness';

function ok(res: { body: any }) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

/** yyyy-MM-dd `days` before `today`. */
function daysBefore(today: string, days: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

describe.each(databaseKinds())('dashboard panels on %s', (kind) => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<TestServer['newTenant']>>;
  let admin: Api;
  let w: { id: string };
  let t: { id: string };
  let other: { id: string };
  const today = nowText(testConfig().timeZone).slice(0, 10);
  const codes: Record<string, string> = {};
  const settlementCodes: Record<string, string> = {};

  const table = (entity: string) => server.catalog.entities[entity].table;
  const setStatus = (entity: string, ids: string[], status: string) =>
    server.db.query(`UPDATE ${table(entity)} SET approval_status = $1 WHERE id = ANY($2::bigint[])`, [status, ids]);

  async function contract(projectId: string, subcontractorId: string, name: string, extra: Record<string, unknown> = {}) {
    const c = ok(
      await admin.post('/api/construct/expenditureContract/save', {
        name,
        projectId,
        subcontractorId,
        expenditureContractType: 'subcontract',
        pricingMode: 'fixed_unit_price',
        signDate: '2026-04-01',
        startDate: '2026-04-10',
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 3,
        performanceStatus: 'performing',
        settlementStatus: 'none',
        details: [{ itemCode: '010101', itemName: '清单项', unit: 'm3', quantity: 1000, priceInclTax: 300, taxRate: 9 }],
        ...extra,
      }),
    );
    codes[name] = c.code;
    return c;
  }

  async function settlement(c: any, period: string, qty: number) {
    return ok(
      await admin.post('/api/construct/subcontractMonthlySettlement/save', {
        projectId: c.projectId,
        expenditureContractCode: c.code,
        subcontractorId: c.subcontractorId,
        period,
        settlementType: 'interim',
        startDate: `${period}-01`,
        endDate: `${period}-28`,
        taxRate: 9,
        paymentRatio: 80,
        retentionRate: 3,
        reporterName: '王会计',
        details: [{ itemCode: '010101', itemName: '清单项', unit: 'm3', contractQty: 1000, thisQty: qty, thisPrice: 300, taxRate: 9 }],
      }),
    );
  }

  /** An approval that ran from `start` to `end` (the document's instance, as the workflow would leave it). */
  async function approvedAt(entity: string, id: string, start: string, end: string) {
    const instance = String(9_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
    await server.db.query(
      `INSERT INTO wf_instance (id, tenant_id, definition_id, def_key, business_key, business_table, business_id, initiator_id, status, state, start_time, end_time)
       VALUES ($1::bigint, $2, 'test:1', 'test', $3, $4, $5::bigint, 1, 'completed', '{}'::jsonb, $6::timestamp, $7::timestamp)`,
      [instance, tenant.tenantId, entity, table(entity), id, start, end],
    );
    await server.db.query(`UPDATE ${table(entity)} SET approval_status = 'approved', process_instance_id = $1 WHERE id = $2::bigint`, [
      instance,
      id,
    ]);
  }

  beforeAll(async () => {
    server = await startServer(kind);
    tenant = await server.newTenant('看板测试建设集团');
    admin = client(server, tenant.token);
    w = await project(admin, { name: '预警测试项目' });
    t = await project(admin, { name: '结算及时性测试项目' });
    other = await project(admin, { name: '另一个项目' });

    // warnings of project W (today and days back); one of another project that W's answer must not count
    const tip = async (projectId: string, warnType: string, warnLevel: string, warnStatus: string, daysBack: number) => {
      const saved = ok(
        await admin.post('/api/construct/warnTip/save', {
          projectId,
          warnType,
          warnLevel,
          warnStatus,
          sourceEntity: 'test',
          sourceId: '1',
          sourceCode: `T-${warnType}`,
          message: `${warnType} ${warnLevel} ${warnStatus}`,
        }),
      );
      await server.db.query(`UPDATE ${table('warnTip')} SET create_time = $1::timestamp WHERE id = $2::bigint`, [
        `${daysBefore(today, daysBack)} 10:00:00`,
        saved.id,
      ]);
    };
    await tip(w.id, 'late_settlement', 'warning', 'unread', 2);
    await tip(w.id, 'late_settlement', 'warning', 'read', 40);
    await tip(w.id, 'late_settlement', 'critical', 'handled', 40);
    await tip(w.id, 'exceed_budget', 'critical', 'unread', 10);
    await tip(other.id, 'exceed_budget', 'info', 'unread', 1);

    const team = ok(
      await admin.post('/api/construct/subcontractor/save', {
        name: '南京恒通建筑劳务有限公司',
        subcontractorTypes: ['subcontract'],
        blacklisted: false,
        status: 'enabled',
      }),
    );
    const settled = await contract(t.id, team.id, '已结算');
    const late = await contract(t.id, team.id, '未结算');
    const zero = await contract(t.id, team.id, '零结算');
    const negative = await contract(t.id, team.id, '负结算');
    const completed = await contract(t.id, team.id, '已完工');
    const signedLater = await contract(t.id, team.id, '十一月签订', { signDate: '2026-11-05', startDate: '2026-11-06' });
    const supplementary = await contract(t.id, team.id, '补充协议', { parentContractCode: settled.code });
    const finalised = await contract(t.id, team.id, '已最终结算');
    await contract(t.id, team.id, '草稿合同');
    const elsewhere = await contract(other.id, team.id, '另一个项目的合同');
    await setStatus(
      'expenditureContract',
      [settled, late, zero, negative, completed, signedLater, supplementary, finalised, elsewhere].map((c) => c.id),
      'approved',
    );
    // the statuses are the workflow's (approval makes a contract performing, a final settlement
    // completes and finally settles it): set as it would have
    const contractStatus = (ids: string[], column: string, value: string) =>
      server.db.query(`UPDATE ${table('expenditureContract')} SET ${column} = $1 WHERE id = ANY($2::bigint[])`, [value, ids]);
    await contractStatus(
      [settled, late, zero, negative, signedLater, supplementary, finalised, elsewhere].map((c) => c.id),
      'performance_status',
      'performing',
    );
    await contractStatus([completed.id], 'performance_status', 'completed');
    await contractStatus([finalised.id], 'settlement_status', 'final');

    // October: 100 × 300 = 30,000 approved in 1.5 days (2 Nov 09:00 → 3 Nov 21:00)
    const oct = await settlement(settled, '2026-10', 100);
    settlementCodes.settled = oct.code;
    await approvedAt('subcontractMonthlySettlement', oct.id, '2026-11-02 09:00:00', '2026-11-03 21:00:00');
    // the late one settled September only; its October draft does not count
    const sep = await settlement(late, '2026-09', 50);
    await setStatus('subcontractMonthlySettlement', [sep.id], 'approved');
    await settlement(late, '2026-10', 10);
    // 0 × 300 = 0, in approval: settled, and a zero settlement
    const z = await settlement(zero, '2026-10', 0);
    settlementCodes.zero = z.code;
    await setStatus('subcontractMonthlySettlement', [z.id], 'approving');
    // −10 × 300 = −3,000 approved in 4.25 days (1 Nov 08:00 → 5 Nov 14:00): settled, and negative
    const n = await settlement(negative, '2026-10', -10);
    settlementCodes.negative = n.code;
    expect(n.thisAmountInclTax).toBe(-3000);
    await approvedAt('subcontractMonthlySettlement', n.id, '2026-11-01 08:00:00', '2026-11-05 14:00:00');
    // the completed contract settled October too: not expected, its settlement still flagged by nothing
    const c = await settlement(completed, '2026-10', 20);
    await setStatus('subcontractMonthlySettlement', [c.id], 'approved');
  }, 180_000);

  afterAll(async () => server?.dispose());

  it('warnings by type and level, the open ones by age, of one project', async () => {
    const answer = ok(await admin.get(WARNINGS, { projectId: w.id }));
    expect(answer.today).toBe(today);
    expect(answer.levels).toEqual(['critical', 'warning', 'info']);
    expect(answer.rows).toEqual([
      // late: 3 in all (2 warning, 1 critical); open 2 (unread 2 days, read 40 days); the handled one is not open
      {
        warnType: 'late_settlement',
        warnTypeName: '结算不及时',
        total: 3,
        levels: { critical: 1, warning: 2, info: 0 },
        open: 2,
        unread: 1,
        ages: { upTo7: 1, upTo30: 0, over30: 1 },
      },
      {
        warnType: 'exceed_budget',
        warnTypeName: '超成本预算',
        total: 1,
        levels: { critical: 1, warning: 0, info: 0 },
        open: 1,
        unread: 1,
        ages: { upTo7: 0, upTo30: 1, over30: 0 },
      },
    ]);
    expect(answer.total).toEqual({
      warnType: null,
      warnTypeName: null,
      total: 4,
      levels: { critical: 2, warning: 2, info: 0 },
      open: 3,
      unread: 2,
      ages: { upTo7: 1, upTo30: 1, over30: 1 },
    });
    // the other project: its one info warning; every project of the tenant: W's, the other's and those
    // the timeliness documents raised themselves on saving (late, zero, negative settlements…), each once
    const [ofOther, ofT] = await Promise.all([other, t].map(async (p) => ok(await admin.get(WARNINGS, { projectId: p.id }))));
    expect(ofOther.total).toEqual({
      warnType: null,
      warnTypeName: null,
      total: 1,
      levels: { critical: 0, warning: 0, info: 1 },
      open: 1,
      unread: 1,
      ages: { upTo7: 1, upTo30: 0, over30: 0 },
    });
    const all = ok(await client(server, tenant.token, 'en').get(WARNINGS));
    expect(all.total.total).toBe(4 + 1 + ofT.total.total);
    expect(all.total.open).toBe(3 + 1 + ofT.total.open);
    expect(all.rows.find((r: any) => r.warnType === 'exceed_budget')).toMatchObject({
      warnTypeName: 'Over budget',
      levels: { critical: 1, info: 1 },
    });
  });

  it('October: which contracts should have settled, which did, zero and negative settlements, approval times', async () => {
    const answer = ok(await admin.get(TIMELINESS, { projectId: t.id, month: '2026-10' }));
    // expected: settled, late, zero, negative (not the completed, the November one, the supplementary agreement, the finalised, the draft)
    expect(answer).toMatchObject({ projectId: t.id, month: '2026-10', monthEnd: '2026-10-31', expected: 4, settled: 3, settleRate: 75 });
    expect(answer.byType).toEqual([
      { expenditureContractType: 'subcontract', expenditureContractTypeName: '专业分包', expected: 4, settled: 3 },
    ]);
    expect(answer.missing).toEqual([
      expect.objectContaining({
        code: codes['未结算'],
        name: '未结算',
        projectId: t.id,
        projectName: '结算及时性测试项目',
        subcontractorName: '南京恒通建筑劳务有限公司',
        signDate: '2026-04-01',
        lastSettledPeriod: '2026-09',
        settled: false,
      }),
    ]);
    expect(answer.zero).toEqual([
      expect.objectContaining({
        code: settlementCodes.zero,
        expenditureContractCode: codes['零结算'],
        approvalStatus: 'approving',
        thisAmountInclTax: 0,
        entity: 'subcontractMonthlySettlement',
      }),
    ]);
    expect(answer.negative).toEqual([expect.objectContaining({ code: settlementCodes.negative, thisAmountInclTax: -3000 })]);
    // (1.5 + 4.25) / 2 = 2.875 → 2.9 days; longest 4.25 → 4.3
    expect(answer.durations).toEqual([
      { entity: 'subcontractMonthlySettlement', entityName: '分包月度结算', count: 2, averageDays: 2.9, maxDays: 4.3 },
    ]);
    // September: the late one's approved settlement; its approval ran no instance, so no times
    const sep = ok(await admin.get(TIMELINESS, { projectId: t.id, month: '2026-09' }));
    expect(sep).toMatchObject({ expected: 4, settled: 1, settleRate: 25, durations: [], zero: [], negative: [] });
    // before anything was signed: none expected
    expect(ok(await admin.get(TIMELINESS, { projectId: t.id, month: '2026-03' }))).toMatchObject({
      expected: 0,
      settled: 0,
      settleRate: null,
      missing: [],
    });
    // every project: the other project's contract should have settled too and did not
    const all = ok(await admin.get(TIMELINESS, { month: '2026-10' }));
    expect(all).toMatchObject({ projectId: null, expected: 5, settled: 3 });
    // no month: the last complete one
    const latest = ok(await admin.get(TIMELINESS, { projectId: t.id }));
    const [y, m] = today.split('-').map(Number);
    expect(latest.month).toBe(m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`);
  });

  it("refuses a bad month or project in the caller's language; another tenant sees nothing", async () => {
    const bad = await admin.get(TIMELINESS, { month: '2026-13' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 month 不是有效的月份(yyyy-MM): 2026-13');
    const badEn = await client(server, tenant.token, 'en').get(TIMELINESS, { month: 'October' });
    expect(badEn.body.msg).toBe('Parameter month is not a valid month (yyyy-MM): October');
    expect((await admin.get(WARNINGS, { projectId: '12ab' })).status).toBe(400);
    const platform = client(server, await server.token());
    expect((await platform.get(WARNINGS, { projectId: w.id })).status).toBe(404);
    expect((await platform.get(TIMELINESS, { projectId: t.id, month: '2026-10' })).status).toBe(404);
    const theirs = ok(await platform.get(TIMELINESS, { month: '2026-10' }));
    expect(theirs.missing.map((c: any) => c.code)).not.toContain(codes['未结算']);
    expect(JSON.stringify(ok(await platform.get(WARNINGS)))).not.toContain('结算不及时","total":3');
    expect((await client(server).get(WARNINGS)).status).toBe(401);
  });

  it("follows the caller's grants", async () => {
    async function userWith(codes: string[]) {
      const alias = `r${Math.random().toString(36).slice(2, 10)}`;
      const role = ok(await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 }));
      const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
      ok(
        await admin.post('/api/blade-system/role/grant', {
          roleIds: [role.id],
          menuIds: menus.map((m) => m.id),
          dataScopeIds: [],
          apiScopeIds: [],
        }),
      );
      const user = ok(
        await admin.post('/api/blade-system/user/save', {
          account: alias,
          password: 'secret1',
          name: alias,
          realName: alias,
          roleId: role.id,
          status: 1,
        }),
      );
      return client(
        server,
        await server.tokens.sign({ tenant_id: tenant.tenantId, user_id: user.id, dept_id: '', role_id: role.id, role_name: alias }),
      );
    }
    const projectsOnly = await userWith(['project']);
    expect((await projectsOnly.get(TIMELINESS)).status).toBe(403);
    expect((await projectsOnly.get(WARNINGS)).status).toBe(403);
    const contracts = await userWith(['project', 'expenditure_contract']);
    expect(ok(await contracts.get(TIMELINESS, { projectId: t.id, month: '2026-10' })).expected).toBe(4);
    expect((await contracts.get(WARNINGS)).status).toBe(403);
    const warnings = await userWith(['project', 'warn_tip']);
    expect(ok(await warnings.get(WARNINGS, { projectId: w.id })).total.total).toBe(4);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
    expect(doc.paths[WARNINGS].get.parameters.map((p: any) => p.name)).toEqual(['projectId']);
    expect(doc.paths[TIMELINESS].get.parameters.map((p: any) => p.name)).toEqual(['projectId', 'month']);
    expect(Object.keys(doc.components.schemas.TimelinessAnswer.properties)).toEqual(
      expect.arrayContaining(['expected', 'settled', 'missing', 'zero', 'negative', 'durations']),
    );
    expect(Object.keys(doc.components.schemas.WarningsAnswer.properties)).toEqual(expect.arrayContaining(['rows', 'total', 'today']));
  });
});
