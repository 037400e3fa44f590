// Two more panels of the project cost dashboard (docs/business-rules.md#dashboards): the warnings by type
// and level with how long the open ones have waited, and the settlement timeliness of a month —
// which performing expense contracts should have settled it, which did, zero and negative
// settlements and how long approvals took. Pure arithmetic on what the server read, shared by the
// server (answers, OpenAPI) and the browser (charts, tables).
import { Dec, decimalToJson, roundHalfUp } from '../../../../engine/compute/decimal.ts';
import type { Amount } from './statistics.ts';
import { percent } from './statistics.ts';

/** Warning statuses still waiting for someone (dictionary warn_status): unread, and read but not handled. */
export const OPEN_WARN_STATUSES = ['unread', 'read'] as const;
/** Ageing of open warnings: open ≤ 7 days, 8–30 days, more than 30 days. */
export const WARN_AGES = ['upTo7', 'upTo30', 'over30'] as const;
export type WarnAge = (typeof WARN_AGES)[number];

/** Count of warnings of one type, level, status and creation day (what the server groups by). */
export interface WarningCount {
  warnType: string;
  warnLevel: string;
  warnStatus: string;
  /** yyyy-MM-dd the warning was raised. */
  createDate: string;
  count: number;
}

/** One warning type (or the totals row, warnType null). */
export interface WarningTypeRow {
  warnType: string | null;
  warnTypeName: string | null;
  total: number;
  /** Count by level key (dictionary warn_level), every level present. */
  levels: Record<string, number>;
  /** Not handled or ignored yet (unread or read). */
  open: number;
  unread: number;
  /** The open ones by how long they have waited. */
  ages: Record<WarnAge, number>;
}

export interface WarningsAnswer {
  projectId: string | null;
  /** The day the ageing counts to (yyyy-MM-dd, the server's time zone). */
  today: string;
  levels: string[];
  rows: WarningTypeRow[];
  total: WarningTypeRow;
}

const DAY = 86_400_000;
const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY;

/** Whole calendar days from one yyyy-MM-dd to another (0 for the same day). */
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/** The age bucket of a warning raised on `created` and still open on `today`. */
export function warnAge(created: string, today: string): WarnAge {
  const days = daysBetween(created, today);
  return days <= 7 ? 'upTo7' : days <= 30 ? 'upTo30' : 'over30';
}

const emptyRow = (warnType: string | null, warnTypeName: string | null, levels: readonly string[]): WarningTypeRow => ({
  warnType,
  warnTypeName,
  total: 0,
  levels: Object.fromEntries(levels.map((l) => [l, 0])),
  open: 0,
  unread: 0,
  ages: { upTo7: 0, upTo30: 0, over30: 0 },
});

function addTo(row: WarningTypeRow, c: WarningCount, today: string) {
  row.total += c.count;
  row.levels[c.warnLevel] = (row.levels[c.warnLevel] ?? 0) + c.count;
  if ((OPEN_WARN_STATUSES as readonly string[]).includes(c.warnStatus)) {
    row.open += c.count;
    row.ages[warnAge(c.createDate, today)] += c.count;
  }
  if (c.warnStatus === 'unread') row.unread += c.count;
}

/** Lays grouped counts out by type (most open first, then most in all), with a totals row. */
export function warningSummary(
  projectId: string | null,
  counts: readonly WarningCount[],
  today: string,
  levels: readonly string[],
  typeNames: ReadonlyMap<string, string>,
): WarningsAnswer {
  const byType = new Map<string, WarningTypeRow>();
  const total = emptyRow(null, null, levels);
  for (const c of counts) {
    let row = byType.get(c.warnType);
    if (!row) byType.set(c.warnType, (row = emptyRow(c.warnType, typeNames.get(c.warnType) ?? c.warnType, levels)));
    addTo(row, c, today);
    addTo(total, c, today);
  }
  const rows = [...byType.values()].sort(
    (a, b) => b.open - a.open || b.total - a.total || String(a.warnType).localeCompare(String(b.warnType)),
  );
  return { projectId, today, levels: [...levels], rows, total };
}

// ---------------------------------------------------------------------------------------------
// Settlement timeliness

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
export const isMonth = (text: string) => MONTH.test(text);

/** The last month that has ended by `today` (yyyy-MM-dd → yyyy-MM). */
export function lastCompleteMonth(today: string): string {
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The last day of a month (yyyy-MM → yyyy-MM-dd). */
export function monthEnd(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/**
 * Whether a contract should have settled the month: a main contract (not a supplementary agreement),
 * performing, signed and on site by the month's end (an empty date does not hold it back), and not
 * finally settled. Approval and the caller's projects and scope are the query's.
 */
export interface ContractState {
  performance: string | null;
  settlementState: string | null;
  /** the main contract a supplementary agreement amends */
  parentContract: string | null;
  signDate: string | null;
  startDate: string | null;
}

export function shouldSettle(c: ContractState, end: string): boolean {
  return (
    c.performance === 'performing' &&
    c.settlementState !== 'final' &&
    !c.parentContract &&
    (!c.signDate || c.signDate.slice(0, 10) <= end) &&
    (!c.startDate || c.startDate.slice(0, 10) <= end)
  );
}

/** An expense contract that should have settled the month, and what it did settle. */
export interface ExpectedContract {
  contractId: string;
  code: string;
  name: string;
  projectId: string;
  projectName: string;
  expenditureContractType: string;
  expenditureContractTypeName: string;
  subcontractorName: string | null;
  signDate: string | null;
  /** The latest period settled before (approved), null when none. */
  lastSettledPeriod: string | null;
  /** Whether a settlement of the month is approved or in approval. */
  settled: boolean;
}

/** A settlement of the month with a zero or negative amount. */
export interface FlaggedSettlement {
  entity: string;
  entityName: string;
  id: string;
  code: string;
  expenditureContractCode: string;
  contractName: string;
  approvalStatus: string;
  thisAmountInclTax: Amount;
  thisPayableAmount: Amount | null;
}

/** One settlement's approval: submitted and approved (yyyy-MM-dd HH:mm:ss). */
export interface ApprovalSpan {
  entity: string;
  entityName: string;
  submitted: string;
  approved: string;
}

export interface ApprovalDuration {
  entity: string;
  entityName: string;
  count: number;
  /** Days from submission to approval, to 1 place (half up): the mean and the longest. */
  averageDays: Amount;
  maxDays: Amount;
}

export interface TimelinessAnswer {
  projectId: string | null;
  month: string;
  monthEnd: string;
  expected: number;
  settled: number;
  /** settled ÷ expected in % (2 places), null when none was expected: 工程类合同月度执行率. */
  settleRate: Amount | null;
  byType: { expenditureContractType: string; expenditureContractTypeName: string; expected: number; settled: number }[];
  /** The expected contracts that did not settle the month (oldest last settlement first). */
  missing: ExpectedContract[];
  zero: FlaggedSettlement[];
  negative: FlaggedSettlement[];
  durations: ApprovalDuration[];
}

const seconds = (text: string) =>
  Date.UTC(
    Number(text.slice(0, 4)),
    Number(text.slice(5, 7)) - 1,
    Number(text.slice(8, 10)),
    Number(text.slice(11, 13) || 0),
    Number(text.slice(14, 16) || 0),
    Number(text.slice(17, 19) || 0),
  ) / 1000;

/** Days (a decimal) from one wall-clock time to another. */
export const spanDays = (from: string, to: string) => new Dec(seconds(to) - seconds(from)).div(86_400);

/** Mean and longest approval time per settlement kind, kinds in the order first met. */
export function approvalDurations(spans: readonly ApprovalSpan[]): ApprovalDuration[] {
  const kinds = new Map<string, { entityName: string; days: Dec[] }>();
  for (const s of spans) {
    let k = kinds.get(s.entity);
    if (!k) kinds.set(s.entity, (k = { entityName: s.entityName, days: [] }));
    k.days.push(spanDays(s.submitted, s.approved));
  }
  return [...kinds].map(([entity, { entityName, days }]) => ({
    entity,
    entityName,
    count: days.length,
    averageDays: decimalToJson(roundHalfUp(days.reduce((a, d) => a.plus(d), new Dec(0)).div(days.length), 1)),
    maxDays: decimalToJson(roundHalfUp(Dec.max(...days), 1)),
  }));
}

/** Zero: an amount of exactly 0; negative: the amount or the payable below 0 (docs/rules.md#negative_settlement). */
export function flagSettlements(settlements: readonly FlaggedSettlement[]): { zero: FlaggedSettlement[]; negative: FlaggedSettlement[] } {
  const d = (v: Amount | null) => new Dec(String(v ?? 0));
  return {
    zero: settlements.filter((s) => d(s.thisAmountInclTax).isZero()),
    negative: settlements.filter((s) => d(s.thisAmountInclTax).lt(0) || d(s.thisPayableAmount).lt(0)),
  };
}

export function settlementTimeliness(
  projectId: string | null,
  month: string,
  contracts: readonly ExpectedContract[],
  flagged: readonly FlaggedSettlement[],
  spans: readonly ApprovalSpan[],
): TimelinessAnswer {
  const settled = contracts.filter((c) => c.settled).length;
  const types = new Map<string, TimelinessAnswer['byType'][number]>();
  for (const c of contracts) {
    let t = types.get(c.expenditureContractType);
    if (!t)
      types.set(
        c.expenditureContractType,
        (t = {
          expenditureContractType: c.expenditureContractType,
          expenditureContractTypeName: c.expenditureContractTypeName,
          expected: 0,
          settled: 0,
        }),
      );
    t.expected += 1;
    if (c.settled) t.settled += 1;
  }
  const missing = contracts
    .filter((c) => !c.settled)
    .sort((a, b) => String(a.lastSettledPeriod ?? '').localeCompare(String(b.lastSettledPeriod ?? '')) || a.code.localeCompare(b.code));
  return {
    projectId,
    month,
    monthEnd: monthEnd(month),
    expected: contracts.length,
    settled,
    settleRate: percent(settled, contracts.length),
    byType: [...types.values()].sort(
      (a, b) => b.expected - a.expected || a.expenditureContractType.localeCompare(b.expenditureContractType),
    ),
    missing,
    ...flagSettlements(flagged),
    durations: approvalDurations(spans),
  };
}
