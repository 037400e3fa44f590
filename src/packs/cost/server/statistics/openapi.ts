// The OpenAPI description of the project statistics: statisticsData and its export, and the
// dashboards' costTrend, materialFunnel, warningStatistics and settlementTimeliness
// (docs/business-rules.md#project-statistics, #dashboards).
import type { EntityCatalog, JsonSchema } from '../../../../engine/model/types.ts';
import { optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import { FUNNEL_STAGES } from '../../engine/statistics/dashboards.ts';
import { WARN_AGES } from '../../engine/statistics/panels.ts';
import { STATISTICS_COLUMNS } from '../../engine/statistics/statistics.ts';

const amount: JsonSchema = { type: ['number', 'string'], description: 'exact decimal: a number, or a string beyond 15 digits' };
const nullableAmount: JsonSchema = { type: ['number', 'string', 'null'] };
function columnSchema(kind: string, title: string): JsonSchema {
  if (kind === 'text') return { type: ['string', 'null'], description: title };
  if (kind === 'count') return { type: 'integer', description: title };
  return { ...nullableAmount, description: kind === 'rate' ? `${title}, % to 2 places; null without a base` : title };
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const dashboardSchemas: Record<string, JsonSchema> = {
  CostTrendAnswer: {
    type: 'object',
    description: 'Settled cost excl. tax of APPROVED settlements of APPROVED expense contracts, by settlement period and contract type',
    properties: {
      projectId: { type: ['string', 'null'] },
      months: { type: 'array', items: { type: 'string', description: 'yyyy-MM, oldest first' } },
      series: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            expenditureContractType: { type: 'string' },
            expenditureContractTypeName: { type: 'string' },
            amounts: { type: 'array', items: amount },
          },
        },
      },
      totals: { type: 'array', items: amount, description: 'every type, per month' },
      cumulative: { type: 'array', items: amount, description: 'running total at each month' },
    },
  },
  MaterialFunnelAnswer: {
    type: 'object',
    description:
      'Per goods: approved quantities from the newest total plan to consumption; a stage is null when the caller may not read its documents',
    properties: {
      projectId: { type: ['string', 'null'] },
      rows: {
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries([
            ['goodsId', { type: 'string' }],
            ['goodsName', { type: 'string' }],
            ['spec', { type: ['string', 'null'] }],
            ['unit', { type: ['string', 'null'] }],
            ...FUNNEL_STAGES.map((k) => [k, nullableAmount]),
          ]),
        },
      },
    },
  },
};

const count: JsonSchema = { type: 'integer' };
const warningRow: JsonSchema = {
  type: 'object',
  properties: {
    warnType: { type: ['string', 'null'], description: 'dictionary warn_type; null on the totals row' },
    warnTypeName: { type: ['string', 'null'] },
    total: count,
    levels: { type: 'object', additionalProperties: count, description: 'count by level (dictionary warn_level)' },
    open: { ...count, description: 'unread or read (not handled, not ignored)' },
    unread: count,
    ages: {
      type: 'object',
      properties: Object.fromEntries(WARN_AGES.map((a) => [a, count])),
      description: 'open ones by days since raised: ≤ 7, 8–30, > 30',
    },
  },
};
const flaggedSettlement: JsonSchema = {
  type: 'object',
  properties: Object.fromEntries([
    ...['entity', 'entityName', 'id', 'code', 'expenditureContractCode', 'contractName', 'approvalStatus'].map((k) => [
      k,
      { type: 'string' },
    ]),
    ['thisAmountInclTax', amount],
    ['thisPayableAmount', nullableAmount],
  ]),
};
const panelSchemas: Record<string, JsonSchema> = {
  WarningsAnswer: {
    type: 'object',
    description:
      "Warning records of the projects by type and level, with the open ones' ageing, within the caller's data scope on warnings",
    properties: {
      projectId: { type: ['string', 'null'] },
      today: { type: 'string', description: 'yyyy-MM-dd the ages count to' },
      levels: { type: 'array', items: { type: 'string' } },
      rows: { type: 'array', items: warningRow },
      total: warningRow,
    },
  },
  TimelinessAnswer: {
    type: 'object',
    description:
      "A month's settlement timeliness: APPROVED, performing main expense contracts signed and on site by the month end and not finally settled (expected) vs those with a settlement of the month approved or in approval (settled)",
    properties: {
      projectId: { type: ['string', 'null'] },
      month: { type: 'string' },
      monthEnd: { type: 'string' },
      expected: count,
      settled: count,
      settleRate: { ...nullableAmount, description: 'settled ÷ expected, % to 2 places' },
      byType: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            expenditureContractType: { type: 'string' },
            expenditureContractTypeName: { type: 'string' },
            expected: count,
            settled: count,
          },
        },
      },
      missing: {
        type: 'array',
        description: 'the expected contracts without a settlement of the month',
        items: {
          type: 'object',
          properties: Object.fromEntries([
            ...['contractId', 'code', 'name', 'projectId', 'projectName', 'expenditureContractType', 'expenditureContractTypeName'].map(
              (k) => [k, { type: 'string' }],
            ),
            ...['subcontractorName', 'signDate', 'lastSettledPeriod'].map((k) => [k, { type: ['string', 'null'] }]),
            ['settled', { type: 'boolean' }],
          ]),
        },
      },
      zero: { type: 'array', items: flaggedSettlement, description: 'settlements of the month of 0' },
      negative: { type: 'array', items: flaggedSettlement, description: 'settlements of the month below 0, or with a payable below 0' },
      durations: {
        type: 'array',
        description: "per settlement kind: days from submission to approval of the month's approved settlements, to 1 place",
        items: {
          type: 'object',
          properties: { entity: { type: 'string' }, entityName: { type: 'string' }, count, averageDays: amount, maxDays: amount },
        },
      },
    },
  },
};

export const statisticsSchemas: Record<string, JsonSchema> = {
  StatisticsRow: {
    type: 'object',
    description:
      'One expense-contract type (or the totals row, expenditureContractType null): sums over APPROVED contracts and their APPROVED settlements',
    properties: {
      expenditureContractType: { type: ['string', 'null'] },
      ...Object.fromEntries(STATISTICS_COLUMNS.map((c): [string, JsonSchema] => [c.key, columnSchema(c.kind, c.label.en)])),
    },
  },
  StatisticsAnswer: {
    type: 'object',
    properties: {
      projectId: { type: ['string', 'null'] },
      expenditureContractType: { type: ['string', 'null'] },
      rows: { type: 'array', items: ref('StatisticsRow') },
      total: ref('StatisticsRow'),
      income: {
        type: ['object', 'null'],
        description: 'approved income contracts; null when the caller may not read them',
        properties: Object.fromEntries(
          ['contractAmount', 'changeAmount', 'currentAmount', 'measuredAmount', 'measuredAmountExclTax', 'receivedAmount']
            .map((k) => [k, amount])
            .concat([['contractCount', { type: 'integer' }]]),
        ),
      },
      targetCost: nullableAmount,
      projects: {
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries([
            ['projectId', { type: 'string' }],
            ['projectName', { type: 'string' }],
            ...[
              'targetCost',
              'incomeAmount',
              'paidAmount',
              'costOverPlan',
              'costUsageRate',
              'measuredAmountExclTax',
              'grossProfit',
              'marginRate',
            ].map((k) => [k, nullableAmount]),
            ...['contractAmount', 'settledAmountInclTax', 'settledAmountExclTax', 'payableAmount'].map((k) => [k, amount]),
          ]),
        },
      },
    },
  },
  ...dashboardSchemas,
  ...panelSchemas,
};

export function statisticsPaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  const projectModel = optionalEntityWithRole(catalog, STATISTICS_ROLES.projects);
  if (!projectModel) return {};
  const { api } = projectModel;
  const parameters = [
    { name: 'projectId', in: 'query', schema: { type: 'string' }, description: 'one project; without it every project the caller may see' },
    {
      name: 'expenditureContractType',
      in: 'query',
      schema: { type: 'string' },
      description: 'one contract type (dictionary expenditure_contract_type); without it every type',
    },
  ];
  const tags = [projectModel.key];
  const envelopeOf = (schema: string) => ({
    type: 'object',
    properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data: ref(schema), msg: { type: 'string' } },
  });
  const envelope = envelopeOf('StatisticsAnswer');
  const oneProject = parameters.slice(0, 1);
  const refusals = {
    '400': { description: 'A malformed project id or an unknown contract type' },
    '401': { description: 'No valid token' },
    '403': { description: 'No view permission on projects or expense contracts' },
    '404': { description: 'The project is not one the caller may see' },
  };
  return {
    [`${api}/statisticsData`]: {
      get: {
        tags,
        summary:
          'Project statistics by expense-contract type with a totals row, income contracts and a line per project (approved documents only)',
        parameters,
        responses: { '200': { description: 'OK', content: { 'application/json': { schema: envelope } } }, ...refusals },
      },
    },
    [`${api}/costTrend`]: {
      get: {
        tags,
        summary: 'Monthly settled cost (excl. tax) by expense-contract type, with totals and the running total (approved documents only)',
        parameters: oneProject,
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: envelopeOf('CostTrendAnswer') } } },
          ...refusals,
        },
      },
    },
    [`${api}/materialFunnel`]: {
      get: {
        tags,
        summary:
          'Material funnel per goods: total plan, monthly demand, procured, supplied, received, consumed (approved documents and the material ledger)',
        parameters: oneProject,
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: envelopeOf('MaterialFunnelAnswer') } } },
          ...refusals,
        },
      },
    },
    [`${api}/warningStatistics`]: {
      get: {
        tags,
        summary: 'Warnings by type and level, open (unread or read) ones and their ageing (≤ 7, 8–30, > 30 days)',
        parameters: oneProject,
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: envelopeOf('WarningsAnswer') } } },
          ...refusals,
          '403': { description: 'No view permission on projects or warnings' },
        },
      },
    },
    [`${api}/settlementTimeliness`]: {
      get: {
        tags,
        summary:
          "A month's settlement timeliness: contracts that should have settled vs did, the ones that did not, zero / negative settlements, approval durations",
        parameters: [
          ...oneProject,
          {
            name: 'month',
            in: 'query',
            schema: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
            description: 'yyyy-MM; without it the last complete month',
          },
        ],
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: envelopeOf('TimelinessAnswer') } } },
          ...refusals,
          '400': { description: 'A malformed project id or month' },
        },
      },
    },
    [`${api}/statisticsDataExport`]: {
      get: {
        tags,
        summary: 'The same statistics as an .xlsx (sheets by contract type and by project)',
        parameters,
        responses: {
          '200': {
            description: 'The workbook',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
            },
          },
          ...refusals,
        },
      },
    },
  };
}
