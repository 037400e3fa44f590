// Seed steps that take demo records through their approval process as named users, with the
// workflow module's own submit and task steps: instances, tasks, history, approval messages and
// the document's approval status come out as if the users had clicked through them.
import type { EntityModel } from '../../engine/model/types.ts';
import type { Row } from '../db/db.ts';
import { q } from '../db/sql.ts';
import { PLATFORM_TENANT, type Actor, type StoreContext } from '../db/store.ts';
import { submitDocument, type DocumentFlow } from '../modules/flow/documents.ts';

export type ApprovalStep =
  | { submit: string; as: string }
  | { claim: string; as: string }
  | { approve: string; as: string | string[]; comment?: string }
  | { reject: string; as: string; comment?: string };

type Decision = Extract<ApprovalStep, { approve: string } | { reject: string }>;

/** What one seeding run has learned: "@name" → id and entity, and the users steps act as. */
export class SeedRun {
  private readonly records = new Map<string, { entity: string; record: Row }>();
  private readonly actors = new Map<string, Promise<Actor>>();

  constructor(
    private readonly ctx: StoreContext,
    readonly flow?: DocumentFlow,
  ) {}

  remember(name: string, entity: string, record: Row) {
    this.records.set(name, { entity, record });
  }

  /** "@name" → the record's id; "@name.code" → that header value of the record as saved. */
  lookup(placeholder: string): unknown {
    const [name, ...path] = placeholder.slice(1).split('.');
    const seeded = this.records.get(name);
    if (!seeded) throw new Error(`seed: unknown placeholder ${placeholder}`);
    if (!path.length) return seeded.record.id;
    let value: unknown = seeded.record;
    for (const key of path) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) throw new Error(`seed: ${placeholder} names no value`);
    return value;
  }

  /** The seeded user with this account, as their login token would describe them. */
  actorOf(account: string): Promise<Actor> {
    let actor = this.actors.get(account);
    if (!actor) this.actors.set(account, (actor = this.loadActor(account)));
    return actor;
  }

  private async loadActor(account: string): Promise<Actor> {
    const { user, role } = this.ctx.catalog.entities;
    const [row] = await this.ctx.db.query<{ id: string; deptId: string | null; roleId: string | null }>(
      `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM ${q(user.table)} WHERE account = $1 AND tenant_id = $2 AND is_deleted = 0`,
      [account, PLATFORM_TENANT],
    );
    if (!row) throw new Error(`seed: no user with account ${account}`);
    const roleIds = (row.roleId ?? '').split(',').filter(Boolean);
    const roles = await this.ctx.db.query<{ alias: string }>(
      `SELECT role_alias AS alias FROM ${q(role.table)} WHERE id::text = ANY($1::text[]) AND is_deleted = 0`,
      [roleIds],
    );
    const deptId = (row.deptId ?? '').split(',')[0] || null;
    return { tenantId: PLATFORM_TENANT, userId: row.id, deptId, lang: 'zh', roleIds, roleAliases: roles.map((r) => r.alias) };
  }

  /** The record a "@name" names, with its document type. */
  document(ref: string): { model: EntityModel; id: string } {
    const seeded = this.records.get(ref.replace(/^@/, ''));
    if (!seeded) throw new Error(`seed: unknown record ${ref}`);
    const model = this.ctx.catalog.entities[seeded.entity];
    if (!model.workflow) throw new Error(`seed: ${ref} (${seeded.entity}) has no approval workflow`);
    return { model, id: String(seeded.record.id) };
  }

  workflow(): DocumentFlow {
    if (!this.flow) throw new Error('seed: approval steps need the workflow module');
    return this.flow;
  }
}

export async function submitStep(ctx: StoreContext, run: SeedRun, step: Extract<ApprovalStep, { submit: string }>) {
  const { model, id } = run.document(step.submit);
  await submitDocument(ctx, run.workflow(), model, await run.actorOf(step.as), { id });
}

/** The user's open task on the record, taken into their to-do list if it was offered to their role. */
async function takeTask(
  ctx: StoreContext,
  run: SeedRun,
  ref: string,
  account: string,
): Promise<{ actor: Actor; taskId: string } | undefined> {
  const { model, id } = run.document(ref);
  const actor = await run.actorOf(account);
  const { runtime } = run.workflow();
  const instanceId = await runtime.runningOf(ctx.db, actor.tenantId, model, id);
  if (!instanceId) return undefined;
  const [task] = await ctx.db.query<{ id: string; assigneeId: string | null }>(
    `SELECT id::text AS id, assignee_id::text AS "assigneeId" FROM wf_task
      WHERE instance_id = $1 AND status = 'active'
        AND (assignee_id = $2 OR (assignee_id IS NULL AND (candidate_users && ARRAY[$2::bigint] OR candidate_groups && $3::varchar[])))
      ORDER BY create_time, id LIMIT 1`,
    [instanceId, actor.userId, [...(actor.roleAliases ?? []), ...(actor.roleIds ?? [])]],
  );
  if (!task) throw new Error(`seed: ${account} has no task on ${ref}`);
  if (!task.assigneeId) await runtime.claim(actor, task.id);
  return { actor, taskId: task.id };
}

export async function claimStep(ctx: StoreContext, run: SeedRun, step: Extract<ApprovalStep, { claim: string }>) {
  if (!(await takeTask(ctx, run, step.claim, step.as))) throw new Error(`seed: ${step.claim} is not in approval`);
}

/**
 * Each named user in turn decides their task on the record. Approving with several users stops
 * once the process has ended (a cost manager's step is skipped when the amount is under the
 * process's threshold); the first user must find the record in approval.
 */
export async function decideStep(ctx: StoreContext, run: SeedRun, step: Decision) {
  const approve = 'approve' in step;
  const ref = approve ? step.approve : step.reject;
  const accounts = Array.isArray(step.as) ? step.as : [step.as];
  for (const [i, account] of accounts.entries()) {
    const task = await takeTask(ctx, run, ref, account);
    if (!task) {
      if (i === 0) throw new Error(`seed: ${ref} is not in approval`);
      return;
    }
    await run.workflow().runtime.complete(task.actor, { taskId: task.taskId, approve, comment: step.comment });
  }
}
