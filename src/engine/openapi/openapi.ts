// An OpenAPI 3.1 description of the generic API, derived from the same models as everything else,
// so that any HTTP client can be generated from it.
import type { EntityCatalog, EntityModel, FieldModel, JsonSchema } from '../model/types.ts';

/** A property's JSON Schema for clients: the standard keywords, no x- annotations. */
export function publicSchema(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema)) return schema.map(publicSchema) as unknown as JsonSchema;
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-') || k === '$schema' || k === '$id' || k === '$ref') continue;
    out[k] = typeof v === 'object' ? publicSchema(v) : v;
  }
  return out;
}

function fieldSchema(f: FieldModel): JsonSchema {
  const s = publicSchema(f.schema);
  if (f.kind === 'id') s.description = s.description ?? 'id (a 64-bit integer as a string)';
  if (f.kind === 'decimal' && f.scale !== undefined)
    s.description = `${s.description ? s.description + '; ' : ''}decimal, ${f.scale} places`;
  if (f.label.en) s.title = `${f.label.zh} / ${f.label.en}`;
  return s;
}

function objectSchema(fields: readonly FieldModel[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) properties[f.name] = fieldSchema(f);
  return { type: 'object', properties: { ...properties, ...extra }, required: fields.filter((f) => f.required).map((f) => f.name) };
}

function recordSchema(model: EntityModel): JsonSchema {
  const details: Record<string, JsonSchema> = {};
  for (const d of model.details) details[d.name] = { type: 'array', title: `${d.label.zh} / ${d.label.en}`, items: objectSchema(d.fields) };
  // list and detail answers of a document with a workflow say whether the caller may recall it now
  const answered: Record<string, JsonSchema> = model.workflow
    ? { canRecall: { type: 'boolean', readOnly: true, description: 'the caller submitted it and nobody has acted on it yet' } }
    : {};
  return objectSchema(model.fields, { ...details, ...answered });
}

const envelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['code', 'success', 'data', 'msg'],
  properties: { code: { type: 'integer' }, success: { type: 'boolean' }, data, msg: { type: 'string' } },
});

const page = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    records: { type: 'array', items: item },
    total: { type: 'integer' },
    size: { type: 'integer' },
    current: { type: 'integer' },
    pages: { type: 'integer' },
  },
});

function json(schema: JsonSchema) {
  return { 'application/json': { schema } };
}

function entityPaths(model: EntityModel): Record<string, JsonSchema> {
  const ref = { $ref: `#/components/schemas/${model.key}` };
  const tag = [model.key];
  const answer = (data: JsonSchema) => ({
    '200': { description: 'OK', content: json(envelope(data)) },
    '400': { description: 'Bad input', content: json(envelope({})) },
    '401': { description: 'No valid token' },
  });
  const listParams = [
    { name: 'current', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
    { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: model.list.pageSize } },
    { name: 'ascs', in: 'query', schema: { type: 'string' }, description: 'comma-separated fields' },
    { name: 'descs', in: 'query', schema: { type: 'string' }, description: 'comma-separated fields' },
    ...model.fields
      .filter((f) => f.kind !== 'json' && f.name !== 'tenantId' && f.name !== 'isDeleted')
      .map((f) => ({
        name: f.name,
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: `${f.label.en}. Suffixes: _equal _notequal _in (comma-joined values) _like _likeleft _likeright _notlike _ge _le _gt _lt _datege _dategt _dateequal _datelt _datele _null _notnull`,
      })),
  ];
  const write = (summary: string) => ({ tags: tag, summary, requestBody: { required: true, content: json(ref) }, responses: answer(ref) });
  const paths: Record<string, JsonSchema> = {
    [`${model.api}/list`]: {
      get:
        model.tree?.list === 'forest'
          ? {
              tags: tag,
              summary: `The ${model.label.en} records found, as a forest (children, hasChildren, parentName; unpaged)`,
              parameters: listParams.slice(4),
              responses: answer({ type: 'array', items: ref }),
            }
          : { tags: tag, summary: `List ${model.label.en}`, parameters: listParams, responses: answer(page(ref)) },
    },
    [`${model.api}/detail`]: {
      get: {
        tags: tag,
        summary: `One ${model.label.en} with its rows`,
        parameters: [
          { name: 'id', in: 'query', schema: { type: 'string' } },
          ...model.lookupKeys.map((k) => ({ name: k, in: 'query', schema: { type: 'string' } })),
        ],
        responses: answer(ref),
      },
    },
    [`${model.api}/options`]: {
      get: {
        tags: tag,
        summary: 'Choices for pickers and labels: {value, label} by ids, or by a keyword in the title, paged',
        parameters: [
          { name: 'ids', in: 'query', schema: { type: 'string' } },
          { name: 'keyword', in: 'query', schema: { type: 'string' } },
          ...listParams.slice(0, 2),
        ],
        responses: answer(page({ type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' } } })),
      },
    },
    [`${model.api}/save`]: { post: write(`Create a ${model.label.en}`) },
    [`${model.api}/update`]: { post: write(`Replace a ${model.label.en} (body.id)`) },
    [`${model.api}/submit`]: { post: write(`Create, or replace when body.id is given`) },
    [`${model.api}/updatePart`]: { post: write('Change only the fields sent (body.id)') },
    [`${model.api}/remove`]: {
      post: {
        tags: tag,
        summary: `Remove ${model.label.en} records`,
        parameters: [{ name: 'ids', in: 'query', required: true, schema: { type: 'string' }, description: 'comma-separated ids' }],
        responses: answer({}),
      },
    },
    [`${model.api}/export`]: {
      get: {
        tags: tag,
        summary: 'Excel export of one record (id) or of the filtered list',
        parameters: [{ name: 'id', in: 'query', schema: { type: 'string' } }, ...listParams.slice(2)],
        responses: {
          '200': {
            description: 'xlsx',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', format: 'binary' } },
            },
          },
        },
      },
    },
  };
  // records the server alone writes (x-entity.readOnly) have no write calls
  if (model.readOnly) for (const action of ['save', 'update', 'submit', 'updatePart', 'remove']) delete paths[`${model.api}/${action}`];
  if (model.tree) {
    const node = { $ref: '#/components/schemas/TreeNode' };
    const parent = [{ name: model.tree.lazyParam, in: 'query', schema: { type: 'string', default: model.tree.root } }];
    paths[`${model.api}/tree`] = { get: { tags: tag, summary: 'The whole tree', responses: answer({ type: 'array', items: node }) } };
    paths[`${model.api}/lazy-list`] = {
      get: { tags: tag, summary: 'One level, with hasChildren', parameters: parent, responses: answer({ type: 'array', items: ref }) },
    };
    paths[`${model.api}/lazy-tree`] = {
      get: { tags: tag, summary: 'One level as tree nodes', parameters: parent, responses: answer({ type: 'array', items: node }) },
    };
  }
  // x-entity.routes: the platform's extra paths, each described as the call it answers like
  for (const [path, action] of Object.entries(model.routes)) {
    paths[`${model.api}/${path}`] =
      action === 'all'
        ? {
            get: {
              tags: tag,
              summary: `Every live ${model.label.en} of the tenant${model.activeIf ? ' (enabled only)' : ''}, unpaged, in list order (at most 5,000)`,
              parameters: listParams.slice(4),
              responses: answer({ type: 'array', items: ref }),
            },
          }
        : Object.fromEntries(
            Object.entries(paths[`${model.api}/${action}`]).map(([method, op]) => [
              method,
              { ...op, summary: `${op.summary} (same as ${action})` },
            ]),
          );
  }
  return paths;
}

/** A server module's part of the document: its paths, and the schemas they refer to. */
export interface OpenApiFragment {
  paths?: Record<string, JsonSchema>;
  schemas?: Record<string, JsonSchema>;
}

/**
 * The document of the generic routes of every entity, with the modules' fragments in their order (a
 * fragment's path that is also a generic one replaces its description in place).
 */
export function openApiDocument(
  catalog: EntityCatalog,
  info: { title: string; version: string },
  fragments: readonly OpenApiFragment[] = [],
): JsonSchema {
  const models = Object.values(catalog.entities);
  return {
    openapi: '3.1.0',
    info: { ...info, description: 'Responses use the envelope {code, success, data, msg}; ids are strings.' },
    components: {
      securitySchemes: { bladeAuth: { type: 'apiKey', in: 'header', name: 'Blade-Auth', description: 'bearer <access token>' } },
      schemas: {
        ...Object.fromEntries(models.map((m) => [m.key, { title: `${m.label.zh} / ${m.label.en}`, ...recordSchema(m) }])),
        ...Object.assign({}, ...fragments.map((f) => f.schemas ?? {})),
        TreeNode: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            parentId: { type: 'string' },
            title: { type: 'string' },
            key: { type: 'string' },
            value: { type: 'string' },
            hasChildren: { type: 'boolean' },
            children: { type: 'array', items: { $ref: '#/components/schemas/TreeNode' } },
          },
        },
      },
    },
    security: [{ bladeAuth: [] }],
    paths: Object.assign({}, ...models.map(entityPaths), ...fragments.map((f) => f.paths ?? {})),
  };
}
