// The generic routes every manifest entity gets at its API base (docs/api.md):
// list, detail, save, update, submit, updatePart, remove, export, and tree / lazy-list / lazy-tree
// for tree entities. Each is a thin shell around the entity's store. The platform's extra paths
// (a master list's `all`, an income contract's `submitApply`, …) are aliases the schema declares (x-entity.routes).
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { withSecretPlaceholders } from '../../engine/model/secrets.ts';
import type { EntityModel, RouteAction } from '../../engine/model/types.ts';
import { parseListParams } from '../../engine/query/list-params.ts';
import { t } from '../../engine/i18n/messages.ts';
import type { Row } from '../db/db.ts';
import { sharedRecordAuthors } from '../db/labels.ts';
import { EntityStore, parseId, parseIds, PLATFORM_TENANT, tenantDb, type Actor, type StoreContext } from '../db/store.ts';
import type { AccessControl, Action } from '../security/access.ts';
import { badRequest } from '../errors.ts';
import { actorOf, DOWNLOAD } from './auth.ts';
import { envelope } from './envelope.ts';
import { exportList, exportRecord, sendWorkbook } from './export.ts';
import type { RouteTable } from './route-table.ts';

type Query = Record<string, string | undefined>;

/** What the generic routes need besides the data layer: the access checks. */
export interface RouteContext extends StoreContext {
  access: AccessControl;
}

/**
 * The caller's store for `model`, after checking that the caller may do `action` on it; the store
 * carries the caller's data-scope filters.
 */
export async function storeFor(ctx: RouteContext, model: EntityModel, request: FastifyRequest, action: Action): Promise<EntityStore> {
  const actor = actorOf(request);
  await ctx.access.check(actor, model, action);
  return new EntityStore(ctx, model, actor, await ctx.access.dataFilters(actor, model));
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

const POST_ACTIONS = new Set<RouteAction>(['save', 'update', 'submit', 'updatePart', 'remove']);

/**
 * Registers the entity's x-entity.routes: each path answers like its target, with the target's
 * permission check, so an alias opens nothing its target does not. `all` exists only as an alias.
 */
export function registerRouteAliases(ctx: RouteContext, model: EntityModel, table: RouteTable) {
  const app = table.collector();
  for (const [path, action] of Object.entries(model.routes)) {
    const url = `${model.api}/${path}`;
    if (action === 'all') {
      app.get(url, async (request) => {
        const { filters } = parseListParams(model, { ...(request.query as Query), current: undefined, size: undefined });
        return envelope(200, await (await storeFor(ctx, model, request, 'view')).all(filters), t('ok', request.lang));
      });
      continue;
    }
    const method = POST_ACTIONS.has(action) ? 'POST' : 'GET';
    const handler = table.handlerOf(method, `${model.api}/${action}`);
    if (!handler) throw new Error(`${model.key}: the route alias "${path}" has no ${method} ${action} to answer like`);
    app.route({ method, url, handler });
  }
}

/**
 * Registers the generic routes. A module that needs a route of its own for an entity registers it
 * first; the generic one then stays out of its way.
 */
export function registerEntityRoutes(app: FastifyInstance, ctx: RouteContext, model: EntityModel) {
  const base = model.api;
  const taken = (method: 'GET' | 'POST', url: string) => app.hasRoute({ method, url });
  const route = {
    get: (url: string, handler: RouteHandlerMethod, config: FastifyContextConfig = {}) =>
      taken('GET', url) || app.get(url, { config }, handler),
    // every generic POST writes: records the server alone writes (x-entity.readOnly, logs) get none
    post: (url: string, handler: RouteHandlerMethod) => model.readOnly || taken('POST', url) || app.post(url, handler),
  };
  const ok = (request: FastifyRequest, data: unknown, key: 'ok' | 'saved' | 'updated' | 'removed' = 'ok') =>
    envelope(200, data, t(key, request.lang));
  /** What the caller may do with the records read, as the entity's hooks add it (the approval's canRecall). */
  const annotate = async (request: FastifyRequest, records: Row[]) => {
    const afterRead = ctx.hooks?.[model.key]?.afterRead;
    const actor = actorOf(request);
    if (afterRead && records.length) await afterRead({ db: tenantDb(ctx, actor.tenantId), actor, records });
  };

  route.get(`${base}/list`, async (request) => {
    const query = parseListParams(model, request.query as Query);
    const store = await storeFor(ctx, model, request, 'view');
    if (model.tree?.list === 'forest') return ok(request, await store.forestList(query, t('treeTop', request.lang)));
    const page = await store.list(query);
    await annotate(request, page.records);
    return ok(request, page);
  });

  route.get(`${base}/detail`, async (request) => {
    const { value, by } = lookup(model, request.query as Query);
    const record = await (await storeFor(ctx, model, request, 'view')).detail(value, by);
    await annotate(request, [record]);
    return ok(request, withSecretPlaceholders(model, record));
  });

  /** Labels open to every member of the tenant (x-entity.labelsForMembers), or to the caller as a reader of a record referring to these. */
  const labelsOpen = async (request: FastifyRequest) =>
    model.labelsForMembers || (await ctx.access.readsAReferrer(actorOf(request), model));

  /**
   * {value, label} of the records with these ids in the caller's tenant. The people who wrote a
   * shared record (its administrator writes the system dictionaries, menus and regions every tenant
   * reads) are the platform's: such an author is named from the platform tenant, so that 创建人 of a
   * system dictionary reads as a name. No other user of the platform is named to a tenant.
   */
  const labelsOf = async (actor: Actor, ids: string[], valueField: string) => {
    const page = await new EntityStore(ctx, model, actor).options({ ids, valueField, current: 1, size: Math.min(ids.length, 500) });
    const missing = ids.filter((id) => !page.records.some((r) => r.value === id));
    if (model.key !== 'user' || valueField !== 'id' || actor.tenantId === PLATFORM_TENANT || !missing.length) return page;
    const authors = await sharedRecordAuthors(ctx.db, ctx.catalog, missing);
    if (!authors.length) return page;
    const platform = await new EntityStore(ctx, model, { ...actor, tenantId: PLATFORM_TENANT }).options({
      ids: authors,
      valueField,
      current: 1,
      size: Math.min(authors.length, 500),
    });
    const records = [...page.records, ...platform.records];
    return { ...page, records, total: records.length };
  };

  // {value, label} for reference pickers (keyword, paged, narrowed by the list's filters: cascading
  // pickers send the values of the fields they depend on) and for list labels (ids, one request)
  route.get(`${base}/options`, async (request) => {
    const { ids: rawIds, keyword, valueField = 'id', ...rest } = request.query as Query;
    // references by another unique key (a region's parentCode → code) look labels up by that key
    if (valueField !== 'id' && !model.lookupKeys.includes(valueField))
      throw badRequest('unknownFilter', { param: `valueField=${valueField}` });
    const ids = rawIds ? (valueField === 'id' ? parseIds(rawIds) : rawIds.split(',').filter(Boolean)) : undefined;
    const { filters } = parseListParams(model, { ...rest, current: undefined, size: undefined });
    const size = Math.min(Number(rest.size ?? 20) || 20, 500);
    const current = Math.max(Number(rest.current ?? 1) || 1, 1);
    // labels by id are shown wherever a record referring to these is read (who created it, a
    // project's 建设单位): whoever may read such a record gets them without reading this entity,
    // and nothing but labels of the ids sent (no keyword or filters that would probe other columns)
    if (ids && !keyword && !filters.length && (await labelsOpen(request)))
      return ok(request, await labelsOf(actorOf(request), ids, valueField));
    const store = await storeFor(ctx, model, request, 'view');
    return ok(
      request,
      await store.options({
        ids,
        valueField,
        keyword: keyword || undefined,
        filters,
        current,
        size: ids ? Math.min(ids.length, 500) : size,
      }),
    );
  });

  route.post(`${base}/save`, async (request) =>
    ok(request, await (await storeFor(ctx, model, request, 'add')).create(bodyOf(request)), 'saved'),
  );

  route.post(`${base}/update`, async (request) => {
    const body = bodyOf(request);
    return ok(request, await (await storeFor(ctx, model, request, 'edit')).update(parseId(body.id as string | undefined), body), 'updated');
  });

  route.post(`${base}/submit`, async (request) => {
    const body = bodyOf(request);
    if (body.id === undefined || body.id === null || body.id === '')
      return ok(request, await (await storeFor(ctx, model, request, 'add')).create(body), 'saved');
    return ok(request, await (await storeFor(ctx, model, request, 'edit')).update(parseId(String(body.id)), body), 'updated');
  });

  route.post(`${base}/updatePart`, async (request) => {
    const body = bodyOf(request);
    return ok(
      request,
      await (await storeFor(ctx, model, request, 'edit')).updatePart(parseId(body.id as string | undefined), body),
      'updated',
    );
  });

  route.post(`${base}/remove`, async (request) => {
    const query = request.query as Query;
    const body = (request.body ?? {}) as Query;
    const raw = query.ids ?? query.id ?? body.ids ?? body.id;
    const ids = parseIds(raw === undefined ? undefined : String(raw));
    await (await storeFor(ctx, model, request, 'delete')).remove(ids);
    return ok(request, null, 'removed');
  });

  // a download the browser may open itself (window.open): the token may come as ?blade-auth=
  route.get(
    `${base}/export`,
    async (request, reply) => {
      const query = request.query as Query;
      const store = await storeFor(ctx, model, request, 'export');
      if (query.id !== undefined) return sendWorkbook(reply, await exportRecord(ctx, store, parseId(query.id), request.lang));
      const { id: _id, ...filters } = query;
      return sendWorkbook(reply, await exportList(ctx, store, parseListParams(model, filters), request.lang));
    },
    DOWNLOAD,
  );

  if (model.tree) {
    const param = model.tree.lazyParam;
    const parentOf = (query: Query) => query[param] || model.tree!.root;
    route.get(`${base}/tree`, async (request) => ok(request, await (await storeFor(ctx, model, request, 'view')).tree()));
    route.get(`${base}/lazy-list`, async (request) =>
      ok(request, await (await storeFor(ctx, model, request, 'view')).children(parentOf(request.query as Query))),
    );
    route.get(`${base}/lazy-tree`, async (request) =>
      ok(request, await (await storeFor(ctx, model, request, 'view')).lazyTree(parentOf(request.query as Query))),
    );
  }
}
