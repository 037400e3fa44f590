// A data model and its fields → one schema file of our dialect and its manifest entry. Pure: the
// caller checks the result with the engine's compile() (dialect meta-schemas and the linter) on the
// installation's schema set plus this file.
import type { EntityCatalog, JsonSchema } from '../../../engine/model/types.ts';

export interface ModelRow {
  modelName: string;
  modelNameEn: string;
  modelCode: string;
  modelTable: string;
}

export interface PrototypeRow {
  jdbcName: string;
  propertyName: string;
  comment: string;
  commentEn: string;
  fieldType: string;
  maxLength?: number | null;
  isRequired?: boolean | null;
  dictCode?: string | null;
  dictSource?: string | null;
  refEntity?: string | null;
  isList?: boolean | null;
  isQuery?: boolean | null;
  isForm?: boolean | null;
}

export interface CodeRow {
  folder: string;
  apiPath: string;
  menuParent: string;
}

export interface GeneratedSchema {
  key: string;
  /** Path of the schema file from the project root: schemas/<folder>/<kebab key>.schema.json */
  file: string;
  schema: JsonSchema;
}

const TYPES = '../common/types.schema.json#/$defs';

export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function typeOf(p: PrototypeRow, catalog: EntityCatalog): JsonSchema {
  switch (p.fieldType) {
    case 'text':
      return { type: 'string', maxLength: p.maxLength ?? 4000, 'x-ui': { widget: 'textarea' }, 'x-db': { type: 'text' } };
    case 'integer':
      return { type: 'integer' };
    case 'number':
      return { $ref: `${TYPES}/quantity` };
    case 'money':
      return { $ref: `${TYPES}/money` };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'datetime' };
    case 'boolean':
      return { type: 'boolean', default: false, 'x-ui': { widget: 'switch' }, 'x-display': { type: 'boolean' } };
    case 'id': {
      const target = p.refEntity ? catalog.entities[p.refEntity] : undefined;
      return { $ref: `${TYPES}/id`, 'x-ref': { entity: p.refEntity ?? '', labelField: target?.titleField ?? 'id' } };
    }
    default:
      return { type: 'string', maxLength: p.maxLength ?? 255 };
  }
}

function propertyOf(p: PrototypeRow, catalog: EntityCatalog): JsonSchema {
  const property: JsonSchema = { ...typeOf(p, catalog), title: p.comment, 'x-i18n': { title: p.commentEn } };
  if (p.dictCode && (p.fieldType === 'string' || !p.fieldType))
    property['x-dict'] = { code: p.dictCode, source: p.dictSource === 'system' ? 'system' : 'biz' };
  if (p.jdbcName !== snake(p.propertyName)) property['x-db'] = { ...(property['x-db'] ?? {}), column: p.jdbcName };
  if (p.isForm === false) property['x-ui'] = { ...(property['x-ui'] ?? {}), hidden: ['create', 'edit'] };
  return property;
}

function searchOperator(p: PrototypeRow): string {
  if (p.fieldType === 'date' || p.fieldType === 'datetime') return 'dateRange';
  return p.fieldType === 'string' && !p.dictCode ? 'like' : 'equal';
}

export function generateSchema(model: ModelRow, prototypes: PrototypeRow[], code: CodeRow, catalog: EntityCatalog): GeneratedSchema {
  const key = model.modelCode;
  const title = prototypes.find((p) => p.fieldType === 'string' && !p.dictCode) ?? prototypes[0];
  const listed = prototypes.filter((p) => p.isList !== false).map((p) => p.propertyName);
  const schema: JsonSchema = {
    $schema: 'https://zhusuan.dev/schemas/meta/dialect.schema.json',
    title: model.modelName,
    'x-i18n': { title: model.modelNameEn },
    type: 'object',
    'x-entity': {
      key,
      table: model.modelTable,
      api: code.apiPath,
      scope: 'tenant',
      titleField: title.propertyName,
      icon: 'file-text',
      menu: { parent: code.menuParent, code: snake(key), path: `/${code.folder}/${kebab(key)}`, sort: 1 },
    },
    'x-list': {
      columns: [...listed, 'createTime'],
      defaultSort: [{ field: 'createTime', order: 'desc' }],
      rowActions: ['view', 'edit', 'delete'],
      batchActions: ['delete', 'export'],
    },
    ...(prototypes.some((p) => p.isQuery)
      ? { 'x-search': { fields: prototypes.filter((p) => p.isQuery).map((p) => ({ field: p.propertyName, operator: searchOperator(p) })) } }
      : {}),
    required: prototypes.filter((p) => p.isRequired).map((p) => p.propertyName),
    properties: Object.fromEntries(prototypes.map((p) => [p.propertyName, propertyOf(p, catalog)])),
  };
  return { key, file: `schemas/${code.folder}/${kebab(key)}.schema.json`, schema };
}
