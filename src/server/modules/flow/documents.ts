// The document side of approvals. A document type with x-workflow gets
//   POST <api>/submit   save the record (create or update, as the generic submit) and start its
//                       process in the same transaction: draft/rejected/withdrawn → approving
//   POST <api>/recall   (?id=) the submitter takes it back while nobody has acted: → withdrawn
// and a lock in its write pipeline: an approving or approved record refuses update and remove
// (except the fields a task lets its handler change, written through the workflow step).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityCatalog, EntityModel } from '../../../engine/model/types.ts';
import type { Json } from '../../../engine/workflow/expression.ts';
import { sqlState, type Queryable, type Row } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import {
  EntityStore,
  parseId,
  readerFor,
  tenantDb,
  PLATFORM_TENANT,
  type Actor,
  type DataFilter,
  type EntityHooks,
  type StoreContext,
} from '../../db/store.ts';
import { badRequest } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';
import type { DefinitionRow, DefinitionStore } from './definitions.ts';
import { flowError } from './errors.ts';
import { documentVariables, WORKFLOW_EDITORS, type FlowRuntime } from './steps.ts';
import { inTransaction } from './tx.ts';

type Query = Record<string, string | undefined>;

/** Statuses from which a document may be (re)submitted. */
const SUBMITTABLE = new Set(['draft', 'rejected', 'withdrawn', 'terminated', '']);

async function lockedStatus(tx: Queryable, model: EntityModel, actor: Actor, ids: string[]): Promise<string | undefined> {
  const column = q(model.fieldMap[model.workflow!.statusField].column);
  const rows = await tx.query<{ status: string | null }>(
    `SELECT ${column} AS status FROM ${q(model.table)} WHERE id = ANY($1::bigint[]) AND tenant_id = $2`,
    [ids, actor.tenantId],
  );
  return rows.map((r) => r.status).find((s) => s === 'approved') ?? rows.map((r) => r.status).find((s) => s === 'approving') ?? undefined;
}

function refusal(model: EntityModel, status: string) {
  return flowError(status === 'approved' ? 'approvedLocked' : 'approvingLocked', { entity: model.label });
}

/**
 * Which of `records` the caller may recall now: documents under approval that the caller submitted
 * and nobody has acted on yet (the rule FlowRuntime.recall enforces), each marked canRecall.
 */
async function markRecallable(db: Queryable, model: EntityModel, actor: Actor, records: Row[]): Promise<void> {
  const statusField = model.workflow!.statusField;
  const approving = records.filter((r) => r[statusField] === 'approving').map((r) => String(r.id));
  const mine = approving.length
    ? await db.query<{ id: string }>(
        `SELECT business_id::text AS id FROM wf_instance WHERE tenant_id = $1 AND business_key = $2 AND business_id = ANY($3::bigint[])
            AND status = 'running' AND initiator_id = $4::bigint AND COALESCE((state ->> 'acted')::int, 0) = 0`,
        [actor.tenantId, model.key, approving, actor.userId],
      )
    : [];
  const recallable = new Set(mine.map((r) => r.id));
  for (const record of records) record.canRecall = recallable.has(String(record.id));
}

/**
 * The approval lock of every document type with x-workflow, and what the caller may do with the
 * documents read (canRecall).
 */
export function workflowLockHooks(catalog: EntityCatalog): Record<string, EntityHooks> {
  const out: Record<string, EntityHooks> = {};
  for (const model of Object.values(catalog.entities)) {
    if (!model.workflow) continue;
    out[model.key] = {
      async beforeWrite(event) {
        if (!event.creating && event.id && !WORKFLOW_EDITORS.has(event.actor)) {
          const status = await lockedStatus(event.tx, model, event.actor, [event.id]);
          if (status) throw refusal(model, status);
        }
      },
      async beforeRemove(event) {
        const status = await lockedStatus(event.tx, model, event.actor, event.ids);
        if (status) throw refusal(model, status);
      },
      async afterRead(event) {
        await markRecallable(event.db, model, event.actor, event.records);
      },
    };
  }
  return out;
}

/** Tenant parameters `flow.<name>` (over the platform's) as process variables `<name>`: thresholds of default processes. */
export async function flowParameters(db: Queryable, ctx: StoreContext, tenantId: string): Promise<Record<string, Json>> {
  const rows = await db.query<{ key: string; value: string | null; own: boolean }>(
    `SELECT param_key AS key, param_value AS value, tenant_id = $1 AS own FROM ${q(ctx.catalog.entities.param.table)}
      WHERE param_key LIKE 'flow.%' AND tenant_id IN ($1, $2) AND is_deleted = 0 ORDER BY own`,
    [tenantId, PLATFORM_TENANT],
  );
  const vars: Record<string, Json> = {};
  for (const r of rows) {
    const value = r.value ?? '';
    vars[r.key.slice('flow.'.length)] = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
  }
  return vars;
}

function bodyOf(request: FastifyRequest): Row {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('badJson');
  return body as Row;
}

const CONTROL_KEYS = new Set(['id', 'processDefinitionId']);

/** The parts of the workflow module a submit uses. */
export interface DocumentFlow {
  definitions: DefinitionStore;
  runtime: FlowRuntime;
}

export function registerDocumentRoutes(app: FastifyInstance, ctx: RouteContext, definitions: DefinitionStore, flow: FlowRuntime) {
  for (const model of Object.values(ctx.catalog.entities)) {
    if (model.workflow) registerFor(app, ctx, { definitions, runtime: flow }, model);
  }
}

/** What a submit needs besides the record: the caller's data-scope filters and a chosen definition. */
export interface SubmitOptions {
  filters?: DataFilter[];
  /** a definition of the document's process key; default its latest version */
  definitionId?: string;
}

/**
 * Saves a document (create without id, else update) and starts its process in one transaction:
 * draft/rejected/withdrawn → approving; answers its id. Used by the submit route and by the seed's
 * demo approvals.
 */
export async function submitDocument(
  ctx: StoreContext,
  flow: DocumentFlow,
  model: EntityModel,
  actor: Actor,
  body: Row,
  options: SubmitOptions = {},
): Promise<string> {
  const wf = model.workflow;
  if (!wf) throw new Error(`${model.key} has no workflow`);
  const existing = body.id === undefined || body.id === null || body.id === '' ? undefined : parseId(String(body.id));
  const definition = await definitionFor(tenantDb(ctx, actor.tenantId), flow.definitions, model, actor, options.definitionId);
  try {
    return await tenantDb(ctx, actor.tenantId).transaction(async (tx) => {
      const store = new EntityStore(inTransaction(ctx, tx), model, actor, options.filters);
      let id = existing;
      if (!id) id = await store.insert(body);
      else if (Object.keys(body).some((k) => !CONTROL_KEYS.has(k))) await store.update(id, body);
      const current = await store.header(id);
      const status = String(current[wf.statusField] ?? '');
      if (!SUBMITTABLE.has(status)) throw refusal(model, status);
      // parameters are platform data (on the main database when the tenant's documents are elsewhere)
      const parameters = await flowParameters(await readerFor(ctx, 'business', 'platform', actor.tenantId, tx), ctx, actor.tenantId);
      const variables = { ...parameters, ...documentVariables(model, current) };
      const title = model.titleField ? String(current[model.titleField] ?? '') : '';
      await flow.runtime.start(tx, actor, definition, variables, { model, id, title });
      return id;
    });
  } catch (err) {
    // two submits of one document at the same moment: the second finds the first's live instance
    if (sqlState(err) === '23505' && String((err as Error).message).includes('wf_instance_live_uq'))
      throw flowError('approvingLocked', { entity: model.label });
    throw err;
  }
}

async function definitionFor(
  db: Queryable,
  definitions: DefinitionStore,
  model: EntityModel,
  actor: Actor,
  requested: string | undefined,
): Promise<DefinitionRow> {
  const key = model.workflow!.processKey;
  await definitions.ensureDefaults(actor.tenantId);
  const definition = requested ? await definitions.byId(db, actor.tenantId, requested) : await definitions.latest(db, actor.tenantId, key);
  if (!definition) throw flowError('noDefinition', { key: requested ?? key });
  if (definition.key !== key) throw flowError('definitionMismatch', { id: definition.id, entity: model.label });
  return definition;
}

function registerFor(app: FastifyInstance, ctx: RouteContext, flow: DocumentFlow, model: EntityModel) {
  app.post(`${model.api}/submit`, async (request) => {
    const actor = actorOf(request);
    const body = bodyOf(request);
    const query = request.query as Query;
    const existing = body.id !== undefined && body.id !== null && body.id !== '';
    await ctx.access.check(actor, model, existing ? 'edit' : 'add');
    const filters = await ctx.access.dataFilters(actor, model);
    const definitionId =
      query.processDefinitionId || (typeof body.processDefinitionId === 'string' ? body.processDefinitionId : undefined) || undefined;
    const id = await submitDocument(ctx, flow, model, actor, body, { filters, definitionId });
    const record = await new EntityStore(ctx, model, actor, filters).detail(id);
    return envelope(200, record, t('ok', request.lang));
  });

  app.post(`${model.api}/recall`, async (request) => {
    const actor = actorOf(request);
    const query = request.query as Query;
    const body = (request.body ?? {}) as Query;
    const id = parseId(query.id ?? body.id);
    // the record must be visible to the caller (tenant and data scope)
    await new EntityStore(ctx, model, actor, await ctx.access.dataFilters(actor, model)).detail(id);
    const instanceId = await flow.runtime.runningOf(tenantDb(ctx, actor.tenantId), actor.tenantId, model, id);
    if (!instanceId) throw flowError('notSubmitted', { entity: model.label });
    await flow.runtime.recall(actor, instanceId);
    return envelope(200, null, t('ok', request.lang));
  });
}
