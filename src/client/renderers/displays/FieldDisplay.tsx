// One value of a field, read-only, as a person reads it: dictionary and reference labels, amounts
// with separators and the field's scale, dates in the user's locale, yes/no, Chinese capitals
// where x-display asks for them. Empty values show `empty` ("—" unless told otherwise).
import { useAtomValue } from 'jotai';
import type { FieldModel } from '../../../engine/model/types.ts';
import { langAtom } from '../../state/session.ts';
import { useRegistry } from '../registry.ts';
import { BUILT_IN_DISPLAYS } from './builtin.tsx';
import { displayTypeOf } from './display-type.ts';
import { isEmptyValue } from './text.ts';

export interface FieldDisplayProps {
  field: FieldModel;
  value: unknown;
  /** Labels of referenced records by id, looked up once for a whole page; without them the display looks them up itself (batched). */
  labels?: Readonly<Record<string, string>>;
  /** A list cell: one line (no capitals line under an amount, small images). */
  compact?: boolean;
  /** What an empty value shows (default "—"; list cells pass ""). */
  empty?: string;
}

export function FieldDisplay({ field, value, labels, compact = false, empty = '—' }: FieldDisplayProps) {
  const lang = useAtomValue(langAtom);
  const displays = useRegistry().displays ?? BUILT_IN_DISPLAYS;
  if (isEmptyValue(value)) return <>{empty}</>;
  const Display = displays[displayTypeOf(field)] ?? displays.text;
  return <Display field={field} value={value} lang={lang} labels={labels} compact={compact} />;
}
