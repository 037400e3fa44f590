// Number and money inputs that never pass a value through binary floating point: the typed text is
// checked digit by digit (at most `scale` decimals), and the value leaves as a JSON number only when
// that number prints back as the same digits, else as a decimal string (the server accepts both).
// Money shows thousands separators and its scale when not being edited.
import { Input } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { FieldModel } from '../../../engine/model/types.ts';
import { translate } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { displayScale, formatDecimal } from '../format.ts';
import { placeholderOf } from './placeholder.ts';
import type { ControlProps } from './types.ts';

/** Decimal places the input accepts: the column's scale; integers none. */
export function inputScale(field: FieldModel): number {
  return field.kind === 'integer' ? 0 : (field.scale ?? 4);
}

/**
 * Whether `text` can still become a number of at most `scale` decimals while being typed. A minus
 * sign is always taken, also where the field wants no negatives: the typed value stays in sight
 * and the validator says what is wrong with it (税率(%)不能小于0), instead of the keystroke vanishing.
 */
export function acceptsTyping(text: string, scale: number): boolean {
  const fraction = scale > 0 ? `(\\.\\d{0,${scale}})?` : '';
  return new RegExp(`^-?\\d*${fraction}$`).test(text);
}

/** Whether the schema lets the field be negative (a correcting quantity, a reduction): its minimum is below 0. */
export function mayBeNegative(field: FieldModel): boolean {
  return ((field.schema.minimum as number | undefined) ?? -1) < 0;
}

/** The value of typed text: undefined when empty or unfinished, a number when exact, else a decimal string. */
export function parseTyped(text: string, field: FieldModel): number | string | undefined {
  const trimmed = text.replace(/\.$/, '');
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const canonical = trimmed
    .replace(/^(-?)0+(?=\d)/, '$1')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  const n = Number(canonical);
  if (field.kind === 'integer') return n;
  return String(n) === canonical || (canonical === '-0' && n === 0) ? n : canonical;
}

function shown(field: FieldModel, value: unknown, money: boolean): string {
  if (value === undefined || value === null || value === '') return '';
  if (money) return formatDecimal(value as string | number, displayScale(field));
  return String(value);
}

export function DecimalControl({
  field,
  value,
  onChange,
  onBlur,
  id,
  readOnly,
  invalid,
  compact,
  money = false,
}: ControlProps & { money?: boolean }) {
  const lang = useAtomValue(langAtom);
  const [editing, setEditing] = useState<string | null>(null);
  const scale = inputScale(field);
  const text = editing ?? shown(field, value, money);
  return (
    <Input
      id={id}
      value={text}
      inputMode={scale > 0 ? 'decimal' : 'numeric'}
      readOnly={readOnly}
      onFocus={(e) => {
        if (readOnly) return;
        setEditing(value === undefined || value === null ? '' : String(value));
        if (compact) e.currentTarget.select(); // a grid cell is overtyped, as in a spreadsheet
      }}
      onBlur={() => {
        setEditing(null);
        onBlur?.();
      }}
      onChange={(e) => {
        const next = e.target.value.trim();
        if (!acceptsTyping(next, scale)) return;
        setEditing(next);
        const parsed = parseTyped(next, field);
        if (next === '' || parsed !== undefined) onChange(parsed);
      }}
      placeholder={readOnly ? undefined : placeholderOf(field, lang) + (mayBeNegative(field) ? translate(lang, 'form.mayBeNegative') : '')}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ textAlign: compact || money ? 'right' : undefined }}
    />
  );
}

export function MoneyControl(props: ControlProps) {
  return <DecimalControl {...props} money />;
}
