// A small in-memory flow API for the workflow pages' tests and stories, over the renderers' fake
// API: one material total demand plan under approval, its first task (项目经理审批) waiting to be
// claimed by the project manager role, then in their todo list, then done; and the flow
// administration's definitions (suspend, activate, upload, delete) and that running instance
// (terminate). Calls are recorded in the same `calls` list as the document calls. `entity` puts
// another document type with approval under the same task (Storybook's approval view of each type).
import { ApiError } from '../../api/http.ts';
import { catalog } from '../../renderers/catalog.ts';
import { createFakeHttp, type FakeHttp } from '../../renderers/testing/fake-http.ts';
import { FLOW } from '../api.ts';

type Row = Record<string, any>;

export const DIAGRAM_XML = '<definitions id="d"><process id="materialTotalDemand"/></definitions>';

export interface FakeFlowOptions {
  /** The open task's step; costApprove may change the remark (x-workflow editable). */
  taskDefinitionKey?: 'pmApprove' | 'costApprove';
  /** Already claimed by the caller (in todo rather than claim). */
  claimed?: boolean;
  /** The caller submitted the document (the server's canRecall on its row); default true. */
  submitter?: boolean;
  /** The document type under approval (a manifest key with x-workflow); the material total demand plan by default. */
  entity?: string;
}

export interface FakeFlow extends FakeHttp {
  /** The document under approval. */
  document: Row;
  task: Row;
}

export function createFakeFlow(options: FakeFlowOptions = {}): FakeFlow {
  const base = createFakeHttp(catalog(), { rows: 3 });
  const model = catalog().entities[options.entity ?? 'materialTotalDemand'];
  if (!model?.workflow) throw new Error(`${options.entity} is not a document type with approval`);
  const { prefix, processKey, statusField } = model.workflow;
  const document = base.tables.get(model.key)![0];
  Object.assign(document, {
    [statusField]: 'approving',
    [model.workflow.instanceField ?? 'processInstanceId']: '7001',
    canRecall: options.submitter ?? true,
  });
  if (model.key === 'materialTotalDemand') Object.assign(document, { title: '江北人才公寓钢筋计划', remark: '初稿' });
  const key = options.taskDefinitionKey ?? 'pmApprove';
  const processName = `${model.label.zh}审批`;
  const task: Row = {
    taskId: '9001',
    taskName: key === 'pmApprove' ? '项目经理审批' : '成本经理审批',
    taskDefinitionKey: key,
    processInstanceId: '7001',
    processDefinitionId: `${processKey}:1:1`,
    processDefinitionName: processName,
    category: `flow_${prefix}`,
    categoryName: model.label.zh,
    route: prefix,
    businessId: String(document.id),
    businessTitle: document.title ?? `${model.label.zh} ${document.id}`,
    startUserName: '王晓明',
    createTime: '2026-11-22 09:00:00',
    status: 'active',
    processIsFinished: 'unfinished',
    assignee: options.claimed ? '1001' : '',
    endTime: '',
  };
  let claimed = options.claimed ?? false;
  let completed: 'ok' | 'reject' | null = null;
  // the flow administration: deployed definitions (manager) and whether the instance was terminated
  const definitions: Row[] = [
    {
      id: 'materialTotalDemand:2:5',
      name: '材料总需用计划审批',
      key: 'materialTotalDemand',
      category: 'flow_materialTotalDemand',
      categoryName: '材料总需用计划',
      version: 2,
      deploymentId: '5',
      suspensionState: 2,
      deploymentTime: '2026-11-02 08:00:00',
    },
  ];
  let terminated = '';
  const page = (records: Row[]) => ({ records, total: records.length, size: 10, current: 1, pages: 1 });
  const history = () => [
    {
      id: 'h1',
      historyActivityId: 'start',
      historyActivityName: '提交',
      historyActivityType: 'startEvent',
      createTime: '2026-11-22 09:00:00',
      endTime: '2026-11-22 09:00:00',
      assigneeName: '王晓明',
      historyActivityDurationTime: '0秒',
      comment: '',
      isPass: false,
      taskId: '',
    },
    {
      id: 'h2',
      historyActivityId: key,
      historyActivityName: task.taskName,
      historyActivityType: 'userTask',
      createTime: '2026-11-22 09:00:00',
      endTime: completed ? '2026-11-22 10:00:00' : '',
      assigneeName: claimed ? '李建国' : '',
      historyActivityDurationTime: '',
      comment: '',
      isPass: completed === 'ok',
      taskId: task.taskId,
    },
  ];

  const flowGet = (path: string, q: Row): unknown => {
    switch (path) {
      case 'work/claim-list':
        return page(!claimed && !completed ? [task] : []);
      case 'work/todo-list':
        return page(claimed && !completed ? [{ ...task, assignee: '1001' }] : []);
      case 'work/counts':
        return { todo: claimed && !completed ? 1 : 0, claim: !claimed && !completed ? 1 : 0 };
      case 'work/send-list':
        return page([{ ...task, startTime: task.createTime, processIsFinished: completed === 'ok' ? 'finished' : 'unfinished' }]);
      case 'work/done-list':
        return page(completed ? [{ ...task, endTime: '2026-11-22 10:00:00', processIsFinished: 'finished' }] : []);
      case 'work/start-list':
        return page([
          {
            id: 'materialTotalDemand:1:1',
            name: '材料总需用计划审批',
            key: 'materialTotalDemand',
            category: 'flow_materialTotalDemand',
            categoryName: '材料总需用计划',
            version: 1,
            deploymentTime: '2026-11-01 08:00:00',
          },
        ]);
      case 'manager/list':
        return page(definitions.filter((d) => !q.key || d.key === q.key));
      case 'follow/list':
        return page(
          completed || terminated || (q.processDefinitionKey && q.processDefinitionKey !== 'materialTotalDemand')
            ? []
            : [
                {
                  ...task,
                  id: task.processInstanceId,
                  processDefinitionKey: 'materialTotalDemand',
                  startUser: '王晓明',
                  startTime: task.createTime,
                },
              ],
        );
      case 'work/task-detail':
        if (q.taskId !== task.taskId) throw new ApiError(404, '任务不存在或已处理', null);
        return {
          ...task,
          canClaim: !claimed && !completed,
          canComplete: claimed && !completed,
          editableFields: key === 'costApprove' ? ['remark'] : [],
        };
      case 'process/history-flow-list':
        return history();
      case 'process/instance-detail':
        return {
          ...task,
          startUser: '王晓明',
          startTime: task.createTime,
          processIsFinished: completed === 'ok' ? 'finished' : 'unfinished',
        };
      case 'process/model-view':
        return {
          xml: DIAGRAM_XML,
          flow: [
            { historyActivityId: 'start', historyActivityType: 'startEvent', endTime: '2026-11-22 09:00:00' },
            { historyActivityId: 'toPm', historyActivityType: 'sequenceFlow', endTime: '2026-11-22 09:00:00' },
            { historyActivityId: key, historyActivityType: 'userTask', endTime: completed ? '2026-11-22 10:00:00' : '' },
          ],
        };
      default:
        throw new ApiError(404, `no fake flow answer for ${path}`, null);
    }
  };

  const flowPost = (path: string, q: Row, body: Row): unknown => {
    if (path === 'work/claim-task') {
      if (claimed || q.taskId !== task.taskId) throw new ApiError(400, '任务已被签收', null);
      claimed = true;
      return null;
    }
    if (path === 'work/complete-task') {
      if (!claimed || completed) throw new ApiError(400, '任务不存在或已处理', null);
      completed = body.flag === 'ok' ? 'ok' : 'reject';
      document.canRecall = false;
      if (body.record) Object.assign(document, body.record);
      document[statusField] = completed === 'ok' ? 'approved' : 'rejected';
      return { processStatus: completed === 'ok' ? 'completed' : 'rejected' };
    }
    if (path === 'manager/change-state') {
      const definition = definitions.find((d) => d.id === q.processId);
      if (!definition) throw new ApiError(404, '流程定义不存在', null);
      definition.suspensionState = q.state === 'suspend' ? 2 : 1;
      return null;
    }
    if (path === 'manager/delete-deployment') {
      const at = definitions.findIndex((d) => d.deploymentId === q.deploymentIds);
      if (at < 0) throw new ApiError(404, '流程定义不存在', null);
      definitions.splice(at, 1);
      return null;
    }
    if (path === 'follow/delete-process-instance') {
      if (q.processInstanceId !== task.processInstanceId || completed || terminated)
        throw new ApiError(400, '流程实例不存在或已结束', null);
      if (!q.deleteReason) throw new ApiError(400, '请填写终止原因', null);
      terminated = q.deleteReason;
      document[statusField] = 'terminated';
      return null;
    }
    throw new ApiError(404, `no fake flow answer for ${path}`, null);
  };

  /** manager/deploy-upload: each file becomes the next version; one with a script task is refused (all or none), as the server does. */
  const deployUpload = async (body: FormData): Promise<Row[]> => {
    const files = body.getAll('files') as File[];
    if (!files.length) throw new ApiError(400, '请选择要部署的流程文件', null);
    for (const file of files) {
      if ((await file.text()).includes('scriptTask')) throw new ApiError(400, '不支持的流程元素 脚本任务 "算价" (calc)', null);
    }
    return files.map((file) => {
      const version = definitions.length + 2;
      const row = {
        ...(definitions[0] ?? {}),
        id: `materialTotalDemand:${version}:${version + 4}`,
        name: '材料总需用计划审批',
        key: 'materialTotalDemand',
        version,
        deploymentId: String(version + 4),
        suspensionState: 1,
        deploymentTime: '2026-11-22 11:00:00',
        resourceName: file.name,
      };
      definitions.unshift(row);
      return row;
    });
  };

  const own = (url: string) => (url.startsWith(`${FLOW}/`) ? url.slice(FLOW.length + 1) : null);
  return {
    ...base,
    document,
    task,
    get: async (url, params) => {
      const path = own(url);
      if (path === null) return base.get(url, params);
      base.calls.push({ method: 'get', url, params });
      return flowGet(path, params ?? {}) as any;
    },
    post: async (url, json, opts) => {
      const path = own(url);
      if (path === null) return base.post(url, json, opts);
      base.calls.push({ method: 'post', url, params: opts?.searchParams, body: json });
      return flowPost(path, opts?.searchParams ?? {}, (json ?? {}) as Row) as any;
    },
    upload: async (url, body) => {
      const path = own(url);
      if (path !== 'manager/deploy-upload') return base.upload(url, body);
      base.calls.push({ method: 'post', url, body });
      return deployUpload(body) as any;
    },
  };
}
