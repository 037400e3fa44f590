// The detail rows of every document as a read-only resource of their own: the platform's API has
// `laborMonthlySettlementDetail`, `materialTotalDemandDetail`, … beside their documents. Each is
// derived from its document's schema, as an x-entity.rowsOf entity would be declared by hand
// (the expense contract's lines are): the rows joined to their live document, filterable by the
// document's search fields, read with the document's grants and data scopes, never written.
import type { DetailModel, EntityModel, FieldModel } from './types.ts';
import type { SchemaIssue } from './source.ts';

/**
 * The key of a detail's rows entity: `<document>Detail` for the usual `details` array (the
 * platform's naming), `<document><Name>` for any other (project.costBudgets: projectCostBudgets).
 */
export function detailRowsKey(document: string, detail: string): string {
  return detail === 'details' ? `${document}Detail` : `${document}${detail[0].toUpperCase()}${detail.slice(1)}`;
}

/**
 * Adds a rows entity for each detail of each document that no declared x-entity.rowsOf entity
 * already answers for. A derived key a manifest entity already uses is reported, not replaced.
 */
export function deriveDetailRows(entities: Record<string, EntityModel>, issues: SchemaIssue[]) {
  const declared = new Set(Object.values(entities).flatMap((m) => (m.rowsOf ? [`${m.rowsOf.entity}.${m.rowsOf.detail}`] : [])));
  for (const document of Object.values(entities)) {
    if (document.rowsOf) continue;
    for (const detail of document.details) {
      if (declared.has(`${document.key}.${detail.name}`)) continue;
      const key = detailRowsKey(document.key, detail.name);
      if (entities[key]) {
        issues.push({
          file: document.file,
          pointer: `/properties/${detail.name}`,
          message: `the rows of ${document.key}.${detail.name} are answered as "${key}", which another entity already is; declare that entity with x-entity.rowsOf { "entity": "${document.key}", "detail": "${detail.name}" } or rename it`,
        });
        continue;
      }
      entities[key] = rowsEntity(key, document, detail);
    }
  }
}

/**
 * The document's fields a row carries, under their own names: what the document's list is searched
 * by, its code and title, its approval status. A name or column a row field already has stays the row's.
 */
function parentFieldsOf(document: EntityModel, detail: DetailModel): FieldModel[] {
  const wanted = new Set([
    ...(document.code ? [document.code.field] : []),
    ...(document.titleField ? [document.titleField] : []),
    ...document.search.map((s) => s.field),
    ...(document.workflow ? [document.workflow.statusField] : []),
  ]);
  const rowColumns = new Set(detail.columns.map((f) => f.column));
  return document.columns.filter(
    (f) =>
      wanted.has(f.name) && f.name !== 'id' && f.kind !== 'json' && !f.link && !(f.name in detail.fieldMap) && !rowColumns.has(f.column),
  );
}

/** A document's field as a row reads it: shown and filtered like on the document, never written. */
function asParentField(f: FieldModel): FieldModel {
  return {
    ...f,
    required: false,
    readOnly: true,
    system: false,
    unique: false,
    uniqueWithin: undefined,
    index: false,
    compute: undefined,
    rules: undefined,
    schema: { ...f.schema, readOnly: true },
  };
}

function rowsEntity(key: string, document: EntityModel, detail: DetailModel): EntityModel {
  const parent = parentFieldsOf(document, detail).map(asParentField);
  const own = detail.columns.filter((f) => !f.system);
  const fields = [...detail.columns.filter((f) => f.system), ...parent, ...own];
  const label = { zh: `${document.label.zh} · ${detail.label.zh}`, en: `${document.label.en} · ${detail.label.en}` };
  const api = `${document.api.slice(0, document.api.lastIndexOf('/'))}/${key}`;
  const shown = (names: readonly string[]) => names.filter((n) => parent.some((f) => f.name === n));
  const headline = shown([document.code?.field ?? '', document.titleField ?? '', 'projectId']);
  // a row is named by its first text of its own (a goods name, a work content), not a date or a number
  const title = own.find((f) => f.kind === 'string' && !f.dict && !f.ref && !f.options) ?? own[0];
  return {
    key,
    file: document.file,
    label,
    table: detail.table,
    api,
    scope: document.scope,
    softDelete: false,
    titleField: title?.name,
    optionFields: title ? [title.name] : ['id'],
    lookupKeys: [],
    labelsForMembers: false,
    readOnly: true,
    rowsOf: { entity: document.key, detail: detail.name, parentFields: Object.fromEntries(parent.map((f) => [f.name, f.name])) },
    derived: true,
    roles: [],
    fieldRoles: detail.fieldRoles,
    tenantRows: false,
    dataScopes: [],
    routes: {},
    fields,
    columns: fields,
    // no prototype: a request's `constructor` or `__proto__` finds no field (as compile.ts builds them)
    fieldMap: Object.assign(Object.create(null) as Record<string, FieldModel>, Object.fromEntries(fields.map((f) => [f.name, f]))),
    details: [],
    computeOrder: [],
    computeBeforeRows: [],
    list: {
      columns: [...headline, ...own.map((f) => f.name)].map((field) => ({ field })),
      defaultSort: [
        { field: detail.foreignKey, order: 'desc' },
        { field: detail.orderField, order: 'asc' },
      ],
      pageSize: document.list.pageSize,
      pageSizes: document.list.pageSizes,
      rowActions: ['view'],
      batchActions: [],
      export: true,
    },
    search: [...document.search.filter((s) => parent.some((f) => f.name === s.field)), { field: detail.foreignKey, operator: 'equal' }],
    layout: {
      container: 'dialog',
      columns: 2,
      sections: [
        { title: document.label, fields: parent.map((f) => f.name) },
        { title: detail.label, fields: own.map((f) => f.name) },
      ],
      fill: [],
    },
    extensions: {},
    schema: {
      $id: `${document.schema.$id}#/properties/${detail.name}`,
      title: label.zh,
      'x-i18n': { title: label.en },
      type: 'object',
      'x-entity': { key, table: detail.table, api, readOnly: true, rowsOf: { entity: document.key, detail: detail.name } },
      properties: Object.fromEntries(fields.map((f) => [f.name, f.schema])),
    },
  };
}
