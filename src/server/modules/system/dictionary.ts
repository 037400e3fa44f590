// The dictionary calls beyond the generic ones (docs/api.md), for both the system
// dictionary (dict) and the tenant's business dictionary (dictBiz):
//   dictionary?code=  the items of one dictionary, in the caller's language (sealed items left out)
//   parent-list       the dictionaries themselves (roots), paged
//   child-list        the items under one parent, paged
// A dictionary's code is once among the dictionaries, an item's key once under its dictionary: the
// schemas say so (x-db.uniqueWithin), and the store keeps it.
import type { FastifyInstance } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityModel } from '../../../engine/model/types.ts';
import { parseListParams } from '../../../engine/query/list-params.ts';
import { EntityStore, parseId } from '../../db/store.ts';
import { actorOf } from '../../http/auth.ts';
import { badRequest } from '../../errors.ts';
import { envelope } from '../../http/envelope.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';

type Query = Record<string, string | undefined>;

export function registerDictionaryRoutes(app: FastifyInstance, ctx: RouteContext, model: EntityModel) {
  const base = model.api;

  app.get(`${base}/dictionary`, async (request) => {
    const { code } = request.query as Query;
    if (!code) throw badRequest('missingParam', { param: 'code' });
    // every signed-in user reads dictionaries (forms and lists need them), not only their administrators
    const store = new EntityStore(ctx, model, actorOf(request));
    const page = await store.list(
      parseListParams(model, { code_equal: code, parentId_notequal: '0', isSealed_equal: '0', ascs: 'sort', size: '500' }),
    );
    const items = page.records.map((r) => ({
      id: r.id,
      parentId: r.parentId,
      code: r.code,
      dictKey: r.dictKey,
      sort: r.sort,
      remark: r.remark,
      dictValue: request.lang === 'en' && r.dictValueEn ? r.dictValueEn : r.dictValue,
    }));
    return envelope(200, items, t('ok', request.lang));
  });

  app.get(`${base}/parent-list`, async (request) => {
    const query = parseListParams(model, { ...(request.query as Query), parentId_equal: '0' });
    return envelope(200, await (await storeFor(ctx, model, request, 'view')).list(query), t('ok', request.lang));
  });

  app.get(`${base}/child-list`, async (request) => {
    const { parentId, ...rest } = request.query as Query;
    const query = parseListParams(model, { ...rest, parentId_equal: parseId(parentId, 'parentId'), ascs: rest.ascs ?? 'sort' });
    return envelope(200, await (await storeFor(ctx, model, request, 'view')).list(query), t('ok', request.lang));
  });
}
