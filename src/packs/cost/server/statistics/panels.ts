// The warnings and settlement-timeliness panels of the cost dashboard (docs/business-rules.md#dashboards):
// what the database holds, read for the projects and data scopes the caller sees; the arithmetic is
// packs/cost/engine/statistics/panels.ts. Document types are found by role (warning.record, contract.expense,
// settlement.cost); a month's settlements count when approved or in approval, as the early warnings
// count them (docs/business-rules.md#dashboards).
import { entityWithRole, fieldsWithRoles } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import {
  monthEnd,
  settlementTimeliness,
  shouldSettle,
  warningSummary,
  type ApprovalSpan,
  type ExpectedContract,
  type FlaggedSettlement,
  type TimelinessAnswer,
  type WarningCount,
  type WarningsAnswer,
} from '../../engine/statistics/panels.ts';
import { resolveLabels } from '../../../../server/db/labels.ts';
import { fieldColumn, Params, q } from '../../../../server/db/sql.ts';
import { tenantDb, type Actor, type DataFilter, type StoreContext } from '../../../../server/db/store.ts';
import { STATISTICS_ROLES, type StatisticsModels } from './models.ts';
import { amount, approvedLive, scoped } from './service.ts';

/** A month's settlements count when approved or in approval (as the early warnings count them). */
const COUNTED = ['approved', 'approving'];

/** The warning records' own fields the panel counts by: the pack's, written by the early warnings. */
const WARNING_FIELDS = ['warnType', 'warnLevel', 'warnStatus', 'createTime'] as const;

/** The warning records, with their project bound by role. */
export interface WarningRecords {
  model: EntityModel;
  projectRef: FieldModel;
}

/** Refuses to start when the warning type lacks its project or a field the panel counts by. */
export function warningRecords(catalog: EntityCatalog): WarningRecords {
  const role = STATISTICS_ROLES.warnings;
  const model = entityWithRole(catalog, role);
  const missing = WARNING_FIELDS.filter((f) => !model.fieldMap[f]);
  if (missing.length) throw new Error(`${model.key} plays the role "${role}" but has no field ${missing.join(', ')}`);
  const projectRef = fieldsWithRoles(catalog.entities, model, role, [STATISTICS_ROLES.projects])[STATISTICS_ROLES.projects];
  return { model, projectRef };
}

const live = (m: EntityModel, a: string) => (m.softDelete ? [`${a}.is_deleted = 0`] : []);

export class Panels {
  constructor(
    private readonly ctx: StoreContext,
    private readonly models: StatisticsModels,
    private readonly warnings: WarningRecords,
  ) {}

  private labels(actor: Actor, field: FieldModel | undefined): Promise<Map<string, string>> {
    if (!field) return Promise.resolve(new Map());
    return resolveLabels(this.ctx, actor, [field], [], actor.lang).then((m) => m.get(field) ?? new Map());
  }

  /** The warnings of the projects by type, level, status and day raised, within the caller's data scope on warnings. */
  async warningCounts(
    actor: Actor,
    filters: readonly DataFilter[],
    projectIds: string[],
    projectId: string | null,
    today: string,
  ): Promise<WarningsAnswer> {
    const { model: m, projectRef } = this.warnings;
    const [typeNames, levelNames] = await Promise.all([this.labels(actor, m.fieldMap.warnType), this.labels(actor, m.fieldMap.warnLevel)]);
    // levels in their dictionary order, most severe first when the dictionary lists them mildest first
    const levels = [...levelNames.keys()];
    if (levels[0] === 'info') levels.reverse();
    if (!projectIds.length) return warningSummary(projectId, [], today, levels, typeNames);
    const params = new Params();
    const where = [
      `w.tenant_id = ${params.add(actor.tenantId)}`,
      ...live(m, 'w'),
      `w.${q(projectRef.column)} = ANY(${params.add(projectIds)}::bigint[])`,
      ...scoped(filters, params, 'w'),
    ];
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ t: string; l: string; s: string; d: string; n: number }>(
      `SELECT w.${fieldColumn(m, 'warnType')} AS t, w.${fieldColumn(m, 'warnLevel')} AS l, w.${fieldColumn(m, 'warnStatus')} AS s, to_char(w.${fieldColumn(m, 'createTime')}, 'YYYY-MM-DD') AS d, count(*)::int AS n
         FROM ${q(m.table)} w WHERE ${where.join(' AND ')} GROUP BY 1, 2, 3, 4`,
      params.values,
    );
    const counts: WarningCount[] = rows.map((r) => ({
      warnType: r.t ?? '',
      warnLevel: r.l ?? '',
      warnStatus: r.s ?? '',
      createDate: r.d,
      count: Number(r.n),
    }));
    return warningSummary(projectId, counts, today, levels, typeNames);
  }

  /**
   * The month's timeliness over the approved, performing main contracts the caller sees
   * (docs/business-rules.md#dashboards: signed and on site by the month's end, not finally settled), their settlements of
   * the month, and the approval times of the month's approved settlements.
   */
  async timeliness(
    actor: Actor,
    contractFilters: readonly DataFilter[],
    projects: { id: string; name: string }[],
    projectId: string | null,
    month: string,
  ): Promise<TimelinessAnswer> {
    const settlementKinds = this.models.settlements;
    if (!projects.length || !settlementKinds.length) return settlementTimeliness(projectId, month, [], [], []);
    const c = this.models.expenseContract;
    const db = tenantDb(this.ctx, actor.tenantId);
    const ids = projects.map((p) => p.id);
    const projectNames = new Map(projects.map((p) => [p.id, p.name]));
    const end = monthEnd(month);

    // every settlement of the projects' contracts (live), with its kind, for the month and before it
    const params = new Params();
    const pids = params.add(ids);
    const monthParam = params.add(month);
    const settlements = settlementKinds
      .map((settlement, i) => {
        const { model: m, code, contractRef, projectRef, period } = settlement;
        const instance =
          m.workflow?.instanceField && m.fieldMap[m.workflow.instanceField]
            ? `t.${fieldColumn(m, m.workflow.instanceField)}::text`
            : 'NULL::text';
        return `SELECT ${i} AS kind, t.id::text AS id, t.${q(code.column)}::text AS code, t.${q(contractRef.column)} AS contract, t.${q(period.column)}::text AS period,
                     t.${fieldColumn(m, m.workflow!.statusField)} AS status, t.${q(settlement.amount.column)}::text AS amount, t.${q(settlement.payable.column)}::text AS payable, ${instance} AS instance
                FROM ${q(m.table)} t WHERE t.tenant_id = ${params.add(actor.tenantId)}${live(m, 't')
                  .map((x) => ` AND ${x}`)
                  .join('')} AND t.${q(projectRef.column)} = ANY(${pids}::bigint[])
                 AND t.${q(period.column)} <= ${monthParam}`;
      })
      .join(' UNION ALL ');
    const col = (f: FieldModel) => `c.${q(f.column)}`;
    const contractWhere = [
      ...approvedLive(c.model, 'c', actor.tenantId, params),
      `${col(c.projectRef)} = ANY(${pids}::bigint[])`,
      ...scoped(contractFilters, params, 'c'),
    ];
    const rows = await db.query<{
      contractId: string;
      code: string;
      name: string;
      projectId: string;
      type: string | null;
      party: string | null;
      signDate: string | null;
      startDate: string | null;
      performance: string | null;
      settlementState: string | null;
      parentContract: string | null;
      lastSettled: string | null;
      kind: number | null;
      id: string | null;
      sCode: string | null;
      period: string | null;
      status: string | null;
      amount: string | null;
      payable: string | null;
      instance: string | null;
    }>(
      // a contract's row with each of its settlements of the month, and its last approved period before
      // it summed in SQL (24 months of history would otherwise come back as 24 rows per contract)
      `WITH s AS (${settlements}),
            last AS (SELECT contract, max(period) AS period FROM s WHERE status = 'approved' AND period < ${monthParam} GROUP BY contract)
       SELECT c.id::text AS "contractId", ${col(c.code)} AS code, ${col(c.name)} AS name, ${col(c.projectRef)}::text AS "projectId",
              ${col(c.contractType)} AS type, ${this.counterpartyName()} AS party,
              ${col(c.signDate)}::text AS "signDate", ${col(c.startDate)}::text AS "startDate",
              ${col(c.performance)} AS performance, ${col(c.settlementState)} AS "settlementState", ${col(c.parentRef)} AS "parentContract",
              last.period AS "lastSettled", s.kind, s.id, s.code AS "sCode", s.period, s.status, s.amount, s.payable, s.instance
         FROM ${q(c.model.table)} c LEFT JOIN last ON last.contract = ${col(c.code)}
              LEFT JOIN s ON s.contract = ${col(c.code)} AND s.period = ${monthParam}
        WHERE ${contractWhere.join(' AND ')}
        ORDER BY c.id`,
      params.values,
    );

    const typeNames = await this.labels(actor, c.contractType);
    const expected = new Map<string, ExpectedContract>();
    const flagged: FlaggedSettlement[] = [];
    const approvedInstances: { kind: number; instance: string }[] = [];
    for (const r of rows) {
      const thisMonth = r.period === month && r.status !== null && COUNTED.includes(r.status);
      if (thisMonth) {
        const kind = settlementKinds[r.kind!].model;
        flagged.push({
          entity: kind.key,
          entityName: kind.label[actor.lang],
          id: r.id!,
          code: r.sCode ?? r.id!,
          expenditureContractCode: r.code,
          contractName: r.name,
          approvalStatus: r.status!,
          thisAmountInclTax: amount(r.amount),
          thisPayableAmount: r.payable === null ? null : amount(r.payable),
        });
        if (r.status === 'approved' && r.instance) approvedInstances.push({ kind: r.kind!, instance: r.instance });
      }
      if (!shouldSettle(r, end)) continue;
      let e = expected.get(r.contractId);
      if (!e) {
        expected.set(
          r.contractId,
          (e = {
            contractId: r.contractId,
            code: r.code,
            name: r.name,
            projectId: r.projectId,
            projectName: projectNames.get(r.projectId) ?? r.projectId,
            expenditureContractType: r.type ?? '',
            expenditureContractTypeName: typeNames.get(r.type ?? '') ?? r.type ?? '',
            subcontractorName: r.party ?? null,
            signDate: r.signDate,
            lastSettledPeriod: r.lastSettled,
            settled: false,
          }),
        );
      }
      if (thisMonth) e.settled = true;
    }
    const spans = await this.approvalSpans(actor, approvedInstances);
    return settlementTimeliness(projectId, month, [...expected.values()], flagged, spans);
  }

  /** The name of a contract's counterparty (alias c), by the label its reference shows; NULL without one. */
  private counterpartyName(): string {
    const { ref, column } = this.models.expenseContract.counterpartyRef;
    const party = ref && this.ctx.catalog.entities[ref.entity];
    const label = ref?.labelField && party?.fieldMap[ref.labelField];
    return label ? `(SELECT p.${q(label.column)} FROM ${q(party.table)} p WHERE p.id = c.${q(column)})` : 'NULL';
  }

  /** Submitted (the approved instance's start) and approved (its end) of the month's approved settlements. */
  private async approvalSpans(actor: Actor, found: { kind: number; instance: string }[]): Promise<ApprovalSpan[]> {
    const ids = found.map((f) => f.instance).filter((id) => /^[0-9]{1,18}$/.test(id));
    if (!ids.length) return [];
    const time = (column: string) => `to_char(${column}, 'YYYY-MM-DD HH24:MI:SS')`;
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ id: string; s: string; e: string }>(
      `SELECT id::text AS id, ${time('start_time')} AS s, ${time('end_time')} AS e FROM wf_instance WHERE tenant_id = $1 AND id = ANY($2::bigint[]) AND end_time IS NOT NULL`,
      [actor.tenantId, ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return found.flatMap((f) => {
      const i = byId.get(f.instance);
      const kind = this.models.settlements[f.kind].model;
      return i ? [{ entity: kind.key, entityName: kind.label[actor.lang], submitted: i.s, approved: i.e }] : [];
    });
  }
}
