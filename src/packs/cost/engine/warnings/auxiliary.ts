// Which document types answer GET <api>/earlyWarningAuxiliaryData, and with which figures; which preview their warnings
// (docs/business-rules.md#early-warnings), by the roles the documents play (x-entity.roles): the server registers the routes from it,
// the OpenAPI document describes them; forms ask <api>/earlyWarningPreview instead (the server's own evaluation).
import { fieldWithRole, hasRole } from '../../../../engine/model/roles.ts';
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';

export type AuxiliaryKind = 'demand' | 'contract' | 'settlement';

/** The material plans that answer the figures of one goods against the total demand plan. */
const DEMAND_ROLES = ['demand.total', 'demand.monthly'];

/** The monthly settlements of every kind: each settles an expense contract for a period (x-entity.roles). */
export const SETTLEMENT_ROLE = 'settlement.cost';

/** A monthly settlement: settles a contract for a period, with this-period and cumulative amounts, once approved. */
export function isSettlement(model: EntityModel): boolean {
  return !!model.workflow && hasRole(model, SETTLEMENT_ROLE);
}

export function auxiliaryKind(model: EntityModel): AuxiliaryKind | undefined {
  if (DEMAND_ROLES.some((role) => hasRole(model, role))) return 'demand';
  if (hasRole(model, 'contract.expense')) return 'contract';
  if (isSettlement(model)) return 'settlement';
  return undefined;
}

/** The query parameters of each kind, required first. */
export const AUXILIARY_PARAMS: Record<AuxiliaryKind, { name: string; required: boolean; description: string }[]> = {
  demand: [
    { name: 'projectId', required: true, description: 'the project' },
    { name: 'goodsId', required: true, description: 'the goods' },
    { name: 'materialTotalDemandId', required: false, description: "the total demand plan; without it the project's newest approved one" },
    { name: 'excludeId', required: false, description: 'a document left out of the sums (the one being edited)' },
  ],
  contract: [{ name: 'primaryId', required: true, description: "the expense contract's id" }],
  settlement: [
    { name: 'projectId', required: true, description: 'the project' },
    { name: 'expenditureContractCode', required: true, description: "the expense contract's code" },
    { name: 'subcontractorId', required: false, description: "the contract's counterparty" },
    { name: 'period', required: false, description: 'yyyy-MM: sums of the approved periods before it' },
    { name: 'excludeId', required: false, description: 'a document left out of the sums (the one being edited)' },
  ],
};

/** Roles with early-warning rules but no figures query of their own (the server's evaluators, warning/evaluate.ts). */
const WARNED_WITHOUT_FIGURES = [
  'procurement.monthly',
  'supply.batch',
  'stock.receipt',
  'stock.voucher',
  'stock.count',
  'stock.monthlyReport',
];

/** Whether saving a document of this type may record warnings (the total plan is what others are checked against). */
export function hasWarningRules(model: EntityModel): boolean {
  return (
    (auxiliaryKind(model) !== undefined && !hasRole(model, 'demand.total')) || WARNED_WITHOUT_FIGURES.some((role) => hasRole(model, role))
  );
}

/** A document's reference to its project (the field playing master.project), if it has one. */
export function projectField(model: EntityModel, entities: Readonly<Record<string, EntityModel>>): FieldModel | undefined {
  return fieldWithRole(entities, model, 'master.project');
}

/** Whether a form may ask `<api>/earlyWarningPreview` what saving the document would record: rules, on a project. */
export function hasPreview(model: EntityModel, entities: Readonly<Record<string, EntityModel>>): boolean {
  return hasWarningRules(model) && projectField(model, entities) !== undefined;
}
