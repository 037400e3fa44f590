// The texts of the early warnings (docs/rules.md), in both languages; placeholders are {name}. A
// warning stores its key and parameters (i18n/stored-text.ts) and is read in the reader's language.
import type { Label } from '../../../../engine/model/types.ts';

export const WARNING_TEXTS = {
  demandOverTotal: {
    zh: '{goods}:累计月度需用 {actual} 超过总需用计划 {threshold}({ratio}%)',
    en: '{goods}: cumulative monthly demand {actual} exceeds the total demand plan {threshold} ({ratio} %)',
  },
  unplanned: { zh: '{goods} 不在总需用计划中', en: '{goods} is not in the total demand plan' },
  procureOverMonthly: {
    zh: '{goods}:累计采购 {actual} 超过月度需用计划 {threshold}',
    en: '{goods}: cumulative procurement {actual} exceeds the monthly demand {threshold}',
  },
  procureOverTotal: {
    zh: '{goods}:累计采购 {actual} 超过总需用计划 {threshold}({ratio}%)',
    en: '{goods}: cumulative procurement {actual} exceeds the total demand plan {threshold} ({ratio} %)',
  },
  supplyOverProcure: {
    zh: '{goods}:累计供应 {actual} 超过采购计划 {threshold}',
    en: '{goods}: cumulative supply {actual} exceeds the procurement plan {threshold}',
  },
  receiptOverSupply: {
    zh: '{goods}:累计验收合格 {actual} 超过批次供应量 {threshold}',
    en: "{goods}: cumulative accepted quantity {actual} exceeds the delivery batch's supply {threshold}",
  },
  receivedOverDelivered: {
    zh: '{goods}:实收数量 {actual} 超过送货数量 {threshold}',
    en: '{goods}: received quantity {actual} exceeds the delivered quantity {threshold}',
  },
  receivedOverNet: {
    zh: '{goods}:实收数量 {actual} 超过过磅净重 {threshold}',
    en: '{goods}: received quantity {actual} exceeds the weighed net weight {threshold}',
  },
  acceptedOverDelivered: {
    zh: '{goods}:合格数量 {actual} 超过到货数量 {threshold}',
    en: '{goods}: accepted quantity {actual} exceeds the delivered quantity {threshold}',
  },
  returnedOverRejected: {
    zh: '{goods}:退货数量 {actual} 超过不合格数量 {threshold}',
    en: '{goods}: returned quantity {actual} exceeds the rejected quantity {threshold}',
  },
  receiptOverContract: {
    zh: '{goods}:累计验收合格 {actual} 超过合同数量 {threshold}',
    en: '{goods}: cumulative accepted quantity {actual} exceeds the contract quantity {threshold}',
  },
  qtyOverContract: {
    zh: '{goods}:累计结算数量 {actual} 超过合同数量 {threshold}',
    en: '{goods}: cumulative settled quantity {actual} exceeds the contract quantity {threshold}',
  },
  amountOverContract: {
    zh: '累计结算金额 {actual} 元超过合同金额 {threshold} 元({ratio}%)',
    en: 'Cumulative settled amount {actual} exceeds the contract amount {threshold} ({ratio} %)',
  },
  amountNearContract: {
    zh: '累计结算金额 {actual} 元已达合同金额 {threshold} 元的 {ratio}%(预警线 {limit}%)',
    en: 'Cumulative settled amount {actual} has reached {ratio} % of the contract amount {threshold} (warning from {limit} %)',
  },
  supplementary: {
    zh: '补充协议累计金额 {actual} 元超过原合同金额 {base} 元的 {limit}%({ratio}%)',
    en: 'Supplementary agreements total {actual}, over {limit} % of the original contract amount {base} ({ratio} %)',
  },
  negative: { zh: '本期结算金额 {actual} 元为负数', en: "This period's settled amount {actual} is negative" },
  negativePayable: { zh: '本期应付金额 {actual} 元为负数', en: "This period's payable amount {actual} is negative" },
  smallSettlements: {
    zh: '连续 {count} 期结算金额均低于当前合同金额 {base} 元的 {limit}%(本期 {actual} 元)',
    en: '{count} consecutive settlements each below {limit} % of the current contract amount {base} (this period {actual})',
  },
  inventoryLoss: {
    zh: '{goods}:盘亏 {qty},金额 {actual} 元,为账面金额 {book} 元的 {ratio}%,超过 {limit}%',
    en: '{goods}: stocktake loss of {qty} worth {actual}, {ratio} % of the book value {book}, over {limit} %',
  },
  inventoryLossQty: {
    zh: '{goods}:盘亏 {actual},为账面数量 {book} 的 {ratio}%,超过 {limit}%',
    en: '{goods}: stocktake loss of {actual}, {ratio} % of the book quantity {book}, over {limit} %',
  },
  overuse: {
    zh: '{goods}:本月耗用 {actual} 超过理论消耗量 {threshold}(设计用量 {design},损耗率 {lossRate}%),超耗 {over},超耗率 {rate}%',
    en: '{goods}: consumed {actual} this month, over the theoretical quantity {threshold} (design {design}, loss rate {lossRate} %) by {over}, an overuse rate of {rate} %',
  },
  overuseAmount: {
    zh: '{goods}:本月耗用 {actual} 超过理论消耗量 {threshold}(设计用量 {design},损耗率 {lossRate}%),超耗 {over},金额 {amount} 元,超耗率 {rate}%',
    en: '{goods}: consumed {actual} this month, over the theoretical quantity {threshold} (design {design}, loss rate {lossRate} %) by {over} worth {amount}, an overuse rate of {rate} %',
  },
  budgetOver: {
    zh: '{type}类合同累计 {actual} 元超过项目成本预算 {threshold} 元({ratio}%)',
    en: "Contracts of type {type} total {actual}, over the project's budget {threshold} ({ratio} %)",
  },
  budgetNear: {
    zh: '{type}类合同累计 {actual} 元已达项目成本预算 {threshold} 元的 {ratio}%(预警线 {limit}%)',
    en: "Contracts of type {type} total {actual}, {ratio} % of the project's budget {threshold} (warning from {limit} %)",
  },
  zero: { zh: '本期结算金额为零', en: "This period's settled amount is zero" },
  spanTooLong: {
    zh: '结算期间 {start} 至 {end} 超过 {limit} 个月',
    en: 'The settlement period {start} to {end} is longer than {limit} month(s)',
  },
  periodNotCreated: {
    zh: '结算期次 {period} 与编制月份 {month} 不一致',
    en: 'Settlement period {period} differs from the month it was prepared, {month}',
  },
  approvalStepSlow: {
    zh: '审批环节“{step}”用时 {days} 天,超过 {limit} 天',
    en: 'Approval step "{step}" took {days} days, more than {limit}',
  },
  approvalSlow: { zh: '审批共用时 {days} 天,超过 {limit} 天', en: 'The approval took {days} days in all, more than {limit}' },
  approvalAcrossMonth: {
    zh: '{start} 提交审批,{end} 才审批完成,未在当月办结',
    en: 'Submitted for approval on {start} and approved only on {end}, not within the month',
  },
  stockShort: {
    zh: '{goods}:现有库存 {actual} 不足下月需用 {threshold}',
    en: "{goods}: stock {actual} does not cover next month's demand {threshold}",
  },
  leaseOverdue: {
    zh: '结算截止日期 {end} 已超过租赁合同结束日期 {contractEnd}',
    en: "The settlement runs to {end}, past the lease contract's end date {contractEnd}",
  },
  priceOverReference: {
    zh: '{goods}:单价 {actual} 超过参考价 {reference} 的 {limit}%(上限 {threshold})',
    en: '{goods}: price {actual} exceeds the reference price {reference} by more than {limit} % (limit {threshold})',
  },
  // late_settlement (c), the periodic check (late-settlement.ts)
  unsettled: {
    zh: '{month} 有{activity},截至 {due} 仍无该期结算',
    en: '{activity} in {month}, but no settlement for that period by {due}',
  },
  // the message telling the project's responsible users of a document's new warnings
  notifyTitle: { zh: '预警:{document} {code} 触发 {count} 条预警', en: 'Warning: {document} {code} raised {count} warning(s)' },
  notifyLine: { zh: '[{type}] {message}', en: '[{type}] {message}' },
  notifyLines: { zh: '{lines}', en: '{lines}' },
} as const satisfies Record<string, Label>;
