// late_settlement (c), the periodic check (docs/rules.md#late_settlement): per tenant, the approved expense contracts
// still running, the months their activity documents (role settlement.activity: goods received,
// turnover materials moved, machines working, subcontractors examined) fall in, and the months their
// settlements cover; the engine says which months are late on the day (src/packs/cost/engine/warnings/late-settlement.ts).
// Each late (contract, month) gets one tip on the contract carrying the month (`period`), announced to
// the project's managers; the tip is closed by the system once a settlement of that month is approved
// or in approval. Runs at start and then on an interval; with several processes on one PostgreSQL
// database only the one holding an advisory lock runs it (the others skip that round).
import { entitiesWithRole, fieldsWithRoles, fieldWithRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, EntityModel, FieldModel, Label } from '../../../../engine/model/types.ts';
import { lateSettlements, lateSettlementWarning, monthsCovered, type ContractMonths } from '../../engine/warnings/late-settlement.ts';
import { nowText } from '../../../../server/clock.ts';
import type { Db, Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { tenantDb, type Actor, type StoreContext } from '../../../../server/db/store.ts';
import { COUNTERPARTY_ROLE, WARNING_ROLES, warningDocuments, warningFields } from './documents.ts';
import { COMMITTED } from './figures.ts';
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

/** The fields the check reads, by role (x-entity.fieldRoles), bound when the server starts. */
export interface LateSettlementDocuments {
  contract: {
    model: EntityModel;
    code: FieldModel;
    projectRef: FieldModel;
    counterpartyRef?: FieldModel;
    /** over when `completed` or `terminated` */
    performance?: FieldModel;
    /** over when `final` */
    settlementState?: FieldModel;
  };
  /** each document type of role settlement.activity: its contract and the month of its activity */
  activities: { model: EntityModel; contract: FieldModel; month: FieldModel }[];
  /** each monthly settlement: its contract, its period and the dates it covers */
  settlements: { model: EntityModel; contract: FieldModel; period?: FieldModel; start?: FieldModel; end?: FieldModel }[];
  tip: { model: EntityModel; period?: FieldModel };
}

/**
 * Binds the check's documents and fields by role. A schema set whose activity document has no
 * contract or month, or whose contract has no project, refuses to start naming the document and role.
 */
export function lateSettlementDocuments(catalog: EntityCatalog): LateSettlementDocuments {
  const { entities } = catalog;
  // the contract and the settlements as the warnings bind them (documents.ts)
  const bound = warningFields(catalog);
  const contract = bound.contract.model;
  const optional = (model: EntityModel, role: string) => fieldWithRole(entities, model, role);
  const activities = entitiesWithRole(catalog, ACTIVITY_ROLE).map((model) => {
    const month = optional(model, 'period') ?? optional(model, 'date');
    if (!month) throw new Error(`${model.key} plays "${ACTIVITY_ROLE}" but has no field playing "period" or "date" (x-entity.fieldRoles)`);
    return { model, contract: fieldsWithRoles(entities, model, ACTIVITY_ROLE, [WARNING_ROLES.contract])[WARNING_ROLES.contract], month };
  });
  const settlements = [...bound.settlements].map(([key, s]) => ({
    model: entities[key],
    contract: s.header[WARNING_ROLES.contract],
    period: s.header.period,
    start: s.periodStart,
    end: s.periodEnd,
  }));
  const tip = warningDocuments(catalog).tip;
  return {
    contract: {
      model: contract,
      code: bound.contract.code,
      projectRef: bound.contract.header[WARNING_ROLES.projectRecord],
      counterpartyRef: optional(contract, COUNTERPARTY_ROLE),
      performance: optional(contract, 'performance'),
      settlementState: optional(contract, 'settlementState'),
    },
    activities,
    settlements,
    // the tip's own fields are the pack's: written by the warnings (warnType, sourceId, period, …)
    tip: { model: tip, period: tip.fieldMap.period },
  };
}

/** A document's status is one of a list (documents without a workflow: all of them). */
function statusFilter(model: EntityModel, param: string): string {
  return model.workflow ? ` AND ${q(model.fieldMap[model.workflow.statusField].column)} = ANY(${param}::text[])` : '';
}

export class LateSettlementCheck {
  private readonly service: Warnings;
  private readonly documents: LateSettlementDocuments;
  private timer?: NodeJS.Timeout;
  private running?: Promise<LateRunReport>;

  constructor(private readonly ctx: StoreContext) {
    this.service = new Warnings(ctx);
    this.documents = lateSettlementDocuments(ctx.catalog);
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
    const { contract, activities, tip } = this.documents;
    if (!tip.period) return { raised: 0, closed: 0 };
    const db = tenantDb(this.ctx, tenantId);
    return db.transaction(async (tx) => {
      const contracts = await this.contracts(tx, tenantId);
      const byCode = new Map(contracts.map((c) => [c.code, c]));
      const active = new Map<string, Map<string, Set<string>>>();
      for (const activity of activities) {
        for (const r of await this.activity(tx, tenantId, activity)) {
          if (!byCode.has(r.code)) continue;
          const months = active.get(r.code) ?? new Map<string, Set<string>>();
          active.set(r.code, months);
          months.set(r.month, (months.get(r.month) ?? new Set()).add(activity.model.key));
        }
      }
      const settled = await this.settledMonths(tx, tenantId, [...active.keys()]);
      const input: ContractMonths[] = [...active].map(([code, months]) => ({
        contract: code,
        active: [...months.keys()],
        settled: [...(settled.get(code) ?? [])],
      }));
      const late = lateSettlements(input, today);

      const tips = await this.tips(tx, tenantId);
      const identity = (contractId: string, month: string) => `${contractId}|${month}`;
      const lateKeys = new Set(late.map((l) => identity(byCode.get(l.contract)!.id, l.month)));
      // open tips of months no longer late: closed by the system
      const toClose = tips.filter((t) => t.open && !lateKeys.has(identity(t.sourceId, t.period))).map((t) => t.id);
      // a month already has its tip while one is open or a person handled it; a tip the system closed
      // (its settlement came, then went) does not stop a new one
      const held = new Set(tips.filter((t) => t.open || t.handlerName !== '系统').map((t) => identity(t.sourceId, t.period)));
      const actor: Actor = { tenantId, userId: SYSTEM_USER, deptId: null, lang: 'zh' };
      await this.service.close(tx, actor, toClose, SETTLED);
      let raised = 0;
      const fresh = late.filter((l) => !held.has(identity(byCode.get(l.contract)!.id, l.month)));
      for (const code of [...new Set(fresh.map((l) => l.contract))]) {
        const { id, projectId, counterpartyId } = byCode.get(code)!;
        const warnings = fresh
          .filter((l) => l.contract === code)
          .map((l) => lateSettlementWarning(l, this.names(active.get(code)!.get(l.month)!)));
        const doc: Row = { id, [contract.code.name]: code };
        const links = { projectId, contractCode: code, counterpartyId: counterpartyId ?? undefined };
        await this.service.add(tx, actor, contract.model, doc, warnings, links);
        await this.service.notify(tx, actor, contract.model, doc, warnings, links);
        raised += warnings.length;
      }
      return { raised, closed: toClose.length };
    });
  }

  /** The tenant's approved expense contracts still running, with a project. */
  private contracts(tx: Queryable, tenantId: string) {
    const { model, code, projectRef, counterpartyRef, performance, settlementState } = this.documents.contract;
    const col = (f: FieldModel) => q(f.column);
    const params: unknown[] = [tenantId, FINISHED_PERFORMANCE, FINAL_SETTLEMENT];
    const running = performance ? ` AND coalesce(${col(performance)}, '') <> ALL($2::text[])` : ' AND $2::text[] IS NOT NULL';
    const unfinished = settlementState ? ` AND coalesce(${col(settlementState)}, '') <> $3::text` : ' AND $3::text IS NOT NULL';
    if (model.workflow) params.push(['approved']);
    return tx.query<{ id: string; code: string; projectId: string; counterpartyId: string | null }>(
      `SELECT id::text AS id, ${col(code)} AS code, ${col(projectRef)}::text AS "projectId", ${counterpartyRef ? `${col(counterpartyRef)}::text` : 'NULL'} AS "counterpartyId"
         FROM ${q(model.table)} WHERE tenant_id = $1 AND ${col(projectRef)} IS NOT NULL${running}${unfinished}${statusFilter(model, '$4')}${softDeleted(model)}`,
      params,
    );
  }

  /** (contract, month) of a document type's approved and approving documents. */
  private activity(
    tx: Queryable,
    tenantId: string,
    { model, contract: field, month: monthField }: LateSettlementDocuments['activities'][number],
  ) {
    const contract = q(field.column);
    const month = `substr(${q(monthField.column)}::text, 1, 7)`;
    return tx.query<{ code: string; month: string }>(
      `SELECT DISTINCT ${contract} AS code, ${month} AS month FROM ${q(model.table)}
        WHERE tenant_id = $1 AND ${contract} IS NOT NULL AND ${month} IS NOT NULL${statusFilter(model, '$2')}${softDeleted(model)}`,
      model.workflow ? [tenantId, COMMITTED] : [tenantId],
    );
  }

  /** The months the contracts' approved and approving settlements cover: their period and the months from start to end date. */
  private async settledMonths(tx: Queryable, tenantId: string, codes: string[]): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    if (!codes.length) return out;
    for (const { model, contract, period, start, end } of this.documents.settlements) {
      const text = (f?: FieldModel) => (f ? `${q(f.column)}::text` : 'NULL');
      const rows = await tx.query<{ code: string; period: string | null; start: string | null; end: string | null }>(
        `SELECT ${text(contract)} AS code, ${text(period)} AS period, ${text(start)} AS start, ${text(end)} AS "end"
           FROM ${q(model.table)} WHERE tenant_id = $1 AND ${q(contract.column)} = ANY($2::text[])${statusFilter(model, '$3')}${softDeleted(model)}`,
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
  private async tips(tx: Queryable, tenantId: string) {
    const tip = this.documents.tip.model;
    const contract = this.documents.contract.model;
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
  private names(keys: Set<string>): Label {
    const labels = this.documents.activities.filter((a) => keys.has(a.model.key)).map((a) => a.model.label);
    return { zh: labels.map((l) => l.zh).join('、'), en: labels.map((l) => l.en).join(', ') };
  }
}
