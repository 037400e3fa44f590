// compile(): manifest + schemas -> frozen EntityModels. Structural checks (the dialect meta-schema),
// cross-file checks (the linter) and Ajv's strict compile all run here, and every problem is reported
// with its file and JSON pointer before anything else sees the models.
import { computeOrder as orderComputed, fieldsRead, headerReads, siblingSums, sumsRead, type Expr } from '../compute/expr.ts';
import { createAjv, DIALECT_ID, SCHEMA_BASE, type Ajv } from '../dialect/ajv.ts';
import { lintCatalog } from '../lint/lint.ts';
import { compilePackKeywords } from '../packs.ts';
import { pointer, SchemaSetError, type SchemaIssue, type SchemaSource } from './source.ts';
import { snakeCase } from './names.ts';
import { detailSystemFields, headerSystemFields } from './system-fields.ts';
import { deriveDataScopes } from './data-scopes.ts';
import { deriveDetailRows } from './detail-rows.ts';
import { withWorkflowCategories } from './workflow-categories.ts';
import type {
  DetailModel,
  DictionaryDef,
  EntityCatalog,
  EntityModel,
  FieldKind,
  FieldModel,
  InheritedTerm,
  JsonSchema,
  Label,
  OptionModel,
  SortModel,
} from './types.ts';

export interface CompileResult {
  catalog: EntityCatalog;
  ajv: Ajv;
}

export interface CompileOptions {
  /**
   * When Ajv generates each entity's validator: 'eager' (default) here, so that its strict-mode
   * complaints fail the compile; 'lazy' on the validator's first use. Code generation is about
   * two thirds of a compile (~1.3 s of CPU for ~60 entities), so processes that start often on a
   * set `schemas:check` has passed (the server, the browser) compile lazily.
   */
  validators?: 'eager' | 'lazy';
  /**
   * 'all' (default): the dialect meta-schema and the linter check every file. 'skip': the set is
   * one the server compiled with every check before serving it (the browser's copy), so only the
   * models are built; the checks were most of the browser's start-up CPU.
   */
  checks?: 'all' | 'skip';
}

/** Compiles the whole schema set, or throws SchemaSetError listing every problem found. */
export function compile(source: SchemaSource, options: CompileOptions = {}): CompileResult {
  const issues: SchemaIssue[] = [];
  const checking = options.checks !== 'skip';
  const ajv = createAjv(source.meta, { checkSchemas: checking });
  const dialect = checking ? ajv.getSchema(DIALECT_ID)! : undefined;
  const documents: Record<string, JsonSchema> = {};

  const schemaFiles = Object.keys(source.files).filter((f) => f.endsWith('.schema.json'));
  for (const file of schemaFiles) {
    const doc = source.files[file];
    if (dialect && !dialect(doc)) issues.push(...dialectIssues(file, dialect.errors ?? []));
    documents[idOf(file)] = { ...doc, $id: idOf(file) };
  }
  if (checking) for (const file of schemaFiles) issues.push(...refIssues(file, source.files[file], documents));
  for (const [key, file] of Object.entries(source.manifest.entities)) {
    if (!source.files[file])
      issues.push({ file: 'entities.manifest.json', pointer: pointer('entities', key), message: `file not found: ${file}` });
  }
  if (issues.length) throw new SchemaSetError(issues);

  const declaredDictionaries = loadDictionaries(source, issues);
  const entities: Record<string, EntityModel> = {};
  const resolver = new RefResolver(documents);
  for (const [key, file] of Object.entries(source.manifest.entities)) {
    try {
      entities[key] = buildEntity(key, file, documents[idOf(file)], resolver);
    } catch (err) {
      issues.push({ file, pointer: (err as { pointer?: string }).pointer ?? '', message: (err as Error).message });
    }
  }
  if (issues.length) throw new SchemaSetError(issues);
  for (const model of Object.values(entities)) if (model.rowsOf) attachRowSystemFields(model, entities);
  deriveDataScopes(entities);
  const dictionaries = withWorkflowCategories(declaredDictionaries, entities);

  if (checking) issues.push(...lintCatalog(entities, dictionaries, source));
  // after the linter: a derived rows entity is correct by construction, its document was checked
  deriveDetailRows(entities, issues);
  for (const doc of Object.values(documents)) ajv.addSchema(doc);
  // derived rows entities are never written: nothing to validate
  for (const model of options.validators === 'lazy' ? [] : Object.values(entities).filter((m) => !m.derived)) {
    try {
      ajv.getSchema(model.schema.$id);
    } catch (err) {
      issues.push({ file: model.file, pointer: '', message: (err as Error).message });
    }
  }
  if (issues.length) throw new SchemaSetError(issues);

  const catalog: EntityCatalog = deepFreeze({ entities, dictionaries, documents });
  return { catalog, ajv };
}

export function idOf(file: string): string {
  return SCHEMA_BASE + file;
}

interface DialectError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** Set by Ajv on the errors of a propertyNames subschema: the name they are about. */
  propertyName?: string;
}

/**
 * The meta-schema's errors as findings, one per mistake: a name refused by a propertyNames rule is
 * reported once, by its summary error, instead of with each branch of the rule's anyOf.
 */
function dialectIssues(file: string, errors: readonly DialectError[]): SchemaIssue[] {
  return errors.filter((e) => e.propertyName === undefined).map((e) => dialectIssue(file, e, errors));
}

function dialectIssue(file: string, e: DialectError, errors: readonly DialectError[]): SchemaIssue {
  const name = e.params?.propertyName;
  if (e.keyword === 'propertyNames' && typeof name === 'string') {
    const at = e.instancePath + pointer(name);
    // the dialect's own rule: an x- keyword must be one of the vocabulary
    const inner = errors.filter((x) => x.propertyName === name && x.instancePath === e.instancePath);
    if (e.schemaPath === '#/propertyNames') return { file, pointer: at, message: `unknown keyword "${name}"` };
    const why = inner[0]?.message;
    return { file, pointer: at, message: `name "${name}" is not allowed here${why ? `: it ${why}` : ''}` };
  }
  const extra = e.params?.additionalProperty
    ? ` ("${e.params.additionalProperty}")`
    : e.params?.allowedValues
      ? ` (${JSON.stringify(e.params.allowedValues)})`
      : '';
  return { file, pointer: e.instancePath, message: `${e.message ?? e.keyword}${extra}` };
}

/**
 * Every $ref of a schema file names a document of the set and a place inside it; a broken one is
 * reported at the property (or keyword) that holds it.
 */
function refIssues(file: string, doc: JsonSchema, documents: Record<string, JsonSchema>): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const walk = (node: unknown, at: string[]) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...at, String(i)]));
    if (!isPlainObject(node)) return;
    if (typeof node.$ref === 'string') {
      const problem = refProblem(node.$ref, idOf(file), documents);
      if (problem) issues.push({ file, pointer: pointer(...at), message: problem });
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'default' && k !== 'const' && k !== 'examples') walk(v, [...at, k]);
  };
  walk(doc, []);
  return issues;
}

function refProblem(ref: string, base: string, documents: Record<string, JsonSchema>): string | undefined {
  let url: URL;
  try {
    url = new URL(ref, base);
  } catch {
    return `$ref "${ref}" is not a URI reference`;
  }
  const docId = url.href.split('#', 1)[0];
  // references outside the set (the JSON Schema meta-schemas) are Ajv's to resolve
  if (!docId.startsWith(SCHEMA_BASE)) return undefined;
  const doc = documents[docId];
  if (!doc) return `$ref "${ref}" names a file that is not in the schema set: ${docId.slice(SCHEMA_BASE.length)}`;
  let target: unknown = doc;
  for (const seg of decodeURIComponent(url.hash.replace(/^#\/?/, '')).split('/').filter(Boolean))
    target =
      isPlainObject(target) || Array.isArray(target)
        ? (target as Record<string, unknown>)[seg.replace(/~1/g, '/').replace(/~0/g, '~')]
        : undefined;
  return target === undefined ? `$ref "${ref}" points at nothing in ${docId.slice(SCHEMA_BASE.length)}` : undefined;
}

/** A dictionary as written in its file, before the check that it has what a DictionaryDef needs. */
interface RawDictionary {
  code?: unknown;
  name?: string;
  en?: string;
  items?: RawDictionaryItem[];
}

interface RawDictionaryItem {
  key?: unknown;
  value?: string;
  en?: string;
}

function loadDictionaries(source: SchemaSource, issues: SchemaIssue[]): DictionaryDef[] {
  const out: DictionaryDef[] = [];
  for (const file of source.manifest.dictionaries) {
    const doc = source.files[file];
    if (!doc || !Array.isArray(doc.dictionaries)) {
      issues.push({ file, pointer: '', message: 'dictionary file missing or without a "dictionaries" array' });
      continue;
    }
    doc.dictionaries.forEach((d: RawDictionary, i: number) => {
      if (typeof d.code !== 'string' || !d.name || !d.en || !Array.isArray(d.items)) {
        issues.push({ file, pointer: pointer('dictionaries', i), message: 'a dictionary needs code, name, en and items' });
        return;
      }
      d.items.forEach((item: RawDictionaryItem, j: number) => {
        if (typeof item.key !== 'string' || !item.value || !item.en) {
          issues.push({
            file,
            pointer: pointer('dictionaries', i, 'items', j),
            message: 'a dictionary item needs a string key, value and en',
          });
        }
      });
      out.push({
        code: d.code,
        name: d.name,
        en: d.en,
        source: doc.source === 'system' ? 'system' : 'biz',
        items: d.items as DictionaryDef['items'],
      });
    });
  }
  return out;
}

/** Resolves $ref (relative to the document's $id) and merges the referring schema's own keywords over it. */
class RefResolver {
  constructor(private readonly documents: Record<string, JsonSchema>) {}

  resolve(schema: JsonSchema, baseId: string, depth = 0): JsonSchema {
    if (!schema || typeof schema !== 'object' || !('$ref' in schema)) return schema;
    if (depth > 10) throw new Error(`$ref chain too deep at ${schema.$ref}`);
    const url = new URL(schema.$ref, baseId);
    const docId = url.href.split('#', 1)[0];
    const doc = this.documents[docId];
    if (!doc) throw new Error(`$ref to unknown document: ${schema.$ref}`);
    let target: unknown = doc;
    for (const seg of decodeURIComponent(url.hash.replace(/^#\/?/, '')).split('/').filter(Boolean)) {
      target = (target as Record<string, unknown> | undefined)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (target === undefined) throw new Error(`$ref target not found: ${schema.$ref}`);
    const base = this.resolve(target as JsonSchema, docId, depth + 1);
    const { $ref: _ignored, ...own } = schema;
    const merged: JsonSchema = { ...base, ...own };
    for (const k of Object.keys(own)) {
      if (k.startsWith('x-') && isPlainObject(base[k]) && isPlainObject(own[k])) merged[k] = { ...base[k], ...own[k] };
    }
    return merged;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function labelOf(schema: JsonSchema, fallback: string): Label {
  const zh = typeof schema.title === 'string' ? schema.title : fallback;
  return { zh, en: schema['x-i18n']?.title ?? zh };
}

function kindOf(schema: JsonSchema): FieldKind {
  const db = schema['x-db'] ?? {};
  switch (schema.type) {
    case 'string':
      if (db.type === 'bigint') return 'id';
      if (schema.format === 'date') return 'date';
      if (schema.format === 'datetime') return 'datetime';
      if (schema.format === 'month') return 'month';
      return 'string';
    case 'integer':
      return 'integer';
    case 'number':
      return 'decimal';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}

function sqlTypeOf(kind: FieldKind, schema: JsonSchema): { sqlType: string; scale?: number } {
  const db = schema['x-db'] ?? {};
  switch (kind) {
    case 'id':
      return { sqlType: 'bigint' };
    case 'integer':
      return { sqlType: db.type === 'bigint' ? 'bigint' : 'integer' };
    case 'decimal': {
      const precision = db.precision ?? 18;
      const scale = db.scale ?? 4;
      return { sqlType: `numeric(${precision},${scale})`, scale };
    }
    case 'boolean':
      return { sqlType: 'boolean' };
    case 'date':
      return { sqlType: 'date' };
    case 'datetime':
      return { sqlType: 'timestamp(0)' };
    case 'month':
      return { sqlType: 'varchar(7)' };
    case 'json':
      return { sqlType: 'jsonb' };
    default: {
      if (db.type === 'text') return { sqlType: 'text' };
      const length = schema.maxLength ?? 255;
      return { sqlType: length > 4000 ? 'text' : `varchar(${length})` };
    }
  }
}

/** The shapes the dialect admits for the x- keywords and oneOf branches compile.ts reads. */
type Titled = { title?: string; 'x-i18n'?: { title?: string } };
type ConstBranch = Titled & { const: OptionModel['value'] };
type RawSort = { field: string; order?: SortModel['order'] };
type RawSearchField = { field: string; operator?: string; widget?: string };
type RawSection = Titled & { title: string; fields: string[]; modes?: string[] };
type RawFill = Titled & { route: string; title: string; params: Record<string, string>; required?: string[]; detail?: string };

function optionsOf(schema: JsonSchema): OptionModel[] | undefined {
  const branches = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(branches) || !branches.every((b: ConstBranch | null) => b && 'const' in b)) return undefined;
  return branches.map((b: ConstBranch) => ({ value: b.const, label: labelOf(b, String(b.const)) }));
}

/** A keyword that takes one name or several, as a list (undefined when absent). */
function listOf(value: string | string[] | undefined): string[] | undefined {
  return value === undefined ? undefined : Array.isArray(value) ? value : [value];
}

type RawTerm = string | { from: string; overridable?: boolean };

/** x-ref.inherit in its one shape: a bare field name is a term that is not overridable. */
function inheritedTerms(spec: Record<string, RawTerm> | undefined): Record<string, InheritedTerm> {
  return Object.fromEntries(
    Object.entries(spec ?? {}).map(([target, term]) => [
      target,
      typeof term === 'string' ? { from: term, overridable: false } : { from: term.from, overridable: term.overridable ?? false },
    ]),
  );
}

function buildField(name: string, raw: JsonSchema, baseId: string, required: boolean, resolver: RefResolver): FieldModel {
  const schema = resolver.resolve(raw, baseId);
  const kind = kindOf(schema);
  const { sqlType, scale } = sqlTypeOf(kind, schema);
  const db = schema['x-db'] ?? {};
  const ref = schema['x-ref'];
  const dict = schema['x-dict'];
  const compute = schema['x-compute'];
  const rules = schema['x-rules'];
  return {
    name,
    column: db.column ?? snakeCase(name),
    label: labelOf(schema, name),
    kind,
    sqlType,
    scale,
    maxLength: schema.maxLength,
    required,
    readOnly: schema.readOnly === true || (compute !== undefined && compute.mode !== 'default'),
    system: false,
    writeOnly: schema.writeOnly === true,
    default: schema.default,
    unique: db.unique === true,
    ...(db.uniqueWithin && { uniqueWithin: { fields: db.uniqueWithin, ...(db.uniqueWhen && { when: db.uniqueWhen }) } }),
    index: db.index === true,
    dict: dict && { code: dict.code, source: dict.source ?? 'biz', multiple: dict.multiple ?? false },
    ref: ref && {
      entity: ref.entity,
      valueField: ref.valueField ?? 'id',
      labelField: ref.labelField,
      filter: ref.filter,
      dependsOn: ref.dependsOn ?? [],
      separator: ref.separator,
      copy: ref.copy ?? {},
      inherit: inheritedTerms(ref.inherit),
    },
    link: db.link && { table: db.link.table, ownerColumn: db.link.ownerColumn, maxItems: db.link.maxItems },
    compute: compute && { expr: compute.expr as Expr, scale: compute.scale, mode: compute.mode ?? 'always' },
    rules: rules && { ...rules, clearWhenHidden: rules.clearWhenHidden ?? true, atLeast: listOf(rules.atLeast) },
    options: optionsOf(schema),
    ui: schema['x-ui'],
    display: schema['x-display'],
    schema,
  };
}

function computeOrderOf(fields: readonly FieldModel[], file: string, at: string): string[] {
  const computed: Record<string, Expr> = {};
  for (const f of fields) if (f.compute) computed[f.name] = f.compute.expr;
  try {
    return orderComputed(computed);
  } catch (err) {
    throw Object.assign(new Error((err as Error).message), { pointer: at, file });
  }
}

/** The computed header fields, in `order`, that read no `sum` of rows themselves or through another computed field. */
function computedBeforeRows(fields: readonly FieldModel[], order: readonly string[]): string[] {
  const map = new Map(fields.filter((f) => f.compute).map((f) => [f.name, f.compute!.expr]));
  const readsRows = new Set<string>();
  for (const name of order) {
    const expr = map.get(name)!;
    if (sumsRead(expr).length || fieldsRead(expr).some((f) => readsRows.has(f))) readsRows.add(name);
  }
  return order.filter((name) => !readsRows.has(name));
}

/**
 * Fields by name, in a map with no prototype: request keys are looked up in it (list filters, sort
 * columns), and `constructor`, `toString` or `__proto__` must find no field rather than a member of
 * Object.prototype.
 */
function fieldMapOf(fields: readonly FieldModel[]): Record<string, FieldModel> {
  return Object.assign(Object.create(null) as Record<string, FieldModel>, Object.fromEntries(fields.map((f) => [f.name, f])));
}

function buildDetail(
  entity: EntityModel['scope'],
  name: string,
  raw: JsonSchema,
  baseId: string,
  resolver: RefResolver,
  file: string,
): DetailModel {
  const schema = resolver.resolve(raw, baseId);
  const spec = schema['x-detail'];
  const items = resolver.resolve(schema.items ?? {}, baseId);
  if (schema.type !== 'array' || items.type !== 'object') {
    throw Object.assign(new Error('x-detail needs an array whose items are objects'), { pointer: pointer('properties', name) });
  }
  const required = new Set<string>(items.required ?? []);
  const own = Object.entries<JsonSchema>(items.properties ?? {}).map(([n, s]) => buildField(n, s, baseId, required.has(n), resolver));
  const system = detailSystemFields(entity, spec.foreignKey, spec.orderField ?? 'sortNo');
  const fields = [...system, ...own];
  return {
    name,
    label: labelOf(schema, name),
    table: spec.table,
    foreignKey: spec.foreignKey,
    foreignKeyColumn: snakeCase(spec.foreignKey),
    orderField: spec.orderField ?? 'sortNo',
    editor: spec.editor ?? 'grid',
    minRows: spec.minRows ?? 0,
    maxRows: spec.maxRows ?? 5000,
    pickFrom: (spec.pickFrom ?? []).map((p: JsonSchema) => ({
      header: p.header,
      entity: '',
      detail: p.detail,
      rowId: p.rowId,
      map: p.map,
      unique: p.unique,
    })),
    fieldRoles: spec.fieldRoles ?? {},
    fields,
    columns: fields.filter((f) => !f.writeOnly),
    fieldMap: fieldMapOf(fields),
    computeOrder: computeOrderOf(own, file, pointer('properties', name, 'items')),
    headerReads: [...new Set(own.flatMap((f) => (f.compute ? headerReads(f.compute.expr) : [])))],
    sumsSiblings: own.some((f) => f.compute && siblingSums(f.compute.expr).length > 0),
  };
}

function buildEntity(key: string, file: string, doc: JsonSchema, resolver: RefResolver): EntityModel {
  const spec = doc['x-entity'];
  if (!spec) throw Object.assign(new Error('an entity schema needs x-entity'), { pointer: '' });
  const baseId = doc.$id;
  const scope = spec.scope ?? 'tenant';
  // rows of another document have no is_deleted column: they live and die with their document
  const softDelete = spec.rowsOf ? false : (spec.softDelete ?? true);
  const required = new Set<string>(doc.required ?? []);
  const own: FieldModel[] = [];
  const details: DetailModel[] = [];
  for (const [name, raw] of Object.entries<JsonSchema>(doc.properties ?? {})) {
    const resolved = resolver.resolve(raw, baseId);
    if (resolved['x-detail']) details.push(buildDetail(scope, name, raw, baseId, resolver, file));
    else own.push(buildField(name, raw, baseId, required.has(name), resolver));
  }
  // rows of another document get their system fields (id, tenant, foreign key, order) from its detail, after every entity is built
  const fields = spec.rowsOf ? own : [...headerSystemFields(scope, softDelete, spec.tenantRows ?? false), ...own];
  const fieldMap = fieldMapOf(fields);
  const computeOrder = computeOrderOf(own, file, '');
  // a pick source's document type is the one its header reference names (the linter reports a header that is no reference)
  for (const d of details) for (const p of d.pickFrom) (p as { entity: string }).entity = fieldMap[p.header]?.ref?.entity ?? '';
  const list = doc['x-list'] ?? { columns: own.slice(0, 8).map((f) => f.name) };
  const tree = spec.tree && {
    parentField: spec.tree.parentField,
    keyField: spec.tree.keyField ?? 'id',
    root: String(spec.tree.root ?? '0'),
    lazyParam: spec.tree.lazyParam ?? spec.tree.parentField,
    list: spec.tree.list ?? 'page',
  };
  return {
    // the declared key: the linter reports it when it differs from the manifest key
    key: spec.key,
    file,
    label: labelOf(doc, key),
    table: spec.table,
    api: spec.api,
    scope,
    softDelete,
    titleField: spec.titleField,
    optionFields: spec.optionFields ?? [spec.titleField ?? 'id'],
    icon: spec.icon,
    lookupKeys: spec.lookupKeys ?? [],
    labelsForMembers: spec.labelsForMembers ?? false,
    readOnly: spec.readOnly ?? false,
    rowsOf: spec.rowsOf && { entity: spec.rowsOf.entity, detail: spec.rowsOf.detail, parentFields: spec.rowsOf.parentFields ?? {} },
    activeIf: spec.activeIf,
    permanentIf: spec.permanentIf,
    fixedIf: spec.fixedIf,
    tenantRows: spec.tenantRows ?? false,
    // derived once every entity is built (the project's reference is found by role)
    dataScopes: [],
    roles: spec.roles ?? [],
    fieldRoles: spec.fieldRoles ?? {},
    routes: spec.routes ?? {},
    tree,
    menu: spec.menu && {
      parent: spec.menu.parent,
      code: spec.menu.code ?? snakeCase(key),
      path: spec.menu.path ?? `/${spec.menu.parent.replace(/_/g, '-')}/${key}`,
      formerPaths: spec.menu.formerPaths ?? [],
      sort: spec.menu.sort ?? 0,
      buttons: spec.menu.buttons ?? [],
      group: spec.menu.group && {
        code: spec.menu.parent,
        name: spec.menu.group.name,
        en: spec.menu.group.en,
        icon: spec.menu.group.icon ?? 'appstore',
        sort: spec.menu.group.sort ?? 0,
      },
      grants: menuGrants(spec.menu.code ?? snakeCase(key), spec.menu.grants ?? {}),
    },
    code: spec.code && {
      field: spec.code.field,
      prefix: spec.code.prefix,
      period: spec.code.period ?? 'yyyyMM',
      digits: spec.code.digits ?? 4,
    },
    fields,
    columns: fields.filter((f) => !f.writeOnly),
    fieldMap,
    details,
    computeOrder,
    computeBeforeRows: computedBeforeRows(own, computeOrder),
    list: {
      columns: list.columns.map((c: string | Record<string, unknown>) => (typeof c === 'string' ? { field: c } : c)),
      defaultSort: (list.defaultSort ?? [{ field: 'id', order: 'desc' }]).map((s: RawSort) => ({
        field: s.field,
        order: s.order ?? 'asc',
      })),
      pageSize: list.pageSize ?? 10,
      pageSizes: list.pageSizes ?? [10, 30, 50, 100, 200],
      rowActions: list.rowActions ?? (spec.readOnly ? ['view'] : ['view', 'edit', 'delete']),
      batchActions: list.batchActions ?? (spec.readOnly ? [] : ['delete']),
      export: list.export ?? true,
    },
    search: (doc['x-search']?.fields ?? []).map((s: RawSearchField) => ({
      field: s.field,
      operator: s.operator ?? 'like',
      widget: s.widget,
    })),
    layout: {
      container: doc['x-layout']?.container ?? 'dialog',
      width: doc['x-layout']?.width,
      columns: doc['x-layout']?.columns ?? 2,
      sections: (doc['x-layout']?.sections ?? []).map((s: RawSection) => ({
        title: labelOf(s, s.title),
        fields: s.fields,
        modes: s.modes,
      })),
      fill: (doc['x-layout']?.fill ?? []).map((a: RawFill) => ({
        route: a.route,
        title: labelOf(a, a.title),
        params: a.params,
        required: a.required ?? Object.values(a.params),
        detail: a.detail,
      })),
    },
    workflow: workflowOf(doc['x-workflow']),
    extensions: compilePackKeywords(key, doc),
    schema: doc,
  };
}

/**
 * An x-entity.rowsOf entity's columns are those of the detail table it reads: its system fields are
 * the detail's (id, tenant, the foreign key to the document, the order). A missing document or
 * detail is left for the linter to report.
 */
function attachRowSystemFields(model: EntityModel, entities: Record<string, EntityModel>) {
  const detail = entities[model.rowsOf!.entity]?.details.find((d) => d.name === model.rowsOf!.detail);
  if (!detail) return;
  const fields = [...detail.fields.filter((f) => f.system), ...model.fields];
  Object.assign(model, { fields, columns: fields.filter((f) => !f.writeOnly), fieldMap: fieldMapOf(fields) });
}

/** The standard buttons every menu entry has, by action: <code>_<action>. */
export const STANDARD_ACTIONS = ['add', 'edit', 'delete', 'view', 'export'] as const;

/** x-entity.menu.grants with each standard action written as its button code (<code>_view); other codes as they are. */
function menuGrants(code: string, grants: Record<string, string[]>): Record<string, string[]> {
  const button = (action: string) => ((STANDARD_ACTIONS as readonly string[]).includes(action) ? `${code}_${action}` : action);
  return Object.fromEntries(Object.entries(grants).map(([alias, actions]) => [alias, actions.map(button)]));
}

function workflowOf(spec: JsonSchema | undefined): EntityModel['workflow'] {
  if (!spec) return undefined;
  return {
    prefix: spec.prefix,
    processKey: spec.processKey ?? spec.prefix,
    statusField: spec.statusField,
    instanceField: spec.instanceField,
    variables: spec.variables ?? {},
    editable: spec.editable ?? {},
    onApproved: spec.onApproved ?? {},
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
