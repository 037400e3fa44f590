// late_settlement (c) (docs/rules.md#late_settlement): a contract with activity in a month — goods received, turnover
// materials moved, machines working, a subcontractor examined — and no settlement for that month by
// the end of the following month. Not a rule of one document's save: it depends on the day it is
// asked, so the server runs it periodically (src/packs/cost/server/warning/late-job.ts). Pure: months are
// 'YYYY-MM', days 'YYYY-MM-DD' in the tenant's calendar.
import { renderStored, textRef } from '../../../../engine/i18n/stored-text.ts';
import type { Label } from '../../../../engine/model/types.ts';
import type { Warning } from './rules.ts';

/** What a contract did and what was settled, by month. */
export interface ContractMonths {
  /** the contract (its id, or any key the caller maps back) */
  contract: string;
  /** months with activity documents on the contract */
  active: readonly string[];
  /** months a settlement of the contract covers (approved or in approval) */
  settled: readonly string[];
}

/** One month of a contract whose settlement is overdue. */
export interface LateMonth {
  contract: string;
  month: string;
  /** the last day the settlement was due: the end of the following month */
  due: string;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** The month after `month` ('2026-12' → '2027-01'); null for a malformed month. */
export function nextMonth(month: string): string | null {
  const m = MONTH.exec(month);
  if (!m) return null;
  const [y, mo] = [Number(m[1]), Number(m[2])];
  return mo === 12 ? `${y + 1}-01` : `${y}-${pad(mo + 1)}`;
}

/** The last day of a month ('2028-02' → '2028-02-29'). */
export function lastDayOf(month: string): string {
  const [y, mo] = month.split('-').map(Number);
  return `${month}-${pad(new Date(Date.UTC(y, mo, 0)).getUTCDate())}`;
}

/** The day a month's settlement is due at the latest: the last day of the following month. */
export function settlementDue(month: string): string | null {
  const next = nextMonth(month);
  return next ? lastDayOf(next) : null;
}

/** Every month from one date's month to another's, both included ('2026-11-20', '2027-01-05' → 2026-11, 2026-12, 2027-01). */
export function monthsCovered(start: string, end: string): string[] {
  const from = start.slice(0, 7);
  const to = end.slice(0, 7);
  const out: string[] = [];
  for (let m: string | null = from; m && m <= to && out.length < 1200; m = nextMonth(m)) out.push(m);
  return out;
}

/**
 * The (contract, month) pairs whose settlement is late on `today`: a month with activity, no
 * settlement covering it, and `today` after the last day of the following month. Sorted by contract
 * as given, then month; each pair once; malformed months are ignored.
 */
export function lateSettlements(contracts: readonly ContractMonths[], today: string): LateMonth[] {
  const day = today.slice(0, 10);
  const late: LateMonth[] = [];
  for (const c of contracts) {
    const settled = new Set(c.settled);
    for (const month of [...new Set(c.active)].sort()) {
      const due = settlementDue(month);
      if (due && !settled.has(month) && day > due) late.push({ contract: c.contract, month, due });
    }
  }
  return late;
}

/** The warning of one late month; `activity` names what happened ("材料验收单、机械使用记录"). */
export function lateSettlementWarning(late: LateMonth, activity: Label): Warning {
  const ref = textRef('warning.unsettled', { month: late.month, due: late.due, activity });
  return {
    warnType: 'late_settlement',
    warnLevel: 'warning',
    period: late.month,
    message: { zh: renderStored(ref, 'zh'), en: renderStored(ref, 'en'), ref },
  };
}
