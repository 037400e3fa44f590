// The OpenAPI description of the project statistics (domain.md §6): statisticsData and its export,
// and the dashboards' costTrend and materialFunnel (domain.md §7).
import type { EntityCatalog, JsonSchema } from '../model/types.ts';
import { optionalEntityWithRole } from '../model/roles.ts';
import { STATISTICS_ROLES } from '../statistics/roles.ts';
import { FUNNEL_STAGES } from '../statistics/dashboards.ts';
import { STATISTICS_COLUMNS } from '../statistics/statistics.ts';

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
      series: { type: 'array', items: { type: 'object', properties: { expenditureContractType: { type: 'string' }, expenditureContractTypeName: { type: 'string' }, amounts: { type: 'array', items: amount } } } },
      totals: { type: 'array', items: amount, description: 'every type, per month' },
      cumulative: { type: 'array', items: amount, description: 'running total at each month' },
    },
  },
  MaterialFunnelAnswer: {
    type: 'object',
    description: 'Per goods: approved quantities from the newest total plan to consumption; a stage is null when the caller may not read its documents',
    properties: {
      projectId: { type: ['string', 'null'] },
      rows: {
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries([
            ['goodsId', { type: 'string' }], ['goodsName', { type: 'string' }], ['spec', { type: ['string', 'null'] }], ['unit', { type: ['string', 'null'] }],
            ...FUNNEL_STAGES.map((k) => [k, nullableAmount]),
          ]),
        },
      },
    },
  },
};

export const statisticsSchemas: Record<string, JsonSchema> = {
  StatisticsRow: {
    type: 'object',
    description: 'One expense-contract type (or the totals row, expenditureContractType null): sums over APPROVED contracts and their APPROVED settlements',
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
        type: ['object', 'null'], description: 'approved income contracts; null when the caller may not read them',
        properties: Object.fromEntries(['contractAmount', 'changeAmount', 'currentAmount', 'measuredAmount', 'measuredAmountExclTax', 'receivedAmount'].map((k) => [k, amount]).concat([['contractCount', { type: 'integer' }]])),
      },
      targetCost: nullableAmount,
      projects: {
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries([
            ['projectId', { type: 'string' }], ['projectName', { type: 'string' }],
            ...['targetCost', 'incomeAmount', 'paidAmount', 'costOverPlan', 'costUsageRate', 'measuredAmountExclTax', 'grossProfit', 'marginRate'].map((k) => [k, nullableAmount]),
            ...['contractAmount', 'settledAmountInclTax', 'settledAmountExclTax', 'payableAmount'].map((k) => [k, amount]),
          ]),
        },
      },
    },
  },
  ...dashboardSchemas,
};


export function statisticsPaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  const projectModel = optionalEntityWithRole(catalog, STATISTICS_ROLES.projects);
  if (!projectModel) return {};
  const { api } = projectModel;
  const parameters = [
    { name: 'projectId', in: 'query', schema: { type: 'string' }, description: 'one project; without it every project the caller may see' },
    { name: 'expenditureContractType', in: 'query', schema: { type: 'string' }, description: 'one contract type (dictionary expenditure_contract_type); without it every type' },
  ];
  const tags = [projectModel.key];
  const envelopeOf = (schema: string) => ({ type: 'object', properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data: ref(schema), msg: { type: 'string' } } });
  const envelope = envelopeOf('StatisticsAnswer');
  const oneProject = parameters.slice(0, 1);
  const refusals = { '400': { description: 'A malformed project id or an unknown contract type' }, '401': { description: 'No valid token' }, '403': { description: 'No view permission on projects or expense contracts' }, '404': { description: 'The project is not one the caller may see' } };
  return {
    [`${api}/statisticsData`]: { get: { tags, summary: 'Project statistics by expense-contract type with a totals row, income contracts and a line per project (approved documents only)', parameters, responses: { '200': { description: 'OK', content: { 'application/json': { schema: envelope } } }, ...refusals } } },
    [`${api}/costTrend`]: { get: { tags, summary: 'Monthly settled cost (excl. tax) by expense-contract type, with totals and the running total (approved documents only)', parameters: oneProject, responses: { '200': { description: 'OK', content: { 'application/json': { schema: envelopeOf('CostTrendAnswer') } } }, ...refusals } } },
    [`${api}/materialFunnel`]: { get: { tags, summary: 'Material funnel per goods: total plan, monthly demand, procured, supplied, received, consumed (approved documents and the material ledger)', parameters: oneProject, responses: { '200': { description: 'OK', content: { 'application/json': { schema: envelopeOf('MaterialFunnelAnswer') } } }, ...refusals } } },
    [`${api}/statisticsDataExport`]: { get: { tags, summary: 'The same statistics as an .xlsx (sheets by contract type and by project)', parameters, responses: { '200': { description: 'The workbook', content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } } } }, ...refusals } } },
  };
}
