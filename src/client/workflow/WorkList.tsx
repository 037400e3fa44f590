// My work: 发起事务 (the processes I may start), 待签事务 (tasks I may claim), 待办事务
// (my tasks), 已发事务 (what I submitted) and 办结事务 (what I handled), each a paged table of the
// flow API's rows with the actions that lead on: start, claim then handle, handle, detail, diagram,
// above them a search by process name, category and (task and instance lists) creation date.
// The same table lists the deployed definitions (部署管理) and running instances (流程跟踪); their
// pages (FlowAdmin.tsx) add a search, a toolbar and row actions.
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Select, Space, Tag, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';
import { useDictionary } from '../renderers/data.ts';
import { useHttp } from '../renderers/http-context.tsx';
import { detailPath, FLOW, formPath, handlePath, WORK_LIST_URL, type FlowPage, type FlowRow, type WorkKind } from './api.ts';
import { FlowDiagramDialog } from './FlowDiagram.tsx';
import { PagedTable } from './PagedTable.tsx';
import { ClaimWaiting, COUNTS_URL } from './WaitingWork.tsx';
import type { Prefetch } from '../app/prefetch.ts';

type Translate = ReturnType<typeof useT>;

function statusTag(row: FlowRow, t: Translate) {
  const finished = row.processIsFinished === 'finished';
  return <Tag color={finished ? 'green' : 'blue'}>{t(finished ? 'workflow.status.finished' : 'workflow.status.unfinished')}</Tag>;
}

function columnsFor(kind: WorkKind, t: Translate): TableColumnsType<FlowRow> {
  const col = (key: string, title: Parameters<Translate>[0], render?: (row: FlowRow) => React.ReactNode) => ({
    key,
    dataIndex: key,
    title: t(title),
    render: render && ((_: unknown, row: FlowRow) => render(row)),
  });
  switch (kind) {
    case 'start':
      return [
        col('categoryName', 'workflow.col.category'),
        col('name', 'workflow.col.process'),
        col('version', 'workflow.col.version', (r) => `v${r.version}`),
        col('deploymentTime', 'workflow.col.createTime'),
      ];
    case 'claim':
    case 'todo':
      return [
        col('categoryName', 'workflow.col.category'),
        col('businessTitle', 'workflow.col.title'),
        col('taskName', 'workflow.col.task'),
        col('startUserName', 'workflow.col.startUser'),
        col('createTime', 'workflow.col.createTime'),
      ];
    case 'send':
      return [
        col('categoryName', 'workflow.col.category'),
        col('businessTitle', 'workflow.col.title'),
        col('startTime', 'workflow.col.startTime'),
        col('endTime', 'workflow.col.endTime'),
        col('processIsFinished', 'workflow.col.status', (r) => statusTag(r, t)),
      ];
    case 'done':
      return [
        col('categoryName', 'workflow.col.category'),
        col('businessTitle', 'workflow.col.title'),
        col('taskName', 'workflow.col.task'),
        col('startUserName', 'workflow.col.startUser'),
        col('endTime', 'workflow.col.endTime'),
        col('processIsFinished', 'workflow.col.status', (r) => statusTag(r, t)),
      ];
    case 'manager':
      return [
        col('categoryName', 'workflow.col.category'),
        col('name', 'workflow.col.process'),
        col('key', 'workflow.col.key'),
        col('version', 'workflow.col.version', (r) => `v${r.version}`),
        col('suspensionState', 'workflow.col.status', (r) => (
          <Tag color={r.suspensionState === 2 ? 'orange' : 'green'}>
            {t(r.suspensionState === 2 ? 'workflow.suspended' : 'workflow.active')}
          </Tag>
        )),
        col('deploymentTime', 'workflow.col.createTime'),
      ];
    case 'follow':
      return [
        col('categoryName', 'workflow.col.category'),
        col('businessTitle', 'workflow.col.title'),
        col('processDefinitionName', 'workflow.col.process'),
        col('startUser', 'workflow.col.startUser'),
        col('startTime', 'workflow.col.startTime'),
      ];
  }
}

export interface WorkListProps {
  kind: WorkKind;
  /** Filters sent with the list request (a search). */
  params?: Record<string, string>;
  /** Shown above the table (search form, upload button). */
  toolbar?: ReactNode;
  /** More buttons for a row, before 流程图. */
  rowActions?: (row: FlowRow) => ReactNode;
  /** Shown above the search (待办事务: the tasks waiting to be claimed). */
  notice?: ReactNode;
}

export function WorkList({ kind, params = {}, toolbar, rowActions, notice }: WorkListProps) {
  const http = useHttp();
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [diagram, setDiagram] = useState<FlowRow | null>(null);
  const [claiming, setClaiming] = useState<string | null>(null);
  const [search, setSearch] = useState<Record<string, string>>({});
  const filters = { ...params, ...search };

  const claim = async (row: FlowRow) => {
    setClaiming(String(row.taskId));
    try {
      await http.post(`${FLOW}/work/claim-task`, undefined, { searchParams: { taskId: row.taskId }, silent: true });
      void message.success(t('workflow.claimed'));
      await queryClient.invalidateQueries({ queryKey: ['flow'] });
      navigate(handlePath(row));
    } catch (err) {
      void message.error((err as Error).message);
    } finally {
      setClaiming(null);
    }
  };

  const actions = (row: FlowRow) => (
    <Space size={4}>
      {kind === 'start' && (
        <Button type="link" size="small" onClick={() => navigate(formPath(row))}>
          {t('workflow.start')}
        </Button>
      )}
      {kind === 'claim' && (
        <Button type="link" size="small" loading={claiming === String(row.taskId)} onClick={() => void claim(row)}>
          {t('workflow.claim')}
        </Button>
      )}
      {kind === 'todo' && (
        <Button type="link" size="small" onClick={() => navigate(handlePath(row))}>
          {t('workflow.handle')}
        </Button>
      )}
      {(kind === 'send' || kind === 'done' || kind === 'follow') && (
        <Button type="link" size="small" onClick={() => navigate(detailPath(row))}>
          {t('workflow.detail')}
        </Button>
      )}
      {rowActions?.(row)}
      <Button type="link" size="small" onClick={() => setDiagram(row)}>
        {t('workflow.diagram')}
      </Button>
    </Space>
  );

  const byDefinition = kind === 'start' || kind === 'manager';
  const columns: TableColumnsType<FlowRow> = [
    ...columnsFor(kind, t),
    { key: 'actions', title: t('workflow.col.action'), render: (_, row) => actions(row) },
  ];
  return (
    <CardBox>
      {notice}
      {toolbar ?? (SEARCHABLE.has(kind) && <WorkSearch kind={kind} onSearch={setSearch} />)}
      <PagedTable
        testId="work-list"
        queryKey={['flow', kind, filters]}
        load={(paging) => http.get<FlowPage>(WORK_LIST_URL[kind], { ...paging, ...filters })}
        columns={columns}
        rowKey={(row) => String(row.taskId ?? row.processInstanceId ?? row.id)}
        errorText={(m) => t('workflow.loadFailed', { message: m })}
      />
      {diagram && (
        <FlowDiagramDialog
          processInstanceId={byDefinition ? undefined : String(diagram.processInstanceId)}
          processDefinitionId={byDefinition ? String(diagram.id) : undefined}
          onClose={() => setDiagram(null)}
        />
      )}
    </CardBox>
  );
}

/** My work lists: their own search (the flow administration's pages bring theirs as the toolbar). */
const SEARCHABLE = new Set<WorkKind>(['start', 'claim', 'todo', 'send', 'done']);

/** The flow dictionary: the categories flow_<key> of the processes. */
const FLOW_CATEGORIES = { code: 'flow', source: 'system', multiple: false } as const;

interface SearchValues {
  name?: string;
  category?: string;
  created?: [Dayjs | null, Dayjs | null] | null;
}

/**
 * The search of my work lists, as their endpoints filter: the process name and category, and (task
 * and instance lists) when the task or instance was created. 发起事务 filters by name and category.
 */
export function WorkSearch({ kind, onSearch }: { kind: WorkKind; onSearch: (params: Record<string, string>) => void }) {
  const t = useT();
  const [form] = Form.useForm<SearchValues>();
  const categories = useDictionary(FLOW_CATEGORIES);
  const byDefinition = kind === 'start';
  const submit = (values: SearchValues) => {
    const [from, to] = values.created ?? [];
    const params: Record<string, string | undefined> = {
      [byDefinition ? 'name' : 'processDefinitionName']: values.name?.trim() || undefined,
      category: values.category ? `flow_${values.category}` : undefined,
      beginDate: from?.format('YYYY-MM-DD'),
      endDate: to?.format('YYYY-MM-DD'),
    };
    onSearch(Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]))));
  };
  return (
    <Form form={form} layout="inline" onFinish={submit} style={{ marginBottom: 12, rowGap: 8 }} aria-label={t('workflow.search')}>
      <Form.Item name="name" label={t('workflow.searchName')}>
        <Input allowClear placeholder={t('workflow.searchNamePlaceholder')} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="category" label={t('workflow.col.category')}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('workflow.searchCategoryPlaceholder')}
          options={categories.data ?? []}
          loading={categories.isLoading}
          style={{ width: 200 }}
        />
      </Form.Item>
      {!byDefinition && (
        <Form.Item name="created" label={t('workflow.col.createTime')}>
          <DatePicker.RangePicker style={{ width: 240 }} />
        </Form.Item>
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {t('workflow.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onSearch({});
            }}
          >
            {t('workflow.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

const page = (kind: WorkKind) =>
  function WorkPage() {
    return <WorkList kind={kind} />;
  };

export const StartList = page('start');
export const ClaimList = page('claim');
/** 待办事务, and above it how many tasks wait to be claimed (they are not in this list until claimed). */
export function TodoList() {
  return <WorkList kind="todo" notice={<ClaimWaiting />} />;
}
export const SendList = page('send');
export const DoneList = page('done');

/** A work list's first page as PagedTable asks for it (no search yet). */
const firstPage =
  (kind: WorkKind): Prefetch =>
  ({ http }) =>
    void http.get<FlowPage>(WORK_LIST_URL[kind], { current: 1, size: 10 });

/** A page load's first requests of the work lists (app/prefetch.ts): their first page, and for 待办事务 the counts above it. */
export const prefetch: Partial<
  Record<'StartList' | 'ClaimList' | 'TodoList' | 'SendList' | 'DoneList' | 'DefinitionList' | 'FollowList', Prefetch>
> = {
  StartList: firstPage('start'),
  ClaimList: firstPage('claim'),
  TodoList: (at) => {
    firstPage('todo')(at);
    void at.http.get(COUNTS_URL, undefined, { silent: true });
  },
  SendList: firstPage('send'),
  DoneList: firstPage('done'),
};
// the flow administration's pages, under the names the router imports
export { DefinitionManager as DefinitionList, InstanceFollow as FollowList } from './FlowAdmin.tsx';
