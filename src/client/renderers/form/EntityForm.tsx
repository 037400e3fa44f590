// The create / edit form of any entity, from its schema: rjsf with the antd theme over the
// header fields, the detail grid for detail rows, x-rules applied as one types, and validation by
// the engine (the server's own messages, in the user's language). Save posts the whole record;
// the server's field errors land on their fields and grid cells, and nothing typed is lost.
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Result, Skeleton } from 'antd';
import { useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { useHttp } from '../http-context.tsx';
import { readRecord } from '../data.ts';
import { FormBody, type SubmitTarget } from './FormBody.tsx';
import type { Row } from './store.ts';

export { FormDialog } from './FormDialog.tsx';

export interface EntityFormProps {
  model: EntityModel;
  mode: 'create' | 'edit';
  /** The record to edit (loaded from `${api}/detail?id=`). */
  id?: string;
  /** Values a new record starts with (over the schema's defaults). */
  initial?: Record<string, unknown>;
  /** Shown without inputs or save button. */
  readOnly?: boolean;
  /** Post the record here instead of save / update, with a 提交 button (a workflow's `${api}/submit` and its processDefinitionId). */
  submitTo?: SubmitTarget;
  /** After a save (the record as the server answered) or a cancel (null). */
  onDone: (saved: Record<string, any> | null) => void;
}

/** A new record: the schema's defaults, then the given values. */
export function newRecord(model: EntityModel, initial: Record<string, unknown> = {}): Row {
  const record: Row = {};
  for (const f of model.fields) if (!f.system && f.default !== undefined) record[f.name] = f.default;
  for (const d of model.details) record[d.name] = [];
  return { ...record, ...initial };
}

export function EntityForm({ model, mode, id, initial, readOnly = false, submitTo, onDone }: EntityFormProps) {
  const http = useHttp();
  const t = useT();
  const editing = mode === 'edit';
  // the benchmark measures from here to 'zs-form-ready' (the form with its rows rendered)
  useState(() => performance.mark('zs-form-start'));
  const loaded = useQuery({
    // not keyed by language: switching it must not reload (and reset) a form being filled in
    queryKey: ['detail', model.key, id, 'form'],
    enabled: editing && Boolean(id),
    staleTime: 0,
    gcTime: 0,
    queryFn: () => readRecord<Row>(http, model, id!),
  });
  if (editing && !id) return <Alert type="error" title={t('form.loadFailed', { message: 'id' })} />;
  if (editing && loaded.isError) {
    return (
      <Result
        status="error"
        title={t('form.loadFailed', { message: (loaded.error as Error).message })}
        extra={[
          <Button key="retry" type="primary" onClick={() => void loaded.refetch()}>
            {t('form.retry')}
          </Button>,
          <Button key="back" onClick={() => onDone(null)}>
            {t('form.cancel')}
          </Button>,
        ]}
      />
    );
  }
  if (editing && !loaded.data) return <Skeleton active paragraph={{ rows: 6 }} />;
  const record = editing ? loaded.data! : newRecord(model, initial);
  return (
    <FormBody
      key={`${model.key}:${id ?? 'new'}`}
      model={model}
      mode={mode}
      id={id}
      record={record}
      readOnly={readOnly}
      submitTo={submitTo}
      onDone={onDone}
    />
  );
}
