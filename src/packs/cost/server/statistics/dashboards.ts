// The dashboards beside statisticsData (docs/business-rules.md#dashboards): the monthly cost trend by expense-contract
// type and the material funnel (planned → monthly demand → procured → supplied → received →
// consumed) per goods. Approved documents only, of the projects the caller sees; the caller's grants
// and data scopes decide what is summed, as for statisticsData. Documents are found by role.
import { Dec, decimalToJson } from '../../../../engine/compute/decimal.ts';
import {
  costTrend,
  type CostTrendAnswer,
  type FunnelRow,
  type FunnelStage,
  type MaterialFunnelAnswer,
} from '../../engine/statistics/dashboards.ts';
import type { Amount } from '../../engine/statistics/statistics.ts';
import type { FieldModel } from '../../../../engine/model/types.ts';
import { Params, q } from '../../../../server/db/sql.ts';
import { tenantDb, type Actor, type DataFilter, type StoreContext } from '../../../../server/db/store.ts';
import type { FunnelSource, StatisticsModels } from './models.ts';
import { amount, approvedLive, scoped, type StatisticsScope } from './service.ts';

/** A funnel source with the caller's data scope on it; null filters: the caller may not read it. */
export interface ScopedSource extends FunnelSource {
  filters: readonly DataFilter[] | null;
}

export interface FunnelScope {
  planned: ScopedSource[];
  monthlyDemand: ScopedSource[];
  procured: ScopedSource[];
  supplied: ScopedSource[];
  /** Whether the caller may read the ledger's receipts and its consumption (the monthly reports). */
  received: boolean;
  consumed: boolean;
}

type StageSums = Map<string, Amount>;

export class Dashboards {
  constructor(
    private readonly ctx: StoreContext,
    private readonly models: StatisticsModels,
  ) {}

  /** Σ settled excl. tax by settlement period and contract type, over the approved contracts the caller sees. */
  async costTrend(
    actor: Actor,
    scope: StatisticsScope,
    projectIds: string[],
    projectId: string | null,
    typeNames: ReadonlyMap<string, string>,
  ): Promise<CostTrendAnswer> {
    if (!projectIds.length || !this.models.settlements.length) return costTrend(projectId, [], typeNames);
    const c = this.models.expenseContract;
    const col = (alias: string, f: FieldModel) => `${alias}.${q(f.column)}`;
    const params = new Params();
    const ids = params.add(projectIds);
    const settlements = this.models.settlements
      .map(({ model: m, projectRef, contractRef, period, amountExclTax }) => {
        const where = [...approvedLive(m, 't', actor.tenantId, params), `${col('t', projectRef)} = ANY(${ids}::bigint[])`];
        return `SELECT ${col('t', contractRef)} AS code, ${col('t', period)}::text AS month, ${col('t', amountExclTax)} AS excl FROM ${q(m.table)} t WHERE ${where.join(' AND ')}`;
      })
      .join(' UNION ALL ');
    const where = [
      ...approvedLive(c.model, 'c', actor.tenantId, params),
      `${col('c', c.projectRef)} = ANY(${ids}::bigint[])`,
      ...scoped(scope.contracts, params, 'c'),
    ];
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ month: string; type: string | null; amount: string }>(
      `SELECT s.month, ${col('c', c.contractType)} AS type, sum(s.excl)::text AS amount
         FROM ${q(c.model.table)} c JOIN (${settlements}) s ON s.code = ${col('c', c.code)}
        WHERE ${where.join(' AND ')} AND s.month IS NOT NULL
        GROUP BY 1, 2`,
      params.values,
    );
    return costTrend(
      projectId,
      rows.map((r) => ({ month: r.month, type: r.type ?? '', amount: amount(r.amount) })),
      typeNames,
    );
  }

  /** Per goods of the projects: each stage's approved quantity, null for a stage the caller may not read. */
  async materialFunnel(actor: Actor, scope: FunnelScope, projectIds: string[], projectId: string | null): Promise<MaterialFunnelAnswer> {
    if (!projectIds.length) return { projectId, rows: [] };
    const [planned, monthlyDemand, procured, supplied, ledger] = await Promise.all([
      this.stage(actor, scope.planned, projectIds, true),
      this.stage(actor, scope.monthlyDemand, projectIds),
      this.stage(actor, scope.procured, projectIds),
      this.stage(actor, scope.supplied, projectIds),
      this.ledger(actor, projectIds),
    ]);
    const stages: Record<FunnelStage, StageSums | null> = {
      planned,
      monthlyDemand,
      procured,
      supplied,
      received: scope.received ? ledger.received : null,
      consumed: scope.consumed ? ledger.consumed : null,
    };
    const goodsIds = [...new Set(Object.values(stages).flatMap((s) => (s ? [...s.keys()] : [])))];
    const goods = await this.goods(actor, goodsIds);
    const rows = goodsIds.map((id): FunnelRow => {
      const g = goods.get(id);
      const row = { goodsId: id, goodsName: g?.name ?? id, spec: g?.spec ?? null, unit: g?.unit ?? null } as FunnelRow;
      for (const [stage, sums] of Object.entries(stages) as [FunnelStage, StageSums | null][])
        row[stage] = sums ? (sums.get(id) ?? 0) : null;
      return row;
    });
    return { projectId, rows: rows.sort((a, b) => a.goodsName.localeCompare(b.goodsName, 'zh') || a.goodsId.localeCompare(b.goodsId)) };
  }

  /**
   * Σ of a stage's quantities by goods over the approved documents its sources admit; null when the
   * caller reads none of them. `newestOnly`: a total plan is replaced by its next version, so only
   * each project's newest approved one counts (as the early warnings read it).
   */
  private async stage(actor: Actor, sources: readonly ScopedSource[], projectIds: string[], newestOnly = false): Promise<StageSums | null> {
    const readable = sources.filter((s) => s.filters !== null);
    if (!readable.length) return null;
    const out: StageSums = new Map();
    for (const { model, projectRef, detail, goodsRef, quantity, filters } of readable) {
      const params = new Params();
      const ids = params.add(projectIds);
      const admitted = (a: string) => [
        ...approvedLive(model, a, actor.tenantId, params),
        `${a}.${q(projectRef.column)} = ANY(${ids}::bigint[])`,
        ...scoped(filters!, params, a),
      ];
      const where = admitted('h');
      if (newestOnly)
        where.push(
          `h.id IN (SELECT max(x.id) FROM ${q(model.table)} x WHERE ${admitted('x').join(' AND ')} GROUP BY x.${q(projectRef.column)})`,
        );
      const rows = await tenantDb(this.ctx, actor.tenantId).query<{ g: string; qty: string }>(
        `SELECT l.${q(goodsRef.column)}::text AS g, sum(l.${q(quantity.column)})::text AS qty
           FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
          WHERE ${where.join(' AND ')} AND l.${q(goodsRef.column)} IS NOT NULL GROUP BY 1`,
        params.values,
      );
      for (const r of rows) out.set(r.g, decimalToJson(new Dec(String(out.get(r.g) ?? 0)).plus(r.qty)));
    }
    return out;
  }

  /** Received and consumed by goods: the material ledger's approved postings (receipts in, consumption out). */
  private async ledger(actor: Actor, projectIds: string[]): Promise<{ received: StageSums; consumed: StageSums }> {
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ g: string; received: string | null; consumed: string | null }>(
      `SELECT goods_id::text AS g, sum(qty) FILTER (WHERE movement = 'receipt')::text AS received, (-sum(qty) FILTER (WHERE movement = 'consumption'))::text AS consumed
         FROM material_ledger WHERE tenant_id = $1 AND project_id = ANY($2::bigint[]) GROUP BY 1`,
      [actor.tenantId, projectIds],
    );
    const pick = (k: 'received' | 'consumed') => new Map(rows.filter((r) => r[k] !== null).map((r) => [r.g, amount(r[k])]));
    return { received: pick('received'), consumed: pick('consumed') };
  }

  /** Goods' name, spec and unit by id (the caller's tenant; a removed goods keeps its name). */
  private async goods(actor: Actor, ids: string[]): Promise<Map<string, { name: string; spec: string | null; unit: string | null }>> {
    const goods = this.models.goods;
    if (!ids.length || !goods) return new Map();
    const { model: m, name, spec, unit } = goods;
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ id: string; name: string; spec: string | null; unit: string | null }>(
      `SELECT id::text AS id, ${q(name.column)} AS name, ${q(spec.column)} AS spec, ${q(unit.column)} AS unit FROM ${q(m.table)} WHERE tenant_id = $1 AND id = ANY($2::bigint[])`,
      [actor.tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r]));
  }
}
