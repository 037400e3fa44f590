// GET <api>/cumulative of every document type with x-cumulative (R-CUM-4): the group's approved
// totals before a period, by header and by line, with the contract's snapshot.
import type { FastifyInstance } from 'fastify';
import { t } from '../../../../engine/i18n/messages.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import { parseId, tenantDb } from '../../../../server/db/store.ts';
import { badRequest } from '../../../../server/errors.ts';
import { actorOf } from '../../../../server/http/auth.ts';
import type { RouteContext } from '../../../../server/http/entity-routes.ts';
import { envelope } from '../../../../server/http/envelope.ts';
import { Cumulatives } from './service.ts';
import { cumulativeOf } from '../../engine/cumulative/model.ts';

type Query = Record<string, string | undefined>;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The group asked for: every query key, and the other keys when sent. */
function groupOf(model: EntityModel, query: Query): Record<string, string> {
  const spec = cumulativeOf(model)!;
  const group: Record<string, string> = {};
  for (const key of spec.keys) {
    const value = query[key]?.trim();
    if (!value) {
      if (spec.queryKeys.includes(key)) throw badRequest('missingParam', { param: key });
      continue;
    }
    group[key] = model.fieldMap[key].kind === 'id' ? parseId(value, key) : value;
  }
  return group;
}

export function registerCumulativeRoutes(app: FastifyInstance, ctx: RouteContext) {
  const service = new Cumulatives(ctx);
  for (const model of Object.values(ctx.catalog.entities)) {
    if (!cumulativeOf(model)) continue;
    app.get(`${model.api}/cumulative`, async (request) => {
      const actor = actorOf(request);
      await ctx.access.check(actor, model, 'view');
      const query = request.query as Query;
      const group = groupOf(model, query);
      const period = query.period?.trim() || undefined;
      if (period !== undefined && (!cumulativeOf(model)!.period || !MONTH.test(period)))
        throw badRequest('badFilterValue', { field: 'period', value: period });
      const excludeId = query.excludeId ? parseId(query.excludeId, 'excludeId') : undefined;
      return envelope(
        200,
        await service.answer(tenantDb(ctx, actor.tenantId), actor, model, group, { period, excludeId }),
        t('ok', request.lang),
      );
    });
  }
}
