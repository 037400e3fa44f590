// The company dashboards' answers beside statisticsData (docs/business-rules.md#dashboards): the monthly cost trend by
// expense-contract type and the material funnel per goods. Shared by the server (answers, OpenAPI)
// and the browser (charts and tables), so both read the same shapes.
import { Dec, decimalToJson } from '../../../../engine/compute/decimal.ts';
import type { Label, Lang } from '../../../../engine/model/types.ts';
import type { Amount } from './statistics.ts';

/** Settled cost excl. tax per settlement period, one series per expense-contract type. */
export interface CostTrendAnswer {
  projectId: string | null;
  /** The periods (yyyy-MM) with an approved settlement, oldest first. */
  months: string[];
  series: { expenditureContractType: string; expenditureContractTypeName: string; amounts: Amount[] }[];
  /** Σ of every type per month, and the running total (开累) at each month's end. */
  totals: Amount[];
  cumulative: Amount[];
}

/** The funnel's stages, in the order material moves through them. */
export const FUNNEL_STAGES = ['planned', 'monthlyDemand', 'procured', 'supplied', 'received', 'consumed'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

/** One goods from plan to consumption: quantities in its unit; null where the caller may not read the stage. */
export type FunnelRow = { goodsId: string; goodsName: string; spec: string | null; unit: string | null } & Record<
  FunnelStage,
  Amount | null
>;

export interface MaterialFunnelAnswer {
  projectId: string | null;
  rows: FunnelRow[];
}

const dec = (v: Amount | null | undefined) => new Dec(String(v ?? 0));

/** Lays out (month, type, amount) sums as series over every month, with totals and the running total. */
export function costTrend(
  projectId: string | null,
  sums: readonly { month: string; type: string; amount: Amount }[],
  typeNames: ReadonlyMap<string, string>,
): CostTrendAnswer {
  const months = [...new Set(sums.map((s) => s.month))].sort();
  const types = [...new Set(sums.map((s) => s.type))];
  const at = new Map(sums.map((s) => [`${s.month}|${s.type}`, s.amount]));
  const series = types.map((type) => ({
    expenditureContractType: type,
    expenditureContractTypeName: typeNames.get(type) ?? type,
    amounts: months.map((m) => at.get(`${m}|${type}`) ?? 0),
  }));
  const totals = months.map((_, i) => series.reduce((s, x) => s.plus(dec(x.amounts[i])), new Dec(0)));
  let running = new Dec(0);
  const cumulative = totals.map((t) => (running = running.plus(t)));
  // the biggest cost category first: the chart stacks it at the bottom
  const whole = (amounts: Amount[]) => amounts.reduce<Dec>((s, v) => s.plus(dec(v)), new Dec(0));
  series.sort(
    (a, b) => whole(b.amounts).comparedTo(whole(a.amounts)) || a.expenditureContractType.localeCompare(b.expenditureContractType),
  );
  return { projectId, months, series, totals: totals.map(decimalToJson), cumulative: cumulative.map(decimalToJson) };
}

/** The cost categories of the company's statistics (docs/rules.md#cost-categories). */
export const COST_CATEGORIES = {
  labor: { zh: '人工费', en: 'Labour' },
  material: { zh: '材料费', en: 'Materials' },
  equipment: { zh: '机械费', en: 'Machinery' },
  subcontract: { zh: '分包费', en: 'Subcontracting' },
  measure: { zh: '措施费', en: 'Measures' },
  other: { zh: '其他', en: 'Other' },
} as const satisfies Record<string, Label>;
export type CostCategory = keyof typeof COST_CATEGORIES;

/** Which cost category each expense-contract type's cost falls in (docs/rules.md#cost-categories). */
const CATEGORY_OF_TYPE: Readonly<Record<string, CostCategory>> = {
  labor: 'labor',
  subcontract: 'subcontract',
  material: 'material',
  concrete: 'material',
  turnover_lease: 'material',
  aluminum_formwork: 'material',
  equipment_lease: 'equipment',
  scaffold: 'measure',
  other: 'other',
};

/** A type's cost category; a type the mapping does not know counts as other. */
export const costCategoryOf = (type: string): CostCategory => CATEGORY_OF_TYPE[type] ?? 'other';

/**
 * The same trend with its series summed by cost category (months, totals and running total
 * unchanged); in this answer a series' expenditureContractType holds the category's key.
 */
export function trendByCostCategory(trend: CostTrendAnswer, lang: Lang): CostTrendAnswer {
  const sums = trend.series.flatMap((s) =>
    s.amounts.map((amount, i) => ({ month: trend.months[i], type: costCategoryOf(s.expenditureContractType), amount })),
  );
  const added = new Map<string, Amount>();
  for (const { month, type, amount } of sums)
    added.set(`${month}|${type}`, decimalToJson(dec(added.get(`${month}|${type}`)).plus(dec(amount))));
  const regrouped = [...added].map(([key, amount]) => ({ month: key.split('|')[0], type: key.split('|')[1], amount }));
  const names = new Map(Object.entries(COST_CATEGORIES).map(([key, label]) => [key, label[lang]]));
  return costTrend(trend.projectId, regrouped, names);
}
