// Project statistics (statisticsData, docs/business-rules.md#project-statistics): per expense-contract type, the approved contracts
// of the projects the caller may see, with what their approved settlements of every kind add up to,
// plus the income contracts and a line per project. Only APPROVED documents count; sums are done in
// SQL numeric (exact) and the derived figures in decimal (packs/cost/engine/statistics).
import { Dec, decimalToJson } from '../../../../engine/compute/decimal.ts';
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import {
  addSums,
  NO_INCOME,
  projectFigures,
  statisticsRow,
  type Amount,
  type ContractSums,
  type IncomeSums,
  type StatisticsAnswer,
} from '../../engine/statistics/statistics.ts';
import type { Row } from '../../../../server/db/db.ts';
import { resolveLabels } from '../../../../server/db/labels.ts';
import { fieldColumn, Params, q } from '../../../../server/db/sql.ts';
import { tenantDb, type Actor, type DataFilter, type StoreContext } from '../../../../server/db/store.ts';
import type { FinalSettlementFields, SettlementFields, StatisticsModels } from './models.ts';

/** A document that settles or closes an expense contract: its project and contract references. */
type ContractDocument = SettlementFields | FinalSettlementFields;

/** What the caller may see: data-scope filters per entity, and whether income contracts are readable. */
export interface StatisticsScope {
  projects: readonly DataFilter[];
  contracts: readonly DataFilter[];
  /** null: the caller may not read income contracts. */
  income: readonly DataFilter[] | null;
}

export interface StatisticsQuery {
  projectId?: string;
  /** one expense-contract type (a dictionary key) */
  contractType?: string;
}

/** WHERE terms of a model's live, approved rows of the caller's tenant (alias a). */
export function approvedLive(model: EntityModel, a: string, tenantId: string, params: Params): string[] {
  const terms = [`${a}.tenant_id = ${params.add(tenantId)}`, `${a}.${fieldColumn(model, model.workflow!.statusField)} = 'approved'`];
  if (model.softDelete) terms.push(`${a}.is_deleted = 0`);
  return terms;
}

export const scoped = (filters: readonly DataFilter[], params: Params, a: string) =>
  filters.length ? [`(${filters.map((f) => f(params, a)).join(' OR ')})`] : [];

export class Statistics {
  constructor(
    private readonly ctx: StoreContext,
    private readonly models: StatisticsModels,
  ) {}

  async answer(actor: Actor, scope: StatisticsScope, query: StatisticsQuery): Promise<StatisticsAnswer> {
    const projects = await this.visibleProjects(actor, scope.projects, query.projectId);
    const ids = projects.map((p) => p.id);
    const [groups, income, names, budgets] = await Promise.all([
      ids.length ? this.contractGroups(actor, scope, ids, query.contractType) : [],
      ids.length && scope.income ? this.income(actor, scope.income, ids) : new Map<string, IncomeSums>(),
      this.contractTypes(actor),
      ids.length ? this.budgetsByType(actor, ids) : new Map<string, Amount>(),
    ]);
    const byType = groupBy(groups, (g) => g.type);
    // a type with a budget and nothing contracted yet still has its row: the whole budget is left
    for (const type of budgets.keys()) if (!byType.has(type) && (!query.contractType || type === query.contractType)) byType.set(type, []);
    if (query.contractType && !byType.has(query.contractType)) byType.set(query.contractType, []);
    const rows = [...byType]
      .map(([type, of]) => statisticsRow(type, names.get(type) ?? type, addSums(of.map((g) => g.sums)), budgets.get(type) ?? null))
      .sort(
        (a, b) =>
          Number(b.currentAmount) - Number(a.currentAmount) ||
          String(a.expenditureContractType).localeCompare(String(b.expenditureContractType)),
      );
    const byProject = groupBy(groups, (g) => g.projectId);
    const targetCost = sumOrNull(projects.map((p) => p.targetCost));
    return {
      projectId: query.projectId ?? null,
      expenditureContractType: query.contractType ?? null,
      rows,
      // the target cost is the plan of every type together; asked for one type, its budget is the plan
      total: statisticsRow(
        null,
        null,
        addSums(groups.map((g) => g.sums)),
        query.contractType ? (budgets.get(query.contractType) ?? null) : targetCost,
      ),
      income: scope.income ? addIncome([...income.values()]) : null,
      targetCost,
      projects: projects.map((p) =>
        projectFigures(p, addSums((byProject.get(p.id) ?? []).map((g) => g.sums)), scope.income ? (income.get(p.id) ?? NO_INCOME) : null),
      ),
    };
  }

  /** Σ of the projects' cost budget lines by expense-contract type (R-BUD); types without a line are absent. */
  private async budgetsByType(actor: Actor, projectIds: string[]): Promise<Map<string, Amount>> {
    const { model: p, budgets } = this.models.projects;
    if (!budgets) return new Map();
    const { detail, contractType, budget } = budgets;
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ type: string; budget: string }>(
      `SELECT l.${q(contractType.column)} AS type, sum(l.${q(budget.column)})::text AS budget
         FROM ${q(detail.table)} l JOIN ${q(p.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = $1 AND h.id = ANY($2::bigint[]) AND l.${q(budget.column)} IS NOT NULL${p.softDelete ? ' AND h.is_deleted = 0' : ''}
        GROUP BY 1`,
      [actor.tenantId, projectIds],
    );
    return new Map(rows.map((r) => [r.type, amount(r.budget)]));
  }

  /** The live projects the caller's data scope admits (one when asked for one; none if it is not visible). */
  async visibleProjects(
    actor: Actor,
    filters: readonly DataFilter[],
    projectId?: string,
  ): Promise<{ id: string; name: string; targetCost: Amount | null }[]> {
    const { model: m, name, targetCost } = this.models.projects;
    const params = new Params();
    const where = [
      `p.tenant_id = ${params.add(actor.tenantId)}`,
      ...(m.softDelete ? ['p.is_deleted = 0'] : []),
      ...scoped(filters, params, 'p'),
    ];
    if (projectId) where.push(`p.id = ${params.add(projectId)}`);
    const rows = await tenantDb(this.ctx, actor.tenantId).query<{ id: string; name: string; target: string | null }>(
      `SELECT p.id::text AS id, p.${q(name.column)} AS name, p.${q(targetCost.column)}::text AS target FROM ${q(m.table)} p WHERE ${where.join(' AND ')} ORDER BY p.id`,
      params.values,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, targetCost: r.target === null ? null : amount(r.target) }));
  }

  /** Σ by project and contract type over the approved contracts, joined to their approved settlements' and payments' sums. */
  private async contractGroups(
    actor: Actor,
    scope: StatisticsScope,
    projectIds: string[],
    type?: string,
  ): Promise<{ projectId: string; type: string; sums: ContractSums }[]> {
    const c = this.models.expenseContract;
    const col = (f: FieldModel) => `c.${q(f.column)}`;
    const params = new Params();
    const ids = params.add(projectIds);
    const union = <D extends ContractDocument>(documents: readonly D[], select: (d: D) => string) =>
      documents
        .map((d) => {
          const where = [...approvedLive(d.model, 't', actor.tenantId, params), `t.${q(d.projectRef.column)} = ANY(${ids}::bigint[])`];
          return `SELECT t.${q(d.contractRef.column)} AS code, ${select(d)} FROM ${q(d.model.table)} t WHERE ${where.join(' AND ')}`;
        })
        .join(' UNION ALL ');
    // paid so far as the contract ledger takes it: the figure on approved final settlements and on the
    // approved interim settlements that record one (x-cumulative writes its largest into the contract);
    // the interim ones are read in the same pass as their amounts
    const settlements = union(
      this.models.settlements,
      (s) =>
        `t.${q(s.amount.column)} AS incl, t.${q(s.amountExclTax.column)} AS excl, t.${q(s.payable.column)} AS payable, t.${q(s.retention.column)} AS retention, ${s.paidAmount ? `t.${q(s.paidAmount.column)}` : 'NULL::numeric'} AS paid`,
    );
    const finals = this.models.finalSettlements;
    const paid = finals.length
      ? union(finals, (f) => `t.${q(f.paidAmount.column)} AS paid`)
      : 'SELECT NULL::text AS code, NULL::numeric AS paid WHERE false';
    const where = [
      ...approvedLive(c.model, 'c', actor.tenantId, params),
      `${col(c.projectRef)} = ANY(${ids}::bigint[])`,
      ...scoped(scope.contracts, params, 'c'),
    ];
    if (type) where.push(`${col(c.contractType)} = ${params.add(type)}`);
    const sum = (expr: string) => `coalesce(sum(${expr}), 0)::text`;
    const rows = await tenantDb(this.ctx, actor.tenantId).query<Row>(
      `WITH s AS (SELECT code, sum(incl) AS incl, sum(excl) AS excl, sum(payable) AS payable, sum(retention) AS retention, max(paid) AS paid FROM (${settlements}) u GROUP BY code),
            -- paid so far is a running figure: the latest (largest) recorded one per contract
            pd AS (SELECT code, max(paid) AS paid FROM (${paid}) u GROUP BY code)
       SELECT ${col(c.projectRef)}::text AS "projectId", ${col(c.contractType)} AS type, count(*)::int AS n,
              ${sum(col(c.amount))} AS contract, ${sum(col(c.changeAmount))} AS change, ${sum(col(c.currentAmount))} AS current,
              ${sum('s.incl')} AS incl, ${sum('s.excl')} AS excl, ${sum('s.payable')} AS payable, ${sum('s.retention')} AS retention,
              sum(greatest(s.paid, pd.paid))::text AS paid
         FROM ${q(c.model.table)} c LEFT JOIN s ON s.code = ${col(c.code)} LEFT JOIN pd ON pd.code = ${col(c.code)}
        WHERE ${where.join(' AND ')}
        GROUP BY 1, 2`,
      params.values,
      // planning this union over every settlement table cost about as much as running it
      { prepare: true },
    );
    return rows.map((r) => ({
      projectId: String(r.projectId),
      type: String(r.type ?? ''),
      sums: {
        contractCount: Number(r.n),
        contractAmount: amount(r.contract),
        changeAmount: amount(r.change),
        currentAmount: amount(r.current),
        settledAmountInclTax: amount(r.incl),
        settledAmountExclTax: amount(r.excl),
        payableAmount: amount(r.payable),
        retentionHeld: amount(r.retention),
        paidAmount: r.paid === null ? null : amount(r.paid),
      },
    }));
  }

  /** Σ by project over the approved income (construction) contracts. */
  private async income(actor: Actor, filters: readonly DataFilter[], projectIds: string[]): Promise<Map<string, IncomeSums>> {
    const m = this.models.incomeContract;
    const col = (f: FieldModel) => `i.${q(f.column)}`;
    const params = new Params();
    const where = [
      ...approvedLive(m.model, 'i', actor.tenantId, params),
      `${col(m.projectRef)} = ANY(${params.add(projectIds)}::bigint[])`,
      ...scoped(filters, params, 'i'),
    ];
    // the answer's figures (IncomeSums) and the field each sums
    const summed = {
      contractAmount: m.amount,
      changeAmount: m.changeAmount,
      currentAmount: m.currentAmount,
      measuredAmount: m.measuredAmount,
      receivedAmount: m.receivedAmount,
    };
    const sums = Object.entries(summed).map(([figure, f]) => `coalesce(sum(${col(f)}), 0)::text AS ${q(figure)}`);
    // each contract's measured output without its own tax, to the fen (round: half away from zero)
    const measuredExcl = `coalesce(sum(round(${col(m.measuredAmount)} * 100 / (100 + coalesce(${col(m.taxRate)}, 0)), 2)), 0)::text AS "measuredAmountExclTax"`;
    const rows = await tenantDb(this.ctx, actor.tenantId).query<Row>(
      `SELECT ${col(m.projectRef)}::text AS "projectId", count(*)::int AS n, ${sums.join(', ')}, ${measuredExcl}
         FROM ${q(m.model.table)} i WHERE ${where.join(' AND ')} GROUP BY 1`,
      params.values,
    );
    return new Map(
      rows.map((r) => [
        String(r.projectId),
        {
          contractCount: Number(r.n),
          contractAmount: amount(r.contractAmount),
          changeAmount: amount(r.changeAmount),
          currentAmount: amount(r.currentAmount),
          measuredAmount: amount(r.measuredAmount),
          measuredAmountExclTax: amount(r.measuredAmountExclTax),
          receivedAmount: amount(r.receivedAmount),
        },
      ]),
    );
  }

  /** The contract types (dictionary keys) and their names in the caller's language. */
  async contractTypes(actor: Actor): Promise<Map<string, string>> {
    const field = this.models.expenseContract.contractType;
    return (await resolveLabels(this.ctx, actor, [field], [], actor.lang)).get(field) ?? new Map();
  }
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export const amount = (text: unknown): Amount => decimalToJson(new Dec(String(text ?? '0')));

/** Σ of the values given; null when every one is empty (no project has a target cost). */
function sumOrNull(values: (Amount | null)[]): Amount | null {
  const present = values.filter((v): v is Amount => v !== null);
  return present.length ? decimalToJson(present.reduce<Dec>((s, v) => s.plus(String(v)), new Dec(0))) : null;
}

function addIncome(groups: IncomeSums[]): IncomeSums {
  const out: IncomeSums = { ...NO_INCOME };
  for (const g of groups) {
    out.contractCount += g.contractCount;
    for (const k of [
      'contractAmount',
      'changeAmount',
      'currentAmount',
      'measuredAmount',
      'measuredAmountExclTax',
      'receivedAmount',
    ] as const)
      out[k] = decimalToJson(new Dec(String(out[k])).plus(String(g[k])));
  }
  return out;
}
