// GET <project api>/statisticsData and /statisticsDataExport (docs/business-rules.md#project-statistics): the project
// statistics as JSON and as an .xlsx with the same numbers; /costTrend, /materialFunnel,
// /warningStatistics and /settlementTimeliness: the dashboards (monthly settled cost
// by contract type, the material funnel, warnings by type and age, the month's settlement
// timeliness). Reading them needs the view permission on projects and on expense contracts (on
// warnings for the warnings panel); the caller's data scopes narrow what is summed, and another
// tenant's projects are never found.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../../engine/i18n/messages.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import type { CostTrendAnswer, MaterialFunnelAnswer } from '../../engine/statistics/dashboards.ts';
import { isMonth, lastCompleteMonth, type TimelinessAnswer, type WarningsAnswer } from '../../engine/statistics/panels.ts';
import { nowText } from '../../../../server/clock.ts';
import type { StatisticsAnswer } from '../../engine/statistics/statistics.ts';
import { parseId, type Actor, type DataFilter } from '../../../../server/db/store.ts';
import { AppError, badRequest, notFound } from '../../../../server/errors.ts';
import { actorOf } from '../../../../server/http/auth.ts';
import type { RouteContext } from '../../../../server/http/entity-routes.ts';
import { envelope } from '../../../../server/http/envelope.ts';
import { sendWorkbook } from '../../../../server/http/export.ts';
import { statisticsWorkbook } from './export.ts';
import { Dashboards } from './dashboards.ts';
import { statisticsModels, type FunnelSource } from './models.ts';
import { Panels, warningRecords } from './panels.ts';
import { Statistics, type StatisticsScope } from './service.ts';

type Query = Record<string, string | undefined>;

export function registerStatisticsRoutes(app: FastifyInstance, ctx: RouteContext) {
  const models = statisticsModels(ctx.catalog);
  const service = new Statistics(ctx, models);
  const dashboards = new Dashboards(ctx, models);
  const projectModel = models.projects.model;
  const expenseContract = models.expenseContract.model;
  const incomeContract = models.incomeContract.model;
  const warnings = warningRecords(ctx.catalog);
  const warningModel = warnings.model;
  const panels = new Panels(ctx, models, warnings);
  const today = () => nowText(ctx.timeZone).slice(0, 10);

  /** The caller's scope: refuses without the view permissions; income only when income contracts are readable. */
  async function scopeOf(request: FastifyRequest): Promise<StatisticsScope> {
    const actor = actorOf(request);
    await ctx.access.check(actor, projectModel, 'view');
    await ctx.access.check(actor, expenseContract, 'view');
    return {
      projects: await ctx.access.dataFilters(actor, projectModel),
      contracts: await ctx.access.dataFilters(actor, expenseContract),
      income: await readable(actor, incomeContract),
    };
  }

  /** The caller's data filters on a document type, or null without its view permission (left out, not refused). */
  async function readable(actor: Actor, model: EntityModel): Promise<readonly DataFilter[] | null> {
    return ctx.access.check(actor, model, 'view').then(
      () => ctx.access.dataFilters(actor, model),
      (err) => {
        if (err instanceof AppError && err.status === 403) return null;
        throw err;
      },
    );
  }

  /** The projects asked for (one, or every one the caller sees): 404 for one the caller does not see. */
  async function projectsOf(request: FastifyRequest, filters: readonly DataFilter[]): Promise<{ projectId: string | null; ids: string[] }> {
    const query = request.query as Query;
    const projectId = query.projectId?.trim() ? parseId(query.projectId.trim(), 'projectId') : null;
    const ids = (await service.visibleProjects(actorOf(request), filters, projectId ?? undefined)).map((p) => p.id);
    if (projectId && !ids.length) throw notFound(projectModel.label);
    return { projectId, ids };
  }

  async function costTrend(request: FastifyRequest): Promise<CostTrendAnswer> {
    const actor = actorOf(request);
    const scope = await scopeOf(request);
    const { projectId, ids } = await projectsOf(request, scope.projects);
    return dashboards.costTrend(actor, scope, ids, projectId, await service.contractTypes(actor));
  }

  async function materialFunnel(request: FastifyRequest): Promise<MaterialFunnelAnswer> {
    const actor = actorOf(request);
    await ctx.access.check(actor, projectModel, 'view');
    const { projectId, ids } = await projectsOf(request, await ctx.access.dataFilters(actor, projectModel));
    const scopedSources = (sources: readonly FunnelSource[]) =>
      Promise.all(sources.map(async (s) => ({ ...s, filters: await readable(actor, s.model) })));
    const readsAll = async (types: readonly EntityModel[]) =>
      types.length > 0 && (await Promise.all(types.map((m) => readable(actor, m)))).every((f) => f !== null);
    const { funnel } = models;
    return dashboards.materialFunnel(
      actor,
      {
        planned: await scopedSources(funnel.totalDemand),
        monthlyDemand: await scopedSources(funnel.monthlyDemand),
        procured: await scopedSources(funnel.procurement),
        supplied: await scopedSources(funnel.supply),
        received: await readsAll(models.stockReceipts),
        consumed: await readsAll(models.stockReports),
      },
      ids,
      projectId,
    );
  }

  async function warningStatistics(request: FastifyRequest): Promise<WarningsAnswer> {
    const actor = actorOf(request);
    await ctx.access.check(actor, projectModel, 'view');
    await ctx.access.check(actor, warningModel, 'view');
    const { projectId, ids } = await projectsOf(request, await ctx.access.dataFilters(actor, projectModel));
    return panels.warningCounts(actor, await ctx.access.dataFilters(actor, warningModel), ids, projectId, today());
  }

  async function settlementTimeliness(request: FastifyRequest): Promise<TimelinessAnswer> {
    const actor = actorOf(request);
    const query = request.query as Query;
    const asked = query.month?.trim();
    if (asked !== undefined && asked !== '' && !isMonth(asked)) throw badRequest('badMonth', { param: 'month', value: asked });
    const scope = await scopeOf(request);
    const { projectId } = await projectsOf(request, scope.projects);
    const projects = await service.visibleProjects(actor, scope.projects, projectId ?? undefined);
    return panels.timeliness(actor, scope.contracts, projects, projectId, asked || lastCompleteMonth(today()));
  }

  async function answer(request: FastifyRequest): Promise<StatisticsAnswer> {
    const actor = actorOf(request);
    const scope = await scopeOf(request);
    const query = request.query as Query;
    const projectId = query.projectId?.trim() ? parseId(query.projectId.trim(), 'projectId') : undefined;
    const type = query.expenditureContractType?.trim() || undefined;
    if (type !== undefined && !(await service.contractTypes(actor)).has(type))
      throw badRequest('badFilterValue', { field: 'expenditureContractType', value: type });
    const result = await service.answer(actor, scope, { projectId, contractType: type });
    // a project of another tenant, removed, or outside the caller's data scope is not found
    if (projectId && !result.projects.length) throw notFound(projectModel.label);
    return result;
  }

  app.get(`${projectModel.api}/statisticsData`, async (request) => envelope(200, await answer(request), t('ok', request.lang)));
  app.get(`${projectModel.api}/statisticsDataExport`, async (request, reply) =>
    sendWorkbook(reply, await statisticsWorkbook(await answer(request), actorOf(request).lang)),
  );
  app.get(`${projectModel.api}/costTrend`, async (request) => envelope(200, await costTrend(request), t('ok', request.lang)));
  app.get(`${projectModel.api}/materialFunnel`, async (request) => envelope(200, await materialFunnel(request), t('ok', request.lang)));
  app.get(`${projectModel.api}/warningStatistics`, async (request) =>
    envelope(200, await warningStatistics(request), t('ok', request.lang)),
  );
  app.get(`${projectModel.api}/settlementTimeliness`, async (request) =>
    envelope(200, await settlementTimeliness(request), t('ok', request.lang)),
  );
}
