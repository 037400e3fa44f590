// The dashboards' data: the project statistics (statisticsData), unread warnings by level and the
// caller's waiting approvals, through the renderers' HTTP door (so stories and tests hand in a fake),
// and the number formats: 元 with thousands separators in tables, 万元 on charts and tiles.
import { useQuery } from '@tanstack/react-query';
import { Dec } from '../../../../engine/compute/decimal.ts';
import { entityWithRole } from '../../../../engine/model/roles.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import type { CostTrendAnswer, MaterialFunnelAnswer } from '../../engine/statistics/dashboards.ts';
import type { TimelinessAnswer, WarningsAnswer } from '../../engine/statistics/panels.ts';
import type { Amount, StatisticsAnswer } from '../../engine/statistics/statistics.ts';
import { ApiError } from '../../../../client/api/http.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { useHttp, type RendererHttp } from '../../../../client/renderers/http-context.tsx';
import { formatDecimal } from '../../../../client/renderers/format.ts';
import { useWorkCounts } from '../../../../client/workflow/WaitingWork.tsx';

/** The dashboards' addresses, under the APIs of the document types playing the statistics' roles. */
export function statisticsUrls() {
  const projects = entityWithRole(catalog(), STATISTICS_ROLES.projects).api;
  return {
    statistics: `${projects}/statisticsData`,
    export: `${projects}/statisticsDataExport`,
    costTrend: `${projects}/costTrend`,
    materialFunnel: `${projects}/materialFunnel`,
    warningStatistics: `${projects}/warningStatistics`,
    settlementTimeliness: `${projects}/settlementTimeliness`,
    projectList: `${projects}/all`,
    warnings: `${entityWithRole(catalog(), STATISTICS_ROLES.warnings).api}/list`,
  };
}

/** The document types statisticsData reads (the server refuses it to a user who may not read both). */
export const statisticsEntities = () => [
  entityWithRole(catalog(), STATISTICS_ROLES.projects).key,
  entityWithRole(catalog(), STATISTICS_ROLES.expenseContract).key,
];

/** The document type of the warnings. */
export const warningsEntity = () => entityWithRole(catalog(), STATISTICS_ROLES.warnings).key;

/** The menu entry of the warning list (where the unread-warnings tile leads). */
export const warningsMenuCode = () => entityWithRole(catalog(), STATISTICS_ROLES.warnings).menu?.code;
export const WARN_LEVELS = ['critical', 'warning', 'info'] as const;

export type WarnLevel = (typeof WARN_LEVELS)[number];

/** 1234567.5 → "1,234,567.50" (exact: the amount is never a float on the way). */
export const yuan = (v: Amount | null | undefined) => (v === null || v === undefined ? '—' : formatDecimal(String(v), 2));

/** 1234567.5 → "123.46" (万元, half-up). */
export const wan = (v: Amount | null | undefined) =>
  v === null || v === undefined ? '—' : formatDecimal(new Dec(String(v)).div(10000).toFixed(), 2);

/** The chart value in 万元 (a number: a chart has no use for more digits than it can draw). */
export const wanNumber = (v: Amount | null | undefined) => Number(new Dec(String(v ?? 0)).div(10000).toFixed(2));

export const rate = (v: Amount | null | undefined) => (v === null || v === undefined ? '—' : `${formatDecimal(String(v), 2)}%`);

/** A refusal for lack of permission: the panel is not for this user, it is not an error to show. */
export const isForbidden = (err: unknown) => err instanceof ApiError && err.code === 403;

/** One of the statistics page's answers, asked with the given (non-empty) parameters and kept 30 s. */
function statisticsAnswer<T>(http: RendererHttp, key: readonly string[], url: string, params: Record<string, string | undefined>) {
  const query = Object.fromEntries(Object.entries(params).filter(([, v]) => v)) as Record<string, string>;
  return { queryKey: ['statistics', ...key], queryFn: () => http.get<T>(url, query, { silent: true }), staleTime: 30_000 };
}

/**
 * The statistics page's queries: its hooks' and a page load's prefetch (ProjectStatistics.tsx), one
 * key and one request each.
 */
export const statisticsQueries = {
  /** statisticsData of one project, or of every one the caller sees. */
  statistics: (http: RendererHttp, projectId?: string) =>
    statisticsAnswer<StatisticsAnswer>(http, [projectId ?? ''], statisticsUrls().statistics, { projectId }),
  /** The monthly settled cost by contract type (one project, or every one the caller sees). */
  costTrend: (http: RendererHttp, projectId?: string) =>
    statisticsAnswer<CostTrendAnswer>(http, ['costTrend', projectId ?? ''], statisticsUrls().costTrend, { projectId }),
  /** The material funnel per goods. */
  materialFunnel: (http: RendererHttp, projectId?: string) =>
    statisticsAnswer<MaterialFunnelAnswer>(http, ['materialFunnel', projectId ?? ''], statisticsUrls().materialFunnel, { projectId }),
  /** Warnings by type and level with the open ones' ageing. */
  warningStatistics: (http: RendererHttp, projectId?: string) =>
    statisticsAnswer<WarningsAnswer>(http, ['warningStatistics', projectId ?? ''], statisticsUrls().warningStatistics, { projectId }),
  /** A month's settlement timeliness (the server's default: the last complete month). */
  settlementTimeliness: (http: RendererHttp, projectId?: string, month?: string) =>
    statisticsAnswer<TimelinessAnswer>(
      http,
      ['settlementTimeliness', projectId ?? '', month ?? ''],
      statisticsUrls().settlementTimeliness,
      { projectId, month },
    ),
  /** The projects the caller sees (the page's project picker), kept a minute. */
  projects: (http: RendererHttp) => ({
    queryKey: ['statistics', 'projects'],
    queryFn: () => http.get<{ id: string; name: string }[]>(statisticsUrls().projectList, {}, { silent: true }),
    staleTime: 60_000,
  }),
};

export const useStatistics = (projectId?: string, enabled = true) =>
  useQuery({ ...statisticsQueries.statistics(useHttp(), projectId), enabled });
export const useCostTrend = (projectId?: string) => useQuery(statisticsQueries.costTrend(useHttp(), projectId));
export const useMaterialFunnel = (projectId?: string) => useQuery(statisticsQueries.materialFunnel(useHttp(), projectId));
export const useWarningStatistics = (projectId?: string) => useQuery(statisticsQueries.warningStatistics(useHttp(), projectId));
export const useSettlementTimeliness = (projectId?: string, month?: string) =>
  useQuery(statisticsQueries.settlementTimeliness(useHttp(), projectId, month));

/** How many records a paged list answers (its total, one record asked for). */
const countOf = (http: ReturnType<typeof useHttp>, url: string, params: Record<string, string> = {}) =>
  http.get<{ total: number }>(url, { ...params, size: 1 }, { silent: true }).then((page) => page.total);

/** Unread warnings of the caller's tenant by level (asked only when `enabled`: the user may read warnings). */
export function useUnreadWarnings(enabled = true) {
  const http = useHttp();
  return useQuery({
    queryKey: ['statistics', 'warnings'],
    enabled,
    queryFn: async () => {
      const counts = await Promise.all(
        WARN_LEVELS.map((warnLevel) => countOf(http, statisticsUrls().warnings, { warnStatus: 'unread', warnLevel })),
      );
      return Object.fromEntries(WARN_LEVELS.map((level, i) => [level, counts[i]])) as Record<WarnLevel, number>;
    },
    staleTime: 30_000,
  });
}

/**
 * Tasks assigned to the caller and tasks the caller may claim: the flow's counts, the query the
 * home page's waiting-work card makes too (one request for both, not a list call for each). The
 * overview mounts once the statistics have come, after the card: an answer of the last 30 s is taken.
 */
export const useWaitingApprovals = () => useWorkCounts(30_000);
