// /api/blade-flow: the platform's workflow API (docs/workflows.md#flow-api).
//   work     start-list, claim-list, todo-list, send-list, done-list (the caller's own), counts {todo, claim}, task-detail,
//            claim-task, complete-task {taskId, flag:"ok" approves (else rejects), comment, variables,
//            record: changes to the fields this task may edit}, recall-process (the submitter)
//   process  history-flow-list, model-view {xml, flow[]}, instance-detail, resource-view (XML)
//   follow   list (running instances), delete-process-instance, history-flow-list
//   manager  list, change-state, deploy-upload (multipart files[], category, tenantIds), delete-deployment
//   model    list, detail, submit, deploy, remove
// Work lists need only a login; model, manager and follow need the flow_model, flow_manager and
// flow_follow menus; an instance's timeline and diagram are for those who took part in it, may view
// its document, or follow processes.
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { Json } from '../../../engine/workflow/expression.ts';
import type { Row } from '../../db/db.ts';
import { Params } from '../../db/sql.ts';
import { parseId, parseIds, tenantDb, type Actor } from '../../db/store.ts';
import { AppError, badRequest } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';
import { isAdministrator } from '../../security/access.ts';
import { DEFINITION_COLUMNS, DefinitionStore, flowProcess, readDefaultProcesses, type DefinitionRow } from './definitions.ts';
import { Directory } from './directory.ts';
import { registerDocumentRoutes } from './documents.ts';
import { flowError } from './errors.ts';
import { FlowModels } from './models.ts';
import type { ApprovalNotifier } from './notify.ts';
import { workflowPrefixes } from './prefixes.ts';
import { FlowQueries, paging } from './queries.ts';
import { FlowRuntime } from './steps.ts';
import { auditEvent } from '../log/service.ts';

type Query = Record<string, string | undefined>;

const BASE = '/api/blade-flow';
const VARIABLES_LIMIT = 16 * 1024;
const VARIABLE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;

export interface Flow {
  definitions: DefinitionStore;
  runtime: FlowRuntime;
  queries: FlowQueries;
  models: FlowModels;
}

export interface FlowOptions {
  /** the folder of the default processes (schemas/workflows) */
  defaultsDir: string;
  notify?: ApprovalNotifier;
}

export function createFlow(ctx: RouteContext, options: FlowOptions): Flow {
  const directory = new Directory(ctx.catalog);
  const dbFor = (tenantId: string) => tenantDb(ctx, tenantId);
  const definitions = new DefinitionStore(dbFor, ctx.timeZone, readDefaultProcesses(options.defaultsDir), workflowPrefixes(ctx.catalog));
  return {
    definitions,
    runtime: new FlowRuntime({ ctx, definitions, directory, notify: options.notify }),
    queries: new FlowQueries(dbFor, ctx.catalog, directory, ctx.isBound && { isBound: ctx.isBound, main: ctx.db }),
    models: new FlowModels(dbFor, ctx.timeZone, directory),
  };
}

export function defaultsDir(root: string): string {
  return join(root, 'schemas/workflows');
}

function bodyOf(request: FastifyRequest): Row {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('badJson');
  return body as Row;
}

/** Process variables sent by a client: a small JSON object with identifier names. */
function variablesOf(value: unknown): Record<string, Json> | undefined {
  if (value === undefined || value === null) return undefined;
  const ok =
    typeof value === 'object' &&
    !Array.isArray(value) &&
    JSON.stringify(value).length <= VARIABLES_LIMIT &&
    Object.keys(value).every((k) => VARIABLE_NAME.test(k));
  if (!ok) throw flowError('badVariables', { limit: VARIABLES_LIMIT });
  return value as Record<string, Json>;
}

export function registerFlowRoutes(app: FastifyInstance, ctx: RouteContext, flow: Flow) {
  const { definitions, runtime, queries, models } = flow;
  const ok = (request: FastifyRequest, data: unknown = null) => envelope(200, data, t('ok', request.lang));
  const q = (request: FastifyRequest) => request.query as Query;
  const need = (actor: Actor, code: string) => ctx.access.checkButton(actor, code);

  registerDocumentRoutes(app, ctx, definitions, runtime);

  /** Who may read an instance's timeline and diagram. */
  async function assertCanSee(actor: Actor, instanceId: string) {
    const instance = await queries.instance(actor, instanceId);
    if (!instance) throw flowError('instanceNotFound', {}, 404);
    const grants = await ctx.access.grants(actor);
    if (grants.administrator || grants.codes.has('flow_follow') || (await queries.participates(actor, instanceId))) return;
    const model = instance.businessKey ? ctx.catalog.entities[instance.businessKey] : undefined;
    if (model) {
      await ctx.access.check(actor, model, 'view');
      return;
    }
    throw new AppError(403, 'forbidden');
  }

  // ---- work ----

  app.get(`${BASE}/work/start-list`, async (request) => {
    const actor = actorOf(request);
    const query = q(request);
    const p = paging(query);
    await definitions.ensureDefaults(actor.tenantId);
    const params = new Params();
    const where = [`d.tenant_id = ${params.add(actor.tenantId)}`, 'd.is_deleted = 0'];
    if (query.category) where.push(`d.category = ${params.add(query.category)}`);
    if (query.name) where.push(`d.name LIKE ${params.add(`%${query.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
    const latest = `SELECT DISTINCT ON (d.def_key) ${DEFINITION_COLUMNS} FROM wf_definition d WHERE ${where.join(' AND ')} ORDER BY d.def_key, d.version DESC`;
    const [{ total }] = await tenantDb(ctx, actor.tenantId).query<{ total: number }>(
      `SELECT count(*)::int AS total FROM (${latest}) x WHERE NOT x.suspended`,
      params.values,
    );
    const limit = params.add(p.size);
    const offset = params.add((p.current - 1) * p.size);
    const rows = await tenantDb(ctx, actor.tenantId).query<DefinitionRow>(
      `SELECT * FROM (${latest}) x WHERE NOT x.suspended ORDER BY x.category, x.key LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    return ok(request, {
      records: rows.map((r) => flowProcess(r, ctx.catalog, actor.lang)),
      total,
      size: p.size,
      current: p.current,
      pages: Math.ceil(total / p.size),
    });
  });

  app.get(`${BASE}/work/claim-list`, async (request) => ok(request, await queries.claim(actorOf(request), q(request))));
  app.get(`${BASE}/work/todo-list`, async (request) => ok(request, await queries.todo(actorOf(request), q(request))));
  app.get(`${BASE}/work/counts`, async (request) => ok(request, await queries.counts(actorOf(request))));
  app.get(`${BASE}/work/send-list`, async (request) => ok(request, await queries.sent(actorOf(request), q(request))));
  app.get(`${BASE}/work/done-list`, async (request) => ok(request, await queries.done(actorOf(request), q(request))));

  /** One task for the handle page: with what the caller may do and which fields they may change. */
  app.get(`${BASE}/work/task-detail`, async (request) => {
    const actor = actorOf(request);
    const taskId = parseId(q(request).taskId, 'taskId');
    const task = await queries.task(actor, taskId);
    if (!task) throw flowError('taskNotActive', {}, 404);
    await assertCanSee(actor, task.processInstanceId);
    const model = task.businessKey ? ctx.catalog.entities[task.businessKey] : undefined;
    return ok(request, {
      ...task,
      editableFields: model?.workflow?.editable[task.taskDefinitionKey] ?? [],
      canComplete: task.status === 'active' && task.assignee === actor.userId,
      canClaim: await queries.claimable(actor, taskId),
    });
  });

  app.post(`${BASE}/work/claim-task`, async (request) => {
    const actor = actorOf(request);
    await runtime.claim(actor, parseId(q(request).taskId ?? (request.body as Query | undefined)?.taskId, 'taskId'));
    return ok(request);
  });

  app.post(`${BASE}/work/complete-task`, async (request) => {
    const actor = actorOf(request);
    const body = bodyOf(request);
    const taskId = parseId(body.taskId === undefined ? undefined : String(body.taskId), 'taskId');
    const comment = body.comment === undefined || body.comment === null ? undefined : String(body.comment).slice(0, 1000);
    const record = body.record === undefined || body.record === null ? undefined : body.record;
    if (record !== undefined && (typeof record !== 'object' || Array.isArray(record))) throw badRequest('badJson');
    // a reject sends the document back: its submitter must be told why
    if (body.flag !== 'ok' && !comment?.trim()) throw flowError('rejectNeedsComment');
    const outcome = await runtime.complete(actor, {
      taskId,
      approve: body.flag === 'ok',
      comment,
      variables: variablesOf(body.variables),
      record: record as Row | undefined,
    });
    auditEvent(ctx, request, {
      event: body.flag === 'ok' ? 'approve' : 'reject',
      subject: `task ${taskId}`,
      detail: { comment, processStatus: outcome.status },
    });
    return ok(request, { processStatus: outcome.status, processIsFinished: outcome.ended ? 'finished' : 'unfinished' });
  });

  app.post(`${BASE}/work/recall-process`, async (request) => {
    const actor = actorOf(request);
    await runtime.recall(actor, parseId(q(request).processInstanceId, 'processInstanceId'));
    return ok(request);
  });

  // ---- process: timeline and diagram ----

  const historyFlowList = async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const instanceId = parseId(q(request).processInstanceId, 'processInstanceId');
    await assertCanSee(actor, instanceId);
    return ok(request, await queries.history(actor, instanceId));
  };
  app.get(`${BASE}/process/history-flow-list`, historyFlowList);
  app.get(`${BASE}/follow/history-flow-list`, historyFlowList);

  app.get(`${BASE}/process/instance-detail`, async (request) => {
    const actor = actorOf(request);
    const instanceId = parseId(q(request).processInstanceId, 'processInstanceId');
    await assertCanSee(actor, instanceId);
    return ok(request, await queries.instance(actor, instanceId));
  });

  app.get(`${BASE}/process/model-view`, async (request) => {
    const actor = actorOf(request);
    const query = q(request);
    if (query.processInstanceId) await assertCanSee(actor, parseId(query.processInstanceId, 'processInstanceId'));
    const view = await queries.modelView(actor, query);
    if (!view) throw flowError(query.processInstanceId ? 'instanceNotFound' : 'definitionNotFound', {}, 404);
    return ok(request, view);
  });

  app.get(`${BASE}/process/resource-view`, async (request, reply) => {
    const actor = actorOf(request);
    const view = await queries.modelView(actor, { processDefinitionId: q(request).processDefinitionId ?? '' });
    if (!view) throw flowError('definitionNotFound', {}, 404);
    return reply.type('application/xml; charset=utf-8').send(view.xml);
  });

  // ---- follow ----

  app.get(`${BASE}/follow/list`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_follow');
    return ok(request, await queries.running(actor, q(request)));
  });

  app.post(`${BASE}/follow/delete-process-instance`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_follow');
    const query = { ...((request.body as Query | undefined) ?? {}), ...q(request) };
    await runtime.terminate(actor, parseId(query.processInstanceId, 'processInstanceId'), String(query.deleteReason ?? ''));
    return ok(request);
  });

  // ---- manager: deployed definitions ----

  app.get(`${BASE}/manager/list`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_manager');
    await definitions.ensureDefaults(actor.tenantId);
    const query = q(request);
    const p = paging(query);
    const params = new Params();
    const where = [`d.tenant_id = ${params.add(actor.tenantId)}`, 'd.is_deleted = 0'];
    if (query.category) where.push(`d.category = ${params.add(query.category)}`);
    if (query.key) where.push(`d.def_key = ${params.add(query.key)}`);
    const [{ total }] = await tenantDb(ctx, actor.tenantId).query<{ total: number }>(
      `SELECT count(*)::int AS total FROM wf_definition d WHERE ${where.join(' AND ')}`,
      params.values,
    );
    const limit = params.add(p.size);
    const offset = params.add((p.current - 1) * p.size);
    const rows = await tenantDb(ctx, actor.tenantId).query<DefinitionRow>(
      `SELECT ${DEFINITION_COLUMNS} FROM wf_definition d WHERE ${where.join(' AND ')} ORDER BY d.def_key, d.version DESC LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    return ok(request, {
      records: rows.map((r) => flowProcess(r, ctx.catalog, actor.lang)),
      total,
      size: p.size,
      current: p.current,
      pages: Math.ceil(total / p.size),
    });
  });

  app.post(`${BASE}/manager/change-state`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_manager');
    const query = { ...((request.body as Query | undefined) ?? {}), ...q(request) };
    if (query.state !== 'active' && query.state !== 'suspend')
      throw badRequest('badFilterValue', { field: 'state', value: query.state ?? '' });
    const id = String(query.processId ?? '');
    const rows = await tenantDb(ctx, actor.tenantId).query(
      'UPDATE wf_definition SET suspended = $3 WHERE id = $1 AND tenant_id = $2 AND is_deleted = 0 RETURNING id',
      [id, actor.tenantId, query.state === 'suspend'],
    );
    if (!rows.length) throw flowError('definitionNotFound', {}, 404);
    return ok(request);
  });

  app.post(`${BASE}/manager/delete-deployment`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_manager');
    const query = { ...((request.body as Query | undefined) ?? {}), ...q(request) };
    const ids = parseIds(query.deploymentIds, 'deploymentIds');
    await tenantDb(ctx, actor.tenantId).transaction(async (tx) => {
      const [busy] = await tx.query<{ name: string; n: number }>(
        `SELECT d.name, count(*)::int AS n FROM wf_definition d JOIN wf_instance i ON i.definition_id = d.id AND i.status = 'running'
          WHERE d.deployment_id = ANY($1::bigint[]) AND d.tenant_id = $2 GROUP BY d.name LIMIT 1`,
        [ids, actor.tenantId],
      );
      if (busy) throw flowError('definitionInUse', { name: busy.name, count: busy.n });
      // definitions stay for the history of ended instances; they leave every list and cannot start
      await tx.query('UPDATE wf_definition SET is_deleted = 1 WHERE deployment_id = ANY($1::bigint[]) AND tenant_id = $2', [
        ids,
        actor.tenantId,
      ]);
    });
    return ok(request);
  });

  /** The tenants a deployment goes to: the caller's, or (platform administrator only) those named. */
  function targetTenants(actor: Actor, tenantIds: string | undefined): string[] {
    const named = (tenantIds ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!named.length || (named.length === 1 && named[0] === actor.tenantId)) return [actor.tenantId];
    if (!isAdministrator(actor)) throw new AppError(403, 'forbidden');
    return [...new Set(named)];
  }

  app.post(`${BASE}/manager/deploy-upload`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_manager');
    if (!request.isMultipart?.()) throw flowError('noFiles');
    const files: { name: string; xml: string }[] = [];
    const fields: Query = {};
    for await (const part of request.parts({ limits: { files: 20, fileSize: 1_000_000, fields: 10 } })) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (/\.(bpmn|bpmn20\.xml|xml)$/i.test(part.filename)) files.push({ name: part.filename, xml: buffer.toString('utf8') });
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
    if (!files.length) throw flowError('noFiles');
    const tenants = targetTenants(actor, fields.tenantIds);
    for (const file of files) await definitions.compile(file.xml); // all refused before any is deployed
    for (const tenantId of tenants) await definitions.ensureDefaults(tenantId);
    const deployed: DefinitionRow[] = [];
    for (const tenantId of tenants) {
      for (const file of files) {
        deployed.push(
          await definitions.deploy({
            tenantId,
            xml: file.xml,
            source: 'upload',
            resourceName: file.name,
            userId: actor.userId,
            category: fields.category,
          }),
        );
      }
    }
    return ok(
      request,
      deployed.map((d) => flowProcess(d, ctx.catalog, actor.lang)),
    );
  });

  // ---- model: the designer's drafts ----

  app.get(`${BASE}/model/list`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_model');
    return ok(request, await models.list(actor, q(request), paging(q(request))));
  });

  app.get(`${BASE}/model/detail`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_model');
    return ok(request, await models.detail(actor, parseId(q(request).id)));
  });

  app.post(`${BASE}/model/submit`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_model');
    const body = bodyOf(request);
    const id = body.id === undefined || body.id === null || body.id === '' ? undefined : parseId(String(body.id));
    const xml = body.xml ?? body.modelEditorXml;
    return ok(request, await models.submit(actor, { ...body, id, xml: typeof xml === 'string' ? xml : undefined }));
  });

  app.post(`${BASE}/model/remove`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_model');
    const query = { ...((request.body as Query | undefined) ?? {}), ...q(request) };
    await models.remove(actor, parseIds(query.ids));
    return envelope(200, null, t('removed', request.lang));
  });

  app.post(`${BASE}/model/deploy`, async (request) => {
    const actor = actorOf(request);
    await need(actor, 'flow_model');
    const query = { ...((request.body as Query | undefined) ?? {}), ...q(request) };
    const model = await models.xmlOf(actor, parseId(query.modelId, 'modelId'));
    const tenants = targetTenants(actor, query.tenantIds);
    for (const tenantId of tenants) await definitions.ensureDefaults(tenantId);
    await definitions.compile(model.xml);
    const deployed: DefinitionRow[] = [];
    for (const tenantId of tenants) {
      deployed.push(
        await definitions.deploy({
          tenantId,
          xml: model.xml,
          source: 'model',
          resourceName: `${model.name}.bpmn`,
          userId: actor.userId,
          category: query.category || model.category || undefined,
          name: model.name,
        }),
      );
    }
    return ok(
      request,
      deployed.map((d) => flowProcess(d, ctx.catalog, actor.lang)),
    );
  });
}
