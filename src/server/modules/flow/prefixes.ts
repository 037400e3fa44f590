// The workflow prefixes of SPEC §2: each names a document type's approval pages
// (/work/process/<prefix>/form|handle|detail) and its flow category flow_<prefix>, named in the `flow`
// dictionary (key <prefix>, zh/en). Each has a default process in schemas/workflows/<prefix>.bpmn,
// deployed for every tenant that has none of that key.

export const WORKFLOW_PREFIXES: readonly string[] = [
  'construction',
  'expenditure',
  'materialTotalDemand',
  'materialMonthlyDemand',
  'materialMonthlyProcure',
  'materialBatchSupply',
  'materialTurnoverDemand',
  'materialCheck',
  'materialReceiveVoucher',
  'materialTurnoverCheck',
  'materialConcreteMonthlySettlement',
  'materialTurnoverMonthlySettlement',
  'materialMonthlySettlement',
  'materialAluminumAlloySettlement',
  'materialInventory',
  'materialTurnoverInventory',
  'materialSituation',
  'materialWasteApply',
  'materialWasteDispose',
  'equipmentDemand',
  'equipmentUsageRecords',
  'equipmentLeaseMonthlySettlement',
  'equipmentScaffoldSettlement',
  'subcontractMonthlyExamine',
  'subcontractMonthlySettlement',
  'subcontractSettlementFiling',
  'laborMonthlySettlement',
  'laborSettlementFinalization',
];

export const CATEGORY_PREFIX = 'flow_';

/** flow_materialTotalDemand → materialTotalDemand (undefined for another category). */
export function prefixOfCategory(category: string | null | undefined): string | undefined {
  return category && category.startsWith(CATEGORY_PREFIX) ? category.slice(CATEGORY_PREFIX.length) : undefined;
}

export function categoryOf(prefix: string): string {
  return CATEGORY_PREFIX + prefix;
}
