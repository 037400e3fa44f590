// What a read-only display is given, and which display a field gets (x-display `type`, or the type a
// field implies: dict, ref, options, date, …). The displays themselves are the renderers' registry's
// (registry.ts; the built-in ones: builtin.tsx).
import type { ReactNode } from 'react';
import type { DisplayName } from '../../../engine/dialect/ui-names.ts';
import type { FieldModel, Lang } from '../../../engine/model/types.ts';

export interface DisplayProps {
  field: FieldModel;
  /** Never empty: FieldDisplay shows empty values itself. */
  value: unknown;
  lang: Lang;
  /** Labels of referenced records by id, when the caller looked them up for a whole page. */
  labels?: Readonly<Record<string, string>>;
  /** A list cell: one line, no second line (no capitals under an amount, small images). */
  compact: boolean;
}

export type DisplayComponent = (props: DisplayProps) => ReactNode;

/** Display types whose values are numbers (right-aligned in tables, totalled in detail footers). */
export const NUMERIC_DISPLAYS: ReadonlySet<DisplayName> = new Set<DisplayName>(['money', 'quantity', 'percent', 'number', 'capital']);

/** The display type of a field: its x-display type, else what its binding or kind implies. */
export function displayTypeOf(field: FieldModel): DisplayName {
  const declared = field.display?.type as DisplayName | undefined;
  if (declared && !(declared === 'text' && (field.dict || field.ref || field.options))) return declared;
  if (field.dict) return 'dict';
  if (field.ref) return 'ref';
  if (field.options) return 'options';
  switch (field.kind) {
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'month':
      return 'month';
    case 'decimal':
    case 'integer':
      return 'number';
    default:
      return 'text';
  }
}
