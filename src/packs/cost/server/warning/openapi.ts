// The OpenAPI description of GET <api>/earlyWarningAuxiliaryData and <api>/earlyWarningPreview
// (docs/business-rules.md#early-warnings).
import type { EntityCatalog, EntityModel, JsonSchema } from '../../../../engine/model/types.ts';
import { AUXILIARY_PARAMS, auxiliaryKind, hasPreview, type AuxiliaryKind } from '../../engine/warnings/auxiliary.ts';

const amount: JsonSchema = {
  type: ['number', 'string', 'null'],
  description: 'exact decimal: a number, or a string beyond 15 digits; null when there is no base',
};
const numbers = (...names: string[]) => Object.fromEntries(names.map((n) => [n, amount]));

const thresholds: JsonSchema = {
  type: 'object',
  description: "the tenant's parameters warn.*",
  properties: {
    hardControl: { type: 'boolean' },
    ...Object.fromEntries(
      ['demandCriticalPercent', 'priceTolerancePercent', 'supplementaryPercent', 'nearContractPercent', 'settlementSpanMonths'].map((n) => [
        n,
        { type: 'number' },
      ]),
    ),
  },
};

const ANSWERS: Record<AuxiliaryKind, JsonSchema> = {
  demand: {
    type: 'object',
    properties: {
      planned: { type: 'boolean', description: 'the goods has a line in the total demand plan' },
      ...numbers(
        'totalDemandQty',
        'changeQty',
        'effectiveQty',
        'cumulativeMonthlyDemandQty',
        'cumulativeProcureQty',
        'cumulativeSupplyQty',
        'cumulativeReceivedQty',
        'cumulativeConsumedQty',
        'stockQty',
        'remainingQty',
        'usedRatio',
      ),
      thresholds,
    },
  },
  contract: {
    type: 'object',
    properties: {
      ...numbers(
        'contractAmount',
        'currentAmount',
        'projectBudgetForType',
        'otherContractsAmountForType',
        'budgetUsedRatio',
        'originalContractAmount',
        'supplementaryAmount',
        'supplementaryRatio',
        'cumulativeSettledAmount',
        'cumulativePayableAmount',
        'remainingAmount',
      ),
      originalContractCode: { type: 'string' },
      thresholds,
    },
  },
  settlement: {
    type: 'object',
    properties: {
      ...numbers('currentContractAmount', 'previousCumulativeAmount', 'cumulativeRatioBeforeThis', 'retentionRate', 'paymentRatio'),
      contractEndDate: { type: ['string', 'null'] },
      lastApprovedPeriod: { type: ['string', 'null'] },
      approvingExists: { type: 'boolean' },
      lastThreePeriodAmounts: { type: 'array', items: { type: 'object', properties: { period: { type: 'string' }, amount } } },
      thresholds,
    },
  },
};

const preview: JsonSchema = {
  type: 'object',
  properties: {
    warnings: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          warnType: { type: 'string', description: 'dictionary warn_type' },
          typeName: { type: 'string', description: "the rule's name in the caller's language" },
          warnLevel: { type: 'string', enum: ['info', 'warning', 'critical'] },
          message: { type: 'string', description: "in the caller's language" },
          actualValue: { ...amount, description: 'the figure the rule measured' },
          thresholdValue: { ...amount, description: 'the figure it was measured against' },
          sourceDetailId: { type: ['string', 'null'], description: 'the saved line the warning is about' },
          goodsId: { type: ['string', 'null'] },
        },
      },
    },
    hardControl: { type: 'boolean', description: 'on: a critical warning refuses the submission' },
  },
};

const answered = (schema: JsonSchema) => ({
  '200': {
    description: 'OK',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data: schema, msg: { type: 'string' } },
        },
      },
    },
  },
});

/** The warnings a document would raise, for a stored one (GET ?id=) and for one as a form holds it (POST). */
function previewPath(model: EntityModel): JsonSchema {
  const refused = {
    '401': { description: 'No valid token' },
    '403': { description: `No view permission on ${model.label.en}` },
    '404': { description: "No such document in the caller's tenant" },
  };
  return {
    get: {
      tags: [model.key],
      summary: `${model.label.en}: the warnings a stored document raises now (what submitting it would record)`,
      parameters: [{ name: 'id', in: 'query', required: true, schema: { type: 'string' } }],
      responses: { ...answered(preview), '400': { description: 'A missing or malformed id' }, ...refused },
    },
    post: {
      tags: [model.key],
      summary: `${model.label.en}: the warnings a document would raise if saved as sent (nothing is written)`,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', description: 'the document as a form holds it (header fields and lines), with its id when editing' },
          },
        },
      },
      responses: { ...answered(preview), '400': { description: 'The body is not a JSON object' }, ...refused },
    },
  };
}

export function warningPaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  const paths: Record<string, JsonSchema> = {};
  for (const model of Object.values(catalog.entities)) {
    if (hasPreview(model, catalog.entities)) paths[`${model.api}/earlyWarningPreview`] = previewPath(model);
    const kind = auxiliaryKind(model);
    if (!kind) continue;
    const parameters = AUXILIARY_PARAMS[kind].map((p) => ({
      name: p.name,
      in: 'query',
      required: p.required,
      schema: { type: 'string' },
      description: p.description,
    }));
    const envelope = {
      type: 'object',
      properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data: ANSWERS[kind], msg: { type: 'string' } },
    };
    paths[`${model.api}/earlyWarningAuxiliaryData`] = {
      get: {
        tags: [model.key],
        summary: `${model.label.en}: the figures its early warnings are computed from, in the caller's tenant`,
        parameters,
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: envelope } } },
          '400': { description: 'A missing or malformed parameter' },
          '401': { description: 'No valid token' },
          '403': { description: `No view permission on ${model.label.en}` },
          ...(kind === 'contract' ? { '404': { description: "No such contract in the caller's tenant" } } : {}),
        },
      },
    };
  }
  return paths;
}
