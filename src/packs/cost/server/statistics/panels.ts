// The warnings and settlement-timeliness panels of the cost dashboard (docs/business-rules.md#dashboards):
// what the database holds, read for the projects and data scopes the caller sees; the arithmetic is
// packs/cost/engine/statistics/panels.ts. Document types are found by role (warning.record, contract.expense,
// settlement.cost); a month's settlements count when approved or in approval, as the early warnings
// count them (docs/business-rules.md#dashboards).
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';
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
import type { StatisticsModels } from './models.ts';
import { amount, approvedLive, scoped } from './service.ts';

/** A month's settlements count when approved or in approval (as the early warnings count them). */
const COUNTED = ['approved', 'approving'];

/** The expense-contract fields the timeliness panel reads, beside those the statistics need. */
export const TIMELINESS_CONTRACT_FIELDS = [
  'name',
  'subcontractorId',
  'signDate',
  'startDate',
  'parentContractCode',
  'performanceStatus',
  'settlementStatus',
] as const;

/** Refuses to start when the warning type or the contract lacks a field the panels read. */
export function checkPanelModels(models: StatisticsModels, warnings: EntityModel) {
  const missing = (m: EntityModel, fields: readonly string[]) => fields.filter((f) => !m.fieldMap[f]);
  const w = missing(warnings, ['projectId', 'warnType', 'warnLevel', 'warnStatus', 'createTime']);
  if (w.length) throw new Error(`${warnings.key} plays the role "warning.record" but has no field ${w.join(', ')}`);
  for (const m of models.settlements) {
    if (!m.fieldMap.code) throw new Error(`${m.key} plays the role "settlement.cost" but has no field code`);
  }
  const c = missing(models.expenseContract, TIMELINESS_CONTRACT_FIELDS);
  if (c.length) throw new Error(`${models.expenseContract.key} plays the role "contract.expense" but has no field ${c.join(', ')}`);
}

const live = (m: EntityModel, a: string) => (m.softDelete ? [`${a}.is_deleted = 0`] : []);

export class Panels {
  constructor(
    private readonly ctx: StoreContext,
    private readonly models: StatisticsModels,
    private readonly warnings: EntityModel,
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
    const m = this.warnings;
    const [typeNames, levelNames] = await Promise.all([this.labels(actor, m.fieldMap.warnType), this.labels(actor, m.fieldMap.warnLevel)]);
    // levels in their dictionary order, most severe first when the dictionary lists them mildest first
    const levels = [...levelNames.keys()];
    if (levels[0] === 'info') levels.reverse();
    if (!projectIds.length) return warningSummary(projectId, [], today, levels, typeNames);
    const params = new Params();
    const where = [
      `w.tenant_id = ${params.add(actor.tenantId)}`,
      ...live(m, 'w'),
      `w.${fieldColumn(m, 'projectId')} = ANY(${params.add(projectIds)}::bigint[])`,
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
      .map((m, i) => {
        const instance =
          m.workflow?.instanceField && m.fieldMap[m.workflow.instanceField]
            ? `t.${fieldColumn(m, m.workflow.instanceField)}::text`
            : 'NULL::text';
        return `SELECT ${i} AS kind, t.id::text AS id, t.${fieldColumn(m, 'code')}::text AS code, t.${fieldColumn(m, 'expenditureContractCode')} AS contract, t.${fieldColumn(m, 'period')}::text AS period,
                     t.${fieldColumn(m, m.workflow!.statusField)} AS status, t.${fieldColumn(m, 'thisAmountInclTax')}::text AS amount, t.${fieldColumn(m, 'thisPayableAmount')}::text AS payable, ${instance} AS instance
                FROM ${q(m.table)} t WHERE t.tenant_id = ${params.add(actor.tenantId)}${live(m, 't')
                  .map((x) => ` AND ${x}`)
                  .join('')} AND t.${fieldColumn(m, 'projectId')} = ANY(${pids}::bigint[])
                 AND t.${fieldColumn(m, 'period')} <= ${monthParam}`;
      })
      .join(' UNION ALL ');
    const contractWhere = [
      ...approvedLive(c, 'c', actor.tenantId, params),
      `c.${fieldColumn(c, 'projectId')} = ANY(${pids}::bigint[])`,
      ...scoped(contractFilters, params, 'c'),
    ];
    const party = c.fieldMap.subcontractorId.ref && this.ctx.catalog.entities[c.fieldMap.subcontractorId.ref.entity];
    const partyName =
      party && party.fieldMap[c.fieldMap.subcontractorId.ref!.labelField ?? 'name']
        ? `(SELECT p.${fieldColumn(party, c.fieldMap.subcontractorId.ref!.labelField ?? 'name')} FROM ${q(party.table)} p WHERE p.id = c.${fieldColumn(c, 'subcontractorId')})`
        : 'NULL';
    const rows = await db.query<{
      contractId: string;
      code: string;
      name: string;
      projectId: string;
      type: string | null;
      party: string | null;
      signDate: string | null;
      startDate: string | null;
      performanceStatus: string | null;
      settlementStatus: string | null;
      parentContractCode: string | null;
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
       SELECT c.id::text AS "contractId", c.${fieldColumn(c, 'code')} AS code, c.${fieldColumn(c, 'name')} AS name, c.${fieldColumn(c, 'projectId')}::text AS "projectId",
              c.${fieldColumn(c, 'expenditureContractType')} AS type, ${partyName} AS party,
              c.${fieldColumn(c, 'signDate')}::text AS "signDate", c.${fieldColumn(c, 'startDate')}::text AS "startDate",
              c.${fieldColumn(c, 'performanceStatus')} AS "performanceStatus", c.${fieldColumn(c, 'settlementStatus')} AS "settlementStatus", c.${fieldColumn(c, 'parentContractCode')} AS "parentContractCode",
              last.period AS "lastSettled", s.kind, s.id, s.code AS "sCode", s.period, s.status, s.amount, s.payable, s.instance
         FROM ${q(c.table)} c LEFT JOIN last ON last.contract = c.${fieldColumn(c, 'code')}
              LEFT JOIN s ON s.contract = c.${fieldColumn(c, 'code')} AND s.period = ${monthParam}
        WHERE ${contractWhere.join(' AND ')}
        ORDER BY c.id`,
      params.values,
    );

    const typeNames = await this.labels(actor, c.fieldMap.expenditureContractType);
    const expected = new Map<string, ExpectedContract>();
    const flagged: FlaggedSettlement[] = [];
    const approvedInstances: { kind: number; instance: string }[] = [];
    for (const r of rows) {
      const thisMonth = r.period === month && r.status !== null && COUNTED.includes(r.status);
      if (thisMonth) {
        const kind = settlementKinds[r.kind!];
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
      const kind = this.models.settlements[f.kind];
      return i ? [{ entity: kind.key, entityName: kind.label[actor.lang], submitted: i.s, approved: i.e }] : [];
    });
  }
}
