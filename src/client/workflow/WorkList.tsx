// My work (SPEC §4): 发起事务 (the processes I may start), 待签事务 (tasks I may claim), 待办事务
// (my tasks), 已发事务 (what I submitted) and 办结事务 (what I handled), each a paged table of the
// flow API's rows with the actions that lead on: start, claim then handle, handle, detail, diagram.
// The same table lists the deployed definitions (部署管理) and running instances (流程跟踪); their
// pages (FlowAdmin.tsx) add a search, a toolbar and row actions.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useT } from '../i18n/useT.ts';
import { CardBox } from '../shell/Tile.tsx';
import { useHttp } from '../renderers/http-context.tsx';
import { detailPath, FLOW, formPath, handlePath, WORK_LIST_URL, type FlowPage, type FlowRow, type WorkKind } from './api.ts';
import { FlowDiagramDialog } from './FlowDiagram.tsx';

type Translate = ReturnType<typeof useT>;

function statusTag(row: FlowRow, t: Translate) {
  const finished = row.processIsFinished === 'finished';
  return <Tag color={finished ? 'green' : 'blue'}>{t(finished ? 'workflow.status.finished' : 'workflow.status.unfinished')}</Tag>;
}

function columnsFor(kind: WorkKind, t: Translate): TableColumnsType<FlowRow> {
  const col = (key: string, title: Parameters<Translate>[0], render?: (row: FlowRow) => React.ReactNode) => ({ key, dataIndex: key, title: t(title), render: render && ((_: unknown, row: FlowRow) => render(row)) });
  switch (kind) {
    case 'start':
      return [col('categoryName', 'workflow.col.category'), col('name', 'workflow.col.process'), col('version', 'workflow.col.version', (r) => `v${r.version}`), col('deploymentTime', 'workflow.col.createTime')];
    case 'claim':
    case 'todo':
      return [col('categoryName', 'workflow.col.category'), col('businessTitle', 'workflow.col.title'), col('taskName', 'workflow.col.task'), col('startUserName', 'workflow.col.startUser'), col('createTime', 'workflow.col.createTime')];
    case 'send':
      return [col('categoryName', 'workflow.col.category'), col('businessTitle', 'workflow.col.title'), col('startTime', 'workflow.col.startTime'), col('endTime', 'workflow.col.endTime'), col('processIsFinished', 'workflow.col.status', (r) => statusTag(r, t))];
    case 'done':
      return [col('categoryName', 'workflow.col.category'), col('businessTitle', 'workflow.col.title'), col('taskName', 'workflow.col.task'), col('startUserName', 'workflow.col.startUser'), col('endTime', 'workflow.col.endTime'), col('processIsFinished', 'workflow.col.status', (r) => statusTag(r, t))];
    case 'manager':
      return [col('categoryName', 'workflow.col.category'), col('name', 'workflow.col.process'), col('key', 'workflow.col.key'), col('version', 'workflow.col.version', (r) => `v${r.version}`),
        col('suspensionState', 'workflow.col.status', (r) => <Tag color={r.suspensionState === 2 ? 'orange' : 'green'}>{t(r.suspensionState === 2 ? 'workflow.suspended' : 'workflow.active')}</Tag>), col('deploymentTime', 'workflow.col.createTime')];
    case 'follow':
      return [col('categoryName', 'workflow.col.category'), col('businessTitle', 'workflow.col.title'), col('processDefinitionName', 'workflow.col.process'), col('startUser', 'workflow.col.startUser'), col('startTime', 'workflow.col.startTime')];
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
}

export function WorkList({ kind, params = {}, toolbar, rowActions }: WorkListProps) {
  const http = useHttp();
  const t = useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [paging, setPaging] = useState({ current: 1, size: 10 });
  const [diagram, setDiagram] = useState<FlowRow | null>(null);
  const [claiming, setClaiming] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['flow', kind, paging.current, paging.size, params],
    queryFn: () => http.get<FlowPage>(WORK_LIST_URL[kind], { current: paging.current, size: paging.size, ...params }),
    staleTime: 0,
  });

  const claim = async (row: FlowRow) => {
    setClaiming(String(row.taskId));
    try {
      await http.post(`${FLOW}/work/claim-task`, undefined, { searchParams: { taskId: row.taskId } });
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
      {kind === 'start' && <Button type="link" size="small" onClick={() => navigate(formPath(row))}>{t('workflow.start')}</Button>}
      {kind === 'claim' && <Button type="link" size="small" loading={claiming === String(row.taskId)} onClick={() => void claim(row)}>{t('workflow.claim')}</Button>}
      {kind === 'todo' && <Button type="link" size="small" onClick={() => navigate(handlePath(row))}>{t('workflow.handle')}</Button>}
      {(kind === 'send' || kind === 'done' || kind === 'follow') && <Button type="link" size="small" onClick={() => navigate(detailPath(row))}>{t('workflow.detail')}</Button>}
      {rowActions?.(row)}
      <Button type="link" size="small" onClick={() => setDiagram(row)}>{t('workflow.diagram')}</Button>
    </Space>
  );

  const byDefinition = kind === 'start' || kind === 'manager';
  const columns: TableColumnsType<FlowRow> = [...columnsFor(kind, t), { key: 'actions', title: t('workflow.col.action'), render: (_, row) => actions(row) }];
  return (
    <CardBox>
      {toolbar}
      <div data-testid="work-list" aria-busy={list.isFetching}>
        {list.isError && <Alert type="error" showIcon title={t('workflow.loadFailed', { message: (list.error as Error).message })} style={{ marginBottom: 12 }} />}
        <Table<FlowRow>
          rowKey={(row) => String(row.taskId ?? row.processInstanceId ?? row.id)}
          size="middle"
          columns={columns}
          dataSource={list.data?.records ?? []}
          loading={list.isLoading}
          pagination={{ current: paging.current, pageSize: paging.size, total: list.data?.total ?? 0, showSizeChanger: true, onChange: (current, size) => setPaging({ current, size }) }}
        />
      </div>
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

const page = (kind: WorkKind) => function WorkPage() {
  return <WorkList kind={kind} />;
};

export const StartList = page('start');
export const ClaimList = page('claim');
export const TodoList = page('todo');
export const SendList = page('send');
export const DoneList = page('done');
// the flow administration's pages, under the names the router imports
export { DefinitionManager as DefinitionList, InstanceFollow as FollowList } from './FlowAdmin.tsx';
