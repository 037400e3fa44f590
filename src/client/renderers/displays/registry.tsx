// The registry of read-only displays, keyed by display type (x-display `type`, or the type a field
// implies: dict, ref, options, date, …). The list cells, the detail view and the form's read-only
// cells all show values through it, so a new display type is added here once.
import type { ReactNode } from 'react';
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

const registry = new Map<string, DisplayComponent>();

export function registerDisplay(type: string, component: DisplayComponent): void {
  registry.set(type, component);
}

export function displayComponent(type: string): DisplayComponent | undefined {
  return registry.get(type) ?? registry.get('text');
}

export function displayTypes(): string[] {
  return [...registry.keys()];
}

/** Display types whose values are numbers (right-aligned in tables, totalled in detail footers). */
export const NUMERIC_DISPLAYS: ReadonlySet<string> = new Set(['money', 'quantity', 'percent', 'number', 'capital']);

/** The display type of a field: its x-display type, else what its binding or kind implies. */
export function displayTypeOf(field: FieldModel): string {
  const declared = field.display?.type as string | undefined;
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
