// The report builder: pick an entity, then its columns, filter conditions (joined by AND, in the
// engine's predicate language), grouping and sums; preview the result; save it for the tenant.
// The same definition check as the server's (engine/report/definition.ts) runs before any request.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Modal, Select, Space } from 'antd';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { EntityModel } from '../../engine/model/types.ts';
import type { Predicate } from '../../engine/predicate/predicate.ts';
import {
  checkReportDefinition,
  isSummable,
  reportableEntities,
  reportFields,
  type ReportDefinition,
} from '../../engine/report/definition.ts';
import { useSubmit } from '../admin/useSubmit.ts';
import { useT } from '../i18n/useT.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { catalog } from '../renderers/catalog.ts';
import type { ActionDialogProps } from '../renderers/extensions.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { langAtom, permissionAtom } from '../state/session.ts';
import { ReportTable, type ReportRun } from './ReportTable.tsx';

export interface Condition {
  field?: string;
  op: string;
  value: string;
}

const OPERATORS: { op: string; label: MessageKey; list?: boolean }[] = [
  { op: '_eq', label: 'report.op.eq' },
  { op: '_neq', label: 'report.op.neq' },
  { op: '_gt', label: 'report.op.gt' },
  { op: '_gte', label: 'report.op.gte' },
  { op: '_lt', label: 'report.op.lt' },
  { op: '_lte', label: 'report.op.lte' },
  { op: '_in', label: 'report.op.in', list: true },
];

/** The conditions as one predicate (AND); numbers compare as numbers, `_in` takes comma-separated values. */
export function toPredicate(model: EntityModel, conditions: Condition[]): Predicate | undefined {
  const terms = conditions
    .filter((c) => c.field)
    .map((c): Predicate => {
      const field = model.fieldMap[c.field!];
      const numeric = field.kind === 'decimal' || field.kind === 'integer';
      const typed = (v: string) => (numeric && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v.trim());
      const value = c.op === '_in' ? c.value.split(',').map(typed) : typed(c.value);
      return { [c.field!]: { [c.op]: value } };
    });
  return terms.length === 0 ? undefined : terms.length === 1 ? terms[0] : { _and: terms };
}

/** Back from a stored predicate to editable rows (a single condition or a plain AND of them). */
export function fromPredicate(pred: Predicate | undefined): Condition[] {
  if (!pred) return [];
  const terms = (pred._and as Predicate[] | undefined) ?? [pred];
  return terms.flatMap((term) =>
    Object.entries(term).map(([field, cond]) => {
      const [op, value] = Object.entries(cond as Record<string, unknown>)[0];
      return { field, op, value: Array.isArray(value) ? value.join(',') : String(value ?? '') };
    }),
  );
}

function useEntities(): EntityModel[] {
  const permission = useAtomValue(permissionAtom);
  return useMemo(() => {
    const granted = Object.keys(permission).length > 0;
    return reportableEntities(catalog()).filter(
      (m) => m.menu && (!granted || permission[`${m.menu.code}_view`] || permission[`${m.menu.code}_edit`]),
    );
  }, [permission]);
}

export default function ReportBuilder({ model: reportModel, rows, onClose }: ActionDialogProps) {
  const t = useT();
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const saved = rows[0];
  const entities = useEntities();
  const [name, setName] = useState<string>(saved?.name ?? '');
  const [entityKey, setEntityKey] = useState<string | undefined>(saved?.entityKey);
  const initial = (saved?.definition ?? { columns: [] }) as ReportDefinition;
  const [columns, setColumns] = useState<string[]>(initial.columns);
  const [groupBy, setGroupBy] = useState<string[]>(initial.groupBy ?? []);
  const [sums, setSums] = useState<string[]>(initial.sums ?? []);
  const [conditions, setConditions] = useState<Condition[]>(fromPredicate(initial.filter));
  const [preview, setPreview] = useState<ReportRun>();
  const { submit, busy } = useSubmit(() => onClose(true));

  const model = entityKey ? catalog().entities[entityKey] : undefined;
  const fields = model ? reportFields(model) : [];
  const options = (list = fields) => list.map((f) => ({ value: f.name, label: f.label[lang] }));
  const filter = model ? toPredicate(model, conditions) : undefined;
  const definition: ReportDefinition = {
    columns,
    ...(filter && { filter }),
    ...(groupBy.length && { groupBy }),
    ...(sums.length && { sums }),
  };
  const errors = entityKey ? checkReportDefinition(catalog(), entityKey, definition, lang) : [];

  const chooseEntity = (key: string) => {
    setEntityKey(key);
    setColumns([]);
    setGroupBy([]);
    setSums([]);
    setConditions([]);
    setPreview(undefined);
  };
  const setCondition = (i: number, change: Partial<Condition>) =>
    setConditions(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const runPreview = async () => {
    try {
      setPreview(await http.post<ReportRun>(`${reportModel.api}/preview`, { entityKey, definition }));
    } catch {
      // shown by the HTTP client
    }
  };
  const save = () =>
    submit((h) => h.post(`${reportModel.api}/submit`, { id: saved?.id, name, entityKey, definition, remark: saved?.remark }));

  return (
    <Modal
      open
      width={1100}
      title={t(saved ? 'report.design' : 'report.new')}
      onCancel={() => onClose(false)}
      footer={[
        <Button key="preview" disabled={!entityKey || errors.length > 0} onClick={() => void runPreview()}>
          {t('report.preview')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={busy}
          disabled={!name.trim() || !entityKey || errors.length > 0}
          onClick={() => void save()}
        >
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form layout="horizontal" labelCol={{ span: 3 }}>
        <Form.Item label={t('report.name')} required>
          <Input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder={t('report.namePlaceholder')} />
        </Form.Item>
        <Form.Item label={t('report.entity')} required>
          <Select
            showSearch
            optionFilterProp="label"
            value={entityKey}
            onChange={chooseEntity}
            options={entities.map((m) => ({ value: m.key, label: m.label[lang] }))}
            placeholder={t('report.entityPlaceholder')}
            id="report-entity"
          />
        </Form.Item>
        {model && (
          <>
            <Form.Item label={t('report.columns')} required>
              <Select
                mode="multiple"
                value={columns}
                onChange={setColumns}
                options={options()}
                optionFilterProp="label"
                id="report-columns"
              />
            </Form.Item>
            <Form.Item label={t('report.filter')}>
              <Space direction="vertical" style={{ width: '100%' }}>
                {conditions.map((c, i) => (
                  <Space key={i} data-testid="report-condition">
                    <Select
                      style={{ width: 200 }}
                      value={c.field}
                      onChange={(field) => setCondition(i, { field })}
                      options={options()}
                      showSearch
                      optionFilterProp="label"
                      placeholder={t('report.field')}
                    />
                    <Select
                      style={{ width: 120 }}
                      value={c.op}
                      onChange={(op) => setCondition(i, { op })}
                      options={OPERATORS.map((o) => ({ value: o.op, label: t(o.label) }))}
                    />
                    <Input
                      style={{ width: 240 }}
                      value={c.value}
                      onChange={(e) => setCondition(i, { value: e.target.value })}
                      placeholder={t(c.op === '_in' ? 'report.valuesPlaceholder' : 'report.valuePlaceholder')}
                    />
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete')}
                      onClick={() => setConditions(conditions.filter((_, j) => j !== i))}
                    />
                  </Space>
                ))}
                <Button icon={<PlusOutlined />} onClick={() => setConditions([...conditions, { op: '_eq', value: '' }])}>
                  {t('report.addCondition')}
                </Button>
              </Space>
            </Form.Item>
            <Form.Item label={t('report.groupBy')}>
              <Select
                mode="multiple"
                value={groupBy}
                onChange={setGroupBy}
                options={options()}
                optionFilterProp="label"
                id="report-group"
              />
            </Form.Item>
            <Form.Item label={t('report.sums')}>
              <Select
                mode="multiple"
                value={sums}
                onChange={(next: string[]) => {
                  setSums(next);
                  setColumns([...new Set([...columns, ...next])]);
                }}
                options={options(fields.filter(isSummable))}
                optionFilterProp="label"
                id="report-sums"
              />
            </Form.Item>
          </>
        )}
      </Form>
      {entityKey && errors.length > 0 && columns.length > 0 && <Alert type="warning" message={errors.map((e) => e.message).join('; ')} />}
      {preview && <ReportTable run={preview} />}
    </Modal>
  );
}
