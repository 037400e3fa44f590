// Early-warning rules (domain.md §4.3, §4.5, §4.6, §4.15) as pure functions: given a document's lines
// and the project's figures the server read for it, which warnTip records it raises. Isomorphic: the
// server runs them inside the save/submit transaction, a form may run them on the live numbers.
// Every figure is decimal-exact; ratios are percentages rounded half-up to 2 places.
import { decimalToJson, Dec, roundHalfUp } from '../compute/decimal.ts';
import { render } from '../i18n/messages.ts';
import type { Label } from '../model/types.ts';

export type WarnLevel = 'info' | 'warning' | 'critical';
type Num = number | string;

/** One warning a document raises; `sourceDetailId` names the line it is about. */
export interface Warning {
  warnType: keyof typeof WARN_TYPES;
  warnLevel: WarnLevel;
  sourceDetailId?: string;
  goodsId?: string;
  thresholdValue?: Num;
  actualValue?: Num;
  message: Label;
}

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
}

export const DEFAULT_WARN_SETTINGS: WarnSettings = {
  hardControl: false,
  demandCriticalPercent: 110,
  priceTolerancePercent: 5,
  supplementaryPercent: 15,
  nearContractPercent: 90,
  settlementSpanMonths: 3,
};

/** The warn_type dictionary's names (schemas/dictionaries/biz.json), for messages that name the rule. */
export const WARN_TYPES = {
  exceed_total_demand: { zh: '超总需用计划', en: 'Over total demand' },
  unplanned_goods: { zh: '计划外物资', en: 'Unplanned goods' },
  exceed_monthly_demand: { zh: '超月度需用计划', en: 'Over monthly demand' },
  exceed_procure: { zh: '供应超采购计划', en: 'Supply over procurement' },
  exceed_contract_qty: { zh: '超合同数量', en: 'Over contract quantity' },
  exceed_contract_amount: { zh: '超合同金额(累计结算)', en: 'Over contract amount' },
  near_contract_amount: { zh: '接近合同金额', en: 'Near contract amount' },
  exceed_supplementary: { zh: '补充协议超比例', en: 'Supplementary agreements over limit' },
  negative_settlement: { zh: '负结算', en: 'Negative settlement' },
  zero_settlement: { zh: '零结算/类零结算', en: 'Zero settlement' },
  late_settlement: { zh: '结算不及时', en: 'Late settlement' },
  stock_shortage: { zh: '库存不足', en: 'Stock shortage' },
  lease_overdue: { zh: '租赁超期', en: 'Lease overdue' },
  price_over_reference: { zh: '单价超参考价', en: 'Price over reference' },
} as const satisfies Record<string, Label>;

const TEXT = {
  demandOverTotal: { zh: '{goods}:累计月度需用 {actual} 超过总需用计划 {threshold}({ratio}%)', en: '{goods}: cumulative monthly demand {actual} exceeds the total demand plan {threshold} ({ratio} %)' },
  unplanned: { zh: '{goods} 不在总需用计划中', en: '{goods} is not in the total demand plan' },
  procureOverMonthly: { zh: '{goods}:累计采购 {actual} 超过月度需用计划 {threshold}', en: '{goods}: cumulative procurement {actual} exceeds the monthly demand {threshold}' },
  procureOverTotal: { zh: '{goods}:累计采购 {actual} 超过总需用计划 {threshold}({ratio}%)', en: '{goods}: cumulative procurement {actual} exceeds the total demand plan {threshold} ({ratio} %)' },
  supplyOverProcure: { zh: '{goods}:累计供应 {actual} 超过采购计划 {threshold}', en: '{goods}: cumulative supply {actual} exceeds the procurement plan {threshold}' },
  qtyOverContract: { zh: '{goods}:累计结算数量 {actual} 超过合同数量 {threshold}', en: '{goods}: cumulative settled quantity {actual} exceeds the contract quantity {threshold}' },
  amountOverContract: { zh: '累计结算金额 {actual} 元超过合同金额 {threshold} 元({ratio}%)', en: 'Cumulative settled amount {actual} exceeds the contract amount {threshold} ({ratio} %)' },
  amountNearContract: { zh: '累计结算金额 {actual} 元已达合同金额 {threshold} 元的 {ratio}%(预警线 {limit}%)', en: 'Cumulative settled amount {actual} has reached {ratio} % of the contract amount {threshold} (warning from {limit} %)' },
  supplementary: { zh: '补充协议累计金额 {actual} 元超过原合同金额 {base} 元的 {limit}%({ratio}%)', en: 'Supplementary agreements total {actual}, over {limit} % of the original contract amount {base} ({ratio} %)' },
  negative: { zh: '本期结算金额 {actual} 元为负数', en: 'This period\'s settled amount {actual} is negative' },
  zero: { zh: '本期结算金额为零', en: 'This period\'s settled amount is zero' },
  spanTooLong: { zh: '结算期间 {start} 至 {end} 超过 {limit} 个月', en: 'The settlement period {start} to {end} is longer than {limit} month(s)' },
  periodNotCreated: { zh: '结算期次 {period} 与编制月份 {month} 不一致', en: 'Settlement period {period} differs from the month it was prepared, {month}' },
  stockShort: { zh: '{goods}:现有库存 {actual} 不足下月需用 {threshold}', en: '{goods}: stock {actual} does not cover next month\'s demand {threshold}' },
  leaseOverdue: { zh: '结算截止日期 {end} 已超过租赁合同结束日期 {contractEnd}', en: 'The settlement runs to {end}, past the lease contract\'s end date {contractEnd}' },
  priceOverReference: { zh: '{goods}:单价 {actual} 超过参考价 {reference} 的 {limit}%(上限 {threshold})', en: '{goods}: price {actual} exceeds the reference price {reference} by more than {limit} % (limit {threshold})' },
} as const satisfies Record<string, Label>;

function text(key: keyof typeof TEXT, params: Record<string, unknown>): Label {
  return { zh: render(TEXT, key, 'zh', params), en: render(TEXT, key, 'en', params) };
}

const dec = (v: Num | null | undefined): Dec => new Dec(v === null || v === undefined || v === '' ? 0 : v);
const out = (v: Dec): Num => decimalToJson(v);
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
export function procureOverTotalWarnings(lines: readonly Line[], figures: ReadonlyMap<string, GoodsFigures>, settings: WarnSettings): Warning[] {
  return overPlan(lines, figures, settings, 'procureOverTotal', false);
}

function overPlan(lines: readonly Line[], figures: ReadonlyMap<string, GoodsFigures>, settings: WarnSettings, message: 'demandOverTotal' | 'procureOverTotal', flagUnplanned: boolean): Warning[] {
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
      if (flagUnplanned) warnings.push({ ...base, warnType: 'unplanned_goods', warnLevel: 'warning', actualValue: out(total), message: text('unplanned', { goods: line.name }) });
      continue;
    }
    const planned = dec(figure.planned);
    if (total.lte(planned)) continue;
    const ratio = percent(out(total), out(planned));
    const critical = planned.isZero() || total.gt(planned.mul(settings.demandCriticalPercent).div(100));
    warnings.push({
      ...base, warnType: 'exceed_total_demand', warnLevel: critical ? 'critical' : 'warning', thresholdValue: out(planned), actualValue: out(total),
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

function overUpstream(lines: readonly LinkedLine[], warnType: 'exceed_monthly_demand' | 'exceed_procure', message: 'procureOverMonthly' | 'supplyOverProcure'): Warning[] {
  const running = new Map<string, Dec>();
  const warnings: Warning[] = [];
  for (const line of lines) {
    const total = (running.get(line.upstreamId) ?? dec(line.taken)).add(dec(line.qty));
    running.set(line.upstreamId, total);
    if (total.lte(dec(line.limit))) continue;
    warnings.push({
      warnType, warnLevel: 'warning', sourceDetailId: line.id, goodsId: line.goodsId, thresholdValue: out(dec(line.limit)), actualValue: out(total),
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
      warnType: 'exceed_contract_qty', warnLevel: line.goodsId ? 'critical' : 'warning', sourceDetailId: line.id, goodsId: line.goodsId,
      thresholdValue: out(limit), actualValue: out(cumulative), message: text('qtyOverContract', { goods: line.name, actual: out(cumulative), threshold: out(limit) }),
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
  const values = { thresholdValue: out(limit), actualValue: out(actual) };
  const params = { actual: out(actual), threshold: out(limit), ratio, limit: settings.nearContractPercent };
  if (actual.gt(limit)) return [{ warnType: 'exceed_contract_amount', warnLevel: 'critical', ...values, message: text('amountOverContract', params) }];
  if (actual.gte(limit.mul(settings.nearContractPercent).div(100))) return [{ warnType: 'near_contract_amount', warnLevel: 'warning', ...values, message: text('amountNearContract', params) }];
  return [];
}

/** §4.15: this period's amount negative → negative_settlement, exactly zero → zero_settlement. */
export function settlementAmountWarnings(thisAmount: Num | null | undefined): Warning[] {
  if (thisAmount === null || thisAmount === undefined || thisAmount === '') return [];
  const amount = dec(thisAmount);
  if (amount.isNeg() && !amount.isZero()) return [{ warnType: 'negative_settlement', warnLevel: 'warning', actualValue: out(amount), message: text('negative', { actual: out(amount) }) }];
  if (amount.isZero()) return [{ warnType: 'zero_settlement', warnLevel: 'info', actualValue: 0, message: text('zero', {}) }];
  return [];
}

/** Whole months from one date to another, counted as the calendar does (01-01 → 04-01 is 3). */
function monthsBetween(start: string, end: string): Dec {
  const [sy, sm, sd] = start.split('-').map(Number);
  const [ey, em, ed] = end.split('-').map(Number);
  const months = (ey - sy) * 12 + (em - sm);
  return new Dec(ed > sd ? months + 0.5 : months);
}

/**
 * late_settlement (domain §4.15 (a) and (b)): the period from start to end date spans more than the
 * limit, or the document was prepared in another month than its settlement period. One warning with
 * every reason found.
 */
export function timelinessWarnings(doc: { period?: string | null; startDate?: string | null; endDate?: string | null; preparedMonth: string }, settings: WarnSettings): Warning[] {
  const reasons: Label[] = [];
  if (doc.startDate && doc.endDate && monthsBetween(doc.startDate, doc.endDate).gt(settings.settlementSpanMonths)) {
    reasons.push(text('spanTooLong', { start: doc.startDate, end: doc.endDate, limit: settings.settlementSpanMonths }));
  }
  if (doc.period && doc.period !== doc.preparedMonth) reasons.push(text('periodNotCreated', { period: doc.period, month: doc.preparedMonth }));
  if (!reasons.length) return [];
  return [{ warnType: 'late_settlement', warnLevel: 'warning', message: { zh: reasons.map((r) => r.zh).join(';'), en: reasons.map((r) => r.en).join('; ') } }];
}

/** lease_overdue: a lease settlement running past the end date of its contract. */
export function leaseOverdueWarnings(endDate: string | null | undefined, contractEndDate: string | null | undefined): Warning[] {
  if (!endDate || !contractEndDate || endDate <= contractEndDate) return [];
  return [{ warnType: 'lease_overdue', warnLevel: 'warning', message: text('leaseOverdue', { end: endDate, contractEnd: contractEndDate }) }];
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
      warnType: 'stock_shortage' as const, warnLevel: 'info' as const, sourceDetailId: l.id, goodsId: l.goodsId, thresholdValue: out(dec(l.qty)), actualValue: out(dec(l.stock)),
      message: text('stockShort', { goods: l.name, actual: out(dec(l.stock)), threshold: out(dec(l.qty)) }),
    }));
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
    if (line.price === null || line.price === undefined || line.price === '' || !line.referencePrice || dec(line.referencePrice).lte(0)) continue;
    const limit = roundHalfUp(dec(line.referencePrice).mul(dec(100).add(settings.priceTolerancePercent)).div(100), 4);
    if (dec(line.price).lte(limit)) continue;
    warnings.push({
      warnType: 'price_over_reference', warnLevel: 'info', sourceDetailId: line.id, goodsId: line.goodsId, thresholdValue: out(limit), actualValue: out(dec(line.price)),
      message: text('priceOverReference', { goods: line.name, actual: out(dec(line.price)), reference: out(dec(line.referencePrice)), limit: settings.priceTolerancePercent, threshold: out(limit) }),
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
  return [{
    warnType: 'exceed_supplementary', warnLevel: 'warning', thresholdValue: out(base), actualValue: out(total),
    message: text('supplementary', { actual: out(total), base: out(base), limit: settings.supplementaryPercent, ratio: percent(out(total), out(base)) }),
  }];
}

/** The warnings hard control refuses a submission for: critical ones. */
export function blocking(warnings: readonly Warning[], settings: WarnSettings): Warning[] {
  return settings.hardControl ? warnings.filter((w) => w.warnLevel === 'critical') : [];
}

/** "[超总需用计划] 钢筋:…;[…] …" in both languages: a refusal's details. */
export function describe(warnings: readonly Warning[]): Label {
  const part = (lang: 'zh' | 'en') => warnings.map((w) => `[${WARN_TYPES[w.warnType][lang]}] ${w.message[lang]}`).join(lang === 'zh' ? ';' : '; ');
  return { zh: part('zh'), en: part('en') };
}
