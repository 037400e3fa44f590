// What the detail view shows, from x-layout: the sections meant for viewing, each with its header
// fields and detail tables, leaving out fields hidden in view (x-ui hidden, or x-rules visibleIf
// false for this record). Without x-layout, one section of every field the schema declares.
import { matches } from '../../../engine/predicate/predicate.ts';
import type { DetailModel, EntityModel, FieldModel, Label } from '../../../engine/model/types.ts';
import type { Row } from '../extensions.ts';

export interface ViewSection {
  title?: Label;
  fields: FieldModel[];
  details: DetailModel[];
}

/** Audit fields shown at the end of every detail view. */
export const AUDIT_FIELDS = ['createUser', 'createTime', 'updateUser', 'updateTime'] as const;

function shownInView(field: FieldModel, record: Row): boolean {
  const hidden = (field.ui?.hidden as string[] | undefined) ?? [];
  if (field.writeOnly || hidden.includes('view') || field.ui?.widget === 'hidden') return false;
  return !field.rules?.visibleIf || matches(field.rules.visibleIf, record);
}

export function viewSections(model: EntityModel, record: Row): ViewSection[] {
  const declared = model.layout.sections.filter((s) => !s.modes || s.modes.includes('view'));
  const sections = declared.length
    ? declared.map((s) => ({ title: s.title, names: s.fields }))
    : [{ title: undefined, names: [...model.fields.filter((f) => !f.system).map((f) => f.name), ...model.details.map((d) => d.name)] }];
  return sections.map(({ title, names }) => ({
    title,
    fields: names.map((n) => model.fieldMap[n]).filter((f): f is FieldModel => Boolean(f) && shownInView(f, record)),
    details: names.map((n) => model.details.find((d) => d.name === n)).filter((d): d is DetailModel => Boolean(d)),
  }));
}

/** The columns of a detail table: the row's own fields (not its id, parent key, order or tenant, nor the ids of picked source lines). */
export function detailColumns(detail: DetailModel): FieldModel[] {
  const links = new Set(detail.pickFrom.map((p) => p.rowId));
  return detail.fields.filter(
    (f) => !f.system && !f.writeOnly && !links.has(f.name) && !((f.ui?.hidden as string[] | undefined) ?? []).includes('view'),
  );
}

/** Fields a schema gives a whole line (x-ui span 24: remarks, long texts). */
const isWide = (field: FieldModel) => typeof field.ui?.span === 'number' && field.ui.span >= 24;

/**
 * Grid spans of header fields in `columns` columns that fill every line: a wide field starts a line
 * of its own, the item before it (and the last) stretches. The detail view and the printed form
 * lay out their fields alike.
 */
export function lineSpans(fields: readonly FieldModel[], columns: number): number[] {
  const spans: number[] = [];
  let used = 0;
  const closeLine = () => {
    if (used > 0 && used < columns) spans[spans.length - 1] += columns - used;
    used = 0;
  };
  for (const field of fields) {
    const wide = isWide(field);
    if (wide) closeLine();
    const span = wide ? columns : 1;
    spans.push(span);
    used += span;
    if (used >= columns) used = 0;
  }
  closeLine();
  return spans;
}
