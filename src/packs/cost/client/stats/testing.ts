// An in-memory statistics API for the dashboards' component tests and stories: the statistics of
// two projects (one over its target cost), unread warnings by level, waiting approvals, the project
// list and the export; any call can be made to fail with the server's message.
import { ApiError } from '../../../../client/api/http.ts';
import type { RendererHttp } from '../../../../client/renderers/http-context.tsx';
import type { CostTrendAnswer, MaterialFunnelAnswer } from '../../engine/statistics/dashboards.ts';
import type { TimelinessAnswer, WarningsAnswer } from '../../engine/statistics/panels.ts';
import { entitiesWithRole } from '../../../../engine/model/roles.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { READABLE_URL } from '../../../../client/renderers/data.ts';
import type { StatisticsAnswer, StatisticsRow } from '../../engine/statistics/statistics.ts';
import { COUNTS_URL } from '../../../../client/workflow/WaitingWork.tsx';
import { statisticsUrls } from './api.ts';

type Params = Record<string, string | number | boolean | undefined | null> | undefined;

const row = (type: string | null, name: string | null, over: Partial<StatisticsRow>): StatisticsRow => ({
  expenditureContractType: type,
  expenditureContractTypeName: name,
  contractCount: 1,
  contractAmount: 0,
  changeAmount: 0,
  currentAmount: 0,
  settledAmountInclTax: 0,
  settledAmountExclTax: 0,
  payableAmount: 0,
  paidAmount: null,
  retentionHeld: 0,
  remainingContractAmount: 0,
  settleRate: null,
  budgetAmount: null,
  budgetBalance: null,
  budgetUsageRate: null,
  ...over,
});

/** 江北 (target 1,000,000): subcontract 320,000 of which 90,000 settled; 星湖街 (target 50,000): 60,000 settled, over plan. */
export function sampleStatistics(): StatisticsAnswer {
  return {
    projectId: null,
    expenditureContractType: null,
    rows: [
      row('subcontract', '专业分包', {
        contractCount: 2,
        contractAmount: 400000,
        changeAmount: 20000,
        currentAmount: 420000,
        settledAmountInclTax: 150000,
        settledAmountExclTax: 137614.68,
        payableAmount: 115500,
        paidAmount: 50000,
        retentionHeld: 4500,
        remainingContractAmount: 270000,
        settleRate: 35.71,
      }),
      row('material', '材料采购', { contractAmount: 100000, currentAmount: 100000, remainingContractAmount: 100000, settleRate: 0 }),
    ],
    total: row(null, null, {
      contractCount: 3,
      contractAmount: 500000,
      changeAmount: 20000,
      currentAmount: 520000,
      settledAmountInclTax: 150000,
      settledAmountExclTax: 137614.68,
      payableAmount: 115500,
      paidAmount: 50000,
      retentionHeld: 4500,
      remainingContractAmount: 370000,
      settleRate: 28.85,
      budgetAmount: 1050000,
      budgetBalance: 530000,
      budgetUsageRate: 13.11,
    }),
    income: {
      contractCount: 1,
      contractAmount: 1200000,
      changeAmount: 50000,
      currentAmount: 1250000,
      measuredAmount: 300000,
      measuredAmountExclTax: 275229.36,
      receivedAmount: 240000,
    },
    targetCost: 1050000,
    projects: [
      {
        projectId: '101',
        projectName: '江北人才公寓二期',
        targetCost: 1000000,
        incomeAmount: 1250000,
        contractAmount: 420000,
        settledAmountInclTax: 90000,
        settledAmountExclTax: 82568.81,
        payableAmount: 69300,
        paidAmount: 50000,
        costOverPlan: -917431.19,
        costUsageRate: 8.26,
        measuredAmountExclTax: 275229.36,
        grossProfit: 192660.55,
        marginRate: 70,
      },
      {
        projectId: '102',
        projectName: '星湖街综合管廊',
        targetCost: 50000,
        incomeAmount: 0,
        contractAmount: 100000,
        settledAmountInclTax: 60000,
        settledAmountExclTax: 55045.87,
        payableAmount: 46200,
        paidAmount: null,
        costOverPlan: 5045.87,
        costUsageRate: 110.09,
        measuredAmountExclTax: 0,
        grossProfit: -55045.87,
        marginRate: null,
      },
    ],
  };
}

/** May and June: subcontract 110,091.74 then 27,522.94 excl. tax, material 0 then 8,849.56. */
export function sampleCostTrend(): CostTrendAnswer {
  return {
    projectId: null,
    months: ['2026-05', '2026-06'],
    series: [
      { expenditureContractType: 'subcontract', expenditureContractTypeName: '专业分包', amounts: [110091.74, 27522.94] },
      { expenditureContractType: 'material', expenditureContractTypeName: '材料采购', amounts: [0, 8849.56] },
    ],
    totals: [110091.74, 36372.5],
    cumulative: [110091.74, 146464.24],
  };
}

/** Steel from a plan of 1,200 t to 350.25 t consumed; sand planned only; one stage unreadable. */
export function sampleFunnel(): MaterialFunnelAnswer {
  return {
    projectId: null,
    rows: [
      {
        goodsId: '7',
        goodsName: '中砂',
        spec: null,
        unit: 'm3',
        planned: 50,
        monthlyDemand: 0,
        procured: 0,
        supplied: null,
        received: 0,
        consumed: 0,
      },
      {
        goodsId: '8',
        goodsName: '螺纹钢',
        spec: 'HRB400E Φ25',
        unit: 't',
        planned: 1200,
        monthlyDemand: 700,
        procured: 650,
        supplied: null,
        received: 598,
        consumed: 350.25,
      },
    ],
  };
}

/** Late settlements (3, two open: 2 days and 40 days old) and one open budget overrun, counted on 2026-11-24. */
export function sampleWarningStatistics(): WarningsAnswer {
  return {
    projectId: null,
    today: '2026-11-24',
    levels: ['critical', 'warning', 'info'],
    rows: [
      {
        warnType: 'late_settlement',
        warnTypeName: '结算不及时',
        total: 3,
        levels: { critical: 0, warning: 3, info: 0 },
        open: 2,
        unread: 1,
        ages: { upTo7: 1, upTo30: 0, over30: 1 },
      },
      {
        warnType: 'exceed_budget',
        warnTypeName: '超成本预算',
        total: 1,
        levels: { critical: 1, warning: 0, info: 0 },
        open: 1,
        unread: 1,
        ages: { upTo7: 0, upTo30: 1, over30: 0 },
      },
    ],
    total: {
      warnType: null,
      warnTypeName: null,
      total: 4,
      levels: { critical: 1, warning: 3, info: 0 },
      open: 3,
      unread: 2,
      ages: { upTo7: 1, upTo30: 1, over30: 1 },
    },
  };
}

/** October: 3 contracts should settle, 1 did; one zero settlement; settlements approved in 2.4 days on average. */
export function sampleTimeliness(month = '2026-10'): TimelinessAnswer {
  const contract = (code: string, name: string, type: string, typeName: string, lastSettledPeriod: string | null, settled: boolean) => ({
    contractId: code,
    code,
    name,
    projectId: '101',
    projectName: '江北人才公寓二期',
    expenditureContractType: type,
    expenditureContractTypeName: typeName,
    subcontractorName: '南京恒通建筑劳务有限公司',
    signDate: '2026-03-01',
    lastSettledPeriod,
    settled,
  });
  // the first settlement kind of the schema set, whichever it is
  const kind = entitiesWithRole(catalog(), STATISTICS_ROLES.settlement)[0];
  return {
    projectId: null,
    month,
    monthEnd: `${month}-31`,
    expected: 3,
    settled: 1,
    settleRate: 33.33,
    byType: [
      { expenditureContractType: 'labor', expenditureContractTypeName: '劳务分包', expected: 2, settled: 1 },
      { expenditureContractType: 'subcontract', expenditureContractTypeName: '专业分包', expected: 1, settled: 0 },
    ],
    missing: [
      contract('ZCHT-0003', '基坑支护分包', 'subcontract', '专业分包', null, false),
      contract('ZCHT-0002', '主体劳务分包', 'labor', '劳务分包', '2026-08', false),
    ],
    zero: [
      {
        entity: kind.key,
        entityName: kind.label.zh,
        id: '9',
        code: 'LWJS-0009',
        expenditureContractCode: 'ZCHT-0001',
        contractName: '装饰劳务分包',
        approvalStatus: 'approving',
        thisAmountInclTax: 0,
        thisPayableAmount: 0,
      },
    ],
    negative: [],
    durations: [{ entity: kind.key, entityName: kind.label.zh, count: 2, averageDays: 2.4, maxDays: 3.3 }],
  };
}

export interface FakeStatisticsOptions {
  statistics?: StatisticsAnswer;
  warnings?: { critical: number; warning: number; info: number };
  approvals?: { todo: number; claim: number };
  /** Refuse the statistics with this status and message (403: no permission). */
  fail?: { status: number; message: string };
  /** Never answer the statistics (a loading state). */
  pending?: boolean;
  /** The document types the user may read (menu/readable); every one by default. */
  readable?: string[];
}

export interface FakeStatisticsServer extends RendererHttp {
  calls: { url: string; params?: Params }[];
}

export function createFakeStatistics(options: FakeStatisticsOptions = {}): FakeStatisticsServer {
  const statistics = options.statistics ?? sampleStatistics();
  const warnings = options.warnings ?? { critical: 1, warning: 2, info: 0 };
  const approvals = options.approvals ?? { todo: 2, claim: 1 };
  const server: FakeStatisticsServer = {
    calls: [],
    async get<T>(url: string, params?: Params): Promise<T> {
      server.calls.push({ url, params });
      const urls = statisticsUrls();
      switch (url) {
        case urls.statistics: {
          if (options.pending) return new Promise<T>(() => undefined);
          if (options.fail)
            throw new ApiError(options.fail.status, options.fail.message, { code: options.fail.status, msg: options.fail.message });
          const id = params?.projectId ? String(params.projectId) : null;
          return {
            ...statistics,
            projectId: id,
            projects: id ? statistics.projects.filter((p) => p.projectId === id) : statistics.projects,
          } as T;
        }
        case urls.costTrend:
          return { ...sampleCostTrend(), projectId: params?.projectId ?? null } as T;
        case urls.materialFunnel:
          return { ...sampleFunnel(), projectId: params?.projectId ?? null } as T;
        case urls.warningStatistics:
          return { ...sampleWarningStatistics(), projectId: params?.projectId ?? null } as T;
        case urls.settlementTimeliness:
          return { ...sampleTimeliness(params?.month ? String(params.month) : undefined), projectId: params?.projectId ?? null } as T;
        case urls.warnings:
          return { total: warnings[String(params?.warnLevel) as keyof typeof warnings] ?? 0 } as T;
        case COUNTS_URL:
          return { todo: approvals.todo, claim: approvals.claim } as T;
        case READABLE_URL:
          return (options.readable ?? Object.keys(catalog().entities)) as T;
        case urls.projectList:
          return statistics.projects.map((p) => ({ id: p.projectId, name: p.projectName })) as T;
        default:
          throw new ApiError(404, `404 ${url}`, null);
      }
    },
    async post<T>(): Promise<T> {
      throw new ApiError(404, 'no writes here', null);
    },
    async blob(url: string, params?: Params) {
      server.calls.push({ url, params });
      if (url !== statisticsUrls().export) throw new ApiError(404, `404 ${url}`, null);
      return { blob: new Blob(['xlsx']), filename: '项目统计-全部项目.xlsx' };
    },
  };
  return server;
}
