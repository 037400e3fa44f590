// Date widgets. Values travel as the server stores them: "2026-03-15", "2026-03-15 09:30:00",
// "2026-03" (a period); a range is two dates, as an array or comma-joined for a text field.
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useAtomValue } from 'jotai';
import { langAtom } from '../../state/session.ts';
import { placeholderOf } from './placeholder.ts';
import type { ControlProps } from './types.ts';

const DATE = 'YYYY-MM-DD';
const DATETIME = 'YYYY-MM-DD HH:mm:ss';
const MONTH = 'YYYY-MM';

function toDay(value: unknown): Dayjs | null {
  if (typeof value !== 'string' || value === '') return null;
  const day = dayjs(value);
  return day.isValid() ? day : null;
}

export function DateControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  const withTime = field.kind === 'datetime';
  const format = withTime ? DATETIME : DATE;
  return (
    <DatePicker
      id={id}
      value={toDay(value)}
      showTime={withTime}
      format={format}
      onChange={(day) => onChange(day ? day.format(format) : undefined)}
      onBlur={onBlur}
      disabled={readOnly}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ width: '100%' }}
    />
  );
}

export function MonthControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  return (
    <DatePicker
      id={id}
      picker="month"
      value={toDay(value)}
      format={MONTH}
      onChange={(day) => onChange(day ? day.format(MONTH) : undefined)}
      onBlur={onBlur}
      disabled={readOnly}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ width: '100%' }}
    />
  );
}

function rangeOf(value: unknown): [Dayjs | null, Dayjs | null] | null {
  const parts = Array.isArray(value) ? value : typeof value === 'string' && value ? value.split(',') : [];
  return parts.length === 2 ? [toDay(parts[0]), toDay(parts[1])] : null;
}

export function DateRangeControl({ field, value, onChange, onBlur, id, readOnly, invalid }: ControlProps) {
  const asArray = field.kind === 'json' || field.schema.type === 'array';
  return (
    <DatePicker.RangePicker
      id={id}
      value={rangeOf(value)}
      format={DATE}
      onChange={(days) => {
        if (!days || !days[0] || !days[1]) return onChange(undefined);
        const pair = [days[0].format(DATE), days[1].format(DATE)];
        onChange(asArray ? pair : pair.join(','));
      }}
      onBlur={onBlur}
      disabled={readOnly}
      status={invalid ? 'error' : undefined}
      style={{ width: '100%' }}
    />
  );
}
