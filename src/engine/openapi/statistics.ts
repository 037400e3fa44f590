// The OpenAPI description of the project statistics (domain.md §6): statisticsData and its export.
import type { EntityCatalog, JsonSchema } from '../model/types.ts';
import { STATISTICS_COLUMNS } from '../statistics/statistics.ts';

const amount: JsonSchema = { type: ['number', 'string'], description: 'exact decimal: a number, or a string beyond 15 digits' };
const nullableAmount: JsonSchema = { type: ['number', 'string', 'null'] };
function columnSchema(kind: string, title: string): JsonSchema {
  if (kind === 'text') return { type: ['string', 'null'], description: title };
  if (kind === 'count') return { type: 'integer', description: title };
  return { ...nullableAmount, description: kind === 'rate' ? `${title}, % to 2 places; null without a base` : title };
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

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
        properties: Object.fromEntries(['contractAmount', 'changeAmount', 'currentAmount', 'measuredAmount', 'receivedAmount'].map((k) => [k, amount]).concat([['contractCount', { type: 'integer' }]])),
      },
      targetCost: nullableAmount,
      projects: {
        type: 'array',
        items: {
          type: 'object',
          properties: Object.fromEntries([
            ['projectId', { type: 'string' }], ['projectName', { type: 'string' }],
            ...['targetCost', 'incomeAmount', 'paidAmount', 'costOverPlan', 'costUsageRate'].map((k) => [k, nullableAmount]),
            ...['contractAmount', 'settledAmountInclTax', 'settledAmountExclTax', 'payableAmount'].map((k) => [k, amount]),
          ]),
        },
      },
    },
  },
};

export function statisticsPaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  const api = catalog.entities.project?.api;
  if (!api) return {};
  const parameters = [
    { name: 'projectId', in: 'query', schema: { type: 'string' }, description: 'one project; without it every project the caller may see' },
    { name: 'expenditureContractType', in: 'query', schema: { type: 'string' }, description: 'one contract type (dictionary expenditure_contract_type); without it every type' },
  ];
  const tags = ['project'];
  const envelope = { type: 'object', properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data: ref('StatisticsAnswer'), msg: { type: 'string' } } };
  const refusals = { '400': { description: 'A malformed project id or an unknown contract type' }, '401': { description: 'No valid token' }, '403': { description: 'No view permission on projects or expense contracts' }, '404': { description: 'The project is not one the caller may see' } };
  return {
    [`${api}/statisticsData`]: { get: { tags, summary: 'Project statistics by expense-contract type with a totals row, income contracts and a line per project (approved documents only)', parameters, responses: { '200': { description: 'OK', content: { 'application/json': { schema: envelope } } }, ...refusals } } },
    [`${api}/statisticsDataExport`]: { get: { tags, summary: 'The same statistics as an .xlsx (sheets by contract type and by project)', parameters, responses: { '200': { description: 'The workbook', content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } } } }, ...refusals } } },
  };
}
