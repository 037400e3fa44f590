// The stock arithmetic of the material ledger (docs/rules.md#r-stock): one goods in one warehouse in one
// month, from its opening balance and the month's movements to the closing balance, with the
// monthly weighted moving-average price (R-STOCK-1..3). Decimal-exact; isomorphic, so the server
// posts with it and a form could show the same numbers.
import { Dec, roundHalfUp, toDecimal } from '../../../../engine/compute/decimal.ts';

/** A number as the documents hold it: a JSON number, a numeric string or a decimal. */
export type Qty = Dec | number | string;

/** What the ledger holds for the month before the report's own entries. */
export interface StockMonthIn {
  openingQty: Qty;
  openingAmount: Qty;
  receivedQty: Qty;
  receivedAmount: Qty;
  /** from approved stocktakes of the month: gains positive, losses negative */
  gainLossQty: Qty;
  gainLossAmount: Qty;
  /** issued to the works (entered), unless countedClosingQty is given */
  consumedQty?: Qty | null;
  transferOutQty?: Qty | null;
  /** a count at month end: consumption is derived from it (R-STOCK-2) */
  countedClosingQty?: Qty | null;
}

export interface StockMonthOut {
  /** (openingAmount + receivedAmount) / (openingQty + receivedQty), to 4 places; null without stock */
  avgPrice: Dec | null;
  consumedQty: Dec;
  consumedAmount: Dec;
  transferOutAmount: Dec;
  closingQty: Dec;
  closingAmount: Dec;
}

const dec = (v: Qty | null | undefined): Dec => (v instanceof Dec ? v : (toDecimal(v ?? 0) ?? new Dec(0)));

/** r2(qty × amount / base): multiply before dividing so that only the final rounding is lost. */
function valued(qty: Dec, amount: Dec, base: Dec): Dec {
  return base.isZero() ? new Dec(0) : roundHalfUp(qty.times(amount).dividedBy(base), 2);
}

/**
 * R-STOCK-1..3 for one line. Consumption and transfers out are valued at the month's weighted
 * average of opening and receipts; the closing amount is what remains, so it absorbs the rounding
 * (and is exactly zero when nothing remains: the last outflow takes the remainder).
 */
export function stockMonth(input: StockMonthIn): StockMonthOut {
  const openingQty = dec(input.openingQty);
  const openingAmount = dec(input.openingAmount);
  const baseQty = openingQty.plus(dec(input.receivedQty));
  const baseAmount = openingAmount.plus(dec(input.receivedAmount));
  const gainLossQty = dec(input.gainLossQty);
  const gainLossAmount = dec(input.gainLossAmount);
  const transferOutQty = dec(input.transferOutQty);
  const counted =
    input.countedClosingQty === undefined || input.countedClosingQty === null || input.countedClosingQty === ''
      ? null
      : dec(input.countedClosingQty);
  // R-STOCK-2: opening + received − transfers out (+ counted gains/losses) − what is left
  const consumedQty = counted ? baseQty.plus(gainLossQty).minus(transferOutQty).minus(counted) : dec(input.consumedQty);
  const closingQty = baseQty.plus(gainLossQty).minus(consumedQty).minus(transferOutQty);
  let consumedAmount = valued(consumedQty, baseAmount, baseQty);
  const transferOutAmount = valued(transferOutQty, baseAmount, baseQty);
  const available = baseAmount.plus(gainLossAmount);
  if (closingQty.isZero() && !consumedQty.isZero()) consumedAmount = available.minus(transferOutAmount);
  return {
    avgPrice: baseQty.isZero() ? null : roundHalfUp(baseAmount.dividedBy(baseQty), 4),
    consumedQty,
    consumedAmount,
    transferOutAmount,
    closingQty,
    closingAmount: available.minus(consumedAmount).minus(transferOutAmount),
  };
}

/** The book price of a balance (amount / qty, to 4 places); null when nothing is in stock. */
export function bookPrice(qty: Qty, amount: Qty): Dec | null {
  const q = dec(qty);
  return q.isZero() ? null : roundHalfUp(dec(amount).dividedBy(q), 4);
}

/** `2026-09` → `2026-09-30`: the day a month's report posts on. */
export function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number);
  const day = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${month}-${String(day).padStart(2, '0')}`;
}

/**
 * R-STOCK-4 over a month-by-month history: how much can leave in `month` without the balance of that
 * month or of any later one going below zero (later months' outflows were already allowed for).
 * `movements` are net quantities by month (YYYY-MM), in any order.
 */
export function availableFrom(movements: ReadonlyArray<{ month: string; qty: Qty }>, month: string): Dec {
  const sorted = [...movements].sort((a, b) => a.month.localeCompare(b.month));
  // the balance at the end of `month`, then at the end of each later month with a movement
  let lowest = sorted.filter((m) => m.month <= month).reduce((sum, m) => sum.plus(dec(m.qty)), new Dec(0));
  let balance = lowest;
  for (const m of sorted.filter((x) => x.month > month)) {
    balance = balance.plus(dec(m.qty));
    if (balance.lessThan(lowest)) lowest = balance;
  }
  return lowest;
}
