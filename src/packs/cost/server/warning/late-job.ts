// late_settlement (c), the periodic check (docs/rules.md#late_settlement): per tenant, the approved expense contracts
// still running, the months their activity documents (role settlement.activity: goods received,
// turnover materials moved, machines working, subcontractors examined) fall in, and the months their
// settlements cover; the engine says which months are late on the day (src/packs/cost/engine/warnings/late-settlement.ts).
// Each late (contract, month) gets one tip on the contract carrying the month (`period`), announced to
// the project's managers; the tip is closed by the system once a settlement of that month is approved
// or in approval. Runs at start and then on an interval; with several processes on one PostgreSQL
// database only the one holding an advisory lock runs it (the others skip that round).
import { entitiesWithRole, entityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityModel, Label } from '../../../../engine/model/types.ts';
import { isSettlement } from '../../engine/warnings/auxiliary.ts';
import { lateSettlements, lateSettlementWarning, monthsCovered, type ContractMonths } from '../../engine/warnings/late-settlement.ts';
import { nowText } from '../../../../server/clock.ts';
import type { Db, Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { tenantDb, type Actor, type StoreContext } from '../../../../server/db/store.ts';
import { COMMITTED, WARNING_ROLES } from './figures.ts';
import { Warnings } from './service.ts';

/** Documents whose activity in a month calls for that month's settlement of their contract. */
export const ACTIVITY_ROLE = 'settlement.activity';

/** The advisory lock of the check (two-int form: this, hashtext of the name). */
const LOCK_KEY = 7_420_019;
const LOCK_NAME = 'late-settlement';
const SYSTEM_USER = '0';
const SETTLED = '问题已消除:该月已有结算(已审批或审批中),或合同已不在履约中';
/** Contracts that are over: no interim settlement is expected of them any more. */
const FINISHED_PERFORMANCE = ['completed', 'terminated'];
const FINAL_SETTLEMENT = 'final';

export interface LateRunReport {
  /** false when another process held the lock and this round was skipped */
  ran: boolean;
  tenants: number;
  raised: number;
  closed: number;
}

const softDeleted = (model: EntityModel, alias = '') => (model.softDelete ? ` AND ${alias}is_deleted = 0` : '');

/** The month a document's activity falls in: its `period`, else its first date field. */
function monthColumn(model: EntityModel): string | undefined {
  if (model.fieldMap.period) return `substr(${q(model.fieldMap.period.column)}::text, 1, 7)`;
  const date = model.fields.find((f) => f.kind === 'date' && !f.system);
  return date ? `substr(${q(date.column)}::text, 1, 7)` : undefined;
}

function statusFilter(model: EntityModel, param: string): string {
  return model.workflow ? ` AND ${q(model.fieldMap[model.workflow.statusField].column)} = ANY(${param}::text[])` : '';
}

export class LateSettlementCheck {
  private readonly service: Warnings;
  private timer?: NodeJS.Timeout;
  private running?: Promise<LateRunReport>;

  constructor(private readonly ctx: StoreContext) {
    this.service = new Warnings(ctx);
  }

  private get main(): Db {
    return this.ctx.mainDb ?? this.ctx.db;
  }

  /** Runs now and then every `everyMs` (0: never); the timer does not keep the process alive. */
  start(everyMs: number) {
    if (everyMs <= 0 || this.timer) return;
    const round = () => {
      if (this.running !== undefined) return;
      this.running = this.run()
        .catch((err) => {
          console.error('late settlement check failed', err);
          return { ran: false, tenants: 0, raised: 0, closed: 0 };
        })
        .finally(() => {
          this.running = undefined;
        });
    };
    round();
    this.timer = setInterval(round, everyMs);
    this.timer.unref();
  }

  /** Stops the interval and waits for a round under way. */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * One round over every tenant, `today` ('YYYY-MM-DD') by default the day in the server's time zone.
   * On PostgreSQL a round runs only in the process holding the advisory lock; it holds it for the round.
   */
  async run(today = nowText(this.ctx.timeZone).slice(0, 10)): Promise<LateRunReport> {
    if (this.main.kind !== 'postgres') return this.allTenants(today);
    return this.main.transaction(async (tx) => {
      const [lock] = await tx.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS got', [LOCK_KEY, LOCK_NAME]);
      if (!lock?.got) return { ran: false, tenants: 0, raised: 0, closed: 0 };
      return this.allTenants(today);
    });
  }

  private async allTenants(today: string): Promise<LateRunReport> {
    const tenant = this.ctx.catalog.entities.tenant;
    const rows = await this.main.query<{ id: string }>(
      `SELECT DISTINCT tenant_id AS id FROM ${q(tenant.table)} WHERE is_deleted = 0 ORDER BY tenant_id`,
    );
    const report: LateRunReport = { ran: true, tenants: rows.length, raised: 0, closed: 0 };
    for (const { id } of rows) {
      try {
        const { raised, closed } = await this.tenant(id, today);
        report.raised += raised;
        report.closed += closed;
      } catch (err) {
        // one tenant's database being away (or moving) does not hold up the others
        console.error(`late settlement check of tenant ${id} failed`, err);
      }
    }
    return report;
  }

  /** One tenant's round: raises the late months without a tip, closes the tips of months no longer late. */
  async tenant(tenantId: string, today: string): Promise<{ raised: number; closed: number }> {
    const catalog = this.ctx.catalog;
    const activities = entitiesWithRole(catalog, ACTIVITY_ROLE).filter((m) => m.fieldMap.expenditureContractCode && monthColumn(m));
    const contractModel = entityWithRole(catalog, WARNING_ROLES.contract);
    const tip = entityWithRole(catalog, WARNING_ROLES.tip);
    if (!tip.fieldMap.period) return { raised: 0, closed: 0 };
    const db = tenantDb(this.ctx, tenantId);
    return db.transaction(async (tx) => {
      const contracts = await this.contracts(tx, tenantId, contractModel);
      const byCode = new Map(contracts.map((c) => [String(c.code), c]));
      const active = new Map<string, Map<string, Set<string>>>();
      for (const model of activities) {
        for (const r of await this.activity(tx, tenantId, model)) {
          if (!byCode.has(r.code)) continue;
          const months = active.get(r.code) ?? new Map<string, Set<string>>();
          active.set(r.code, months);
          months.set(r.month, (months.get(r.month) ?? new Set()).add(model.key));
        }
      }
      const settled = await this.settledMonths(tx, tenantId, [...active.keys()]);
      const input: ContractMonths[] = [...active].map(([code, months]) => ({
        contract: code,
        active: [...months.keys()],
        settled: [...(settled.get(code) ?? [])],
      }));
      const late = lateSettlements(input, today);

      const tips = await this.tips(tx, tenantId, tip, contractModel);
      const identity = (contractId: string, month: string) => `${contractId}|${month}`;
      const lateKeys = new Set(late.map((l) => identity(String(byCode.get(l.contract)!.id), l.month)));
      // open tips of months no longer late: closed by the system
      const toClose = tips.filter((t) => t.open && !lateKeys.has(identity(t.sourceId, t.period))).map((t) => t.id);
      // a month already has its tip while one is open or a person handled it; a tip the system closed
      // (its settlement came, then went) does not stop a new one
      const held = new Set(tips.filter((t) => t.open || t.handlerName !== '系统').map((t) => identity(t.sourceId, t.period)));
      const actor: Actor = { tenantId, userId: SYSTEM_USER, deptId: null, lang: 'zh' };
      await this.service.close(tx, actor, toClose, SETTLED);
      let raised = 0;
      const fresh = late.filter((l) => !held.has(identity(String(byCode.get(l.contract)!.id), l.month)));
      for (const code of [...new Set(fresh.map((l) => l.contract))]) {
        const contract = byCode.get(code)!;
        const warnings = fresh
          .filter((l) => l.contract === code)
          .map((l) => lateSettlementWarning(l, this.names(activities, active.get(code)!.get(l.month)!)));
        const doc: Row = {
          id: contract.id,
          projectId: contract.projectId,
          [contractModel.code?.field ?? 'code']: code,
          expenditureContractCode: code,
          subcontractorId: contract.subcontractorId,
        };
        await this.service.add(tx, actor, contractModel, doc, warnings);
        await this.service.notify(tx, actor, contractModel, doc, warnings);
        raised += warnings.length;
      }
      return { raised, closed: toClose.length };
    });
  }

  /** The tenant's approved expense contracts still running, with a project. */
  private contracts(tx: Queryable, tenantId: string, model: EntityModel): Promise<Row[]> {
    const col = (f: string) => q(model.fieldMap[f].column);
    const code = col(model.code?.field ?? 'code');
    const params: unknown[] = [tenantId, FINISHED_PERFORMANCE, FINAL_SETTLEMENT];
    const running = model.fieldMap.performanceStatus
      ? ` AND coalesce(${col('performanceStatus')}, '') <> ALL($2::text[])`
      : ' AND $2::text[] IS NOT NULL';
    const unfinished = model.fieldMap.settlementStatus
      ? ` AND coalesce(${col('settlementStatus')}, '') <> $3::text`
      : ' AND $3::text IS NOT NULL';
    if (model.workflow) params.push(['approved']);
    return tx.query(
      `SELECT id::text AS id, ${code} AS code, ${col('projectId')}::text AS "projectId", ${model.fieldMap.subcontractorId ? `${col('subcontractorId')}::text` : 'NULL'} AS "subcontractorId"
         FROM ${q(model.table)} WHERE tenant_id = $1 AND ${col('projectId')} IS NOT NULL${running}${unfinished}${statusFilter(model, '$4')}${softDeleted(model)}`,
      params,
    );
  }

  /** (contract, month) of a document type's approved and approving documents. */
  private activity(tx: Queryable, tenantId: string, model: EntityModel): Promise<{ code: string; month: string }[]> {
    const contract = q(model.fieldMap.expenditureContractCode.column);
    const month = monthColumn(model)!;
    return tx.query(
      `SELECT DISTINCT ${contract} AS code, ${month} AS month FROM ${q(model.table)}
        WHERE tenant_id = $1 AND ${contract} IS NOT NULL AND ${month} IS NOT NULL${statusFilter(model, '$2')}${softDeleted(model)}`,
      model.workflow ? [tenantId, COMMITTED] : [tenantId],
    );
  }

  /** The months the contracts' approved and approving settlements cover: their period and the months from start to end date. */
  private async settledMonths(tx: Queryable, tenantId: string, codes: string[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    if (!codes.length) return out;
    for (const model of Object.values(this.ctx.catalog.entities).filter(isSettlement)) {
      const col = (f: string) => (model.fieldMap[f] ? `${q(model.fieldMap[f].column)}::text` : 'NULL');
      const rows = await tx.query<{ code: string; period: string | null; start: string | null; end: string | null }>(
        `SELECT ${col('expenditureContractCode')} AS code, ${col('period')} AS period, ${col('startDate')} AS start, ${col('endDate')} AS "end"
           FROM ${q(model.table)} WHERE tenant_id = $1 AND ${q(model.fieldMap.expenditureContractCode.column)} = ANY($2::text[])${statusFilter(model, '$3')}${softDeleted(model)}`,
        [tenantId, codes, COMMITTED],
      );
      for (const r of rows) {
        const months = out.get(r.code) ?? new Set<string>();
        out.set(r.code, months);
        if (r.period) months.add(r.period.slice(0, 7));
        if (r.start && r.end) for (const m of monthsCovered(r.start.slice(0, 10), r.end.slice(0, 10))) months.add(m);
      }
    }
    return out;
  }

  /** The late-settlement tips of the periodic check on contracts, open or not. */
  private async tips(tx: Queryable, tenantId: string, tip: EntityModel, contract: EntityModel) {
    const col = (f: string) => q(tip.fieldMap[f].column);
    const rows = await tx.query<Row>(
      `SELECT id::text AS id, ${col('sourceId')}::text AS "sourceId", ${col('period')} AS period, ${col('warnStatus')} AS status, ${col('handlerName')} AS "handlerName"
         FROM ${q(tip.table)} WHERE tenant_id = $1 AND ${col('warnType')} = 'late_settlement' AND ${col('sourceEntity')} = $2 AND ${col('period')} IS NOT NULL${softDeleted(tip)}`,
      [tenantId, contract.key],
    );
    return rows.map((r) => ({
      id: String(r.id),
      sourceId: String(r.sourceId),
      period: String(r.period),
      open: r.status === 'unread' || r.status === 'read',
      handlerName: r.handlerName as string | null,
    }));
  }

  /** What happened in the month, named by document type in both languages. */
  private names(models: EntityModel[], keys: Set<string>): Label {
    const labels = models.filter((m) => keys.has(m.key)).map((m) => m.label);
    return { zh: labels.map((l) => l.zh).join('、'), en: labels.map((l) => l.en).join(', ') };
  }
}
