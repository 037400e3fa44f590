// The rjsf field of every header property: renders the widget of the field's model (x-ui.widget or
// its kind) instead of rjsf's type-based fields, which would turn an exact decimal into a float.
// Values the server derives show read-only: the document number on create ("assigned on save")
// and computed totals, which follow the detail rows as they are typed.
import type { FieldProps } from '@rjsf/utils';
import { Input } from 'antd';
import { useSyncExternalStore } from 'react';
import type { FieldModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { FieldControl } from '../widgets/registry.tsx';
import type { FormContextValue } from './context.ts';

function ComputedValue({ ctx, field, id }: { ctx: FormContextValue; field: FieldModel; id: string }) {
  const { store } = ctx;
  const value = useSyncExternalStore(
    (notify) => store.subscribe('totals', notify),
    () => store.totals()[field.name],
  );
  return <FieldControl field={field} value={value} onChange={() => undefined} id={id} readOnly />;
}

export function ModelField({
  name,
  formData,
  onChange,
  onBlur,
  fieldPathId,
  readonly,
  disabled,
  rawErrors,
  uiSchema,
  registry,
}: FieldProps) {
  const t = useT();
  const ctx = registry.formContext as FormContextValue;
  const { model, mode, store } = ctx;
  const field = model.fieldMap[name];
  const id = fieldPathId.$id;
  if (field.compute?.mode === 'always') return <ComputedValue ctx={ctx} field={field} id={id} />;
  if (mode === 'create' && name === model.code?.field) return <Input id={id} readOnly placeholder={t('form.autoNumber')} />;
  const dependencies = (uiSchema?.['ui:options']?.values ?? {}) as Record<string, unknown>;
  return (
    <FieldControl
      field={field}
      value={formData}
      id={id}
      onChange={(value) => onChange(value, fieldPathId.path, undefined, id)}
      onBlur={() => onBlur(id, formData)}
      readOnly={readonly || disabled || ctx.readOnly}
      invalid={Boolean(rawErrors?.length)}
      values={{ ...store.header, ...dependencies }}
      fieldMap={model.fieldMap}
      onPick={(record) => ctx.pickHeader(name, record)}
    />
  );
}
