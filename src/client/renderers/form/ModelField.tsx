// The rjsf field of every header property: renders the widget of the field's model (x-ui.widget or
// its kind) instead of rjsf's type-based fields, which would turn an exact decimal into a float.
// Values the server derives show read-only: the document number on create ("assigned on save")
// and computed totals, which follow the detail rows as they are typed. A value the user cannot type
// (a formula's, or one the server keeps: a status the workflow owns) is marked as such beside it.
import { CalculatorOutlined, LockOutlined } from '@ant-design/icons';
import type { FieldProps } from '@rjsf/utils';
import { Input, Space, Tooltip } from 'antd';
import { useSyncExternalStore, type ReactNode } from 'react';
import type { FieldModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { FieldControl } from '../widgets/FieldControl.tsx';
import type { FormContextValue } from './context.ts';

/** A read-only control with its mark: 计算 for a formula's value, 系统 for one the server keeps. */
function Derived({ computed, children }: { computed: boolean; children: ReactNode }) {
  const t = useT();
  return (
    <Space.Compact block className="zs-derived" data-derived={computed ? 'computed' : 'kept'}>
      {children}
      <Tooltip title={t(computed ? 'form.computedHint' : 'form.keptHint')}>
        <Space.Addon className="zs-derived-mark">
          {computed ? <CalculatorOutlined /> : <LockOutlined />} {t(computed ? 'form.computed' : 'form.kept')}
        </Space.Addon>
      </Tooltip>
    </Space.Compact>
  );
}

function ComputedValue({ ctx, field, id }: { ctx: FormContextValue; field: FieldModel; id: string }) {
  const { store } = ctx;
  const value = useSyncExternalStore(
    (notify) => store.subscribe('totals', notify),
    () => store.totals()[field.name],
  );
  const control = <FieldControl field={field} value={value} onChange={() => undefined} id={id} readOnly />;
  return ctx.readOnly ? control : <Derived computed>{control}</Derived>;
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
  if (field.readOnly && !ctx.readOnly)
    return (
      <Derived computed={false}>
        <FieldControl
          field={field}
          value={formData}
          id={id}
          onChange={() => undefined}
          readOnly
          values={store.header}
          fieldMap={model.fieldMap}
        />
      </Derived>
    );
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
