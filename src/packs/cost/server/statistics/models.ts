// The document types the statistics and dashboards read, found by their roles (x-entity.roles) when
// the module starts, with the fields each role's documents must carry: a schema set that lacks a
// role, doubles a single one or misses a field refuses to start, naming it.
import { entitiesWithRole, entityWithRole, optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { DetailModel, EntityCatalog, EntityModel } from '../../../../engine/model/types.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';

export { STATISTICS_ROLES };

/** A funnel stage's documents: their detail rows carry goods and a quantity. */
export interface FunnelSource {
  model: EntityModel;
  detail: DetailModel;
  qtyField: string;
}

export interface StatisticsModels {
  projectModel: EntityModel;
  /** The project's cost budgets by expense-contract type (a detail of type and budget lines), when the schema has one. */
  projectBudgets?: DetailModel;
  expenseContract: EntityModel;
  incomeContract: EntityModel;
  settlements: readonly EntityModel[];
  finalSettlements: readonly EntityModel[];
  /** The goods master (names and units of the funnel's goods); the ledger's posting documents gate its stages. */
  goods?: EntityModel;
  stockReceipts: readonly EntityModel[];
  stockReports: readonly EntityModel[];
  /** The material funnel's planned stages, in order (received and consumed come from the ledger). */
  funnel: { totalDemand: FunnelSource[]; monthlyDemand: FunnelSource[]; procurement: FunnelSource[]; supply: FunnelSource[] };
}

function requireFields(
  model: EntityModel,
  role: string,
  fields: readonly string[],
  where: { fieldMap: Readonly<Record<string, unknown>> } = model,
) {
  const missing = fields.filter((f) => !where.fieldMap[f]);
  if (missing.length) throw new Error(`${model.key} plays the role "${role}" but has no field ${missing.join(', ')}`);
  if (!model.workflow && role !== STATISTICS_ROLES.projects)
    throw new Error(`${model.key} plays the role "${role}" but has no approval workflow (only approved documents are counted)`);
}

/** Every document of a role that settles or closes an expense contract, checked for its fields. */
function contractDocuments(catalog: EntityCatalog, role: string, contract: EntityModel, fields: readonly string[]): EntityModel[] {
  return entitiesWithRole(catalog, role).map((m) => {
    requireFields(m, role, ['projectId', 'expenditureContractCode', ...fields]);
    if (m.fieldMap.expenditureContractCode.ref?.entity !== contract.key)
      throw new Error(`${m.key} plays the role "${role}" but its expenditureContractCode does not refer to ${contract.key}`);
    return m;
  });
}

/** A funnel stage: the role's documents and the detail holding goods and the quantity. */
function funnelSources(catalog: EntityCatalog, role: string, qtyField: string): FunnelSource[] {
  return entitiesWithRole(catalog, role).map((model) => {
    requireFields(model, role, ['projectId']);
    const detail = model.details.find((d) => d.fieldMap.goodsId && d.fieldMap[qtyField]);
    if (!detail) throw new Error(`${model.key} plays the role "${role}" but no detail of it has goodsId and ${qtyField}`);
    return { model, detail, qtyField };
  });
}

export function statisticsModels(catalog: EntityCatalog): StatisticsModels {
  const R = STATISTICS_ROLES;
  const projectModel = entityWithRole(catalog, R.projects);
  requireFields(projectModel, R.projects, ['name', 'targetCost']);
  const expenseContract = entityWithRole(catalog, R.expenseContract);
  requireFields(expenseContract, R.expenseContract, [
    'code',
    'projectId',
    'expenditureContractType',
    'contractAmount',
    'changeAmount',
    'currentAmount',
  ]);
  const incomeContract = entityWithRole(catalog, R.incomeContract);
  requireFields(incomeContract, R.incomeContract, [
    'projectId',
    'contractAmount',
    'changeAmount',
    'currentAmount',
    'measuredAmount',
    'taxRate',
    'receivedAmount',
  ]);
  return {
    projectModel,
    projectBudgets: projectModel.details.find((d) => d.fieldMap.expenditureContractType && d.fieldMap.budgetAmount),
    expenseContract,
    incomeContract,
    settlements: contractDocuments(catalog, R.settlement, expenseContract, [
      'period',
      'thisAmountInclTax',
      'thisAmountExclTax',
      'thisPayableAmount',
      'retentionAmount',
    ]),
    finalSettlements: contractDocuments(catalog, R.finalSettlement, expenseContract, ['cumulativePaidAmount']),
    goods: optionalEntityWithRole(catalog, R.goods),
    stockReceipts: entitiesWithRole(catalog, R.stockReceipt),
    stockReports: entitiesWithRole(catalog, R.stockReport),
    funnel: {
      totalDemand: funnelSources(catalog, R.totalDemand, 'effectiveQty'),
      monthlyDemand: funnelSources(catalog, R.monthlyDemand, 'demandQty'),
      procurement: funnelSources(catalog, R.procurement, 'procureQty'),
      supply: funnelSources(catalog, R.supply, 'supplyQty'),
    },
  };
}
