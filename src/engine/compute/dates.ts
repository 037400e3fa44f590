// Calendar arithmetic on ISO dates ("2026-03-15", or the date part of "2026-03-15 09:30:00"), in
// whole days: no time zones, no clocks, so client and server count the same days.

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** How the first and last day of an interval count (R-RENT-1): both, only one of them, or neither. */
export type DayRule = 'both' | 'head' | 'tail' | 'neither';
export const DAY_RULES: readonly DayRule[] = ['both', 'head', 'tail', 'neither'];

/** Days since 1970-01-01 of an ISO date; null when the value is not one. */
export function dayNumber(value: unknown): number | null {
  const m = typeof value === 'string' ? DATE.exec(value) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // 2026-02-30 is no date (Date.UTC would roll it over into March)
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

/**
 * Days from `start` to `end` (end − start). With a rule the interval's ends are charged as R-RENT-1
 * says: both = end − start + 1; head or tail = end − start; neither = end − start − 1, at least 0.
 */
export function daysBetween(start: number, end: number, rule?: DayRule): number {
  const diff = end - start;
  if (rule === 'both') return diff + 1;
  if (rule === 'neither') return Math.max(0, diff - 1);
  return diff;
}

/** The ISO date `days` days after the day number `day` (before it when negative). */
export function addDays(day: number, days: number): string {
  return new Date((day + days) * DAY_MS).toISOString().slice(0, 10);
}

/** The day number of `day` moved by whole calendar months; the 31st becomes the month's last day. */
function addMonths(day: number, months: number): number {
  const date = new Date(day * DAY_MS);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(date.getUTCDate(), last)) / DAY_MS;
}

/**
 * Whole calendar months in a span of `days` days that begins on `start`: 2026-01-01 plus 90 days
 * (to 2026-04-01) holds 3 months, plus 89 days holds 2. A negative span counts backwards.
 */
export function wholeMonths(start: number, days: number): number {
  const end = start + days;
  if (days < 0) return -wholeMonths(end, -days);
  const a = new Date(start * DAY_MS);
  const b = new Date(end * DAY_MS);
  let months = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  if (addMonths(start, months) > end) months--;
  return months;
}
