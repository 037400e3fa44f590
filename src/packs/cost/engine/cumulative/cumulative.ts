// Running totals (开累) over the approved documents of a group, as x-cumulative declares them: the
// shape of the cumulative query's answer, and how a document takes its previous values from it.
// Isomorphic: the server fills a saved document with it, the form pre-fills a new one.
import { applyComputed } from '../../../../engine/compute/apply.ts';
import type { Row } from '../../../../engine/compute/expr.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import { cumulativeOf, type CumulativeModel } from './model.ts';

/** A number as the API answers it: a JSON number, or a string when a double would lose digits. */
export type Amount = number | string;

/** One line of the answer: the contract line (when there is one) and what was settled on it before. */
export interface CumulativeLine {
  /** the values of lines.match, under this document's row field names */
  key: Record<string, string>;
  /** this document's row field → the sum of the approved rows before the period */
  previous: Record<string, Amount>;
  /** the contract line's snapshot fields, when the line is on the contract */
  contract?: Row;
  /** the contract line's quantity (its first non-empty quantity field) */
  contractQty?: Amount;
  /** contractQty less the quantity settled before the period */
  remainingQty?: Amount;
}

/** GET <api>/cumulative: R-CUM-4 (docs/rules.md#r-cum-4). */
export interface CumulativeAnswer {
  /** the group asked for: key field → value */
  keys: Record<string, string>;
  /** previous values count the approved documents of periods before this one (absent: all of them) */
  period: string | null;
  lastApprovedPeriod: string | null;
  /** a document of the group in approval, if any */
  approving: { id: string; code: string | null } | null;
  /** the referenced contract's snapshot fields */
  contract: Row | null;
  /** this document's header field → the sum before the period (previousCumulativeAmount) */
  header: Record<string, Amount>;
  /** source header field → its sum before the period (thisAmountExclTax, retentionAmount, …) */
  totals: Record<string, Amount>;
  lines: CumulativeLine[];
}

/** The values of a group's key fields in a record, or undefined while one is missing. */
export function groupOf(spec: CumulativeModel, record: Row, keys: readonly string[] = spec.keys): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = record[k];
    if (v === undefined || v === null || v === '') return undefined;
    out[k] = String(v);
  }
  return out;
}

/** A row's identity from period to period: its match fields' values. */
export function lineKey(row: Row, match: readonly string[]): string {
  return JSON.stringify(match.map((f) => (row[f] === undefined || row[f] === null ? '' : String(row[f]))));
}

/** The month after a yyyy-MM period. */
export function nextPeriod(period: string): string {
  const [y, m] = period.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * The record with its previous fields taken from the answer (zero where nothing was settled before)
 * and every derived value recomputed, so this period + previous = cumulative on header and lines.
 */
export function applyPrevious(model: EntityModel, record: Row, answer: Pick<CumulativeAnswer, 'header' | 'lines'>): Row {
  const spec = cumulativeOf(model)!;
  const out: Row = { ...record };
  for (const target of Object.keys(spec.header)) out[target] = answer.header[target] ?? 0;
  const lines = spec.lines;
  if (lines && Array.isArray(out[lines.detail])) {
    const byKey = new Map(answer.lines.map((l) => [lineKey(l.key, lines.match), l]));
    out[lines.detail] = (out[lines.detail] as Row[]).map((row) => {
      const line = byKey.get(lineKey(row, lines.match));
      const filled: Row = { ...row };
      for (const target of Object.keys(lines.previous)) filled[target] = line?.previous[target] ?? 0;
      return filled;
    });
  }
  return applyComputed(model, out);
}

/** The fields the server writes itself on a document with x-cumulative (a client's values are ignored). */
export function previousFields(spec: CumulativeModel): { header: string[]; rows: string[] } {
  return { header: Object.keys(spec.header), rows: spec.lines ? Object.keys(spec.lines.previous) : [] };
}
