// Every workflow step as one transaction: the instance's state (read, run through the interpreter,
// written back only if its version is unchanged — else the whole step is retried), its tasks and
// history, the business document's approval status and the approval messages. Lock order is always
// instance row first, then task rows, so two processes completing tasks of one instance never
// deadlock and never lose a step (docs/workflows.md#storage-and-concurrency).
import type { EntityModel } from '../../../engine/model/types.ts';
import type { Json, Vars } from '../../../engine/workflow/expression.ts';
import * as engine from '../../../engine/workflow/runtime.ts';
import { textRef } from '../../../engine/i18n/stored-text.ts';
import type { WorkflowMessageKey } from '../../../engine/workflow/messages.ts';
import type { InstanceStatus, ProcessState, StepResult } from '../../../engine/workflow/runtime.ts';
import { nowText } from '../../clock.ts';
import { sqlState, type Queryable, type Row } from '../../db/db.ts';
import { nextId } from '../../db/ids.ts';
import { q } from '../../db/sql.ts';
import { EntityStore, readerFor, tenantDb, type Actor } from '../../db/store.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import type { DefinitionRow, DefinitionStore } from './definitions.ts';
import type { Directory } from './directory.ts';
import { engineCall, flowError } from './errors.ts';
import type { ApprovalNotifier } from './notify.ts';
import { prefixOfCategory } from './prefixes.ts';
import { stepTransaction, type StepTx } from './prepared.ts';
import { inTransaction } from './tx.ts';

/** The document status each instance status puts the business record in. */
export const DOCUMENT_STATUS: Readonly<Record<InstanceStatus, string>> = {
  running: 'approving',
  completed: 'approved',
  rejected: 'rejected',
  withdrawn: 'withdrawn',
  terminated: 'terminated',
};

/** Actors editing a document on behalf of a workflow step (the approval lock lets them through). */
export const WORKFLOW_EDITORS = new WeakSet<Actor>();

export interface InstanceRow {
  id: string;
  tenantId: string;
  definitionId: string;
  defKey: string;
  defName: string;
  category: string | null;
  businessKey: string | null;
  businessId: string | null;
  businessTitle: string | null;
  initiatorId: string;
  status: InstanceStatus;
  state: ProcessState;
  version: number;
}

export interface BusinessRef {
  model: EntityModel;
  id: string;
  title: string;
}

/** A task row written by a step, with the active users it reached (its assignee, else its candidate users and roles' members). */
interface CreatedRow {
  id: string;
  name: string;
  open: boolean;
  activeUsers: string[];
}

interface WriteOptions {
  /** how the completed task ended */
  done?: { outcome: string; comment: string | null; variables: unknown };
  /** why an administrator ended the instance */
  reason?: string;
}

export interface CompleteInput {
  taskId: string;
  approve: boolean;
  comment?: string;
  variables?: Record<string, Json>;
  /** changes to the document's fields that this task may edit (x-workflow.editable) */
  record?: Row;
}

const INSTANCE_COLUMNS = `i.id::text AS id, i.tenant_id AS "tenantId", i.definition_id AS "definitionId", i.def_key AS "defKey",
  d.name AS "defName", d.category, i.business_key AS "businessKey", i.business_id::text AS "businessId", i.business_title AS "businessTitle",
  i.initiator_id::text AS "initiatorId", i.status, i.state, i.version`;

const MAX_ATTEMPTS = 30;

class VersionConflict extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FlowDeps {
  ctx: RouteContext;
  definitions: DefinitionStore;
  directory: Directory;
  notify?: ApprovalNotifier;
}

/** The names documentVariables gives a process: the header's stored fields and the x-workflow variables. */
export function documentVariableNames(model: EntityModel): string[] {
  const stored = model.columns.filter((f) => !f.system || f.name === 'id').map((f) => f.name);
  return [...stored, ...Object.keys(model.workflow?.variables ?? {})];
}

/** Process variables from a document: every scalar header field, plus the x-workflow aliases. */
export function documentVariables(model: EntityModel, record: Row): Record<string, Json> {
  const vars: Record<string, Json> = {};
  for (const f of model.columns) {
    if (f.system && f.name !== 'id') continue;
    const v = record[f.name];
    if (v === undefined || (typeof v === 'object' && v !== null)) continue;
    vars[f.name] = v as Json;
  }
  for (const [name, field] of Object.entries(model.workflow?.variables ?? {})) vars[name] = (record[field] ?? null) as Json;
  return vars;
}

export class FlowRuntime {
  /** Steps retried after a version conflict (for tests and benchmarks). */
  retries = 0;

  constructor(private readonly deps: FlowDeps) {}

  /** The tenant's business database: its instances, tasks and documents, one transaction per step. */
  private db(tenantId: string) {
    return tenantDb(this.deps.ctx, tenantId);
  }

  private now() {
    return nowText(this.deps.ctx.timeZone);
  }

  /** Runs a step in a transaction, again from the start when another process changed the instance meanwhile. */
  private async retrying<T>(tenantId: string, fn: (tx: StepTx) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await stepTransaction(this.db(tenantId), fn);
      } catch (err) {
        const conflict = err instanceof VersionConflict || sqlState(err) === '40P01' || sqlState(err) === '40001';
        if (!conflict) throw err;
        if (attempt >= MAX_ATTEMPTS) throw flowError('busy');
        this.retries++;
        await sleep(Math.random() * 4 * Math.min(attempt, 5));
      }
    }
  }

  private async instance(tx: Queryable, tenantId: string, id: string): Promise<InstanceRow> {
    const [row] = await tx.query<InstanceRow>(
      `SELECT ${INSTANCE_COLUMNS} FROM wf_instance i JOIN wf_definition d ON d.id = i.definition_id WHERE i.id = $1 AND i.tenant_id = $2`,
      [id, tenantId],
    );
    if (!row) throw flowError('instanceNotFound', {}, 404);
    return row;
  }

  // ---- steps ----

  /** Starts an instance of `definition` inside the caller's transaction (a document's submit). */
  async start(
    tx: Queryable,
    actor: Actor,
    definition: DefinitionRow,
    variables: Vars,
    business?: BusinessRef,
  ): Promise<{ instanceId: string; status: InstanceStatus }> {
    if (definition.suspended) throw flowError('suspended', { name: definition.name });
    const graph = await this.deps.definitions.graph(tx, definition.id);
    const result = await engineCall(() => engine.start(graph, variables, { initiator: actor.userId }));
    const now = this.now();
    const inst: InstanceRow = {
      id: nextId(),
      tenantId: actor.tenantId,
      definitionId: definition.id,
      defKey: definition.key,
      defName: definition.name,
      category: definition.category,
      businessKey: business?.model.key ?? null,
      businessId: business?.id ?? null,
      businessTitle: business?.title ?? null,
      initiatorId: actor.userId,
      status: result.state.status,
      state: result.state,
      version: 0,
    };
    await tx.query(
      `INSERT INTO wf_instance (id, tenant_id, definition_id, def_key, business_key, business_table, business_id, business_title,
         initiator_id, status, state, version, start_time, end_time, end_activity_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, $12, $13, $14)`,
      [
        inst.id,
        inst.tenantId,
        inst.definitionId,
        inst.defKey,
        inst.businessKey,
        business?.model.table ?? null,
        inst.businessId,
        inst.businessTitle?.slice(0, 300) ?? null,
        inst.initiatorId,
        inst.status,
        JSON.stringify(result.state),
        now,
        result.ended ? now : null,
        result.state.end ?? null,
      ],
    );
    const created = await this.write(tx, inst, result, actor.userId);
    await this.documentStatus(tx, inst, result.state.status, actor);
    await this.announce(tx, inst, result, created);
    return { instanceId: inst.id, status: result.state.status };
  }

  /** A candidate takes a task into their to-do list: one conditional update, one winner. */
  async claim(actor: Actor, taskId: string): Promise<void> {
    const groups = [...(actor.roleAliases ?? []), ...(actor.roleIds ?? [])];
    const [row] = await this.db(actor.tenantId).query<{ n: number }>(
      `WITH claimed AS (
         UPDATE wf_task SET assignee_id = $3, claim_time = $5
          WHERE id = $1 AND tenant_id = $2 AND status = 'active' AND assignee_id IS NULL
            AND (candidate_users && ARRAY[$3::bigint] OR candidate_groups && $4::varchar[])
          RETURNING id)
       , named AS (UPDATE wf_history h SET assignee_id = $3 FROM claimed WHERE h.task_id = claimed.id RETURNING 1)
       SELECT count(*)::int AS n FROM claimed`,
      [taskId, actor.tenantId, actor.userId, groups, this.now()],
    );
    if (!row.n) throw flowError('claimTaken');
  }

  /** Approves (or rejects) a task of the caller's to-do list. */
  async complete(actor: Actor, input: CompleteInput): Promise<{ status: InstanceStatus; ended: boolean }> {
    return this.retrying(actor.tenantId, async (tx) => {
      // the task and its instance in one read
      const [row] = await tx.prepared<InstanceRow & { ref: string; taskStatus: string; assigneeId: string | null; activityId: string }>(
        `SELECT t.ref, t.status AS "taskStatus", t.assignee_id::text AS "assigneeId", t.activity_id AS "activityId", ${INSTANCE_COLUMNS}
           FROM wf_task t JOIN wf_instance i ON i.id = t.instance_id JOIN wf_definition d ON d.id = i.definition_id
          WHERE t.id = $1 AND t.tenant_id = $2`,
        [input.taskId, actor.tenantId],
      );
      if (!row || row.taskStatus !== 'active') throw flowError('taskNotActive');
      if (row.assigneeId !== actor.userId) throw flowError('notAssignee');
      const { ref, taskStatus: _s, assigneeId: _a, activityId, ...inst } = row;
      const task = { ref, activityId };
      const graph = await this.deps.definitions.graph(tx, inst.definitionId);
      let variables: Record<string, Json> = { ...(input.variables ?? {}), pass: input.approve };
      if (input.record && Object.keys(input.record).some((k) => k !== 'id')) {
        variables = { ...variables, ...(await this.editDocument(tx, actor, inst, task.activityId, input.record)) };
      }
      const result = await engineCall(() =>
        input.approve ? engine.complete(graph, inst.state, task.ref, variables) : engine.reject(graph, inst.state, task.ref, variables),
      );
      const done = { outcome: input.approve ? 'approve' : 'reject', comment: input.comment ?? null, variables: input.variables ?? null };
      const created = await this.write(tx, inst, result, actor.userId, { done });
      if (result.ended) await this.documentStatus(tx, inst, result.state.status, actor);
      await this.announce(tx, inst, result, created, input.comment);
      return { status: result.state.status, ended: result.ended };
    });
  }

  /** The submitter takes the document back, while nobody has acted on it yet. */
  async recall(actor: Actor, instanceId: string): Promise<void> {
    await this.retrying(actor.tenantId, async (tx) => {
      const inst = await this.instance(tx, actor.tenantId, instanceId);
      if (inst.initiatorId !== actor.userId) throw flowError('notInitiator');
      const graph = await this.deps.definitions.graph(tx, inst.definitionId);
      const result = await engineCall(() => engine.recall(graph, inst.state));
      await this.write(tx, inst, result, actor.userId);
      await this.documentStatus(tx, inst, result.state.status);
    });
  }

  /** An administrator ends a running instance (follow/delete-process-instance). */
  async terminate(actor: Actor, instanceId: string, reason: string): Promise<void> {
    await this.retrying(actor.tenantId, async (tx) => {
      const inst = await this.instance(tx, actor.tenantId, instanceId);
      const graph = await this.deps.definitions.graph(tx, inst.definitionId);
      const result = await engineCall(() => engine.terminate(graph, inst.state));
      const created = await this.write(tx, inst, result, actor.userId, { reason });
      await this.documentStatus(tx, inst, result.state.status);
      await this.announce(tx, inst, result, created, reason);
    });
  }

  /** The running instance of a document, if any. */
  async runningOf(db: Queryable, tenantId: string, model: EntityModel, businessId: string): Promise<string | undefined> {
    const [row] = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM wf_instance WHERE tenant_id = $1 AND business_key = $2 AND business_id = $3 AND status = 'running'`,
      [tenantId, model.key, businessId],
    );
    return row?.id;
  }

  // ---- writing a step's outcome ----

  /**
   * Writes a step's outcome in ONE statement: the new state (only if the instance's version is the
   * one read — the gate every other change waits behind), tasks completed, withdrawn and created,
   * and history. A stale version changes nothing and the step is retried; a task someone else
   * completed meanwhile fails the step.
   */
  private async write(
    tx: Queryable,
    inst: InstanceRow,
    result: StepResult,
    actorId: string,
    options: WriteOptions = {},
  ): Promise<CreatedRow[]> {
    const run = (tx as Partial<StepTx>).prepared ?? tx.query.bind(tx);
    const now = this.now();
    const createdNow = new Set(result.created.map((t) => t.ref));
    const withdrawn = result.cancelled.filter((ref) => !createdNow.has(ref));
    const created = await this.newRows(tx, inst, result, now);
    const status = result.state.status;
    const done = options.done;
    const [row] = await run<{ saved: number; done: number }>(
      `WITH inst AS (UPDATE wf_instance SET state = $3, version = version + 1, status = $4, end_time = $5, end_activity_id = $6, delete_reason = $7
                      WHERE id = $1 AND version = $2 RETURNING id)
       , done AS (UPDATE wf_task SET status = 'completed', end_time = $8, completed_by = $9, outcome = $10, comment = $11, variables = $12
                   WHERE instance_id = $1 AND ref = ANY($13::text[]) AND status = 'active' AND EXISTS (SELECT 1 FROM inst) RETURNING id)
       , closed AS (UPDATE wf_history h SET end_time = $8, assignee_id = $9 FROM done WHERE h.task_id = done.id AND h.end_time IS NULL RETURNING 1)
       , gone AS (UPDATE wf_task SET status = 'cancelled', end_time = $8
                   WHERE instance_id = $1 AND ref = ANY($14::text[]) AND status = 'active' AND EXISTS (SELECT 1 FROM inst) RETURNING id)
       , gone_history AS (UPDATE wf_history h SET end_time = $8 FROM gone WHERE h.task_id = gone.id AND h.end_time IS NULL RETURNING 1)
       , new_tasks AS (
           INSERT INTO wf_task (id, tenant_id, instance_id, definition_id, activity_id, name, ref, form_key, assignee_id, candidate_users, candidate_groups, status, create_time, end_time, variables)
           SELECT x.id, $15, $1, $16, x.activity_id, x.name, x.ref, x.form_key, x.assignee_id, x.candidate_users, x.candidate_groups, x.status, $8::timestamp, x.end_time, x.variables
             FROM jsonb_to_recordset($17::jsonb) AS x(id bigint, activity_id text, name text, ref text, form_key text, assignee_id bigint,
                  candidate_users bigint[], candidate_groups varchar[], status text, end_time timestamp, variables jsonb)
            WHERE EXISTS (SELECT 1 FROM inst) RETURNING 1)
       , new_history AS (
           INSERT INTO wf_history (id, tenant_id, instance_id, activity_id, activity_type, activity_name, task_id, assignee_id, start_time, end_time)
           SELECT x.id, $15, $1, x.activity_id, x.activity_type, x.activity_name, x.task_id, x.assignee_id, $8::timestamp, x.end_time
             FROM jsonb_to_recordset($18::jsonb) AS x(id bigint, activity_id text, activity_type text, activity_name text, task_id bigint, assignee_id bigint, end_time timestamp)
            WHERE EXISTS (SELECT 1 FROM inst) RETURNING 1)
       SELECT (SELECT count(*) FROM inst)::int AS saved, (SELECT count(*) FROM done)::int AS done`,
      [
        inst.id,
        inst.version,
        JSON.stringify(result.state),
        status,
        status === 'running' ? null : now,
        result.state.end ?? null,
        options.reason?.slice(0, 500) ?? null,
        now,
        actorId,
        done?.outcome ?? 'approve',
        done?.comment?.slice(0, 1000) ?? null,
        done?.variables ? JSON.stringify(done.variables) : null,
        result.completed,
        withdrawn,
        inst.tenantId,
        inst.definitionId,
        JSON.stringify(created.tasks),
        JSON.stringify(created.history),
      ],
    );
    if (!row.saved) throw new VersionConflict();
    if (row.done !== result.completed.length) throw flowError('taskNotActive');
    return created.rows;
  }

  /** The rows a step adds: its new tasks (with users resolved) and its history entries. */
  private async newRows(tx: Queryable, inst: InstanceRow, result: StepResult, now: string) {
    const cancelledNow = new Set(result.cancelled);
    const values = result.created.flatMap((t) => [...(t.assignee ? [t.assignee] : []), ...t.candidateUsers]);
    const users = values.length
      ? await this.deps.directory.resolveUsers(
          await readerFor(this.deps.ctx, 'business', 'platform', inst.tenantId, tx),
          inst.tenantId,
          values,
        )
      : new Map<string, { id: string; active: boolean }>();
    const tasks = [];
    for (const t of result.created) {
      const assignee = t.assignee ? users.get(t.assignee) : undefined;
      if (t.assignee && !assignee) throw flowError('unknownUser', { element: t.name, name: t.assignee });
      const open = !cancelledNow.has(t.ref);
      const candidates = t.candidateUsers.map((u) => users.get(u)).filter((u) => u !== undefined);
      const activeUsers = (assignee ? [assignee] : candidates).filter((u) => u.active).map((u) => u.id);
      if (open && !assignee)
        activeUsers.push(
          ...(await this.deps.directory.groupMembers(
            await readerFor(this.deps.ctx, 'business', 'platform', inst.tenantId, tx),
            inst.tenantId,
            t.candidateGroups,
          )),
        );
      // a task nobody active could ever claim would sit in no one's list: refuse the step instead
      if (open && !activeUsers.length) {
        const handlers = [t.assignee, ...t.candidateUsers, ...t.candidateGroups].filter(Boolean).join(', ');
        throw flowError('noHandler', { element: t.name, handlers });
      }
      tasks.push({
        id: nextId(),
        ref: t.ref,
        activity_id: t.activityId,
        name: t.name.slice(0, 200),
        form_key: t.formKey ?? null,
        assignee_id: assignee?.id ?? null,
        candidate_users: candidates.map((u) => u.id),
        candidate_groups: t.candidateGroups,
        status: open ? 'active' : 'cancelled',
        end_time: open ? null : now,
        variables: Object.keys(t.local).length ? t.local : null,
        activeUsers: [...new Set(activeUsers)],
      });
    }
    const taskByRef = new Map(tasks.map((t) => [t.ref, t]));
    const history = result.history.map((h) => {
      const task = h.taskRef ? taskByRef.get(h.taskRef) : undefined;
      return {
        id: nextId(),
        activity_id: h.activityId,
        activity_type: h.activityType,
        activity_name: h.activityName.slice(0, 200) || null,
        task_id: task?.id ?? null,
        assignee_id: task?.assignee_id ?? null,
        end_time: task && task.status === 'active' ? null : now,
      };
    });
    return {
      tasks: tasks.map(({ activeUsers: _a, ...row }) => row),
      history,
      rows: tasks.map((t): CreatedRow => ({ id: t.id, name: t.name, open: t.status === 'active', activeUsers: t.activeUsers })),
    };
  }

  /** The business document follows its instance: approving, approved, rejected, withdrawn, terminated. */
  private async documentStatus(tx: Queryable, inst: InstanceRow, status: InstanceStatus, actor?: Actor) {
    const model = inst.businessKey ? this.deps.ctx.catalog.entities[inst.businessKey] : undefined;
    if (!model?.workflow || !inst.businessId) return;
    const wf = model.workflow;
    const sets = [`${q(model.fieldMap[wf.statusField].column)} = $1`];
    const params: unknown[] = [DOCUMENT_STATUS[status]];
    // the statuses the workflow owns take their approved values (x-workflow.onApproved)
    if (DOCUMENT_STATUS[status] === 'approved')
      for (const [field, value] of Object.entries(wf.onApproved)) {
        params.push(value);
        sets.push(`${q(model.fieldMap[field].column)} = $${params.length}`);
      }
    if (wf.instanceField) {
      params.push(inst.id);
      sets.push(`${q(model.fieldMap[wf.instanceField].column)} = $${params.length}`);
    }
    params.push(inst.businessId, inst.tenantId);
    await tx.query(
      `UPDATE ${q(model.table)} SET ${sets.join(', ')} WHERE id = $${params.length - 1} AND tenant_id = $${params.length}`,
      params,
    );
    // the document's own rules on entering a status (refusing a submission, writing totals back)
    const by: Actor = actor ?? { tenantId: inst.tenantId, userId: inst.initiatorId, deptId: null, lang: 'zh' };
    await this.deps.ctx.hooks?.[model.key]?.afterStatus?.({ tx, actor: by, id: inst.businessId, status: DOCUMENT_STATUS[status] });
  }

  /** Changes the fields this task may edit, through the document's own validation. Returns the fresh variables. */
  private async editDocument(
    tx: Queryable,
    actor: Actor,
    inst: InstanceRow,
    activityId: string,
    changes: Row,
  ): Promise<Record<string, Json>> {
    const model = inst.businessKey ? this.deps.ctx.catalog.entities[inst.businessKey] : undefined;
    if (!model?.workflow || !inst.businessId) return {};
    const allowed = new Set(model.workflow.editable[activityId] ?? []);
    for (const name of Object.keys(changes)) {
      if (name === 'id') continue;
      if (!allowed.has(name)) {
        const label = model.fieldMap[name]?.label ?? model.details.find((d) => d.name === name)?.label ?? { zh: name, en: name };
        throw flowError('fieldNotEditable', { field: label });
      }
    }
    const editor: Actor = { ...actor };
    WORKFLOW_EDITORS.add(editor);
    const store = new EntityStore(inTransaction(this.deps.ctx, tx), model, editor);
    const record = await store.updatePart(inst.businessId, { ...changes, id: inst.businessId });
    return documentVariables(model, record);
  }

  // ---- messages ----

  /**
   * Tells the people a new task reached, and the submitter how it ended. The server does not know a
   * recipient's language when it sends (the browser sends it per request), so a message keeps its
   * key and parameters and is rendered when it is read.
   */
  private async announce(tx: Queryable, inst: InstanceRow, result: StepResult, created: CreatedRow[], comment?: string) {
    const notify = this.deps.notify;
    if (!notify) return;
    const subject = [inst.defName, inst.businessTitle].filter(Boolean).join(': ').slice(0, SUBJECT_LIMIT);
    const prefix = prefixOfCategory(inst.category);
    for (const task of created.filter((t) => t.open)) {
      const path = prefix && inst.businessId ? `/work/process/${prefix}/handle/${task.id}/${inst.id}/${inst.businessId}` : undefined;
      const params = { subject, task: task.name };
      await notify(tx, {
        tenantId: inst.tenantId,
        receiverIds: task.activeUsers,
        ...notice('noticeTodoTitle', 'noticeTodo', params),
        path,
        active: true,
      });
    }
    const ending = result.ended ? ENDINGS[result.state.status] : undefined;
    if (ending) {
      const path = prefix && inst.businessId ? `/work/process/${prefix}/detail/${inst.id}/${inst.businessId}` : undefined;
      const params = { subject, remark: comment ? `: ${comment}` : '' };
      await notify(tx, { tenantId: inst.tenantId, receiverIds: [inst.initiatorId], ...notice(ending.title, ending.content, params), path });
    }
  }
}

/** A message title names its document in at most this many characters. */
const SUBJECT_LIMIT = 200;

/** The messages a finished instance sends its submitter. */
const ENDINGS: Partial<Record<InstanceStatus, { title: WorkflowMessageKey; content: WorkflowMessageKey }>> = {
  completed: { title: 'noticeCompletedTitle', content: 'noticeCompleted' },
  rejected: { title: 'noticeRejectedTitle', content: 'noticeRejected' },
  terminated: { title: 'noticeTerminatedTitle', content: 'noticeTerminated' },
};

/** A message's title and content as stored texts, read in each recipient's language. */
function notice(title: WorkflowMessageKey, content: WorkflowMessageKey, params: Record<string, unknown>) {
  return { title: textRef(`workflow.${title}`, params), content: textRef(`workflow.${content}`, params) };
}
