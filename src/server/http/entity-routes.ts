// The generic routes every manifest entity gets at its API base (SPEC §7):
// list, detail, save, update, submit, updatePart, remove, export, and tree / lazy-list / lazy-tree
// for tree entities. Each is a thin shell around the entity's store.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityModel } from '../../engine/model/types.ts';
import { parseListParams } from '../../engine/query/list-params.ts';
import { t } from '../../engine/i18n/messages.ts';
import { EntityStore, parseId, parseIds, type StoreContext } from '../db/store.ts';
import { badRequest } from '../errors.ts';
import { actorOf } from './auth.ts';
import { envelope } from './envelope.ts';
import { exportList, exportRecord, sendWorkbook } from './export.ts';

type Query = Record<string, string | undefined>;

export function storeFor(ctx: StoreContext, model: EntityModel, request: FastifyRequest): EntityStore {
  return new EntityStore(ctx, model, actorOf(request));
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('badJson');
  return body as Record<string, unknown>;
}

/** detail accepts id or one of the entity's lookup keys (region: code). */
function lookup(model: EntityModel, query: Query): { value: string; by: string } {
  if (query.id !== undefined) return { value: parseId(query.id), by: 'id' };
  for (const key of model.lookupKeys) if (query[key]) return { value: query[key]!, by: key };
  throw badRequest('missingParam', { param: 'id' });
}

export function registerEntityRoutes(app: FastifyInstance, ctx: StoreContext, model: EntityModel) {
  const base = model.api;
  const ok = (request: FastifyRequest, data: unknown, key: 'ok' | 'saved' | 'updated' | 'removed' = 'ok') => envelope(200, data, t(key, request.lang));

  app.get(`${base}/list`, async (request) => {
    const query = parseListParams(model, request.query as Query);
    return ok(request, await storeFor(ctx, model, request).list(query));
  });

  app.get(`${base}/detail`, async (request) => {
    const { value, by } = lookup(model, request.query as Query);
    return ok(request, await storeFor(ctx, model, request).detail(value, by));
  });

  app.post(`${base}/save`, async (request) => ok(request, await storeFor(ctx, model, request).create(bodyOf(request)), 'saved'));

  app.post(`${base}/update`, async (request) => {
    const body = bodyOf(request);
    return ok(request, await storeFor(ctx, model, request).update(parseId(body.id as string | undefined), body), 'updated');
  });

  app.post(`${base}/submit`, async (request) => {
    const body = bodyOf(request);
    const store = storeFor(ctx, model, request);
    if (body.id === undefined || body.id === null || body.id === '') return ok(request, await store.create(body), 'saved');
    return ok(request, await store.update(parseId(String(body.id)), body), 'updated');
  });

  app.post(`${base}/updatePart`, async (request) => {
    const body = bodyOf(request);
    return ok(request, await storeFor(ctx, model, request).updatePart(parseId(body.id as string | undefined), body), 'updated');
  });

  app.post(`${base}/remove`, async (request) => {
    const query = request.query as Query;
    const body = (request.body ?? {}) as Query;
    const raw = query.ids ?? query.id ?? body.ids ?? body.id;
    await storeFor(ctx, model, request).remove(parseIds(raw === undefined ? undefined : String(raw)));
    return ok(request, null, 'removed');
  });

  app.get(`${base}/export`, async (request, reply) => {
    const query = request.query as Query;
    const store = storeFor(ctx, model, request);
    if (query.id !== undefined) return sendWorkbook(reply, await exportRecord(ctx, store, parseId(query.id), request.lang));
    const { id: _id, ...filters } = query;
    return sendWorkbook(reply, await exportList(ctx, store, parseListParams(model, filters), request.lang));
  });

  if (model.tree) {
    const param = model.tree.lazyParam;
    const parentOf = (query: Query) => query[param] || model.tree!.root;
    app.get(`${base}/tree`, async (request) => ok(request, await storeFor(ctx, model, request).tree()));
    app.get(`${base}/lazy-list`, async (request) => ok(request, await storeFor(ctx, model, request).children(parentOf(request.query as Query))));
    app.get(`${base}/lazy-tree`, async (request) => ok(request, await storeFor(ctx, model, request).lazyTree(parentOf(request.query as Query))));
  }
}
