// The flow API as the workflow pages call it (server: src/server/modules/flow/routes.ts, shapes in
// docs/workflows.md#flow-api): the work lists, one task, claim / complete, an instance, its
// timeline and its diagram data. Every call goes through the renderers' useHttp().
import type { EntityModel } from '../../engine/model/types.ts';
import { catalog } from '../renderers/catalog.ts';

export const FLOW = '/api/blade-flow';

/** My work lists, and the flow administration's deployed definitions (manager) and running instances (follow). */
export type WorkKind = 'start' | 'claim' | 'todo' | 'send' | 'done' | 'manager' | 'follow';

export const WORK_LIST_URL: Record<WorkKind, string> = {
  start: `${FLOW}/work/start-list`,
  claim: `${FLOW}/work/claim-list`,
  todo: `${FLOW}/work/todo-list`,
  send: `${FLOW}/work/send-list`,
  done: `${FLOW}/work/done-list`,
  manager: `${FLOW}/manager/list`,
  follow: `${FLOW}/follow/list`,
};

export type FlowRow = Record<string, any>;

export interface FlowPage {
  records: FlowRow[];
  total: number;
  size: number;
  current: number;
}

/** What the handle page learns about its task (work/task-detail). */
export interface TaskDetail extends FlowRow {
  taskId: string;
  taskName: string;
  taskDefinitionKey: string;
  canClaim: boolean;
  canComplete: boolean;
  editableFields: string[];
  status: string;
}

/** One step of an instance's timeline (process/history-flow-list). */
export interface HistoryEntry {
  id: string;
  historyActivityId: string;
  historyActivityName: string;
  historyActivityType: string;
  createTime: string;
  endTime: string;
  assigneeName: string;
  historyActivityDurationTime: string;
  comment: string;
  isPass: boolean;
  taskId: string;
}

/** Diagram data (process/model-view). */
export interface ModelView {
  xml: string;
  flow: { historyActivityId: string; historyActivityType: string; endTime: string }[];
}

/** The document type whose x-workflow has this prefix (the <prefix> of /work/process/<prefix>/…). */
export function modelForPrefix(prefix: string): EntityModel | undefined {
  return Object.values(catalog().entities).find((m) => m.workflow?.prefix === prefix);
}

/** A row's prefix: `route` of task and instance rows, else its category flow_<prefix>. */
export function prefixOf(row: FlowRow): string {
  return String(row.route || String(row.category ?? '').replace(/^flow_/, ''));
}

export const handlePath = (row: FlowRow) =>
  `/work/process/${prefixOf(row)}/handle/${row.taskId}/${row.processInstanceId}/${row.businessId}`;
export const detailPath = (row: FlowRow) => `/work/process/${prefixOf(row)}/detail/${row.processInstanceId}/${row.businessId}`;
export const formPath = (row: FlowRow) => `/work/process/${prefixOf(row)}/form/${encodeURIComponent(String(row.id))}`;
