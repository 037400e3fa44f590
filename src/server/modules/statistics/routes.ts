// GET <project api>/statisticsData and /statisticsDataExport (SPEC §7, domain.md §6): the project
// statistics as JSON and as an .xlsx with the same numbers. Reading them needs the view permission
// on projects and on expense contracts; the caller's data scopes on projects, expense contracts and
// income contracts narrow what is summed, and another tenant's projects are never found.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { StatisticsAnswer } from '../../../engine/statistics/statistics.ts';
import { parseId } from '../../db/store.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';
import { sendWorkbook } from '../../http/export.ts';
import { statisticsWorkbook } from './export.ts';
import { Statistics, type StatisticsScope } from './service.ts';

type Query = Record<string, string | undefined>;

export function registerStatisticsRoutes(app: FastifyInstance, ctx: RouteContext) {
  const service = new Statistics(ctx);
  const { project, expenditureContract, constructionContract } = ctx.catalog.entities;

  /** The caller's scope: refuses without the view permissions; income only when income contracts are readable. */
  async function scopeOf(request: FastifyRequest): Promise<StatisticsScope> {
    const actor = actorOf(request);
    await ctx.access.check(actor, project, 'view');
    await ctx.access.check(actor, expenditureContract, 'view');
    const income = await ctx.access.check(actor, constructionContract, 'view').then(
      () => ctx.access.dataFilters(actor, constructionContract),
      (err) => { if (err instanceof AppError && err.status === 403) return null; throw err; },
    );
    return { projects: await ctx.access.dataFilters(actor, project), contracts: await ctx.access.dataFilters(actor, expenditureContract), income };
  }

  async function answer(request: FastifyRequest): Promise<StatisticsAnswer> {
    const actor = actorOf(request);
    const scope = await scopeOf(request);
    const query = request.query as Query;
    const projectId = query.projectId?.trim() ? parseId(query.projectId.trim(), 'projectId') : undefined;
    const type = query.expenditureContractType?.trim() || undefined;
    if (type !== undefined && !(await service.contractTypes(actor)).has(type)) throw badRequest('badFilterValue', { field: 'expenditureContractType', value: type });
    const result = await service.answer(actor, scope, { projectId, expenditureContractType: type });
    // a project of another tenant, removed, or outside the caller's data scope is not found
    if (projectId && !result.projects.length) throw notFound(project.label);
    return result;
  }

  app.get(`${project.api}/statisticsData`, async (request) => envelope(200, await answer(request), t('ok', request.lang)));
  app.get(`${project.api}/statisticsDataExport`, async (request, reply) => sendWorkbook(reply, await statisticsWorkbook(await answer(request), actorOf(request).lang)));
}
