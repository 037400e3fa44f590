// Project statistics (statisticsData, docs/business-rules.md#project-statistics): what the server sums from approved documents
// and how the derived figures follow from those sums — shared by the server (the answer and its
// .xlsx export) and the browser (dashboards), so both show the same numbers.
import { Dec, decimalToJson, roundHalfUp } from '../../../../engine/compute/decimal.ts';
import type { Label } from '../../../../engine/model/types.ts';

export type Amount = number | string;

/** The sums one group of approved expense contracts (a contract type, a project) adds up to. */
export interface ContractSums {
  contractCount: number;
  contractAmount: Amount;
  changeAmount: Amount;
  currentAmount: Amount;
  /** Σ approved settlements of the contracts: incl. / excl. tax, payable, retention withheld. */
  settledAmountInclTax: Amount;
  settledAmountExclTax: Amount;
  payableAmount: Amount;
  retentionHeld: Amount;
  /** Paid so far as recorded on approved settlements, finalizations and filings (the latest per contract); null when none records it. */
  paidAmount: Amount | null;
}

/** One row of the statistics: a contract type (or the totals row, type null) with derived figures. */
export interface StatisticsRow extends ContractSums {
  expenditureContractType: string | null;
  expenditureContractTypeName: string | null;
  /** current − settled (incl. tax): what the contracts may still settle. */
  remainingContractAmount: Amount;
  /** settled ÷ current, in % (2 places); null without a contract amount. */
  settleRate: Amount | null;
  /** The plan: by type the projects' cost budgets of the type (null without one), on the totals row their target cost. */
  budgetAmount: Amount | null;
  /** budget − current (contracted): what the plan leaves to contract. */
  budgetBalance: Amount | null;
  /** settled excl. tax ÷ budget, in %: cost against plan. */
  budgetUsageRate: Amount | null;
}

/** Income side of a project: its approved construction (income) contracts. */
export interface IncomeSums {
  contractCount: number;
  contractAmount: Amount;
  changeAmount: Amount;
  currentAmount: Amount;
  measuredAmount: Amount;
  /** Σ per contract of measured ÷ (1 + its tax rate), to the fen: the output that margins compare with cost excl. tax. */
  measuredAmountExclTax: Amount;
  receivedAmount: Amount;
}

export const NO_INCOME: IncomeSums = {
  contractCount: 0,
  contractAmount: 0,
  changeAmount: 0,
  currentAmount: 0,
  measuredAmount: 0,
  measuredAmountExclTax: 0,
  receivedAmount: 0,
};

/** One project of the answer: contracted, settled and paid against its target cost. */
export interface ProjectFigures {
  projectId: string;
  projectName: string;
  targetCost: Amount | null;
  incomeAmount: Amount | null;
  contractAmount: Amount;
  settledAmountInclTax: Amount;
  settledAmountExclTax: Amount;
  payableAmount: Amount;
  paidAmount: Amount | null;
  /** settled excl. tax − target cost: positive when cost ran past plan. */
  costOverPlan: Amount | null;
  /** settled excl. tax ÷ target cost, in %. */
  costUsageRate: Amount | null;
  /** Owner-measured output excl. tax (income contracts); null when the caller may not read them. */
  measuredAmountExclTax: Amount | null;
  /** measured output excl. tax − settled cost excl. tax. */
  grossProfit: Amount | null;
  /** gross profit ÷ measured output excl. tax, in %; null without output. */
  marginRate: Amount | null;
}

export interface StatisticsAnswer {
  projectId: string | null;
  expenditureContractType: string | null;
  rows: StatisticsRow[];
  total: StatisticsRow;
  /** null when the caller may not read income contracts. */
  income: IncomeSums | null;
  targetCost: Amount | null;
  projects: ProjectFigures[];
}

const dec = (v: Amount | null | undefined) => new Dec(String(v ?? 0));
const json = (v: Dec) => decimalToJson(v);

/** a ÷ b in %, half-up to 2 places; null when b is zero (no base to compare with). */
export function percent(a: Amount, b: Amount | null): Amount | null {
  if (b === null || dec(b).isZero()) return null;
  return json(roundHalfUp(dec(a).div(dec(b)).times(100), 2));
}

const SUMMED = [
  'contractAmount',
  'changeAmount',
  'currentAmount',
  'settledAmountInclTax',
  'settledAmountExclTax',
  'payableAmount',
  'retentionHeld',
] as const;

/** Adds groups of sums (paid stays null only when no group records a payment). */
export function addSums(groups: readonly ContractSums[]): ContractSums {
  const out: ContractSums = {
    contractCount: 0,
    contractAmount: 0,
    changeAmount: 0,
    currentAmount: 0,
    settledAmountInclTax: 0,
    settledAmountExclTax: 0,
    payableAmount: 0,
    retentionHeld: 0,
    paidAmount: null,
  };
  for (const g of groups) {
    out.contractCount += g.contractCount;
    for (const k of SUMMED) out[k] = json(dec(out[k]).plus(dec(g[k])));
    if (g.paidAmount !== null) out.paidAmount = json(dec(out.paidAmount).plus(dec(g.paidAmount)));
  }
  return out;
}

/** A row with its derived figures. */
export function statisticsRow(type: string | null, typeName: string | null, sums: ContractSums, budget: Amount | null): StatisticsRow {
  return {
    expenditureContractType: type,
    expenditureContractTypeName: typeName,
    ...sums,
    remainingContractAmount: json(dec(sums.currentAmount).minus(dec(sums.settledAmountInclTax))),
    settleRate: percent(sums.settledAmountInclTax, sums.currentAmount),
    budgetAmount: budget,
    budgetBalance: budget === null ? null : json(dec(budget).minus(dec(sums.currentAmount))),
    budgetUsageRate: percent(sums.settledAmountExclTax, budget),
  };
}

/** A project's figures from its contracts' sums, its target cost and its income. */
export function projectFigures(
  of: { id: string; name: string; targetCost: Amount | null },
  sums: ContractSums,
  income: IncomeSums | null,
): ProjectFigures {
  const target = of.targetCost;
  const measured = income?.measuredAmountExclTax ?? null;
  const profit = measured === null ? null : json(dec(measured).minus(dec(sums.settledAmountExclTax)));
  return {
    projectId: of.id,
    projectName: of.name,
    targetCost: target,
    incomeAmount: income?.currentAmount ?? null,
    contractAmount: sums.currentAmount,
    settledAmountInclTax: sums.settledAmountInclTax,
    settledAmountExclTax: sums.settledAmountExclTax,
    payableAmount: sums.payableAmount,
    paidAmount: sums.paidAmount,
    costOverPlan: target === null ? null : json(dec(sums.settledAmountExclTax).minus(dec(target))),
    costUsageRate: percent(sums.settledAmountExclTax, target),
    measuredAmountExclTax: measured,
    grossProfit: profit,
    marginRate: profit === null ? null : percent(profit, measured),
  };
}

/** The columns of a statistics table, in the order a cost manager reads them (screen and export). */
export const STATISTICS_COLUMNS: readonly { key: keyof StatisticsRow; label: Label; kind: 'text' | 'count' | 'money' | 'rate' }[] = [
  { key: 'expenditureContractTypeName', label: { zh: '合同类别', en: 'Contract type' }, kind: 'text' },
  { key: 'contractCount', label: { zh: '合同数', en: 'Contracts' }, kind: 'count' },
  { key: 'contractAmount', label: { zh: '合同金额', en: 'Contract amount' }, kind: 'money' },
  { key: 'changeAmount', label: { zh: '变更金额', en: 'Changes' }, kind: 'money' },
  { key: 'currentAmount', label: { zh: '变更后合同金额', en: 'Current amount' }, kind: 'money' },
  { key: 'settledAmountInclTax', label: { zh: '累计结算(含税)', en: 'Settled (incl. tax)' }, kind: 'money' },
  { key: 'settledAmountExclTax', label: { zh: '累计结算(不含税)', en: 'Settled (excl. tax)' }, kind: 'money' },
  { key: 'payableAmount', label: { zh: '累计应付', en: 'Payable' }, kind: 'money' },
  { key: 'paidAmount', label: { zh: '累计已付', en: 'Paid' }, kind: 'money' },
  { key: 'retentionHeld', label: { zh: '扣留保证金', en: 'Retention held' }, kind: 'money' },
  { key: 'remainingContractAmount', label: { zh: '剩余合同金额', en: 'Remaining' }, kind: 'money' },
  { key: 'settleRate', label: { zh: '结算比例(%)', en: 'Settled (%)' }, kind: 'rate' },
  { key: 'budgetAmount', label: { zh: '目标成本', en: 'Target cost' }, kind: 'money' },
  { key: 'budgetBalance', label: { zh: '目标成本余额', en: 'Target cost left' }, kind: 'money' },
  { key: 'budgetUsageRate', label: { zh: '成本使用率(%)', en: 'Cost used (%)' }, kind: 'rate' },
];

export const TOTAL_LABEL: Label = { zh: '合计', en: 'Total' };
