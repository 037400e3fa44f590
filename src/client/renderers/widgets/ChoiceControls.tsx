// Choices from the schema itself (oneOf constants), from a dictionary, and the on/off switch
// (isSealed 0/1 keeps its numbers; a boolean field keeps true/false).
import { Select, Switch } from 'antd';
import { useAtomValue } from 'jotai';
import type { FieldModel } from '../../../engine/model/types.ts';
import { langAtom } from '../../state/session.ts';
import { useDictionary } from '../data.ts';
import { placeholderOf } from './placeholder.ts';
import type { ControlProps } from './types.ts';

const blank = (v: unknown) => v === undefined || v === null || v === '';

export function SelectControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  const options = (field.options ?? []).map((o) => ({ value: o.value as string | number, label: o.label[lang] }));
  return (
    <Select
      id={id}
      value={blank(value) ? undefined : (value as string | number)}
      options={options}
      onChange={(v) => onChange(v ?? undefined)}
      onBlur={onBlur}
      disabled={readOnly}
      allowClear={!field.required}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ width: '100%' }}
    />
  );
}

/** A multiple dictionary value is an array (json field) or comma-joined text. */
function dictValue(field: FieldModel, value: unknown): string | string[] | undefined {
  if (blank(value)) return field.dict?.multiple ? [] : undefined;
  if (!field.dict?.multiple) return String(value);
  return Array.isArray(value) ? value.map(String) : String(value).split(',');
}

/**
 * The dictionary's items a form offers: all but the keys of x-ui.options.exclude (values only the
 * system writes, as approval messages), which still read as their labels where they are the value.
 */
function offered(field: FieldModel, items: { value: string; label: string }[], current: string | string[] | undefined) {
  const exclude = (field.ui?.options as { exclude?: unknown } | undefined)?.exclude;
  if (!Array.isArray(exclude)) return items;
  const kept = new Set([current ?? []].flat());
  return items.filter((item) => kept.has(item.value) || !exclude.includes(item.value));
}

export function DictControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  const { data, isLoading } = useDictionary(field.dict);
  const multiple = field.dict?.multiple ?? false;
  const asArray = field.kind === 'json' || field.schema.type === 'array';
  const current = dictValue(field, value);
  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      value={current}
      options={offered(field, data ?? [], current)}
      loading={isLoading}
      showSearch={{ optionFilterProp: 'label' }}
      onChange={(v: string | string[] | undefined) => {
        if (Array.isArray(v)) onChange(v.length ? (asArray ? v : v.join(',')) : undefined);
        else onChange(v ?? undefined);
      }}
      onBlur={onBlur}
      disabled={readOnly}
      allowClear={!field.required}
      placeholder={readOnly ? undefined : placeholderOf(field, lang)}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ width: '100%' }}
    />
  );
}

/** The values a switch stands for: the field's two options (0/1), else false/true. */
export function switchValues(field: FieldModel): { off: unknown; on: unknown } {
  const options = field.options ?? [];
  if (options.length === 2) {
    const on = options.find((o) => o.value === 1 || o.value === true || o.value === '1') ?? options[1];
    const off = options.find((o) => o !== on)!;
    return { off: off.value, on: on.value };
  }
  return { off: false, on: true };
}

export function SwitchControl({ field, value, onChange, id, readOnly, compact }: ControlProps) {
  const lang = useAtomValue(langAtom);
  const { off, on } = switchValues(field);
  const label = (v: unknown) => field.options?.find((o) => o.value === v)?.label[lang];
  return (
    <Switch
      id={id}
      checked={!blank(value) && String(value) === String(on)}
      onChange={(checked) => onChange(checked ? on : off)}
      disabled={readOnly}
      size={compact ? 'small' : undefined}
      checkedChildren={label(on)}
      unCheckedChildren={label(off)}
    />
  );
}
