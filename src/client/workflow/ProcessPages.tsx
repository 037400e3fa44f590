// The approval pages of every document type, from its schema alone:
//   /work/process/<prefix>/form/:processDefinitionId   the start form (the create form, sent to submit)
//   /work/process/<prefix>/handle/:taskId/:processInstanceId/:businessId
//                                                      claim, or the approval comment with approve /
//                                                      reject; the document read-only and under it, apart,
//                                                      the fields this task may change; timeline, diagram
//   /work/process/<prefix>/detail/:processInstanceId/:businessId   read-only, timeline, diagram
// A prefix no document type carries shows 该单据类型尚未配置.
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Result, Skeleton, Space } from 'antd';
import { useAtomValue } from 'jotai';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { EntityModel } from '../../engine/model/types.ts';
import { useT } from '../i18n/useT.ts';
import { invalidateEntity } from '../renderers/data.ts';
import { EntityDetail } from '../renderers/detail/index.ts';
import { EntityForm } from '../renderers/form/EntityForm.tsx';
import { useHttp, type RendererHttp } from '../renderers/http-context.tsx';
import type { Prefetch } from '../app/prefetch.ts';
import { FieldControl } from '../renderers/widgets/FieldControl.tsx';
import { langAtom } from '../state/session.ts';
import { FLOW, modelForPrefix, type FlowRow, type TaskDetail } from './api.ts';
import { FlowDiagram } from './FlowDiagram.tsx';
import { FlowHistory } from './History.tsx';

type Params = { params: Record<string, string> };

export function NotConfigured({ prefix }: { prefix: string }) {
  const t = useT();
  return <Result status="warning" title={t('workflow.notConfigured')} subTitle={t('workflow.notConfiguredHint', { prefix })} />;
}

function BackButton() {
  const t = useT();
  return (
    <Button icon={<ArrowLeftOutlined />} onClick={() => history.back()}>
      {t('workflow.back')}
    </Button>
  );
}

/** The pages' frame: the document type for the prefix, or the not-configured page. */
function withModel(params: Record<string, string>, render: (model: EntityModel) => ReactNode) {
  const model = modelForPrefix(params.prefix ?? '');
  return model ? render(model) : <NotConfigured prefix={params.prefix ?? ''} />;
}

export function StartFormPage({ params }: Params) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [, navigate] = useLocation();
  return withModel(params, (model) => (
    <Card title={`${t('workflow.title.form')}:${model.label[lang]}`} extra={<BackButton />}>
      <EntityForm
        model={model}
        mode="create"
        submitTo={{ url: `${model.api}/submit`, searchParams: { processDefinitionId: params.processDefinitionId } }}
        onDone={(saved) => (saved ? navigate('/work/send') : history.back())}
      />
    </Card>
  ));
}

/** The document and the flow's record of it: read-only detail, the timeline, the diagram. */
function DocumentAndFlow({
  model,
  businessId,
  processInstanceId,
  children,
  underDocument,
}: {
  model: EntityModel;
  businessId: string;
  processInstanceId: string;
  children?: ReactNode;
  /** shown right under the document (the changes this step makes to it) */
  underDocument?: ReactNode;
}) {
  const t = useT();
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      {children}
      <Card size="small" title={t('workflow.document')}>
        <EntityDetail model={model} id={businessId} />
      </Card>
      {underDocument}
      <Card size="small" title={t('workflow.history')}>
        <FlowHistory processInstanceId={processInstanceId} />
      </Card>
      <Card size="small" title={t('workflow.diagram')}>
        <FlowDiagram processInstanceId={processInstanceId} />
      </Card>
    </Space>
  );
}

/**
 * The fields this task may change (x-workflow editable), apart from the approval and under the
 * document: they are changes to the document, saved with the decision. Each has the widget the
 * document's form gives it (the renderers' FieldControl: a dictionary select, a date picker …).
 */
function DocumentChanges({
  model,
  fields,
  values,
  onChange,
}: {
  model: EntityModel;
  fields: string[];
  values: Record<string, unknown>;
  onChange: (next: Record<string, unknown>) => void;
}) {
  const lang = useAtomValue(langAtom);
  const t = useT();
  return (
    <Card size="small" title={t('workflow.changes')} data-testid="document-changes">
      <Alert type="info" showIcon title={t('workflow.changesHint')} style={{ marginBottom: 12 }} />
      <Form layout="vertical">
        {fields
          .filter((name) => model.fieldMap[name])
          .map((name) => (
            <Form.Item key={name} label={model.fieldMap[name].label[lang]} htmlFor={`editable_${name}`}>
              <FieldControl
                id={`editable_${name}`}
                field={model.fieldMap[name]}
                value={values[name] ?? null}
                values={values}
                fieldMap={model.fieldMap}
                onChange={(value) => onChange({ ...values, [name]: value })}
              />
            </Form.Item>
          ))}
      </Form>
    </Card>
  );
}

function HandleBody({ model, params }: { model: EntityModel; params: Record<string, string> }) {
  const http = useHttp();
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { taskId, processInstanceId, businessId } = params;
  const [comment, setComment] = useState('');
  const [edits, setEdits] = useState<Record<string, unknown> | null>(null);
  const [busy, setBusy] = useState<'claim' | 'ok' | 'reject' | null>(null);
  const task = useQuery({
    queryKey: ['flow', 'task', taskId],
    queryFn: () => http.get<TaskDetail>(`${FLOW}/work/task-detail`, { taskId }),
    staleTime: 0,
  });
  const editable = task.data?.canComplete ? task.data.editableFields : [];
  const record = useQuery({
    queryKey: ['detail', model.key, businessId, 'workflow'],
    enabled: editable.length > 0,
    queryFn: () => http.get<FlowRow>(`${model.api}/detail`, { id: businessId }),
  });
  const values = edits ?? Object.fromEntries(editable.map((f) => [f, record.data?.[f] ?? null]));

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['flow'] });
    await invalidateEntity(queryClient, http, model.key);
  };

  const claim = async () => {
    setBusy('claim');
    try {
      await http.post(`${FLOW}/work/claim-task`, undefined, { searchParams: { taskId }, silent: true });
      void message.success(t('workflow.claimed'));
      await refresh();
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const complete = async (flag: 'ok' | 'reject') => {
    if (flag === 'reject' && !comment.trim()) return void message.warning(t('workflow.rejectNeedsComment'));
    setBusy(flag);
    try {
      const changed = editable.length ? { record: values } : {};
      await http.post(`${FLOW}/work/complete-task`, { taskId, flag, comment, ...changed }, { silent: true });
      void message.success(t(flag === 'ok' ? 'workflow.approved' : 'workflow.rejected'));
      await refresh();
      navigate('/work/todo');
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  if (task.isError) return <Alert type="warning" showIcon title={t('workflow.taskDone')} description={(task.error as Error).message} />;
  if (!task.data) return <Skeleton active />;
  const { canClaim, canComplete } = task.data;
  const changes = editable.length > 0 && <DocumentChanges model={model} fields={editable} values={values} onChange={setEdits} />;
  return (
    <DocumentAndFlow model={model} businessId={businessId} processInstanceId={processInstanceId} underDocument={changes}>
      <Card size="small" title={task.data.taskName} data-testid="task-actions">
        {canClaim && !canComplete && (
          <Alert
            type="info"
            showIcon
            title={t('workflow.mustClaim')}
            action={
              <Button type="primary" loading={busy === 'claim'} onClick={() => void claim()}>
                {t('workflow.claim')}
              </Button>
            }
          />
        )}
        {!canClaim && !canComplete && <Alert type="warning" showIcon title={t('workflow.taskDone')} />}
        {canComplete && (
          <Form layout="vertical">
            <Form.Item label={t('workflow.comment')} htmlFor="workflow-comment">
              <Input.TextArea
                id="workflow-comment"
                rows={3}
                placeholder={t('workflow.commentPlaceholder')}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                maxLength={1000}
              />
            </Form.Item>
            <Space>
              <Button type="primary" loading={busy === 'ok'} disabled={busy !== null} onClick={() => void complete('ok')}>
                {t('workflow.approve')}
              </Button>
              <Button danger loading={busy === 'reject'} disabled={busy !== null} onClick={() => void complete('reject')}>
                {t('workflow.reject')}
              </Button>
            </Space>
          </Form>
        )}
      </Card>
    </DocumentAndFlow>
  );
}

/** The document and the flow's record of it as DocumentAndFlow's parts ask for them: the record, the timeline, the diagram. */
function documentAndFlowRequests(http: RendererHttp, model: EntityModel, businessId: string, processInstanceId: string) {
  void http.get(`${model.api}/detail`, { id: businessId });
  void http.get(`${FLOW}/process/history-flow-list`, { processInstanceId });
  void http.get(`${FLOW}/process/model-view`, { processInstanceId });
}

/** A page load's first requests of the approval pages (app/prefetch.ts), made as the pages make them. */
export const prefetch: Partial<Record<'StartFormPage' | 'HandlePage' | 'DetailPage', Prefetch>> = {
  HandlePage: ({ params, http }) => {
    const model = modelForPrefix(params.prefix ?? '');
    if (!model) return;
    void http.get(`${FLOW}/work/task-detail`, { taskId: params.taskId });
    documentAndFlowRequests(http, model, params.businessId, params.processInstanceId);
  },
  DetailPage: ({ params, http }) => {
    const model = modelForPrefix(params.prefix ?? '');
    if (!model) return;
    void http.get(`${FLOW}/process/instance-detail`, { processInstanceId: params.processInstanceId });
    documentAndFlowRequests(http, model, params.businessId, params.processInstanceId);
  },
};

export function HandlePage({ params }: Params) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  return withModel(params, (model) => (
    <Card title={`${t('workflow.title.handle')}:${model.label[lang]}`} extra={<BackButton />}>
      <HandleBody model={model} params={params} />
    </Card>
  ));
}

function InstanceSummary({ processInstanceId }: { processInstanceId: string }) {
  const http = useHttp();
  const t = useT();
  const instance = useQuery({
    queryKey: ['flow', 'instance', processInstanceId],
    queryFn: () => http.get<FlowRow>(`${FLOW}/process/instance-detail`, { processInstanceId }),
  });
  if (instance.isError)
    return <Alert type="error" showIcon title={t('workflow.loadFailed', { message: (instance.error as Error).message })} />;
  if (!instance.data) return <Skeleton active paragraph={{ rows: 1 }} />;
  const row = instance.data;
  return (
    <Descriptions
      size="small"
      bordered
      column={3}
      items={[
        { key: 'process', label: t('workflow.col.process'), children: row.processDefinitionName },
        { key: 'startUser', label: t('workflow.col.startUser'), children: row.startUser },
        {
          key: 'status',
          label: t('workflow.col.status'),
          children: t(row.processIsFinished === 'finished' ? 'workflow.status.finished' : 'workflow.status.unfinished'),
        },
        { key: 'startTime', label: t('workflow.col.startTime'), children: row.startTime },
        { key: 'endTime', label: t('workflow.col.endTime'), children: row.endTime },
      ]}
    />
  );
}

export function DetailPage({ params }: Params) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  return withModel(params, (model) => (
    <Card title={`${t('workflow.title.detail')}:${model.label[lang]}`} extra={<BackButton />}>
      <DocumentAndFlow model={model} businessId={params.businessId} processInstanceId={params.processInstanceId}>
        <InstanceSummary processInstanceId={params.processInstanceId} />
      </DocumentAndFlow>
    </Card>
  ));
}
