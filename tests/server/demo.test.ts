// The demo company a new installation starts with (ZS_DEMO): two projects whose documents went
// through their approvals as the seeded users — what a new user sees in every list and work list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { DemoLevel } from '../../src/server/config.ts';
import type { Db } from '../../src/server/db/db.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { q } from '../../src/server/db/sql.ts';
import type { EntityModel } from '../../src/engine/model/types.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, startServer, type DbKind, type TestServer } from './harness.ts';

const FLOW = '/api/blade-flow';
/** Seeding the full demo takes seconds on a quiet machine, much longer on a busy one. */
const SEEDING = 600_000;

/** An empty database of `kind` (not the seeded template). */
async function emptyDb(kind: DbKind): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'postgres') return openTestDb('postgres', {}, { empty: true });
  const db = await openPglite();
  return { db, drop: () => db.close() };
}

async function start(db: Db, demo: DemoLevel): Promise<App> {
  return createApp(testConfig({ demo }), { db, logger: false });
}

/** A seeded user's API client, with a token as login would issue it. */
async function as(app: App, account: string) {
  const [u] = await app.db.query<{ id: string; deptId: string; roleId: string; aliases: string }>(
    `SELECT u.id::text AS id, u.dept_id AS "deptId", u.role_id AS "roleId",
       (SELECT string_agg(r.role_alias, ',') FROM blade_role r WHERE r.id::text = ANY(string_to_array(u.role_id, ','))) AS aliases
       FROM blade_user u WHERE u.account = $1 AND u.tenant_id = '000000'`,
    [account],
  );
  const token = await app.tokens.sign({ tenant_id: '000000', user_id: u.id, dept_id: u.deptId, role_id: u.roleId, role_name: u.aliases });
  return { id: u.id, api: client(app as TestServer, token) };
}

/** The construction document types of the manifest (their API lives under /api/construct). */
const constructModels = (app: App) => Object.values(app.catalog.entities).filter((m) => m.api.startsWith('/api/construct/'));

/** Rows in every table the seed writes to, so that two starts can be compared (not the logs: requests write those). */
async function tableCounts(app: App): Promise<Record<string, number>> {
  const seeded = Object.values(app.catalog.entities)
    .map((m) => m.table)
    .filter((t) => !t.startsWith('blade_log_'));
  const tables = [...new Set(seeded), 'wf_instance', 'wf_task', 'wf_history'];
  const counts: Record<string, number> = {};
  for (const table of tables) [{ n: counts[table] }] = await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return counts;
}

describe.each(databaseKinds())('the demo company on %s', (kind) => {
  let app: App;
  let db: Db;
  let drop: () => Promise<void>;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    ({ db, drop } = await emptyDb(kind));
    app = await start(db, 'full');
    admin = (await as(app, 'admin')).api;
  }, SEEDING);
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  const list = async (api: ReturnType<typeof client>, url: string, query: Record<string, string> = {}) => {
    const res = await api.get(url, { size: '200', ...query });
    expect(res.body, JSON.stringify(res.body).slice(0, 300)).toMatchObject({ code: 200 });
    return res.body.data as { records: any[]; total: number };
  };

  it('has two projects and records of every construction document type', async () => {
    const projects = await list(admin, '/api/construct/project/list');
    expect(projects.records.map((p) => p.name).sort()).toEqual(['园区星湖街综合管廊工程', '江北新区人才公寓二期EPC项目']);
    const empty: string[] = [];
    for (const model of constructModels(app)) {
      if ((await list(admin, `${model.api}/list`)).total === 0) empty.push(model.key);
    }
    expect(empty).toEqual([]);
  });

  it('has approved, approving, rejected and draft documents, each with the workflow state it implies', async () => {
    const byStatus: Record<string, number> = {};
    for (const model of constructModels(app).filter((m) => m.workflow)) {
      const status = model.fieldMap[model.workflow!.statusField].column;
      const rows = await db.query<{ id: string; status: string; instances: string | null; tasks: number }>(
        `SELECT d.id::text AS id, d.${status} AS status,
           (SELECT string_agg(i.status, ',' ORDER BY i.start_time) FROM wf_instance i WHERE i.business_key = $1 AND i.business_id = d.id) AS instances,
           (SELECT count(*)::int FROM wf_task t JOIN wf_instance i ON i.id = t.instance_id WHERE i.business_key = $1 AND i.business_id = d.id AND t.status = 'active') AS tasks
           FROM ${model.table} d WHERE d.is_deleted = 0`,
        [model.key],
      );
      for (const r of rows) {
        byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
        const expected = { draft: [null, 0], approved: ['completed', 0], approving: ['running', 1], rejected: ['rejected', 0] }[r.status];
        expect(expected, `${model.key} ${r.id} has status ${r.status}`).toBeDefined();
        expect([r.instances, r.tasks], `${model.key} ${r.id} (${r.status})`).toEqual(expected);
      }
    }
    expect(byStatus.approved).toBeGreaterThan(80);
    expect(byStatus.approving).toBeGreaterThanOrEqual(5);
    expect(byStatus.rejected).toBe(1);
    expect(byStatus.draft).toBeGreaterThanOrEqual(5);
  });

  it("puts documents in approval in the right people's work lists", async () => {
    const manager = await as(app, 'manager');
    const costmgr = await as(app, 'costmgr');
    const center = await as(app, 'center');
    const titles = async (who: typeof manager, list: string) => (await list_(who, list)).map((r: any) => r.processDefinitionName as string);
    const list_ = async (who: typeof manager, name: string) => (await list(who.api, `${FLOW}/work/${name}`)).records;
    // the labour settlement of October was claimed by the project manager; the MEP one by the cost manager
    expect(await titles(manager, 'todo-list')).toContain('劳务月度结算审批');
    expect(await titles(costmgr, 'todo-list')).toContain('分包月度结算审批');
    // October's steel settlement passed the project manager and waits for a cost manager to claim it
    expect(await titles(costmgr, 'claim-list')).toContain('材料月度结算审批');
    expect((await list_(manager, 'claim-list')).length).toBeGreaterThan(0);
    expect(await list_(center, 'todo-list')).toEqual([]);
  });

  it('sends the rejected settlement back to its submitter, who can submit it again', async () => {
    const clerk = await as(app, 'clerk');
    const [rejected] = (await list(admin, '/api/construct/materialConcreteMonthlySettlement/list', { approvalStatus: 'rejected' })).records;
    expect(rejected).toMatchObject({ period: '2026-10' });
    const [instance] = await db.query<{ initiator: string }>(
      `SELECT initiator_id::text AS initiator FROM wf_instance WHERE business_id = $1`,
      [rejected.id],
    );
    expect(instance.initiator).toBe(clerk.id);
    const done = await list(clerk.api, `${FLOW}/work/send-list`);
    expect(done.records.some((r: any) => r.businessId === rejected.id || r.processInstanceId === rejected.processInstanceId)).toBe(true);
    const again = await clerk.api.post('/api/construct/materialConcreteMonthlySettlement/submit', { id: rejected.id });
    expect(again.body, JSON.stringify(again.body).slice(0, 300)).toMatchObject({ code: 200, data: { approvalStatus: 'approving' } });
  });

  it("chains monthly settlements: each month's previous cumulative is the month before's cumulative", async () => {
    const steel = (
      await list(admin, '/api/construct/materialMonthlySettlement/list', { expenditureContractCode: 'ZCHT-NJ-2026-001', ascs: 'period' })
    ).records;
    expect(steel.map((s) => s.period)).toEqual(['2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10']);
    expect(steel.map((s) => s.approvalStatus)).toEqual(['approved', 'approved', 'approved', 'approved', 'approved', 'approving']);
    for (let i = 1; i < steel.length; i++) {
      expect(steel[i].previousCumulativeAmount).toBe(steel[i - 1].cumulativeAmount);
      expect(steel[i].previousCumulativePayable).toBe(steel[i - 1].cumulativePayable);
    }
    const october = (await admin.get('/api/construct/materialMonthlySettlement/detail', { id: steel[5].id })).body.data;
    const september = (await admin.get('/api/construct/materialMonthlySettlement/detail', { id: steel[4].id })).body.data;
    // 220 t × 3830 + 160 t × 3950, plus freight
    expect(october.lineAmountInclTax).toBe(1_474_600);
    expect(october.details[0]).toMatchObject({
      thisQty: 220,
      previousCumulativeQty: september.details[0].cumulativeQty,
      cumulativeQty: september.details[0].cumulativeQty + 220,
    });
  });

  it("keeps the Nanjing yard's stock reports on the ledger: each month opens with the month before's closing", async () => {
    const reports = (await list(admin, '/api/construct/materialSituation/list', { period_ge: '2026-07', ascs: 'period' })).records;
    expect(reports.map((r) => [r.period, r.approvalStatus])).toEqual([
      ['2026-07', 'approved'],
      ['2026-08', 'approved'],
      ['2026-09', 'approved'],
      ['2026-10', 'approved'],
    ]);
    const lines = [];
    for (const r of reports) lines.push((await admin.get('/api/construct/materialSituation/detail', { id: r.id })).body.data.details[0]);
    // Φ25: received 210 + 360 + 330.46 t by July, 24 t counted at the end of July; then 300 − 318, 260 − 252,
    // and October 220 − 230 after the 0.64 t loss counted on 1 October
    expect(lines.map((l) => [l.openingQty, l.receivedQty, l.consumedQty, l.gainLossQty, l.closingQty])).toEqual([
      [570, 330.46, 876.46, 0, 24],
      [24, 300, 318, 0, 6],
      [6, 260, 252, 0, 14],
      [14, 220, 230, -0.64, 3.36],
    ]);
    // one price all along (3,830 per t), so every amount is quantity × 3,830
    expect(lines.map((l) => l.closingAmount)).toEqual([91920, 22980, 53620, 12868.8]);
  });

  it('closes its two final settlements on approved interim settlements, and keeps one tip per warning', async () => {
    // the foundation-pit filing: March 2,000 m³ × 1,150 + 30 × 2,600 = 2,378,000; April 2,400 × 1,150 + 40 × 2,600 = 2,864,000;
    // May 1,400 × 1,150 + 49 × 2,600 = 1,737,400 → 6,979,400
    const [filing] = (await list(admin, '/api/construct/subcontractSettlementFiling/list')).records;
    expect(filing).toMatchObject({
      expenditureContractCode: 'ZCHT-NJ-2026-006',
      approvalStatus: 'approved',
      interimCumulativeAmount: 6979400,
    });
    // the site-works labour: 2,000 ㎡ × 95; 800 × 95 + 600 m × 210; 620 × 210 → 190,000 + 202,000 + 130,200 = 522,200
    const [final] = (await list(admin, '/api/construct/laborSettlementFinalization/list')).records;
    expect(final).toMatchObject({
      expenditureContractCode: 'ZCHT-NJ-2026-011',
      approvalStatus: 'approved',
      interimCumulativeAmount: 522200,
    });
    // no warning twice: the seed writes only what the rules do not raise
    const tips = (await list(admin, '/api/construct/warnTip/list', { size: '1000' })).records.filter((t) => t.warnStatus !== 'handled');
    const keys = tips.map((t) => [t.sourceEntity, t.sourceId, t.sourceDetailId ?? '', t.goodsId ?? '', t.warnType].join('|'));
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it("keeps each contract's ledger figures (合同台账) equal to what its approved settlements add up to", async () => {
    // independent of the write-back: straight sums over the settlement tables, found by role
    const models = Object.values(app.catalog.entities);
    const contract = models.find((m) => m.roles.includes('contract.expense'))!;
    const col = (m: EntityModel, f: string) => q(m.fieldMap[f].column);
    const approved = (m: EntityModel, a = 't') =>
      `${a}.tenant_id = '000000' AND ${a}.${col(m, 'approvalStatus')} = 'approved'${m.softDelete ? ` AND ${a}.is_deleted = 0` : ''}`;
    const interim = models
      .filter((m) => m.roles.includes('settlement.cost'))
      .map(
        (m) => `SELECT ${col(m, 'expenditureContractCode')} AS code, ${col(m, 'thisAmountInclTax')} AS incl,
      ${col(m, 'thisPayableAmount')} AS payable, ${col(m, 'retentionAmount')} AS retention, ${col(m, 'period')} AS period, ${col(m, 'cumulativePaidAmount')} AS paid FROM ${q(m.table)} t WHERE ${approved(m)}`,
      );
    const finals = models
      .filter((m) => m.roles.includes('settlement.final'))
      .map(
        (m) => `SELECT ${col(m, 'expenditureContractCode')} AS code, ${col(m, 'finalAmount')} AS final,
      ${col(m, 'cumulativePaidAmount')} AS paid FROM ${q(m.table)} t WHERE ${approved(m)}`,
      );
    expect(interim.length).toBe(8);
    const rows = await app.db.query(
      `WITH s AS (SELECT code, count(*)::int AS n, sum(incl)::text AS incl, sum(payable)::text AS payable, sum(retention)::text AS retention, max(period) AS period, max(paid)::text AS paid
                    FROM (${interim.join(' UNION ALL ')}) u GROUP BY code),
            f AS (SELECT code, max(final)::text AS final, max(paid)::text AS paid FROM (${finals.join(' UNION ALL ')}) u GROUP BY code)
       SELECT c.${col(contract, 'code')} AS code, s.n, s.incl, s.payable, s.retention, s.period, s.paid, f.final, f.paid AS "finalPaid",
              c.${col(contract, 'cumulativeSettledAmount')}::text AS settled, c.${col(contract, 'cumulativePayableAmount')}::text AS "cPayable",
              c.${col(contract, 'retentionHeldAmount')}::text AS "cRetention", c.${col(contract, 'lastSettledPeriod')} AS "cPeriod",
              c.${col(contract, 'cumulativePaidAmount')}::text AS "cPaid", c.${col(contract, 'settlementStatus')} AS status
         FROM ${q(contract.table)} c LEFT JOIN s ON s.code = c.${col(contract, 'code')} LEFT JOIN f ON f.code = c.${col(contract, 'code')}
        WHERE ${approved(contract, 'c')} ORDER BY 1`,
    );
    const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
    const settledOnes = rows.filter((r) => r.n);
    // the demo settles contracts of every kind: steel, concrete, labour, subcontract, leases …
    expect(settledOnes.length).toBeGreaterThanOrEqual(8);
    for (const r of rows) {
      const at = String(r.code);
      expect(num(r.settled), at).toBe(num(r.final ?? r.incl));
      expect(num(r.cPayable), at).toBe(num(r.payable));
      expect(num(r.cRetention), at).toBe(num(r.retention));
      expect(r.cPeriod ?? null, at).toBe(r.period ?? null);
      expect(r.cPaid === null ? null : num(r.cPaid), at).toBe(
        r.finalPaid !== null && r.finalPaid !== undefined ? num(r.finalPaid) : r.paid === null || r.paid === undefined ? null : num(r.paid),
      );
      expect(r.status, at).toBe(r.final !== null && r.final !== undefined ? 'final' : r.n ? 'partial' : 'none');
    }
  });

  it("answers each project's statistics by contract type as its approved documents add up, summed here from the raw rows", async () => {
    const models = Object.values(app.catalog.entities);
    const col = (m: EntityModel, f: string) => q(m.fieldMap[f].column);
    const live = (m: EntityModel, a: string) => `${a}.tenant_id = '000000'${m.softDelete ? ` AND ${a}.is_deleted = 0` : ''}`;
    const contract = models.find((m) => m.roles.includes('contract.expense'))!;
    const project = models.find((m) => m.roles.includes('master.project'))!;
    const budgets = project.details.find((d) => d.fieldMap.budgetAmount)!;
    const settlements = models
      .filter((m) => m.roles.includes('settlement.cost'))
      .map(
        (m) => `SELECT ${col(m, 'expenditureContractCode')} AS code,
      ${col(m, 'thisAmountInclTax')} AS incl, ${col(m, 'thisAmountExclTax')} AS excl, ${col(m, 'thisPayableAmount')} AS payable, ${col(m, 'retentionAmount')} AS retention
      FROM ${q(m.table)} t WHERE ${live(m, 't')} AND t.${col(m, 'approvalStatus')} = 'approved'`,
      );
    const projects = await app.db.query<{ id: string }>(
      `SELECT id::text AS id FROM ${q(project.table)} p WHERE ${live(project, 'p')} ORDER BY id`,
    );
    expect(projects.length).toBe(2);
    const n = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
    for (const { id } of projects) {
      const byContracts = await app.db.query<Record<string, string>>(
        `WITH s AS (SELECT code, sum(incl) AS incl, sum(excl) AS excl, sum(payable) AS payable, sum(retention) AS retention FROM (${settlements.join(' UNION ALL ')}) u GROUP BY code)
         SELECT c.${col(contract, 'expenditureContractType')} AS type, count(*)::text AS count, sum(c.${col(contract, 'contractAmount')})::text AS "contractAmount",
                sum(coalesce(c.${col(contract, 'changeAmount')}, 0))::text AS "changeAmount", sum(c.${col(contract, 'currentAmount')})::text AS "currentAmount",
                sum(coalesce(s.incl, 0))::text AS incl, sum(coalesce(s.excl, 0))::text AS excl, sum(coalesce(s.payable, 0))::text AS payable, sum(coalesce(s.retention, 0))::text AS retention
           FROM ${q(contract.table)} c LEFT JOIN s ON s.code = c.${col(contract, 'code')}
          WHERE ${live(contract, 'c')} AND c.${col(contract, 'approvalStatus')} = 'approved' AND c.${col(contract, 'projectId')}::text = $1
          GROUP BY 1 ORDER BY 1`,
        [id],
      );
      const budgetLines = await app.db.query<{ type: string; budget: string }>(
        `SELECT l.${q(budgets.fieldMap.expenditureContractType.column)} AS type, sum(l.${q(budgets.fieldMap.budgetAmount.column)})::text AS budget
           FROM ${q(budgets.table)} l WHERE l.${q(budgets.foreignKeyColumn)}::text = $1 GROUP BY 1`,
        [id],
      );
      const budgetOf = new Map(budgetLines.map((b) => [b.type, n(b.budget)]));
      const answer = (await admin.get('/api/construct/project/statisticsData', { projectId: id })).body.data;
      const rows = new Map<string, any>(answer.rows.map((r: any) => [r.expenditureContractType, r]));
      // every type with a contract or a budget, nothing else
      expect([...rows.keys()].sort()).toEqual([...new Set([...byContracts.map((c) => c.type), ...budgetOf.keys()])].sort());
      for (const c of byContracts) {
        const row = rows.get(c.type);
        expect(
          [
            row.contractCount,
            row.contractAmount,
            row.changeAmount,
            row.currentAmount,
            row.settledAmountInclTax,
            row.settledAmountExclTax,
            row.payableAmount,
            row.retentionHeld,
            row.budgetAmount,
          ],
          `${id} ${c.type}`,
        ).toEqual([
          n(c.count),
          n(c.contractAmount),
          n(c.changeAmount),
          n(c.currentAmount),
          n(c.incl),
          n(c.excl),
          n(c.payable),
          n(c.retention),
          budgetOf.get(c.type) ?? null,
        ]);
      }
      const sum = (f: string) => byContracts.reduce((acc, c) => acc + Math.round(n(c[f]) * 100), 0) / 100;
      expect(
        [
          answer.total.contractCount,
          answer.total.currentAmount,
          answer.total.settledAmountInclTax,
          answer.total.settledAmountExclTax,
          answer.total.payableAmount,
        ],
        id,
      ).toEqual([sum('count'), sum('currentAmount'), sum('incl'), sum('excl'), sum('payable')]);
    }
  });

  it(
    'adds nothing on a second start',
    async () => {
      const before = await tableCounts(app);
      await app.close();
      app = await start(db, 'full');
      expect(await tableCounts(app)).toEqual(before);
      admin = (await as(app, 'admin')).api;
    },
    SEEDING,
  );
});

describe.each(databaseKinds())('ZS_DEMO on %s', (kind) => {
  const counts = async (app: App) => {
    const admin = (await as(app, 'admin')).api;
    return {
      projects: (await admin.get('/api/construct/project/list')).body.data.total,
      instances: (await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM wf_instance'))[0].n,
      // the accounts are there either way
      clerks: (await admin.get('/api/blade-system/user/list', { account: 'clerk' })).body.data.total,
    };
  };

  it(
    'off seeds the accounts and platform data, no demo company',
    async () => {
      const { db, drop } = await emptyDb(kind);
      const app = await start(db, 'off');
      try {
        expect(await counts(app)).toEqual({ projects: 0, instances: 0, clerks: 1 });
      } finally {
        await app.close();
        await drop();
      }
    },
    SEEDING,
  );

  it(
    "basic (the tests' setting) seeds the demo company's projects and drafts, no approvals",
    async () => {
      const server = await startServer(kind);
      try {
        expect(await counts(server)).toEqual({ projects: 2, instances: 0, clerks: 1 });
      } finally {
        await server.dispose();
      }
    },
    SEEDING,
  );
});
