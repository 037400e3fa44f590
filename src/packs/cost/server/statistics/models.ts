// The document types the statistics and dashboards read, found by their roles (x-entity.roles) when
// the module starts, and the fields they read of each, bound by field role (x-entity.fieldRoles,
// x-detail.fieldRoles; references by the role of what they refer to): a schema set that lacks a role,
// doubles a single one or misses a field role refuses to start, naming the document and the role.
import {
  entitiesWithRole,
  entityWithRole,
  fieldsWithRoles,
  fieldWithRole,
  linesWithRoles,
  optionalEntityWithRole,
} from '../../../../engine/model/roles.ts';
import type { DetailModel, EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import { budgetLines, codeField, type BudgetLines } from '../../engine/field-roles.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';

export { STATISTICS_ROLES };

const R = STATISTICS_ROLES;

/** A document type with the fields a query reads of it, by field role. */
export type Bound<Role extends string> = { model: EntityModel } & Record<Role, FieldModel>;

/** A funnel stage's documents: their project, and the detail whose rows carry goods and a quantity. */
export interface FunnelSource {
  model: EntityModel;
  projectRef: FieldModel;
  detail: DetailModel;
  goodsRef: FieldModel;
  quantity: FieldModel;
}

export type ProjectFields = Bound<'name' | 'targetCost'> & {
  /** The project's cost budgets by expense-contract type (a detail of type and budget lines), when the schema has one. */
  budgets?: BudgetLines;
};

/** The expense contract's fields; parentRef: on a supplementary agreement, the main contract it amends. */
export type ExpenseContractFields = Bound<
  | 'code'
  | 'name'
  | 'projectRef'
  | 'contractType'
  | 'amount'
  | 'changeAmount'
  | 'currentAmount'
  | 'counterpartyRef'
  | 'parentRef'
  | 'signDate'
  | 'startDate'
  | 'performance'
  | 'settlementState'
>;

export type IncomeContractFields = Bound<
  'projectRef' | 'amount' | 'changeAmount' | 'currentAmount' | 'measuredAmount' | 'taxRate' | 'receivedAmount'
>;

export type SettlementFields = Bound<
  'code' | 'projectRef' | 'contractRef' | 'period' | 'amount' | 'amountExclTax' | 'payable' | 'retention'
> & {
  /** paid so far, on the interim settlements that record it */
  paidAmount?: FieldModel;
};

export type FinalSettlementFields = Bound<'projectRef' | 'contractRef' | 'paidAmount'>;

export interface StatisticsModels {
  projects: ProjectFields;
  expenseContract: ExpenseContractFields;
  incomeContract: IncomeContractFields;
  settlements: readonly SettlementFields[];
  finalSettlements: readonly FinalSettlementFields[];
  /** The goods master (names and units of the funnel's goods); the ledger's posting documents gate its stages. */
  goods?: Bound<'name' | 'spec' | 'unit'>;
  stockReceipts: readonly EntityModel[];
  stockReports: readonly EntityModel[];
  /** The material funnel's planned stages, in order (received and consumed come from the ledger). */
  funnel: { totalDemand: FunnelSource[]; monthlyDemand: FunnelSource[]; procurement: FunnelSource[]; supply: FunnelSource[] };
}

/** Only approved documents are counted: a document type of a role without a workflow has none. */
function requireWorkflow(model: EntityModel, role: string) {
  if (!model.workflow)
    throw new Error(`${model.key} plays the role "${role}" but has no approval workflow (only approved documents are counted)`);
}

/** Binds a document's fields by role: { name: its field playing the role }. */
function bind<Name extends string>(
  catalog: EntityCatalog,
  model: EntityModel,
  role: string,
  roles: Readonly<Record<Name, string>>,
): Bound<Name> {
  const found = fieldsWithRoles(catalog.entities, model, role, Object.values<string>(roles));
  const fields = Object.fromEntries(Object.entries<string>(roles).map(([name, fieldRole]) => [name, found[fieldRole]]));
  return { model, ...fields } as Bound<Name>;
}

/** Field roles bound under their own names. */
const named = <Role extends string>(...roles: Role[]) => Object.fromEntries(roles.map((r) => [r, r])) as Record<Role, Role>;

function projectFields(catalog: EntityCatalog): ProjectFields {
  const model = entityWithRole(catalog, R.projects);
  // optional: a project schema without a budget detail has no budgets to compare with
  return { ...bind(catalog, model, R.projects, named('name', 'targetCost')), budgets: budgetLines(catalog.entities, model) };
}

function expenseContractFields(catalog: EntityCatalog): ExpenseContractFields {
  const model = entityWithRole(catalog, R.expenseContract);
  requireWorkflow(model, R.expenseContract);
  const fields = bind(catalog, model, R.expenseContract, {
    ...named('name', 'contractType', 'amount', 'changeAmount', 'currentAmount', 'signDate', 'startDate', 'performance', 'settlementState'),
    projectRef: R.projects,
    counterpartyRef: R.counterparty,
    // a contract's reference to an expense contract: the one it supplements
    parentRef: R.expenseContract,
  });
  return { ...fields, code: codeField(model, R.expenseContract) };
}

function incomeContractFields(catalog: EntityCatalog): IncomeContractFields {
  const model = entityWithRole(catalog, R.incomeContract);
  requireWorkflow(model, R.incomeContract);
  return bind(catalog, model, R.incomeContract, {
    ...named('amount', 'changeAmount', 'currentAmount', 'measuredAmount', 'taxRate', 'receivedAmount'),
    projectRef: R.projects,
  });
}

/** Every document of a role that settles or closes an expense contract, with its project and contract. */
function contractDocuments<Name extends string>(catalog: EntityCatalog, role: string, roles: Readonly<Record<Name, string>>) {
  return entitiesWithRole(catalog, role).map((model) => {
    requireWorkflow(model, role);
    return bind(catalog, model, role, { ...roles, projectRef: R.projects, contractRef: R.expenseContract });
  });
}

function settlementFields(catalog: EntityCatalog): SettlementFields[] {
  return contractDocuments(catalog, R.settlement, named('period', 'amount', 'amountExclTax', 'payable', 'retention')).map((s) => ({
    ...s,
    code: codeField(s.model, R.settlement),
    paidAmount: fieldWithRole(catalog.entities, s.model, 'paidAmount'),
  }));
}

/** What a funnel stage sums of its documents' rows: the quantity per goods (the total plan's after its changes). */
const FUNNEL_QUANTITY = 'quantity';
const TOTAL_PLAN_QUANTITY = 'effectiveQuantity';

/** A funnel stage: the role's documents, their project, and the detail holding goods and the quantity. */
function funnelSources(catalog: EntityCatalog, role: string, quantity = FUNNEL_QUANTITY): FunnelSource[] {
  return entitiesWithRole(catalog, role).map((model) => {
    requireWorkflow(model, role);
    const { detail, fields } = linesWithRoles(catalog.entities, model, role, [R.goods, quantity]);
    const { projectRef } = bind(catalog, model, role, { projectRef: R.projects });
    return { model, projectRef, detail, goodsRef: fields[R.goods], quantity: fields[quantity] };
  });
}

function goodsFields(catalog: EntityCatalog): StatisticsModels['goods'] {
  const model = optionalEntityWithRole(catalog, R.goods);
  return model && bind(catalog, model, R.goods, named('name', 'spec', 'unit'));
}

export function statisticsModels(catalog: EntityCatalog): StatisticsModels {
  return {
    projects: projectFields(catalog),
    expenseContract: expenseContractFields(catalog),
    incomeContract: incomeContractFields(catalog),
    settlements: settlementFields(catalog),
    finalSettlements: contractDocuments(catalog, R.finalSettlement, named('paidAmount')),
    goods: goodsFields(catalog),
    stockReceipts: entitiesWithRole(catalog, R.stockReceipt),
    stockReports: entitiesWithRole(catalog, R.stockReport),
    funnel: {
      totalDemand: funnelSources(catalog, R.totalDemand, TOTAL_PLAN_QUANTITY),
      monthlyDemand: funnelSources(catalog, R.monthlyDemand),
      procurement: funnelSources(catalog, R.procurement),
      supply: funnelSources(catalog, R.supply),
    },
  };
}
