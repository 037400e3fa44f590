// The OpenAPI description of approval workflows: each x-workflow document's submit (save and start
// its process) and recall, and the flow API of /api/blade-flow (docs/workflows.md#flow-api).
import type { EntityModel, JsonSchema } from '../../../engine/model/types.ts';

const FLOW = '/api/blade-flow';
const TAG = ['flow'];

const envelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['code', 'success', 'data', 'msg'],
  properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data, msg: { type: 'string' } },
});

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

const answer = (data: JsonSchema = {}) => ({
  '200': { description: 'OK', content: json(envelope(data)) },
  '400': { description: 'Refused (the message says why, in the Accept-Language)', content: json(envelope({})) },
  '401': { description: 'No valid token' },
});

const page = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    records: { type: 'array', items: item },
    total: { type: 'integer' },
    size: { type: 'integer' },
    current: { type: 'integer' },
    pages: { type: 'integer' },
  },
});

const query = (name: string, description: string, required = false) => ({
  name,
  in: 'query',
  required,
  schema: { type: 'string' },
  description,
});

const paging = [
  { name: 'current', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 10 } },
];

/** The filters every work list accepts. */
const workFilters = [
  ...paging,
  query('category', 'flow category, flow_<prefix> (the flow dictionary)'),
  query('processDefinitionKey', 'process key'),
  query('processDefinitionName', 'part of the process name'),
  query('beginDate', 'created at or after, yyyy-MM-dd[ HH:mm:ss]'),
  query('endDate', 'created at or before, yyyy-MM-dd[ HH:mm:ss]'),
];

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The shapes the flow API answers with (BladeFlow, FlowProcess, history entries, models). */
export const flowSchemas: Record<string, JsonSchema> = {
  BladeFlow: {
    type: 'object',
    description: 'A task or an instance in a work list',
    properties: Object.fromEntries(
      [
        'taskId',
        'taskName',
        'taskDefinitionKey',
        'assignee',
        'assigneeName',
        'category',
        'categoryName',
        'route',
        'createTime',
        'claimTime',
        'endTime',
        'processInstanceId',
        'processDefinitionId',
        'processDefinitionKey',
        'processDefinitionName',
        'businessKey',
        'businessId',
        'businessTitle',
        'startUser',
        'startUserName',
        'status',
        'processStatus',
        'processIsFinished',
        'comment',
        'flag',
      ]
        .map((k) => [k, { type: 'string' }])
        .concat([
          ['isPass', { type: 'boolean' }],
          ['processDefinitionVersion', { type: 'integer' }],
        ]),
    ),
  },
  FlowProcess: {
    type: 'object',
    description: 'A deployed process definition',
    properties: {
      id: { type: 'string' },
      tenantId: { type: 'string' },
      name: { type: 'string' },
      key: { type: 'string' },
      category: { type: 'string' },
      categoryName: { type: 'string' },
      version: { type: 'integer' },
      deploymentId: { type: 'string' },
      resourceName: { type: 'string' },
      description: { type: 'string' },
      suspensionState: { type: 'integer', enum: [1, 2], description: '1 active, 2 suspended' },
      deploymentTime: { type: 'string' },
    },
  },
  FlowHistory: {
    type: 'object',
    description: 'One step of an instance’s timeline',
    properties: Object.fromEntries(
      [
        'historyActivityId',
        'historyActivityName',
        'historyActivityType',
        'assignee',
        'assigneeName',
        'createTime',
        'endTime',
        'durationTime',
        'comment',
      ]
        .map((k) => [k, { type: 'string' }])
        .concat([['isPass', { type: 'boolean' }]]),
    ),
  },
  FlowModel: {
    type: 'object',
    description: 'A model of the designer (BPMN XML not yet deployed)',
    properties: {
      id: { type: 'string' },
      modelKey: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      description: { type: 'string' },
      xml: { type: 'string' },
      version: { type: 'integer' },
    },
  },
};

const get = (summary: string, parameters: unknown[], data: JsonSchema) => ({
  get: { tags: TAG, summary, parameters, responses: answer(data) },
});
const post = (summary: string, parameters: unknown[], data: JsonSchema = {}, body?: JsonSchema) => ({
  post: { tags: TAG, summary, parameters, ...(body && { requestBody: { required: true, content: json(body) } }), responses: answer(data) },
});

/** /api/blade-flow: work lists and steps, timelines and diagrams, follow, manager and model. */
export function flowPaths(): Record<string, JsonSchema> {
  const flows = page(ref('BladeFlow'));
  const instanceId = query('processInstanceId', 'process instance id', true);
  return {
    [`${FLOW}/work/start-list`]: get(
      'Processes the caller may start (latest active version of each key)',
      [...paging, query('category', 'flow_<prefix>'), query('name', 'part of the name')],
      page(ref('FlowProcess')),
    ),
    [`${FLOW}/work/claim-list`]: get('Tasks the caller may claim (a candidate, by user or role)', workFilters, flows),
    [`${FLOW}/work/todo-list`]: get('Tasks assigned to the caller', workFilters, flows),
    [`${FLOW}/work/counts`]: get('How many tasks wait for the caller: assigned (todo) and waiting to be claimed (claim)', [], {
      type: 'object',
      properties: { todo: { type: 'integer' }, claim: { type: 'integer' } },
    }),
    [`${FLOW}/work/send-list`]: get('Instances the caller started', workFilters, flows),
    [`${FLOW}/work/done-list`]: get('Tasks the caller completed', workFilters, flows),
    [`${FLOW}/work/task-detail`]: get(
      'One task, with canClaim, canComplete and the fields this task may change (editableFields)',
      [query('taskId', 'task id', true)],
      ref('BladeFlow'),
    ),
    [`${FLOW}/work/claim-task`]: post('Claim a task offered to the caller', [query('taskId', 'task id', true)]),
    [`${FLOW}/work/complete-task`]: post(
      'Complete a claimed task: flag "ok" approves, anything else rejects (back to the submitter)',
      [],
      {
        type: 'object',
        properties: { processStatus: { type: 'string' }, processIsFinished: { type: 'string', enum: ['finished', 'unfinished'] } },
      },
      {
        type: 'object',
        required: ['taskId'],
        properties: {
          taskId: { type: 'string' },
          flag: { type: 'string', description: '"ok" approves' },
          comment: { type: 'string', maxLength: 1000 },
          variables: { type: 'object', description: 'process variables (identifier names, at most 64 KB of JSON)' },
          record: { type: 'object', description: 'changes to the document fields this task may edit' },
        },
      },
    ),
    [`${FLOW}/work/recall-process`]: post('The submitter takes an instance back before anyone acted (the document becomes withdrawn)', [
      instanceId,
    ]),
    [`${FLOW}/process/history-flow-list`]: get('The timeline of an instance', [instanceId], { type: 'array', items: ref('FlowHistory') }),
    [`${FLOW}/process/instance-detail`]: get('One instance as a BladeFlow row', [instanceId], ref('BladeFlow')),
    [`${FLOW}/process/model-view`]: get(
      'Diagram data: the BPMN XML and the activities and flows taken',
      [query('processInstanceId', 'instance (or processDefinitionId)'), query('processDefinitionId', 'definition')],
      {
        type: 'object',
        properties: { xml: { type: 'string' }, flow: { type: 'array', items: ref('FlowHistory') } },
      },
    ),
    [`${FLOW}/process/resource-view`]: {
      get: {
        tags: TAG,
        summary: 'The BPMN XML of a definition',
        parameters: [query('processDefinitionId', 'definition id', true)],
        responses: { '200': { description: 'BPMN XML', content: { 'application/xml': { schema: { type: 'string' } } } } },
      },
    },
    [`${FLOW}/follow/list`]: get(
      'Running instances of the tenant (menu flow_follow)',
      [...paging, query('processInstanceId', 'one instance'), query('processDefinitionKey', 'process key')],
      flows,
    ),
    [`${FLOW}/follow/history-flow-list`]: get('The timeline of an instance (as process/history-flow-list)', [instanceId], {
      type: 'array',
      items: ref('FlowHistory'),
    }),
    [`${FLOW}/follow/delete-process-instance`]: post('End a running instance with a reason (the document becomes terminated)', [
      instanceId,
      query('deleteReason', 'why'),
    ]),
    [`${FLOW}/manager/list`]: get(
      'Deployed definitions of the tenant, every version (menu flow_manager)',
      [...paging, query('category', 'flow_<prefix>'), query('key', 'process key')],
      page(ref('FlowProcess')),
    ),
    [`${FLOW}/manager/change-state`]: post('Suspend or activate a definition', [
      query('processId', 'definition id', true),
      { name: 'state', in: 'query', required: true, schema: { type: 'string', enum: ['active', 'suspend'] } },
    ]),
    [`${FLOW}/manager/delete-deployment`]: post('Delete deployments (refused while an instance of them runs)', [
      query('deploymentIds', 'comma-separated ids', true),
    ]),
    [`${FLOW}/manager/deploy-upload`]: {
      post: {
        tags: TAG,
        summary: 'Deploy uploaded .bpmn files (every file is checked before any is deployed)',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  files: { type: 'array', items: { type: 'string', format: 'binary' } },
                  category: { type: 'string' },
                  tenantIds: { type: 'string' },
                },
              },
            },
          },
        },
        responses: answer({ type: 'array', items: ref('FlowProcess') }),
      },
    },
    [`${FLOW}/model/list`]: get(
      'Designer models (menu flow_model)',
      [...paging, query('name', 'part of the name'), query('modelKey', 'model key')],
      page(ref('FlowModel')),
    ),
    [`${FLOW}/model/detail`]: get('One model with its XML', [query('id', 'model id', true)], ref('FlowModel')),
    [`${FLOW}/model/submit`]: post(
      'Create or save a model (BPMN XML; the key must equal the process id)',
      [],
      ref('FlowModel'),
      ref('FlowModel'),
    ),
    [`${FLOW}/model/remove`]: post('Remove models', [query('ids', 'comma-separated ids', true)]),
    [`${FLOW}/model/deploy`]: post(
      'Deploy a model as the next version of its process key (refused, naming the elements, when the engine cannot run it)',
      [
        query('modelId', 'model id', true),
        query('category', 'flow_<prefix>'),
        query('tenantIds', 'platform administrator: deploy to these tenants'),
      ],
      { type: 'array', items: ref('FlowProcess') },
    ),
  };
}

/** An x-workflow document's approval calls: submit (save, then start its process) and recall. */
export function documentWorkflowPaths(model: EntityModel): Record<string, JsonSchema> {
  const wf = model.workflow;
  if (!wf) return {};
  const record = ref(model.key);
  const tags = [model.key];
  const statuses = 'draft, rejected or withdrawn';
  return {
    [`${model.api}/submit`]: {
      post: {
        tags,
        summary: `Save the ${model.label.en} (create without id) and submit it for approval: process ${wf.processKey}, ${wf.statusField} ${statuses} → approving`,
        parameters: [query('processDefinitionId', 'a definition of the process key; default its latest version')],
        requestBody: { required: true, content: json(record) },
        responses: answer(record),
      },
    },
    [`${model.api}/recall`]: {
      post: {
        tags,
        summary: `The submitter takes the ${model.label.en} back before anyone acted (${wf.statusField} → withdrawn)`,
        parameters: [query('id', `${model.label.en} id`, true)],
        responses: answer(),
      },
    },
  };
}
