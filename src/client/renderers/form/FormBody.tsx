// The loaded form: rjsf over the header (controlled, so x-rules and cascades apply on every
// change), the rows in the form store, validation on blur (fields the user has left) and on save
// (everything), and the save itself with the server's field errors mapped back onto the form.
import Form from '@rjsf/antd';
import type { IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RegistryFieldsType } from '@rjsf/utils';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button } from 'antd';
import { useAtomValue } from 'jotai';
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import type { FieldError } from '../../../engine/validate/record.ts';
import { ApiError } from '../../api/http.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { invalidateEntity } from '../data.ts';
import { useHttp } from '../http-context.tsx';
import { useRegistry } from '../registry.ts';
import type { FormContextValue } from './context.ts';
import type { FormExtension } from './extension.ts';
import { FillButtons } from './fill.tsx';
import { DetailGridField } from './DetailGrid.tsx';
import { ModelField } from './ModelField.tsx';
import { ruleKey, ruleState, settle, type RuleState } from './rules.ts';
import { dependencyValues, formFields, formLayout, formSchema, formUiSchema, type FormMode } from './schema.ts';
import { FormStore, type Row } from './store.ts';
import { FieldTemplate, SectionsTemplate, translatorFor } from './templates.tsx';
import { engineValidator, toValidationData } from './validation.ts';

/** A submit in place of save: where the record goes, and the query it carries. */
export interface SubmitTarget {
  url: string;
  searchParams?: Record<string, string>;
}

const fields = { model: ModelField, detailGrid: DetailGridField } as unknown as RegistryFieldsType;
const NO_EXTENSIONS: readonly FormExtension[] = [];
const templates = { FieldTemplate, ObjectFieldTemplate: SectionsTemplate };

export interface FormBodyProps {
  model: EntityModel;
  mode: FormMode;
  id?: string;
  record: Row;
  readOnly: boolean;
  /** Where the record is posted instead of save / update (a workflow submit). */
  submitTo?: SubmitTarget;
  onDone: (saved: Record<string, any> | null) => void;
}

/** The field or detail a JSON pointer starts with ("/details/3/designQty" → "details"). */
const topOf = (path: string) => path.split('/')[1] ?? '';

/** Server field errors: those the form can show on a field or grid cell, and the others. */
function splitErrors(model: EntityModel, names: ReadonlySet<string>, errors: FieldError[]) {
  const placed = errors.filter((e) => names.has(topOf(e.path)) || model.details.some((d) => d.name === topOf(e.path)));
  return { placed, other: errors.filter((e) => !placed.includes(e)).map((e) => e.message) };
}

export function FormBody({ model, mode, id, record, readOnly, submitTo, onDone }: FormBodyProps) {
  const http = useHttp();
  const t = useT();
  const lang = useAtomValue(langAtom);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [store] = useState(() => new FormStore(model, record));
  const [header, setHeader] = useState<Row>(() => store.header);
  const [serverErrors, setServerErrors] = useState<ErrorSchema>();
  const [failure, setFailure] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);

  const onForm = useMemo(() => new Set(formFields(model, mode).map((f) => f.name)), [model, mode]);
  const rules = ruleState(model.fields, header);
  const rulesKey = ruleKey(rules);
  const layout = useMemo(() => formLayout(model, mode, lang), [model, mode, lang]);
  const schema = useMemo(() => formSchema(model, mode, lang, rules), [model, mode, lang, rulesKey]);
  const dependencies = dependencyValues(model, header);
  const dependenciesKey = JSON.stringify(dependencies);
  const uiSchema = useMemo(() => formUiSchema(model, mode, rules, layout, dependencies), [model, mode, rulesKey, layout, dependenciesKey]);

  // what the validator reads at the time it runs
  const live = useRef({ lang, rules: rules as RuleState, attempted: false, touched: new Set<string>() });
  live.current.lang = lang;
  live.current.rules = rules;
  const validator = useMemo(
    () =>
      engineValidator({
        model,
        lang: () => live.current.lang,
        record: (formData) => store.record(formData),
        shown: (e) => {
          const top = topOf(e.path);
          if (model.details.some((d) => d.name === top)) return live.current.attempted;
          return onForm.has(top) && !live.current.rules.hidden.has(top) && (live.current.attempted || live.current.touched.has(top));
        },
      }),
    [model, store, onForm],
  );

  const formContext = useMemo<FormContextValue>(
    () => ({
      model,
      mode,
      lang,
      store,
      layout,
      readOnly,
      pickHeader: (name, picked) => {
        store.pickHeader(name, picked);
        setHeader(store.header);
      },
    }),
    [model, mode, lang, store, layout, readOnly],
  );

  useEffect(() => {
    performance.mark('zs-form-ready');
  }, []);
  // the registry's form extensions (the cost rules' panels), each called like a hook
  const extensionProps = { model, id, store, header, setHeader, editable: !readOnly };
  const parts = (useRegistry().forms ?? NO_EXTENSIONS).map((extension) => extension(extensionProps));

  /** Before a submission: whether every extension lets it go (each asks the user itself). */
  const submitAnyway = async (): Promise<boolean> => {
    for (const part of parts) if (part.beforeSubmit && !(await part.beforeSubmit())) return false;
    return true;
  };

  const onChange = (event: IChangeEvent) => {
    const before = store.header;
    const next = settle(model.fields, before, event.formData ?? {});
    store.setHeader(next);
    setHeader(next);
    if (serverErrors) {
      const changed = Object.keys(next).filter((k) => next[k] !== before[k]);
      if (changed.some((k) => k in serverErrors))
        setServerErrors(Object.fromEntries(Object.entries(serverErrors).filter(([k]) => !changed.includes(k))) as ErrorSchema);
    }
  };

  const save = async (formData: Row) => {
    if (submitTo && !(await submitAnyway())) return;
    setSaving(true);
    setFailure(null);
    setServerErrors(undefined);
    try {
      const body = { ...store.record(formData), ...(mode === 'edit' ? { id } : {}) };
      const saved = await http.post<Record<string, any>>(
        submitTo?.url ?? `${model.api}/${mode === 'edit' ? 'update' : 'save'}`,
        body,
        submitTo?.searchParams ? { searchParams: submitTo.searchParams } : undefined,
      );
      void message.success(t(submitTo ? 'workflow.submitted' : mode === 'edit' ? 'form.updated' : 'form.created'));
      await invalidateEntity(queryClient, http, model.key);
      onDone(saved ?? body);
    } catch (err) {
      const errors = err instanceof ApiError ? (err.body as { data?: { errors?: FieldError[] } } | null)?.data?.errors : undefined;
      const { placed, other } = splitErrors(model, onForm, Array.isArray(errors) ? errors : []);
      if (placed.length) setServerErrors(toValidationData(placed).errorSchema);
      setFailure(other.length || !placed.length ? (other.length ? other : [(err as Error).message]) : []);
      store.checked();
    } finally {
      setSaving(false);
    }
  };

  return (
    <div
      className="zs-entity-form"
      onSubmitCapture={() => {
        live.current.attempted = true;
        store.checked();
      }}
    >
      {!readOnly && <FillButtons model={model} store={store} header={header} onHeader={setHeader} />}
      {parts.map((part, i) => part.top && <Fragment key={i}>{part.top}</Fragment>)}
      {failure && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('form.saveFailed')}
          description={failure.length ? failure.join(';') : undefined}
        />
      )}
      <Form
        schema={schema}
        uiSchema={uiSchema}
        formData={header}
        validator={validator}
        fields={fields}
        templates={templates}
        formContext={formContext}
        extraErrors={serverErrors}
        readonly={readOnly}
        noHtml5Validate
        showErrorList={false}
        liveValidate="onBlur"
        focusOnFirstError
        translateString={translatorFor(lang)}
        onBlur={(fieldId) => live.current.touched.add(fieldId.replace(/^root_/, ''))}
        onChange={onChange}
        onError={() => store.checked()}
        onSubmit={({ formData }) => void save(formData ?? {})}
      >
        {/* beside the save button, where the clerk looks before saving */}
        {parts.map((part, i) => part.beforeSave && <Fragment key={i}>{part.beforeSave}</Fragment>)}
        <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 8 }}>
          <Button onClick={() => onDone(null)}>{t(readOnly ? 'form.close' : 'form.cancel')}</Button>
          {!readOnly && (
            <Button type="primary" htmlType="submit" loading={saving}>
              {t(submitTo ? 'workflow.submit' : 'form.save')}
            </Button>
          )}
        </div>
      </Form>
    </div>
  );
}
