// What the workflow engine says when it refuses a model or a step, and the approval messages it
// sends, in both languages. Errors carry a key and parameters; the caller renders them in the user's
// language with the platform's renderer (i18n/messages.ts render; Label parameters follow the language).
import { render } from '../i18n/messages.ts';
import type { Label, Lang } from '../model/types.ts';

export const workflowMessages = {
  // deploy time: the model
  notBpmn: { zh: '不是有效的 BPMN 流程文件: {detail}', en: 'Not a valid BPMN file: {detail}' },
  tooLarge: { zh: '流程文件超过 {limit} 字节', en: 'The process file is larger than {limit} bytes' },
  tooManyElements: { zh: '流程元素超过 {limit} 个', en: 'The process has more than {limit} elements' },
  unknownElement: { zh: '不支持的元素 {element}', en: 'Unsupported element {element}' },
  processCount: { zh: '一个文件必须恰好包含一个流程,实际 {count} 个', en: 'A file must hold exactly one process; it holds {count}' },
  unsupportedRoot: { zh: '不支持的定义 {element}', en: 'Unsupported definition {element}' },
  unsupportedElement: {
    zh: '不支持的流程元素 {element}:只支持开始/结束事件、用户任务、排他网关、并行网关和顺序流',
    en: 'Unsupported process element {element}: only start and end events, user tasks, exclusive and parallel gateways and sequence flows are supported',
  },
  unsupportedEvent: { zh: '{element} 的 {definition} 不被支持', en: '{definition} on {element} is not supported' },
  unsupportedExtension: {
    zh: '{element} 的扩展 {extension} 不被支持(监听器、脚本不会执行)',
    en: 'Extension {extension} on {element} is not supported (listeners and scripts are never run)',
  },
  unsupportedLoop: { zh: '{element} 的 {loop} 不被支持', en: '{loop} on {element} is not supported' },
  loopSource: {
    zh: '多实例的 {element} 需要 collection 或 loopCardinality',
    en: '{element} is multi-instance and needs a collection or a loopCardinality',
  },
  startCount: { zh: '流程必须恰好有一个开始事件,实际 {count} 个', en: 'The process needs exactly one start event; it has {count}' },
  noEnd: { zh: '流程没有结束事件', en: 'The process has no end event' },
  badExpression: { zh: '{element} 的表达式无效: {detail}', en: 'Invalid expression on {element}: {detail}' },
  conditionLanguage: { zh: '{element} 的条件语言 {language} 不被支持', en: 'Condition language {language} on {element} is not supported' },
  conditionOutsideGateway: {
    zh: '{element} 带条件,但不是从排他网关出发',
    en: '{element} has a condition but does not leave an exclusive gateway',
  },
  danglingFlow: { zh: '{element} 的起点或终点不是受支持的流程节点', en: '{element} does not connect two supported flow nodes' },
  outgoingCount: {
    zh: '{element} 需要 {expected} 条出线,实际 {count} 条',
    en: '{element} needs {expected} outgoing flow(s); it has {count}',
  },
  incomingCount: {
    zh: '{element} 需要 {expected} 条进线,实际 {count} 条',
    en: '{element} needs {expected} incoming flow(s); it has {count}',
  },
  defaultNotOutgoing: {
    zh: '{element} 的默认流 {flow} 不是它的出线',
    en: 'The default flow {flow} of {element} is not one of its outgoing flows',
  },
  defaultHasCondition: { zh: '默认流 {flow} 不能带条件', en: 'The default flow {flow} cannot have a condition' },
  parallelCondition: { zh: '{element} 的出线 {flow} 不能带条件', en: 'Flow {flow} leaving {element} cannot have a condition' },
  unreachable: { zh: '从开始事件无法到达 {element}', en: '{element} cannot be reached from the start event' },
  deadEnd: { zh: '从 {element} 无法到达结束事件', en: 'No end event can be reached from {element}' },
  noAssignment: { zh: '{element} 没有处理人、候选人或候选组', en: '{element} has no assignee, candidate users or candidate groups' },
  badKey: {
    zh: '流程标识 {key} 无效:须以字母开头,只含字母、数字、_ - .,最长 100 个字符',
    en: 'Process key {key} is invalid: a letter first, then letters, digits, _ - . only, at most 100 characters',
  },
  badVariableName: { zh: '{element} 的变量名 {name} 无效', en: 'Variable name {name} on {element} is invalid' },
  // run time: a step
  taskNotActive: { zh: '任务不存在或已被处理', en: 'The task does not exist or has already been handled' },
  notRunning: { zh: '流程已经结束', en: 'The process has already ended' },
  noMatchingFlow: { zh: '{element} 没有满足条件的出线', en: 'No outgoing flow of {element} matches' },
  nobodyToHandle: { zh: '{element} 没有可处理的人员', en: 'Nobody can handle {element}' },
  expressionFailed: { zh: '计算 {element} 的表达式出错: {detail}', en: 'The expression on {element} failed: {detail}' },
  collectionNotList: { zh: '{element} 的多实例集合不是列表', en: 'The multi-instance collection of {element} is not a list' },
  tooManyInstances: {
    zh: '{element} 的多实例数 {count} 无效(1 至 {limit})',
    en: '{element} has an invalid multi-instance count {count} (1 to {limit})',
  },
  endlessLoop: { zh: '流程在 {element} 处循环,没有到达任何用户任务', en: 'The process loops at {element} without reaching a user task' },
  alreadyActed: { zh: '已有审批人处理过,不能撤回', en: 'Someone has already acted on it; it can no longer be recalled' },
  // the server: documents, tasks and definitions
  approvedLocked: { zh: '{entity}已审批通过,不能修改或删除', en: 'The {entity} is approved and can no longer be changed or deleted' },
  approvingLocked: {
    zh: '{entity}正在审批中,不能修改、删除或重复提交',
    en: 'The {entity} is under approval and cannot be changed, deleted or submitted again',
  },
  noDefinition: { zh: '没有可用的流程定义: {key}', en: 'No active process definition: {key}' },
  definitionMismatch: {
    zh: '流程定义 {id} 不是 {entity}的审批流程',
    en: 'Process definition {id} is not the approval process of {entity}',
  },
  suspended: { zh: '流程定义 {name} 已挂起', en: 'Process definition {name} is suspended' },
  notAssignee: { zh: '该任务不是您的待办任务,请先签收', en: 'This task is not in your to-do list; claim it first' },
  claimTaken: { zh: '任务已被签收或您不是候选人', en: 'The task has already been claimed, or you are not one of its candidates' },
  notInitiator: { zh: '只有发起人可以撤回', en: 'Only the person who submitted it can recall it' },
  rejectNeedsComment: { zh: '驳回时请填写审批意见', en: 'Please give a comment when rejecting' },
  fieldNotEditable: { zh: '{field}在当前审批环节不可修改', en: '{field} cannot be changed at this approval step' },
  noWorkflow: { zh: '{entity}没有配置审批流程', en: 'The {entity} has no approval workflow' },
  notSubmitted: { zh: '{entity}没有正在审批的流程', en: 'The {entity} has no approval in progress' },
  noHandler: {
    zh: '{element} 没有可以处理的在职人员(处理人、候选人或角色: {handlers}),流程无法流转到这一步。请先为角色分配用户,或在模型设计中修改处理人',
    en: 'Nobody active can handle {element} (assignee, candidates or roles: {handlers}), so the process cannot move on to it. Give the role users first, or change the handlers in the model designer',
  },
  unknownUser: { zh: '{element} 的处理人 {name} 不存在', en: 'The handler {name} of {element} does not exist' },
  busy: { zh: '流程正被他人同时处理,请稍后重试', en: 'Someone else is working on this process at the same moment; try again' },
  badVariables: {
    zh: '流程变量必须是不超过 {limit} 字节的 JSON 对象',
    en: 'Process variables must be a JSON object of at most {limit} bytes',
  },
  instanceNotFound: { zh: '流程实例不存在', en: 'The process instance does not exist' },
  definitionNotFound: { zh: '流程定义不存在', en: 'The process definition does not exist' },
  definitionInUse: {
    zh: '流程定义 {name} 还有 {count} 个运行中的实例,不能删除',
    en: 'Process definition {name} still has {count} running instance(s) and cannot be deleted',
  },
  modelNotFound: { zh: '流程模型不存在', en: 'The process model does not exist' },
  modelKeyMismatch: {
    zh: '模型标识 {key} 须与流程文件中的流程 id {id} 一致',
    en: 'The model key {key} must equal the process id {id} in the file',
  },
  noFiles: { zh: '请上传 .bpmn 或 .bpmn20.xml 流程文件', en: 'Upload .bpmn or .bpmn20.xml process files' },
  // approval messages (type 3) to the people a task reached and to the submitter
  noticeTodoTitle: { zh: '【待审批】{subject}', en: '[To approve] {subject}' },
  noticeTodo: { zh: '{task}: {subject}', en: '{task} awaits you: {subject}' },
  noticeCompletedTitle: { zh: '【审批通过】{subject}', en: '[Approved] {subject}' },
  noticeCompleted: { zh: '{subject} 审批通过{remark}', en: '{subject} was approved{remark}' },
  noticeRejectedTitle: { zh: '【已驳回】{subject}', en: '[Rejected] {subject}' },
  noticeRejected: { zh: '{subject} 已驳回{remark}', en: '{subject} was rejected{remark}' },
  noticeTerminatedTitle: { zh: '【已终止】{subject}', en: '[Terminated] {subject}' },
  noticeTerminated: { zh: '{subject} 已终止{remark}', en: '{subject} was terminated{remark}' },
} as const satisfies Record<string, Label>;

export type WorkflowMessageKey = keyof typeof workflowMessages;

export interface WorkflowMessage {
  key: WorkflowMessageKey;
  params: Record<string, unknown>;
}

export function renderWorkflowMessage(message: WorkflowMessage, lang: Lang): string {
  return render(workflowMessages, message.key, lang, message.params);
}

/** Both languages of a message at once (HTTP errors and approval messages carry both). */
export function workflowLabel(key: WorkflowMessageKey, params: Record<string, unknown> = {}): Label {
  return { zh: renderWorkflowMessage({ key, params }, 'zh'), en: renderWorkflowMessage({ key, params }, 'en') };
}

/** A model the engine will not deploy: every problem found, each naming its element. */
export class DefinitionError extends Error {
  constructor(readonly issues: readonly WorkflowMessage[]) {
    super(issues.map((i) => renderWorkflowMessage(i, 'en')).join('; '));
    this.name = 'DefinitionError';
  }

  render(lang: Lang): string {
    return this.issues.map((i) => renderWorkflowMessage(i, lang)).join(lang === 'zh' ? ';' : '; ');
  }
}

/** A step the engine refuses (a task already handled, a gateway with no way out). */
export class WorkflowError extends Error implements WorkflowMessage {
  constructor(
    readonly key: WorkflowMessageKey,
    readonly params: Record<string, unknown> = {},
  ) {
    super(renderWorkflowMessage({ key, params }, 'en'));
    this.name = 'WorkflowError';
  }

  render(lang: Lang): string {
    return renderWorkflowMessage(this, lang);
  }
}

const TYPE_LABELS: Readonly<Record<string, Label>> = {
  startEvent: { zh: '开始事件', en: 'start event' },
  endEvent: { zh: '结束事件', en: 'end event' },
  userTask: { zh: '用户任务', en: 'user task' },
  exclusiveGateway: { zh: '排他网关', en: 'exclusive gateway' },
  parallelGateway: { zh: '并行网关', en: 'parallel gateway' },
  sequenceFlow: { zh: '顺序流', en: 'sequence flow' },
  scriptTask: { zh: '脚本任务', en: 'script task' },
  serviceTask: { zh: '服务任务', en: 'service task' },
  subProcess: { zh: '子流程', en: 'sub-process' },
  callActivity: { zh: '调用活动', en: 'call activity' },
  boundaryEvent: { zh: '边界事件', en: 'boundary event' },
  inclusiveGateway: { zh: '包容网关', en: 'inclusive gateway' },
  eventBasedGateway: { zh: '事件网关', en: 'event-based gateway' },
  timerEventDefinition: { zh: '定时器', en: 'timer' },
  process: { zh: '流程', en: 'process' },
};

/** `bpmn:ScriptTask` → scriptTask */
export function typeName(moddleType: string): string {
  const local = moddleType.includes(':') ? moddleType.slice(moddleType.indexOf(':') + 1) : moddleType;
  return local.charAt(0).toLowerCase() + local.slice(1);
}

/** How an element is named in a message: its kind, its name and its id (脚本任务 "计算" (sc1)). */
export function elementLabel(moddleType: string, id?: string, name?: string): Label {
  const type = typeName(moddleType);
  const kind = TYPE_LABELS[type] ?? { zh: type, en: type };
  const named = name ? ` "${name}"` : '';
  const ident = id ? ` (${id})` : '';
  return { zh: `${kind.zh}${named}${ident}`, en: `${kind.en}${named}${ident}` };
}
