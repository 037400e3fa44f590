// /api/blade-desk/notice beyond the generic routes (list, detail, submit, remove, which need the
// notice menu): `top`, the notices every user of the tenant sees on the home page — those whose
// publish date has come, newest first, with their content.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { parseListParams } from '../../../engine/query/list-params.ts';
import { nowText } from '../../clock.ts';
import { EntityStore } from '../../db/store.ts';
import { actorOf } from '../../http/auth.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';

type Query = Record<string, string | undefined>;

const TOP_MAX = 50;

export function registerNoticeRoutes(app: FastifyInstance, ctx: RouteContext) {
  const model = ctx.catalog.entities.notice;
  app.get(`${model.api}/top`, async (request: FastifyRequest) => {
    const query = request.query as Query;
    const size = String(Math.min(Math.max(Number(query.size) || 5, 1), TOP_MAX));
    const current = String(Math.max(Number(query.current) || 1, 1));
    const today = nowText(ctx.timeZone).slice(0, 10);
    const list = parseListParams(model, {
      current,
      size,
      category: query.category || undefined,
      releaseTime_le: today,
      descs: 'releaseTime',
    });
    // every user of the tenant reads the published notices: no menu needed
    const page = await new EntityStore(ctx, model, actorOf(request)).list(list);
    return envelope(200, page, t('ok', request.lang));
  });
}
