// Terms a document inherits from the record a header reference names (x-ref.inherit): a settlement
// takes its party, tax rate, payment ratio and retention rate from its contract. The same rules on
// both sides: the form fills the terms when a record is picked and shows the fixed ones read-only;
// the server fills the empty ones on save and refuses a fixed term that differs from the record's.
import type { FieldModel } from '../model/types.ts';

type Values = Readonly<Record<string, unknown>>;

export interface TermConflict {
  /** The document's field holding the term. */
  field: string;
  /** The reference field naming the record the term comes from. */
  ref: string;
  /** The referenced record's value (empty: the document must leave the term empty). */
  expected: unknown;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * One value, whatever its spelling: numbers as numbers ("80.00" is 80, and an empty rate is 0 — a
 * contract that sets no retention retains nothing), everything else as text.
 */
export function sameTerm(kind: FieldModel['kind'], a: unknown, b: unknown): boolean {
  if (kind === 'decimal' || kind === 'integer') return Number(blank(a) ? 0 : a) === Number(blank(b) ? 0 : b);
  if (blank(a) || blank(b)) return blank(a) && blank(b);
  return String(a) === String(b);
}

/** The header references that pass terms on. */
export function inheritingRefs(fields: readonly FieldModel[]): FieldModel[] {
  return fields.filter((f) => f.ref && Object.keys(f.ref.inherit).length > 0);
}

/**
 * The terms a pick brings: every fixed term is the picked record's (empty when it has none), an
 * overridable term takes the record's value when it has one and keeps the document's otherwise.
 */
export function termsOnPick(ref: FieldModel, picked: Values | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!picked) return out;
  for (const [target, term] of Object.entries(ref.ref?.inherit ?? {})) {
    const theirs = picked[term.from];
    if (term.overridable && blank(theirs)) continue;
    out[target] = blank(theirs) ? undefined : theirs;
  }
  return out;
}

/**
 * What saving does with the terms of `ref` given the referenced record: the empty ones filled from
 * it, and the fixed ones whose value differs from the record's.
 */
export function termsOnSave(
  ref: FieldModel,
  referenced: Values,
  values: Values,
  fieldMap: Readonly<Record<string, FieldModel>>,
): { fill: Record<string, unknown>; conflicts: TermConflict[] } {
  const fill: Record<string, unknown> = {};
  const conflicts: TermConflict[] = [];
  for (const [target, term] of Object.entries(ref.ref?.inherit ?? {})) {
    const [mine, theirs] = [values[target], referenced[term.from]];
    if (blank(mine)) {
      if (!blank(theirs)) fill[target] = theirs;
    } else if (!term.overridable && !sameTerm(fieldMap[target]?.kind ?? 'string', mine, theirs)) {
      conflicts.push({ field: target, ref: ref.name, expected: theirs });
    }
  }
  return { fill, conflicts };
}

/** The fields fixed by a record the document references: read-only in the form while it is named. */
export function fixedTerms(fields: readonly FieldModel[], values: Values): Set<string> {
  const out = new Set<string>();
  for (const ref of inheritingRefs(fields)) {
    if (blank(values[ref.name])) continue;
    for (const [target, term] of Object.entries(ref.ref!.inherit)) if (!term.overridable) out.add(target);
  }
  return out;
}
