// The OpenAPI description of GET <api>/cumulative on every document with x-cumulative (R-CUM-4):
// its parameters follow the document's keys, its answer the CumulativeAnswer of the engine.
import type { EntityCatalog, EntityModel, JsonSchema } from '../../../../engine/model/types.ts';
import { cumulativeOf } from '../../engine/cumulative/model.ts';

const amount: JsonSchema = { type: ['number', 'string'], description: 'exact decimal: a number, or a string beyond 15 digits' };
const amounts: JsonSchema = { type: 'object', additionalProperties: amount };
const strings: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const cumulativeSchemas: Record<string, JsonSchema> = {
  CumulativeLine: {
    type: 'object',
    description: "One line of a group: a contract line (in the contract's order) or a line settled that is not on the contract",
    properties: {
      key: { ...strings, description: "the values of lines.match, by this document's row field" },
      previous: { ...amounts, description: 'row field → its sum over the approved documents before the period' },
      contract: { type: 'object', description: "the contract line's snapshot fields" },
      contractQty: amount,
      remainingQty: { ...amount, description: 'contract quantity less what was settled before the period' },
    },
  },
  CumulativeAnswer: {
    type: 'object',
    description: 'What was approved in a group before a period (R-CUM-4); drafts, rejected and in-approval documents never count',
    properties: {
      keys: { ...strings, description: 'the group asked for' },
      period: { type: ['string', 'null'], description: 'yyyy-MM: previous values count the approved documents of earlier periods' },
      lastApprovedPeriod: { type: ['string', 'null'] },
      approving: {
        type: ['object', 'null'],
        properties: { id: { type: 'string' }, code: { type: ['string', 'null'] } },
        description: "the group's document in approval",
      },
      contract: { type: ['object', 'null'], description: "the referenced contract's snapshot fields" },
      header: { ...amounts, description: 'header field → its previous cumulative' },
      totals: { ...amounts, description: 'further sums of the approved documents before the period' },
      lines: { type: 'array', items: ref('CumulativeLine') },
    },
  },
};

function cumulativePath(model: EntityModel): JsonSchema {
  const spec = cumulativeOf(model)!;
  const parameters = [
    ...spec.keys.map((key) => ({
      name: key,
      in: 'query',
      required: spec.queryKeys.includes(key),
      schema: { type: 'string' },
      description: `${model.fieldMap[key].label.en}${spec.queryKeys.includes(key) ? '' : ' (narrows the answer)'}`,
    })),
    ...(spec.period
      ? [
          {
            name: 'period',
            in: 'query',
            required: false,
            schema: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
            description: 'yyyy-MM; default: the month after the last approved one',
          },
        ]
      : []),
    {
      name: 'excludeId',
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description: 'a document not to count (the one being edited)',
    },
  ];
  const envelope = {
    type: 'object',
    properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data: ref('CumulativeAnswer'), msg: { type: 'string' } },
  };
  return {
    get: {
      tags: [model.key],
      summary: 'Cumulatives (开累) of a group: what was approved before a period, by header and by line, with the contract',
      parameters,
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: envelope } } },
        '400': { description: 'A missing key, a malformed id or period' },
        '401': { description: 'No valid token' },
        '403': { description: 'No view permission on the document type' },
      },
    },
  };
}

export function cumulativePaths(catalog: EntityCatalog): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.values(catalog.entities)
      .filter((m) => cumulativeOf(m))
      .map((m) => [`${m.api}/cumulative`, cumulativePath(m)]),
  );
}
