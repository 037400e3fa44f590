// The interpreter: pure functions over a small JSON state. Each step (start, complete, reject,
// recall, terminate) takes the compiled graph and the stored state and returns the new state with
// what changed — tasks created, completed and cancelled, history entries, whether it ended — so the
// caller can write all of it in one transaction. Nothing here keeps anything between calls.
import type { FlowNode, ProcessGraph } from './definition.ts';
import { evaluateCondition, evaluateList, evaluateTemplate, ExpressionError, toText, type Json, type Vars } from './expression.ts';
import { elementLabel, WorkflowError } from './messages.ts';

export type InstanceStatus = 'running' | 'completed' | 'rejected' | 'withdrawn' | 'terminated';

/** Progress of a multi-instance (countersign) activation. */
export interface MultiState {
  sequential: boolean;
  total: number;
  completed: number;
  /** Next loop counter to hand out (sequential). */
  next: number;
  /** The collection's items still to come (sequential). */
  items?: Json[];
}

/** A token waiting at a user task. */
export interface TokenState {
  id: string;
  at: string;
  mi?: MultiState;
}

export interface TaskState {
  token: string;
  /** loopCounter of a multi-instance task */
  index?: number;
}

export interface ProcessState {
  v: 1;
  status: InstanceStatus;
  vars: Record<string, Json>;
  tokens: TokenState[];
  /** parallel join gateway id → tokens arrived so far */
  joins: Record<string, number>;
  /** active tasks by reference */
  tasks: Record<string, TaskState>;
  seq: number;
  /** How many tasks were completed or rejected (recall is allowed while it is 0). */
  acted: number;
  /** The end event reached, when ended normally. */
  end?: string;
}

export interface CreatedTask {
  ref: string;
  activityId: string;
  name: string;
  formKey?: string;
  assignee: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
  /** Variables of this task only (elementVariable, loopCounter of a multi-instance task). */
  local: Record<string, Json>;
}

export type HistoryType = FlowNode['kind'] | 'sequenceFlow';

/** An activity passed through. User task entries stay open until the task ends (taskRef says which). */
export interface HistoryEntry {
  activityId: string;
  activityType: HistoryType;
  activityName: string;
  taskRef?: string;
}

export interface StepResult {
  state: ProcessState;
  created: CreatedTask[];
  /** Tasks this step completed (approved or rejected). */
  completed: string[];
  /** Tasks this step withdrew (the rest of a countersign, everything on reject/recall/terminate). */
  cancelled: string[];
  history: HistoryEntry[];
  ended: boolean;
}

export const RUNTIME_LIMITS = { visitsPerStep: 10_000, instancesPerTask: 200 } as const;

export interface StartOptions {
  /** The starting user's id, stored in the start event's initiator variable. */
  initiator?: string;
}

const nodeLabel = (node: FlowNode) => elementLabel(node.kind, node.id, node.name);

/** One step in progress: a private copy of the state plus what the step produced. */
class Step {
  readonly state: ProcessState;
  readonly created: CreatedTask[] = [];
  readonly completed: string[] = [];
  readonly cancelled: string[] = [];
  readonly history: HistoryEntry[] = [];
  private visits = 0;

  constructor(
    readonly graph: ProcessGraph,
    state: ProcessState,
  ) {
    this.state = structuredClone(state);
  }

  result(): StepResult {
    const ended = this.state.status !== 'running';
    return { state: this.state, created: this.created, completed: this.completed, cancelled: this.cancelled, history: this.history, ended };
  }

  private nextRef(prefix: string): string {
    this.state.seq += 1;
    return `${prefix}${this.state.seq}`;
  }

  private guard<T>(node: FlowNode, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof ExpressionError) throw new WorkflowError('expressionFailed', { element: nodeLabel(node), detail: err.message });
      throw err;
    }
  }

  /** Moves a token from `nodeId` on, until every branch waits at a user task or ends. */
  run(from: string) {
    const queue: string[] = [from];
    while (queue.length && this.state.status === 'running') {
      const node = this.graph.nodes[queue.shift()!];
      if (++this.visits > RUNTIME_LIMITS.visitsPerStep) throw new WorkflowError('endlessLoop', { element: nodeLabel(node) });
      for (const flowId of this.visit(node)) {
        const flow = this.graph.flows[flowId];
        this.history.push({ activityId: flow.id, activityType: 'sequenceFlow', activityName: flow.name });
        queue.push(flow.target);
      }
    }
    if (this.state.status === 'running' && this.state.tokens.length === 0) this.state.status = 'completed';
  }

  private pass(node: FlowNode) {
    this.history.push({ activityId: node.id, activityType: node.kind, activityName: node.name });
  }

  /** Handles arriving at a node; returns the flows to follow from it. */
  private visit(node: FlowNode): string[] {
    switch (node.kind) {
      case 'startEvent':
        this.pass(node);
        return node.outgoing;
      case 'endEvent':
        this.pass(node);
        this.state.end = node.id;
        if (node.terminate) this.finish('completed');
        return [];
      case 'exclusiveGateway':
        this.pass(node);
        return [this.choose(node)];
      case 'parallelGateway': {
        if (node.incoming.length > 1) {
          const arrived = (this.state.joins[node.id] ?? 0) + 1;
          if (arrived < node.incoming.length) {
            this.state.joins[node.id] = arrived;
            return [];
          }
          delete this.state.joins[node.id];
        }
        this.pass(node);
        return node.outgoing;
      }
      case 'userTask':
        return this.enterTask(node);
    }
  }

  /** The first outgoing flow whose condition holds (a flow without one always holds), else the default. */
  private choose(node: FlowNode): string {
    const vars = this.state.vars;
    for (const flowId of node.outgoing) {
      if (flowId === node.default) continue;
      const condition = this.graph.flows[flowId].condition;
      if (!condition || this.guard(node, () => evaluateCondition(condition, vars))) return flowId;
    }
    if (node.default) return node.default;
    throw new WorkflowError('noMatchingFlow', { element: nodeLabel(node) });
  }

  private enterTask(node: FlowNode): string[] {
    const token: TokenState = { id: this.nextRef('k'), at: node.id };
    if (!node.multi) {
      this.state.tokens.push(token);
      this.createTask(node, token, {});
      return [];
    }
    const multi = node.multi;
    const items = this.guard(node, () => this.instanceItems(node));
    if (items.length === 0) {
      this.pass(node);
      return node.outgoing;
    }
    token.mi = { sequential: multi.sequential, total: items.length, completed: 0, next: 0 };
    this.state.tokens.push(token);
    if (multi.sequential) {
      token.mi.items = items.slice(1);
      this.createInstance(node, token, items[0]);
    } else {
      for (const item of items) this.createInstance(node, token, item);
    }
    return [];
  }

  /** The items a multi-instance task iterates over: its collection, or 1..cardinality. */
  private instanceItems(node: FlowNode): Json[] {
    const multi = node.multi!;
    let items: Json[];
    if (multi.collection) {
      const value = evaluateTemplate(multi.collection, this.state.vars);
      if (typeof value === 'string')
        items = value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      else if (Array.isArray(value)) items = value;
      else if (value === null) items = [];
      else throw new WorkflowError('collectionNotList', { element: nodeLabel(node) });
    } else {
      const count = Number(toText(evaluateTemplate(multi.cardinality!, this.state.vars)));
      if (!Number.isInteger(count) || count < 0)
        throw new WorkflowError('tooManyInstances', { element: nodeLabel(node), count, limit: RUNTIME_LIMITS.instancesPerTask });
      items = Array.from({ length: count }, (_, i) => i);
    }
    if (items.length > RUNTIME_LIMITS.instancesPerTask) {
      throw new WorkflowError('tooManyInstances', {
        element: nodeLabel(node),
        count: items.length,
        limit: RUNTIME_LIMITS.instancesPerTask,
      });
    }
    return items;
  }

  private createInstance(node: FlowNode, token: TokenState, item: Json) {
    const mi = token.mi!;
    const index = mi.next++;
    const local: Record<string, Json> = {
      loopCounter: index,
      nrOfInstances: mi.total,
      nrOfCompletedInstances: mi.completed,
      nrOfActiveInstances: this.activeOf(token) + 1,
    };
    if (node.multi!.elementVariable) local[node.multi!.elementVariable] = item;
    this.createTask(node, token, local, index);
  }

  private createTask(node: FlowNode, token: TokenState, local: Record<string, Json>, index?: number) {
    const scope: Vars = { ...this.state.vars, ...local };
    const assignment = this.guard(node, () => ({
      assignee: node.assignee ? toText(evaluateTemplate(node.assignee, scope)).trim() || null : null,
      candidateUsers: node.candidateUsers ? evaluateList(node.candidateUsers, scope) : [],
      candidateGroups: node.candidateGroups ? evaluateList(node.candidateGroups, scope) : [],
    }));
    if (!assignment.assignee && !assignment.candidateUsers.length && !assignment.candidateGroups.length) {
      throw new WorkflowError('nobodyToHandle', { element: nodeLabel(node) });
    }
    const ref = this.nextRef('t');
    this.state.tasks[ref] = index === undefined ? { token: token.id } : { token: token.id, index };
    const { loopCounter: _l, nrOfInstances: _n, nrOfCompletedInstances: _c, nrOfActiveInstances: _a, ...own } = local;
    this.created.push({
      ref,
      activityId: node.id,
      name: node.name || node.id,
      formKey: node.formKey,
      ...assignment,
      local: index === undefined ? {} : { loopCounter: index, ...own },
    });
    this.history.push({ activityId: node.id, activityType: 'userTask', activityName: node.name, taskRef: ref });
  }

  private activeOf(token: TokenState): number {
    return Object.values(this.state.tasks).filter((t) => t.token === token.id).length;
  }

  private tokenOf(ref: string): { token: TokenState; node: FlowNode } {
    const task = this.state.tasks[ref];
    const token = task && this.state.tokens.find((t) => t.id === task.token);
    if (!token) throw new WorkflowError('taskNotActive');
    return { token, node: this.graph.nodes[token.at] };
  }

  private removeToken(token: TokenState) {
    for (const [ref, task] of Object.entries(this.state.tasks)) {
      if (task.token === token.id) {
        delete this.state.tasks[ref];
        this.cancelled.push(ref);
      }
    }
    this.state.tokens = this.state.tokens.filter((t) => t !== token);
  }

  /** One task done with approval: the token moves on once its (multi-instance) activity is done. */
  complete(ref: string) {
    const { token, node } = this.tokenOf(ref);
    delete this.state.tasks[ref];
    this.completed.push(ref);
    this.state.acted += 1;
    if (token.mi && !this.multiDone(node, token)) {
      if (token.mi.sequential && token.mi.items?.length) this.createInstance(node, token, token.mi.items.shift()!);
      return;
    }
    this.removeToken(token);
    for (const flowId of node.outgoing) {
      const flow = this.graph.flows[flowId];
      this.history.push({ activityId: flow.id, activityType: 'sequenceFlow', activityName: flow.name });
      this.run(flow.target);
    }
  }

  /** Whether a multi-instance activity is over: all instances done, or its completion condition holds. */
  private multiDone(node: FlowNode, token: TokenState): boolean {
    const mi = token.mi!;
    mi.completed += 1;
    if (mi.completed >= mi.total) return true;
    const condition = node.multi!.completion;
    if (!condition) return false;
    const scope: Vars = {
      ...this.state.vars,
      nrOfInstances: mi.total,
      nrOfCompletedInstances: mi.completed,
      nrOfActiveInstances: this.activeOf(token),
    };
    return this.guard(node, () => evaluateCondition(condition, scope));
  }

  /** Ends the instance: every open task is withdrawn. */
  finish(status: InstanceStatus, except?: string) {
    for (const ref of Object.keys(this.state.tasks)) if (ref !== except) this.cancelled.push(ref);
    this.state.tasks = {};
    this.state.tokens = [];
    this.state.joins = {};
    this.state.status = status;
  }
}

function mergeVars(state: ProcessState, vars: Vars | undefined) {
  for (const [k, v] of Object.entries(vars ?? {})) if (v !== undefined) state.vars[k] = v;
}

function running(state: ProcessState) {
  if (state.status !== 'running') throw new WorkflowError('notRunning');
}

/** Starts an instance: runs from the start event to the first user tasks. */
export function start(graph: ProcessGraph, variables: Vars = {}, options: StartOptions = {}): StepResult {
  const initial: ProcessState = { v: 1, status: 'running', vars: {}, tokens: [], joins: {}, tasks: {}, seq: 0, acted: 0 };
  mergeVars(initial, variables);
  if (graph.initiator && options.initiator !== undefined) initial.vars[graph.initiator] = options.initiator;
  const step = new Step(graph, initial);
  step.run(graph.start);
  return step.result();
}

/** Completes (approves) a task with variables that join the process variables. */
export function complete(graph: ProcessGraph, state: ProcessState, taskRef: string, variables: Vars = {}): StepResult {
  running(state);
  const step = new Step(graph, state);
  mergeVars(step.state, variables);
  step.complete(taskRef);
  return step.result();
}

/** Rejects a task: the instance ends as rejected and every other open task is withdrawn. */
export function reject(graph: ProcessGraph, state: ProcessState, taskRef: string, variables: Vars = {}): StepResult {
  running(state);
  if (!state.tasks[taskRef]) throw new WorkflowError('taskNotActive');
  const step = new Step(graph, state);
  mergeVars(step.state, variables);
  step.state.acted += 1;
  step.completed.push(taskRef);
  step.finish('rejected', taskRef);
  return step.result();
}

/** The starter takes the instance back: allowed only while nobody has completed or rejected a task. */
export function recall(graph: ProcessGraph, state: ProcessState): StepResult {
  running(state);
  if (state.acted > 0) throw new WorkflowError('alreadyActed');
  const step = new Step(graph, state);
  step.finish('withdrawn');
  return step.result();
}

/** Ends a running instance from outside (an administrator's delete-process-instance). */
export function terminate(graph: ProcessGraph, state: ProcessState): StepResult {
  running(state);
  const step = new Step(graph, state);
  step.finish('terminated');
  return step.result();
}

/** The activities where the instance waits now (for follow lists and diagrams). */
export function activeActivities(state: ProcessState): string[] {
  return [...new Set(state.tokens.map((t) => t.at))];
}
