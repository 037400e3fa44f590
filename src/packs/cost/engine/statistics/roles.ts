// The roles (x-entity.roles) the project statistics and dashboards read documents by: the server's
// queries, the OpenAPI description and the browser's dashboards find their document types with them.
export const STATISTICS_ROLES = {
  projects: 'master.project',
  expenseContract: 'contract.expense',
  incomeContract: 'contract.income',
  /** Settles cost on an expense contract for a period (the monthly settlements of every kind). */
  settlement: 'settlement.cost',
  /** Closes an expense contract (finalisation, filing) and records what was paid on it. */
  finalSettlement: 'settlement.final',
  totalDemand: 'demand.total',
  monthlyDemand: 'demand.monthly',
  procurement: 'procurement.monthly',
  supply: 'supply.batch',
  /** The stock's receipts and monthly reports post to the material ledger (received, consumed). */
  stockReceipt: 'stock.receipt',
  stockReport: 'stock.monthlyReport',
  goods: 'master.goods',
  /** The counterparty of an expense contract (the timeliness panel names it). */
  counterparty: 'master.counterparty',
  warnings: 'warning.record',
} as const;
