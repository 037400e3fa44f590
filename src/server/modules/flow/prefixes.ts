// The workflow prefixes of SPEC §2: each names a document type's approval pages
// (/work/process/<prefix>/form|handle|detail) and its flow category flow_<prefix>. Each has a default
// process in schemas/workflows/<prefix>.bpmn, deployed for every tenant that has none of that key.
import type { Label } from '../../../engine/model/types.ts';

export const WORKFLOW_PREFIXES: Readonly<Record<string, Label>> = {
  construction: { zh: '收入合同', en: 'Income contract' },
  expenditure: { zh: '支出合同', en: 'Expense contract' },
  materialTotalDemand: { zh: '材料总需用计划', en: 'Total material demand plan' },
  materialMonthlyDemand: { zh: '材料月度需用计划', en: 'Monthly material demand plan' },
  materialMonthlyProcure: { zh: '材料月度采购计划', en: 'Monthly material procurement plan' },
  materialBatchSupply: { zh: '材料批次供应', en: 'Material batch supply' },
  materialTurnoverDemand: { zh: '周转材料需用计划', en: 'Turnover material demand plan' },
  materialCheck: { zh: '材料验收', en: 'Material check' },
  materialReceiveVoucher: { zh: '材料收料单', en: 'Material receiving voucher' },
  materialTurnoverCheck: { zh: '周转材料验收', en: 'Turnover material check' },
  materialConcreteMonthlySettlement: { zh: '商品混凝土月度结算', en: 'Monthly ready-mixed concrete settlement' },
  materialTurnoverMonthlySettlement: { zh: '周转材料月度结算', en: 'Monthly turnover material settlement' },
  materialMonthlySettlement: { zh: '材料月度结算', en: 'Monthly material settlement' },
  materialAluminumAlloySettlement: { zh: '铝合金模板结算', en: 'Aluminium alloy formwork settlement' },
  materialInventory: { zh: '材料盘点', en: 'Material inventory' },
  materialTurnoverInventory: { zh: '周转材料盘点', en: 'Turnover material inventory' },
  materialSituation: { zh: '材料收发存月报', en: 'Monthly material receipt, consumption and stock report' },
  materialWasteApply: { zh: '废旧物资处置申请', en: 'Waste material disposal request' },
  materialWasteDispose: { zh: '废旧物资处置', en: 'Waste material disposal' },
  equipmentDemand: { zh: '设备需用计划', en: 'Equipment demand plan' },
  equipmentUsageRecords: { zh: '设备使用记录', en: 'Equipment usage record' },
  equipmentLeaseMonthlySettlement: { zh: '设备租赁月度结算', en: 'Monthly equipment lease settlement' },
  equipmentScaffoldSettlement: { zh: '脚手架结算', en: 'Scaffold settlement' },
  subcontractMonthlyExamine: { zh: '分包月度考核', en: 'Monthly subcontract examination' },
  subcontractMonthlySettlement: { zh: '分包月度结算', en: 'Monthly subcontract settlement' },
  subcontractSettlementFiling: { zh: '分包结算备案', en: 'Subcontract settlement filing' },
  laborMonthlySettlement: { zh: '劳务月度结算', en: 'Monthly labour settlement' },
  laborSettlementFinalization: { zh: '劳务结算定案', en: 'Labour settlement finalisation' },};

export const CATEGORY_PREFIX = 'flow_';

/** flow_materialTotalDemand → materialTotalDemand (undefined for another category). */
export function prefixOfCategory(category: string | null | undefined): string | undefined {
  return category && category.startsWith(CATEGORY_PREFIX) ? category.slice(CATEGORY_PREFIX.length) : undefined;
}

export function categoryOf(prefix: string): string {
  return CATEGORY_PREFIX + prefix;
}
