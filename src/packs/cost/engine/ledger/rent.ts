// Rent of turnover materials by the day (docs/rules.md#r-rent-1, #r-rent-2): how many quantity × days a
// settlement period charges for one goods on one lease, from the approved entry and exit checks.
// Exits take back the earliest entered quantities first (FIFO), so every quantity has one on-site
// interval; each day of an interval is charged to the period it falls in, the entry and exit days
// as the contract's day rule says. Consecutive months therefore never charge a boundary day twice.
// Decimal-exact and isomorphic: the server answers it and a form could show the same numbers.
import { Dec, roundHalfUp, toDecimal } from '../../../../engine/compute/decimal.ts';
import { dayNumber, type DayRule } from '../../../../engine/compute/dates.ts';
import type { Qty } from './stock.ts';

/** One approved entry or exit of the goods, in any order. */
export interface Movement {
  date: string;
  kind: 'entry' | 'exit';
  qty: Qty;
}

export interface RentPeriod {
  /** first and last day of the settlement period, both included */
  start: string;
  end: string;
  rule: DayRule;
}

export interface RentDays {
  /** on site when the period begins (entered before it, not yet returned) */
  openingQty: Dec;
  enteredQty: Dec;
  exitedQty: Dec;
  /** on site when the period ends */
  closingQty: Dec;
  /** Σ quantity × charged days inside the period, to 4 places */
  qtyDays: Dec;
  /** exits beyond what was on site (R-RENT-6 refuses such a check; reported, never charged) */
  unmatchedExitQty: Dec;
}

/** A quantity on site from day `from` until day `to` (null: still there). */
interface Lot {
  qty: Dec;
  from: number;
  to: number | null;
}

const chargesEntryDay = (rule: DayRule) => rule === 'both' || rule === 'head';
const chargesExitDay = (rule: DayRule) => rule === 'both' || rule === 'tail';

function day(value: string): number {
  const n = dayNumber(value);
  if (n === null) throw new RangeError(`not a date: ${value}`);
  return n;
}

/** The on-site lots: entries in date order, exits taking the earliest first (entries of a day before its exits). */
function lotsOf(movements: readonly Movement[]): { lots: Lot[]; unmatched: Dec } {
  const sorted = movements
    .map((m) => ({ day: day(m.date), kind: m.kind, qty: toDecimal(m.qty) ?? new Dec(0) }))
    .sort((a, b) => a.day - b.day || (a.kind === b.kind ? 0 : a.kind === 'entry' ? -1 : 1));
  const lots: Lot[] = [];
  const open: Lot[] = [];
  let unmatched = new Dec(0);
  for (const m of sorted) {
    if (m.kind === 'entry') {
      const lot = { qty: m.qty, from: m.day, to: null };
      lots.push(lot);
      open.push(lot);
      continue;
    }
    let left = m.qty;
    while (left.greaterThan(0) && open.length) {
      const oldest = open[0];
      if (oldest.qty.lessThanOrEqualTo(left)) {
        oldest.to = m.day;
        left = left.minus(oldest.qty);
        open.shift();
      } else {
        // part of the lot leaves: the returned part becomes a closed lot of its own
        lots.push({ qty: left, from: oldest.from, to: m.day });
        oldest.qty = oldest.qty.minus(left);
        left = new Dec(0);
      }
    }
    unmatched = unmatched.plus(left);
  }
  return { lots, unmatched };
}

/** Days of a lot charged inside [start, end] under the rule. */
function chargedDays(lot: Lot, start: number, end: number, rule: DayRule): number {
  const first = Math.max(lot.from + (chargesEntryDay(rule) ? 0 : 1), start);
  const last = Math.min(lot.to === null ? end : lot.to - (chargesExitDay(rule) ? 0 : 1), end);
  return Math.max(0, last - first + 1);
}

/** R-RENT-2: the period's quantity × days of one goods, with the quantities that explain it. */
export function rentDays(movements: readonly Movement[], period: RentPeriod): RentDays {
  const start = day(period.start);
  const end = day(period.end);
  if (end < start) throw new RangeError(`the period ends (${period.end}) before it starts (${period.start})`);
  const { lots, unmatched } = lotsOf(movements);
  const sum = (pick: (lot: Lot) => boolean) => lots.filter(pick).reduce((acc, lot) => acc.plus(lot.qty), new Dec(0));
  const onSiteOn = (d: number) => sum((lot) => lot.from <= d && (lot.to === null || lot.to > d));
  let qtyDays = new Dec(0);
  for (const lot of lots) qtyDays = qtyDays.plus(lot.qty.times(chargedDays(lot, start, end, period.rule)));
  return {
    openingQty: onSiteOn(start - 1),
    enteredQty: sum((lot) => lot.from >= start && lot.from <= end),
    exitedQty: sum((lot) => lot.to !== null && lot.to >= start && lot.to <= end),
    closingQty: onSiteOn(end),
    qtyDays: roundHalfUp(qtyDays, 4),
    unmatchedExitQty: unmatched,
  };
}
