// Early-warning rules (docs/rules.md) as pure functions: given a document's lines
// and the project's figures the server read for it, which warning records it raises. Isomorphic: the
// server runs them inside the save/submit transaction, a form may run them on the live numbers.
// Every figure is decimal-exact; ratios are percentages rounded half-up to 2 places.
import { decimalToJson, Dec, roundHalfUp } from '../../../../engine/compute/decimal.ts';
import { renderStored, textRef, type StoredText } from '../../../../engine/i18n/stored-text.ts';
import type { Label } from '../../../../engine/model/types.ts';
import { WARNING_TEXTS } from './texts.ts';

export type WarnLevel = 'info' | 'warning' | 'critical';
type Num = number | string;

/** One warning a document raises; `sourceDetailId` names the line it is about. */
export interface Warning {
  warnType: keyof typeof WARN_TYPES;
  warnLevel: WarnLevel;
  sourceDetailId?: string;
  goodsId?: string;
  /** the month a periodic check's warning is about (late settlement (c)); absent on a document's own warnings */
  period?: string;
  thresholdValue?: Num;
  actualValue?: Num;
  /** what the actual value is measured against: the warning's ratio is actual ÷ base in % (absent: no ratio) */
  baseValue?: Num;
  message: WarningText;
}

/** A warning's text: both languages for whoever shows it now, `ref` for whoever stores it. */
export interface WarningText extends Label {
  ref?: StoredText;
}

/**
 * The rules whose threshold is also what the actual value is measured against (baseValue): a
 * warning recorded before baseValue was stored takes its threshold as its base.
 */
export const THRESHOLD_IS_BASE: readonly (keyof typeof WARN_TYPES)[] = [
  'exceed_total_demand',
  'exceed_monthly_demand',
  'exceed_procure',
  'exceed_supply',
  'receipt_mismatch',
  'exceed_contract_qty',
  'exceed_contract_amount',
  'near_contract_amount',
  'exceed_supplementary',
  'exceed_budget',
  'stock_shortage',
  'material_overuse',
];

/** The tenant's thresholds (system parameters `warn.*`) and the hard-control switch. */
export interface WarnSettings {
  hardControl: boolean;
  /** R-DEM-1: above this % of the total demand the warning is critical */
  demandCriticalPercent: number;
  /** R-PRICE: tolerance over the reference price, % */
  priceTolerancePercent: number;
  /** R-SUPP: supplementary agreements above this % of the original contract */
  supplementaryPercent: number;
  /** R-CAP-3: from this % of the current contract amount on, near_contract_amount */
  nearContractPercent: number;
  /** late_settlement (a): a settlement period longer than this many months */
  settlementSpanMonths: number;
  /** R-INV-1: a stocktake loss above this % of the line's book value → inventory_loss */
  inventoryLossPercent: number;
  /** R-VAR: consumption over the theoretical quantity by more than this % of the design quantity → material_overuse */
  overusePercent: number;
  /** zero_settlement: this many consecutive settlements of a contract ... */
  smallSettlementCount: number;
  /** ... each below this % of the current contract amount */
  smallSettlementPercent: number;
  /** R-BUD-1: from this % of the project's budget for a contract type on, a warning; over 100 % critical */
  nearBudgetPercent: number;
  /** late_settlement (d): one approval level taking more than this many days */
  approvalStepDays: number;
  /** late_settlement (d): the whole approval taking more than this many days */
  approvalTotalDays: number;
}

export const DEFAULT_WARN_SETTINGS: WarnSettings = {
  hardControl: false,
  demandCriticalPercent: 110,
  priceTolerancePercent: 5,
  supplementaryPercent: 15,
  nearContractPercent: 90,
  settlementSpanMonths: 3,
  inventoryLossPercent: 1,
  overusePercent: 0,
  smallSettlementCount: 3,
  smallSettlementPercent: 1,
  nearBudgetPercent: 90,
  approvalStepDays: 3,
  approvalTotalDays: 7,
};

/** The warn_type dictionary's names (schemas/dictionaries/biz.json), for messages that name the rule. */
export const WARN_TYPES = {
  exceed_total_demand: { zh: '超总需用计划', en: 'Over total demand' },
  unplanned_goods: { zh: '计划外物资', en: 'Unplanned goods' },
  exceed_monthly_demand: { zh: '超月度需用计划', en: 'Over monthly demand' },
  exceed_procure: { zh: '供应超采购计划', en: 'Supply over procurement' },
  exceed_supply: { zh: '验收超批次供应', en: 'Receipt over supply' },
  receipt_mismatch: { zh: '收料数量不符', en: 'Receipt quantities inconsistent' },
  exceed_contract_qty: { zh: '超合同数量', en: 'Over contract quantity' },
  exceed_contract_amount: { zh: '超合同金额(累计结算)', en: 'Over contract amount' },
  near_contract_amount: { zh: '接近合同金额', en: 'Near contract amount' },
  exceed_supplementary: { zh: '补充协议超比例', en: 'Supplementary agreements over limit' },
  exceed_budget: { zh: '超成本预算', en: 'Over budget' },
  negative_settlement: { zh: '负结算', en: 'Negative settlement' },
  zero_settlement: { zh: '零结算/类零结算', en: 'Zero settlement' },
  late_settlement: { zh: '结算不及时', en: 'Late settlement' },
  stock_shortage: { zh: '库存不足', en: 'Stock shortage' },
  inventory_loss: { zh: '盘亏', en: 'Stocktake loss' },
  material_overuse: { zh: '材料超耗', en: 'Material overuse' },
  lease_overdue: { zh: '租赁超期', en: 'Lease overdue' },
  price_over_reference: { zh: '单价超参考价', en: 'Price over reference' },
} as const satisfies Record<string, Label>;

/** A warning's text in both languages, and the reference (key and parameters) it is stored as. */
function text(key: keyof typeof WARNING_TEXTS, params: Record<string, unknown>): WarningText {
  const ref = textRef(`warning.${key}`, params);
  return { zh: renderStored(ref, 'zh'), en: renderStored(ref, 'en'), ref };
}

const dec = (v: Num | null | undefined): Dec => new Dec(v === null || v === undefined || v === '' ? 0 : v);
const out = (v: Dec): Num => decimalToJson(v);
/** An amount as a message shows it: 元 to the fen with thousands separators (1234567.5 → "1,234,567.50"). */
const yuan = (v: Dec): string => {
  const [whole, fen] = roundHalfUp(v, 2).toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fen}`;
};
/** actual / threshold in %, 2 places; null when the threshold is zero. */
export function percent(actual: Num, threshold: Num): Num | null {
  const base = dec(threshold);
  return base.isZero() ? null : out(roundHalfUp(dec(actual).div(base).mul(100), 2));
}

/** A document line as the rules see it. */
export interface Line {
  id?: string;
  goodsId?: string;
  /** goods or item name, for messages */
  name: string;
  qty: Num;
}

/** What the project holds for one goods: its total demand T and what other documents already took. */
export interface GoodsFigures {
  /** effectiveQty of the total demand plan; absent = the goods is not planned */
  planned?: Num;
  /** Σ of the other approved and approving documents (monthly demands M, or procurements C) */
  taken: Num;
}

/**
 * R-DEM-1: a monthly demand's lines against the total demand plan. Lines of one goods accumulate in
 * document order. Over 100 % → exceed_total_demand (warning), over the critical % → critical; goods
 * without a total-demand line → unplanned_goods.
 */
export function demandWarnings(lines: readonly Line[], figures: ReadonlyMap<string, GoodsFigures>, settings: WarnSettings): Warning[] {
  return overPlan(lines, figures, settings, 'demandOverTotal', true);
}

/** R-PRO-1 (second half): a procurement's lines against the total demand plan (C(g) + q > T(g)). */
export function procureOverTotalWarnings(
  lines: readonly Line[],
  figures: ReadonlyMap<string, GoodsFigures>,
  settings: WarnSettings,
): Warning[] {
  return overPlan(lines, figures, settings, 'procureOverTotal', false);
}

function overPlan(
  lines: readonly Line[],
  figures: ReadonlyMap<string, GoodsFigures>,
  settings: WarnSettings,
  message: 'demandOverTotal' | 'procureOverTotal',
  flagUnplanned: boolean,
): Warning[] {
  const running = new Map<string, Dec>();
  const warnings: Warning[] = [];
  for (const line of lines) {
    if (!line.goodsId) continue;
    const figure = figures.get(line.goodsId);
    const before = running.get(line.goodsId) ?? dec(figure?.taken);
    const total = before.add(dec(line.qty));
    running.set(line.goodsId, total);
    const base = { sourceDetailId: line.id, goodsId: line.goodsId };
    if (figure?.planned === undefined) {
      if (flagUnplanned)
        warnings.push({
          ...base,
          warnType: 'unplanned_goods',
          warnLevel: 'warning',
          actualValue: out(total),
          message: text('unplanned', { goods: line.name }),
        });
      continue;
    }
    const planned = dec(figure.planned);
    if (total.lte(planned)) continue;
    const ratio = percent(out(total), out(planned));
    const critical = planned.isZero() || total.gt(planned.mul(settings.demandCriticalPercent).div(100));
    warnings.push({
      ...base,
      warnType: 'exceed_total_demand',
      warnLevel: critical ? 'critical' : 'warning',
      thresholdValue: out(planned),
      baseValue: out(planned),
      actualValue: out(total),
      message: text(message, { goods: line.name, actual: out(total), threshold: out(planned), ratio: ratio ?? '∞' }),
    });
  }
  return warnings;
}

/** A line drawn against an upstream line (procurement → monthly demand line, batch → procurement line). */
export interface LinkedLine extends Line {
  /** the upstream line's quantity (demandQty, procureQty) */
  limit: Num;
  /** Σ of the other approved and approving documents' lines on the same upstream line */
  taken: Num;
  upstreamId: string;
}

function overUpstream(
  lines: readonly LinkedLine[],
  warnType: 'exceed_monthly_demand' | 'exceed_procure' | 'exceed_supply' | 'exceed_contract_qty',
  message: 'procureOverMonthly' | 'supplyOverProcure' | 'receiptOverSupply' | 'receiptOverContract',
): Warning[] {
  const running = new Map<string, Dec>();
  const warnings: Warning[] = [];
  for (const line of lines) {
    const total = (running.get(line.upstreamId) ?? dec(line.taken)).add(dec(line.qty));
    running.set(line.upstreamId, total);
    if (total.lte(dec(line.limit))) continue;
    warnings.push({
      warnType,
      warnLevel: 'warning',
      sourceDetailId: line.id,
      goodsId: line.goodsId,
      thresholdValue: out(dec(line.limit)),
      baseValue: out(dec(line.limit)),
      actualValue: out(total),
      message: text(message, { goods: line.name, actual: out(total), threshold: out(dec(line.limit)) }),
    });
  }
  return warnings;
}

/** R-PRO-1 (first half): Σ procureQty on a monthly-demand line + q > its demandQty → exceed_monthly_demand. */
export function procureWarnings(lines: readonly LinkedLine[]): Warning[] {
  return overUpstream(lines, 'exceed_monthly_demand', 'procureOverMonthly');
}

/** R-SUP-1: Σ supplyQty of the batches on a procurement line > its procureQty → exceed_procure. */
export function supplyWarnings(lines: readonly LinkedLine[]): Warning[] {
  return overUpstream(lines, 'exceed_procure', 'supplyOverProcure');
}

/** R-REC (receiving against supply): Σ acceptedQty of the checks on a delivery batch line > its supplyQty → exceed_supply. */
export function receiptOverSupplyWarnings(lines: readonly LinkedLine[]): Warning[] {
  return overUpstream(lines, 'exceed_supply', 'receiptOverSupply');
}

/** A delivery ticket for R-REC-1: delivered and received quantities, the net weight when weighed. */
export interface TicketLine extends Line {
  deliveredQty: Num;
  netWeight?: Num | null;
}

/** R-REC-1 on a delivery ticket: `qty` (received) ≤ the net weight when weighed, else ≤ the delivered quantity → receipt_mismatch. */
export function ticketWarnings(lines: readonly TicketLine[]): Warning[] {
  const warnings: Warning[] = [];
  for (const line of lines) {
    const weighed = !isBlank(line.netWeight) && dec(line.netWeight).gt(0);
    const limit = dec(weighed ? line.netWeight : line.deliveredQty);
    const received = dec(line.qty);
    if (received.lte(limit)) continue;
    warnings.push({
      warnType: 'receipt_mismatch',
      warnLevel: 'warning',
      sourceDetailId: line.id,
      goodsId: line.goodsId,
      thresholdValue: out(limit),
      baseValue: out(limit),
      actualValue: out(received),
      message: text(weighed ? 'receivedOverNet' : 'receivedOverDelivered', {
        goods: line.name,
        actual: out(received),
        threshold: out(limit),
      }),
    });
  }
  return warnings;
}

/** A check line for R-REC-1: `qty` is the accepted quantity. */
export interface AcceptedLine extends Line {
  deliveredQty: Num;
  returnedQty?: Num | null;
}

/**
 * R-REC-1 on a check line: accepted ≤ delivered, and returned ≤ rejected (delivered − accepted) →
 * receipt_mismatch (one per line: an accepted quantity over the delivered one is named alone).
 */
export function acceptanceWarnings(lines: readonly AcceptedLine[]): Warning[] {
  const warnings: Warning[] = [];
  for (const line of lines) {
    const delivered = dec(line.deliveredQty);
    const accepted = dec(line.qty);
    const returned = dec(isBlank(line.returnedQty) ? 0 : line.returnedQty);
    const base = { warnType: 'receipt_mismatch' as const, warnLevel: 'warning' as const, sourceDetailId: line.id, goodsId: line.goodsId };
    if (accepted.gt(delivered)) {
      warnings.push({
        ...base,
        thresholdValue: out(delivered),
        baseValue: out(delivered),
        actualValue: out(accepted),
        message: text('acceptedOverDelivered', { goods: line.name, actual: out(accepted), threshold: out(delivered) }),
      });
    } else if (returned.gt(delivered.sub(accepted))) {
      const rejected = delivered.sub(accepted);
      warnings.push({
        ...base,
        thresholdValue: out(rejected),
        baseValue: out(rejected),
        actualValue: out(returned),
        message: text('returnedOverRejected', { goods: line.name, actual: out(returned), threshold: out(rejected) }),
      });
    }
  }
  return warnings;
}

/** R-REC-2: Σ acceptedQty of the checks on a contract line > its (changed) quantity → exceed_contract_qty (warning). */
export function receiptOverContractWarnings(lines: readonly LinkedLine[]): Warning[] {
  return overUpstream(lines, 'exceed_contract_qty', 'receiptOverContract');
}

/** A settlement line: its cumulative quantity (previous + this) and the contract's (changed) quantity. */
export interface SettledLine extends Line {
  cumulativeQty: Num;
  contractQty?: Num | null;
}

/**
 * R-CAP-1: cumulative quantity over the contract quantity → exceed_contract_qty; critical on goods
 * lines (a delivery cannot exceed what was bought), a warning on work items (re-measurement is common).
 */
export function quantityCapWarnings(lines: readonly SettledLine[]): Warning[] {
  const warnings: Warning[] = [];
  for (const line of lines) {
    if (line.contractQty === null || line.contractQty === undefined || line.contractQty === '') continue;
    const cumulative = dec(line.cumulativeQty);
    const limit = dec(line.contractQty);
    if (cumulative.lte(limit)) continue;
    warnings.push({
      warnType: 'exceed_contract_qty',
      warnLevel: line.goodsId ? 'critical' : 'warning',
      sourceDetailId: line.id,
      goodsId: line.goodsId,
      thresholdValue: out(limit),
      baseValue: out(limit),
      actualValue: out(cumulative),
      message: text('qtyOverContract', { goods: line.name, actual: out(cumulative), threshold: out(limit) }),
    });
  }
  return warnings;
}

/** R-CAP-3: cumulative settled amount against the current contract amount (over 100 % critical, from the near % a warning). */
export function amountCapWarnings(cumulativeAmount: Num, currentContractAmount: Num | null | undefined, settings: WarnSettings): Warning[] {
  if (currentContractAmount === null || currentContractAmount === undefined || dec(currentContractAmount).lte(0)) return [];
  const actual = dec(cumulativeAmount);
  const limit = dec(currentContractAmount);
  const ratio = percent(out(actual), out(limit));
  const values = { thresholdValue: out(limit), actualValue: out(actual), baseValue: out(limit) };
  const params = { actual: yuan(actual), threshold: yuan(limit), ratio, limit: settings.nearContractPercent };
  if (actual.gt(limit))
    return [{ warnType: 'exceed_contract_amount', warnLevel: 'critical', ...values, message: text('amountOverContract', params) }];
  if (actual.gte(limit.mul(settings.nearContractPercent).div(100)))
    return [{ warnType: 'near_contract_amount', warnLevel: 'warning', ...values, message: text('amountNearContract', params) }];
  return [];
}

const isBlank = (v: Num | null | undefined): v is null | undefined | '' => v === null || v === undefined || v === '';
const negative = (v: Dec) => v.isNeg() && !v.isZero();

/**
 * negative_settlement / zero_settlement: this period's amount negative, or (the amount not) its payable amount negative →
 * negative_settlement; the amount exactly zero → zero_settlement.
 */
export function settlementAmountWarnings(thisAmount: Num | null | undefined, thisPayable?: Num | null): Warning[] {
  if (isBlank(thisAmount)) return [];
  const amount = dec(thisAmount);
  if (negative(amount))
    return [
      {
        warnType: 'negative_settlement',
        warnLevel: 'warning',
        actualValue: out(amount),
        message: text('negative', { actual: yuan(amount) }),
      },
    ];
  const zero: Warning[] = amount.isZero()
    ? [{ warnType: 'zero_settlement', warnLevel: 'info', actualValue: 0, message: text('zero', {}) }]
    : [];
  if (!isBlank(thisPayable) && negative(dec(thisPayable))) {
    return [
      ...zero,
      {
        warnType: 'negative_settlement',
        warnLevel: 'warning',
        actualValue: out(dec(thisPayable)),
        message: text('negativePayable', { actual: yuan(dec(thisPayable)) }),
      },
    ];
  }
  return zero;
}

/**
 * zero_settlement ("类零结算"): this settlement and the ones before it — `amounts`, this period
 * first, then the earlier approved periods newest first — are the configured count of consecutive
 * settlements each below the % of the current contract amount. An exactly zero amount is already a
 * zero settlement of its own, so this one is about small positive amounts.
 */
export function smallSettlementWarnings(
  amounts: readonly Num[],
  currentContractAmount: Num | null | undefined,
  settings: WarnSettings,
): Warning[] {
  const count = settings.smallSettlementCount;
  if (isBlank(currentContractAmount) || dec(currentContractAmount).lte(0) || count < 1 || amounts.length < count) return [];
  const current = dec(amounts[0]);
  if (current.lte(0)) return [];
  const limit = roundHalfUp(dec(currentContractAmount).mul(settings.smallSettlementPercent).div(100), 2);
  if (!amounts.slice(0, count).every((a) => dec(a).lt(limit))) return [];
  return [
    {
      warnType: 'zero_settlement',
      warnLevel: 'warning',
      thresholdValue: out(limit),
      baseValue: out(dec(currentContractAmount)),
      actualValue: out(current),
      message: text('smallSettlements', {
        count,
        base: yuan(dec(currentContractAmount)),
        limit: settings.smallSettlementPercent,
        actual: yuan(current),
      }),
    },
  ];
}

/** Whole months from one date to another, counted as the calendar does (01-01 → 04-01 is 3). */
function monthsBetween(start: string, end: string): Dec {
  const [sy, sm, sd] = start.split('-').map(Number);
  const [ey, em, ed] = end.split('-').map(Number);
  const months = (ey - sy) * 12 + (em - sm);
  return new Dec(ed > sd ? months + 0.5 : months);
}

/** An approval's timeline, in wall-clock 'YYYY-MM-DD HH:mm:ss': submitted, each level's task from creation to completion, finished. */
export interface ApprovalTimeline {
  submitted: string;
  finished: string;
  steps: readonly { name: string; start: string; end: string }[];
}

/** Days from one wall-clock time to another, to 1 place. */
function daysBetween(from: string, to: string): Dec {
  const ms = (t: string) => Date.parse(`${t.slice(0, 19).replace(' ', 'T')}Z`);
  return roundHalfUp(new Dec(ms(to) - ms(from)).div(86_400_000), 1);
}

/** late_settlement (d): a level over its days, the whole approval over its days, or not finished in the month it was submitted. */
function approvalReasons(approval: ApprovalTimeline, settings: WarnSettings): WarningText[] {
  const reasons: WarningText[] = [];
  for (const step of approval.steps) {
    const days = daysBetween(step.start, step.end);
    if (days.gt(settings.approvalStepDays))
      reasons.push(text('approvalStepSlow', { step: step.name, days: out(days), limit: settings.approvalStepDays }));
  }
  const total = daysBetween(approval.submitted, approval.finished);
  if (total.gt(settings.approvalTotalDays)) reasons.push(text('approvalSlow', { days: out(total), limit: settings.approvalTotalDays }));
  if (approval.submitted.slice(0, 7) !== approval.finished.slice(0, 7))
    reasons.push(text('approvalAcrossMonth', { start: approval.submitted.slice(0, 10), end: approval.finished.slice(0, 10) }));
  return reasons;
}

/**
 * late_settlement ((a), (b) and (d) of docs/rules.md#late_settlement): the period from start to end date spans more than
 * the limit, the document was prepared in another month than its settlement period, or (once
 * approved) its approval was slow. One warning with every reason found.
 */
export function timelinessWarnings(
  doc: { period?: string | null; startDate?: string | null; endDate?: string | null; preparedMonth: string },
  settings: WarnSettings,
  approval?: ApprovalTimeline | null,
): Warning[] {
  const reasons: WarningText[] = [];
  if (doc.startDate && doc.endDate && monthsBetween(doc.startDate, doc.endDate).gt(settings.settlementSpanMonths)) {
    reasons.push(text('spanTooLong', { start: doc.startDate, end: doc.endDate, limit: settings.settlementSpanMonths }));
  }
  if (doc.period && doc.period !== doc.preparedMonth)
    reasons.push(text('periodNotCreated', { period: doc.period, month: doc.preparedMonth }));
  if (approval) reasons.push(...approvalReasons(approval, settings));
  if (!reasons.length) return [];
  return [
    {
      warnType: 'late_settlement',
      warnLevel: 'warning',
      message: {
        zh: reasons.map((r) => r.zh).join(';'),
        en: reasons.map((r) => r.en).join('; '),
        ref: reasons.map((r) => r.ref ?? { zh: r.zh, en: r.en }),
      },
    },
  ];
}

/** lease_overdue: a lease settlement running past the end date of its contract. */
export function leaseOverdueWarnings(endDate: string | null | undefined, contractEndDate: string | null | undefined): Warning[] {
  if (!endDate || !contractEndDate || endDate <= contractEndDate) return [];
  return [
    { warnType: 'lease_overdue', warnLevel: 'warning', message: text('leaseOverdue', { end: endDate, contractEnd: contractEndDate }) },
  ];
}

/** A line for R-STOCK-4: the demand to cover (the next month's estimate) and the project's current stock of the goods. */
export interface StockLine extends Line {
  stock: Num;
}

/** R-STOCK-4 (tip): the project's stock does not cover the demand of a line → stock_shortage (info). */
export function stockWarnings(lines: readonly StockLine[]): Warning[] {
  return lines
    .filter((l) => l.goodsId && dec(l.stock).lt(dec(l.qty)))
    .map((l) => ({
      warnType: 'stock_shortage' as const,
      warnLevel: 'info' as const,
      sourceDetailId: l.id,
      goodsId: l.goodsId,
      thresholdValue: out(dec(l.qty)),
      baseValue: out(dec(l.qty)),
      actualValue: out(dec(l.stock)),
      message: text('stockShort', { goods: l.name, actual: out(dec(l.stock)), threshold: out(dec(l.qty)) }),
    }));
}

/** A stocktake line for R-INV-1: book and counted quantities, and the book price (absent: no book stock). */
export interface CountedLine extends Line {
  bookQty: Num;
  countQty: Num;
  price?: Num | null;
}

/**
 * R-INV-1: `diffQty = countQty − bookQty`; a loss (diffQty < 0) worth more than the % of the line's book
 * value `r2(bookQty × price)` → inventory_loss (warning). Without a book price the quantities compare.
 */
export function inventoryLossWarnings(lines: readonly CountedLine[], settings: WarnSettings): Warning[] {
  const warnings: Warning[] = [];
  for (const line of lines) {
    const book = dec(line.bookQty);
    const loss = book.sub(dec(line.countQty));
    if (loss.lte(0)) continue;
    const base = { warnType: 'inventory_loss' as const, warnLevel: 'warning' as const, sourceDetailId: line.id, goodsId: line.goodsId };
    const priced = !isBlank(line.price) && dec(line.price).gt(0);
    if (priced) {
      const bookValue = roundHalfUp(book.mul(dec(line.price)), 2);
      const lossValue = roundHalfUp(loss.mul(dec(line.price)), 2);
      const limit = roundHalfUp(bookValue.mul(settings.inventoryLossPercent).div(100), 2);
      if (lossValue.lte(limit)) continue;
      warnings.push({
        ...base,
        thresholdValue: out(limit),
        baseValue: out(bookValue),
        actualValue: out(lossValue),
        message: text('inventoryLoss', {
          goods: line.name,
          qty: out(loss),
          actual: yuan(lossValue),
          book: yuan(bookValue),
          ratio: percent(out(lossValue), out(bookValue)),
          limit: settings.inventoryLossPercent,
        }),
      });
    } else {
      const limit = roundHalfUp(book.mul(settings.inventoryLossPercent).div(100), 4);
      if (loss.lte(limit)) continue;
      warnings.push({
        ...base,
        thresholdValue: out(limit),
        baseValue: out(book),
        actualValue: out(loss),
        message: text('inventoryLossQty', {
          goods: line.name,
          actual: out(loss),
          book: out(book),
          ratio: percent(out(loss), out(book)),
          limit: settings.inventoryLossPercent,
        }),
      });
    }
  }
  return warnings;
}

/** A monthly report line for R-VAR: `qty` is the actual consumption A; design quantity D, loss rate L %, price P. */
export interface ConsumedLine extends Line {
  designQty?: Num | null;
  lossRate?: Num | null;
  price?: Num | null;
}

/**
 * R-VAR: theoretical quantity `Th = r4(D × (1 + L/100))`; saving against theory `Th − A`, its
 * rate `(Th − A) × P / (D × P)` (= (Th − A) / D) in %, r2. A rate below −(the %) → material_overuse
 * (warning), with the amount `r2((Th − A) × P)` when the price is known. Lines without a design
 * quantity are not measured.
 */
export function overuseWarnings(lines: readonly ConsumedLine[], settings: WarnSettings): Warning[] {
  const warnings: Warning[] = [];
  for (const line of lines) {
    if (isBlank(line.designQty) || dec(line.designQty).lte(0)) continue;
    const design = dec(line.designQty);
    const lossRate = dec(isBlank(line.lossRate) ? 0 : line.lossRate);
    const theoretical = roundHalfUp(design.mul(dec(100).add(lossRate)).div(100), 4);
    const saving = theoretical.sub(dec(line.qty));
    const rate = roundHalfUp(saving.div(design).mul(100), 2);
    if (!rate.lt(-settings.overusePercent)) continue;
    const params = {
      goods: line.name,
      actual: out(dec(line.qty)),
      threshold: out(theoretical),
      design: out(design),
      lossRate: out(lossRate),
      over: out(saving.neg()),
      rate: out(rate.neg()),
    };
    const priced = !isBlank(line.price) && dec(line.price).gt(0);
    warnings.push({
      warnType: 'material_overuse',
      warnLevel: 'warning',
      sourceDetailId: line.id,
      goodsId: line.goodsId,
      thresholdValue: out(theoretical),
      baseValue: out(theoretical),
      actualValue: out(dec(line.qty)),
      message: priced ? text('overuseAmount', { ...params, amount: yuan(saving.neg().mul(dec(line.price))) }) : text('overuse', params),
    });
  }
  return warnings;
}

/**
 * R-BUD-1: Σ current amounts of the project's other approved and approving expense contracts of a
 * type + this contract's > the project's budget for the type → exceed_budget (critical); from the
 * near % on, a warning. No budget line for the type: nothing to check.
 */
export function budgetWarnings(contracted: Num, budget: Num | null | undefined, typeName: Label, settings: WarnSettings): Warning[] {
  if (isBlank(budget)) return [];
  const limit = dec(budget);
  const actual = dec(contracted);
  const ratio = percent(out(actual), out(limit));
  const values = { thresholdValue: out(limit), actualValue: out(actual), baseValue: out(limit) };
  const params = { actual: yuan(actual), threshold: yuan(limit), ratio: ratio ?? '∞', limit: settings.nearBudgetPercent };
  // the type's name differs by language: a Label parameter
  const message = (key: 'budgetOver' | 'budgetNear') => text(key, { ...params, type: typeName });
  if (actual.gt(limit)) return [{ warnType: 'exceed_budget', warnLevel: 'critical', ...values, message: message('budgetOver') }];
  if (limit.gt(0) && actual.gte(limit.mul(settings.nearBudgetPercent).div(100)))
    return [{ warnType: 'exceed_budget', warnLevel: 'warning', ...values, message: message('budgetNear') }];
  return [];
}

/** A priced line for R-PRICE: its price and the goods' reference price (absent: no check). */
export interface PricedLine extends Line {
  price?: Num | null;
  referencePrice?: Num | null;
}

/** R-PRICE: price > referencePrice × (1 + tolerance) → price_over_reference (info). */
export function priceWarnings(lines: readonly PricedLine[], settings: WarnSettings): Warning[] {
  const warnings: Warning[] = [];
  for (const line of lines) {
    if (line.price === null || line.price === undefined || line.price === '' || !line.referencePrice || dec(line.referencePrice).lte(0))
      continue;
    const limit = roundHalfUp(dec(line.referencePrice).mul(dec(100).add(settings.priceTolerancePercent)).div(100), 4);
    if (dec(line.price).lte(limit)) continue;
    warnings.push({
      warnType: 'price_over_reference',
      warnLevel: 'info',
      sourceDetailId: line.id,
      goodsId: line.goodsId,
      thresholdValue: out(limit),
      baseValue: out(dec(line.referencePrice)),
      actualValue: out(dec(line.price)),
      message: text('priceOverReference', {
        goods: line.name,
        actual: out(dec(line.price)),
        reference: out(dec(line.referencePrice)),
        limit: settings.priceTolerancePercent,
        threshold: out(limit),
      }),
    });
  }
  return warnings;
}

/** R-SUPP: Σ supplementary-agreement amounts over the % of the original contract amount → exceed_supplementary. */
export function supplementaryWarnings(originalAmount: Num | null | undefined, supplementaryTotal: Num, settings: WarnSettings): Warning[] {
  if (!originalAmount || dec(originalAmount).lte(0)) return [];
  const base = dec(originalAmount);
  const total = dec(supplementaryTotal);
  if (total.lte(base.mul(settings.supplementaryPercent).div(100))) return [];
  return [
    {
      warnType: 'exceed_supplementary',
      warnLevel: 'warning',
      thresholdValue: out(base),
      baseValue: out(base),
      actualValue: out(total),
      message: text('supplementary', {
        actual: yuan(total),
        base: yuan(base),
        limit: settings.supplementaryPercent,
        ratio: percent(out(total), out(base)),
      }),
    },
  ];
}

/** The warnings hard control refuses a submission for: critical ones. */
export function blocking(warnings: readonly Warning[], settings: WarnSettings): Warning[] {
  return settings.hardControl ? warnings.filter((w) => w.warnLevel === 'critical') : [];
}

/** "[超总需用计划] 钢筋:…;[…] …" in both languages: a refusal's details. */
export function describe(warnings: readonly Warning[]): Label {
  const part = (lang: 'zh' | 'en') =>
    warnings.map((w) => `[${WARN_TYPES[w.warnType][lang]}] ${w.message[lang]}`).join(lang === 'zh' ? ';' : '; ');
  return { zh: part('zh'), en: part('en') };
}
