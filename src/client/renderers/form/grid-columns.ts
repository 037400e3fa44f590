// The columns of a detail grid: the row's own fields (not the server's), each with a width that
// suits its widget, and which of them get a total in the footer (those the header sums, and
// computed amounts).
import { sumsRead } from '../../../engine/compute/expr.ts';
import type { DetailModel, EntityModel, FieldModel } from '../../../engine/model/types.ts';
import { widgetNameOf } from '../widgets/FieldControl.tsx';

export interface GridColumn {
  field: FieldModel;
  width: number;
  /** Typed into (else shown as text: derived values and snapshots copied from a reference). */
  editable: boolean;
  numeric: boolean;
  total: boolean;
}

export const ROW_HEIGHT = 40;
export const SELECT_WIDTH = 40;
export const INDEX_WIDTH = 56;
export const ACTIONS_WIDTH = 120;

const WIDTHS: Record<string, number> = {
  ref: 200,
  treeSelect: 200,
  treeMultiSelect: 220,
  dict: 130,
  select: 120,
  text: 140,
  textarea: 200,
  number: 120,
  money: 130,
  date: 140,
  month: 130,
  dateRange: 240,
  switch: 80,
  upload: 160,
  image: 120,
  password: 140,
};

function summed(model: EntityModel, detail: DetailModel): Set<string> {
  const out = new Set<string>();
  for (const f of model.fields) {
    if (!f.compute) continue;
    for (const s of sumsRead(f.compute.expr)) if (s.detail === detail.name) out.add(s.field);
  }
  return out;
}

export function gridColumns(model: EntityModel, detail: DetailModel): GridColumn[] {
  const totals = summed(model, detail);
  // the id of a picked source line is a link kept for the server, not something to read or type
  const links = new Set(detail.pickFrom.map((p) => p.rowId));
  return detail.fields
    .filter((f) => !f.system && f.ui?.widget !== 'hidden' && !links.has(f.name))
    .map((f) => {
      const widget = widgetNameOf(f);
      const numeric = f.kind === 'decimal' || f.kind === 'integer';
      const width = f.name === 'remark' ? 200 : ((f.ui?.options as { width?: number } | undefined)?.width ?? WIDTHS[widget] ?? 140);
      return {
        field: f,
        width,
        editable: !f.readOnly,
        numeric,
        total: totals.has(f.name) || (numeric && f.compute?.mode === 'always' && f.display?.type === 'money'),
      };
    });
}

export function gridWidth(columns: readonly GridColumn[], readOnly: boolean): number {
  return (readOnly ? 0 : SELECT_WIDTH + ACTIONS_WIDTH) + INDEX_WIDTH + columns.reduce((w, c) => w + c.width, 0);
}
