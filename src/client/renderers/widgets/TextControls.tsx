// Text widgets: single line, multi-line and password. Empty text is "no value" (undefined), so
// a cleared optional field is left out of the record instead of stored as "".
import { Input } from 'antd';
import { useAtomValue } from 'jotai';
import { langAtom } from '../../state/session.ts';
import { placeholderOf } from './placeholder.ts';
import type { ControlProps } from './types.ts';

const asText = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const fromText = (text: string) => (text === '' ? undefined : text);

export function TextControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  return (
    <Input
      id={id}
      value={asText(value)}
      onChange={(e) => onChange(fromText(e.target.value))}
      onBlur={onBlur}
      readOnly={readOnly}
      maxLength={field.maxLength}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      allowClear={!compact && !readOnly}
    />
  );
}

export function TextAreaControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  if (compact)
    return (
      <TextControl field={field} value={value} onChange={onChange} onBlur={onBlur} id={id} readOnly={readOnly} invalid={invalid} compact />
    );
  return (
    <Input.TextArea
      id={id}
      value={asText(value)}
      onChange={(e) => onChange(fromText(e.target.value))}
      onBlur={onBlur}
      readOnly={readOnly}
      maxLength={field.maxLength}
      showCount={Boolean(field.maxLength && field.maxLength <= 2000 && !readOnly)}
      autoSize={{ minRows: 2, maxRows: 8 }}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
    />
  );
}

export function PasswordControl({ field, value, onChange, onBlur, id, readOnly, invalid }: ControlProps) {
  const lang = useAtomValue(langAtom);
  return (
    <Input.Password
      id={id}
      value={asText(value)}
      onChange={(e) => onChange(fromText(e.target.value))}
      onBlur={onBlur}
      readOnly={readOnly}
      maxLength={field.maxLength}
      autoComplete="new-password"
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
    />
  );
}

/** A value carried by the form without an input (x-ui widget "hidden"). */
export function HiddenControl({ id, value }: ControlProps) {
  return <input type="hidden" id={id} value={asText(value)} />;
}
