// The schema linter: the checks that span fields, files and dictionaries, which a meta-schema cannot
// express. Each finding names the file and the JSON pointer of the offending keyword.
import { checkExpr, typeOfKind } from '../compute/check.ts';
import { fieldsRead, headerReads, sumsRead, textsYielded } from '../compute/expr.ts';
import { fieldsOf } from '../predicate/predicate.ts';
import { pointer, type SchemaIssue, type SchemaSource } from '../model/source.ts';
import { PROJECT_ROLE, projectReference } from '../model/data-scopes.ts';
import { fieldWithRole, hasRole, type FieldRoleOwner } from '../model/roles.ts';
import { installedPacks } from '../packs.ts';
import type { DetailModel, DictionaryDef, EntityModel, FieldModel, JsonSchema, PickSource } from '../model/types.ts';

type Report = (at: string, message: string) => void;

export function lintCatalog(entities: Record<string, EntityModel>, dictionaries: DictionaryDef[], source: SchemaSource): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const tables = new Map<string, string>();
  const apis = new Map<string, string>();
  const claim = (registry: Map<string, string>, value: string, owner: string, report: Report, at: string, what: string) => {
    const previous = registry.get(value);
    if (previous && previous !== owner) report(at, `${what} "${value}" is already used by ${previous}`);
    registry.set(value, owner);
  };

  for (const [key, model] of Object.entries(entities)) {
    const report: Report = (at, message) => issues.push({ file: model.file, pointer: at, message });
    if (model.key !== key) report('/x-entity/key', `x-entity.key "${model.key}" differs from the manifest key "${key}"`);
    // rows of another document read that document's detail table (lintRowsOf checks it is that one)
    if (!model.rowsOf) claim(tables, model.table, key, report, '/x-entity/table', 'table');
    claim(apis, model.api, key, report, '/x-entity/api', 'API base');
    for (const d of model.details) claim(tables, d.table, key, report, pointer('properties', d.name, 'x-detail', 'table'), 'table');
    for (const f of model.fields.filter((x) => x.link)) {
      const at = pointer('properties', f.name, 'x-db', 'link');
      claim(tables, f.link!.table, key, report, `${at}/table`, 'table');
      lintLink(model, f, report, at);
    }
    lintEntity(model, entities, dictionaries, report);
    lintLabels(model.schema, '', report);
  }
  for (const file of source.manifest.dictionaries) {
    const codes = new Set<string>();
    (source.files[file]?.dictionaries ?? []).forEach((d: { code: string }, i: number) => {
      if (codes.has(d.code))
        issues.push({ file, pointer: pointer('dictionaries', i, 'code'), message: `dictionary code "${d.code}" appears twice` });
      codes.add(d.code);
    });
  }
  return issues;
}

/**
 * x-db.link: a comma-joined reference of a record with a table of its own, whose link columns do
 * not collide and whose length is bounded by the count of references, not by characters.
 */
function lintLink(model: EntityModel, f: FieldModel, report: Report, at: string) {
  const link = f.link!;
  if (!f.ref?.separator) report(at, `"${f.name}" keeps its values in a link table but is not a comma-joined reference (x-ref.separator)`);
  if (model.rowsOf) report(at, 'rows of another document (x-entity.rowsOf) have no table to link from');
  if (f.maxLength !== undefined) report(at, `"${f.name}" is bounded by x-db.link.maxItems; a maxLength would cap it by characters again`);
  if (new Set([link.ownerColumn, f.column, 'sort', 'tenant_id']).size !== 4)
    report(at, `the link table's columns ${link.ownerColumn}, ${f.column}, sort and tenant_id must differ`);
  if (f.schema['x-db']?.type || f.unique || f.index)
    report(at, 'a link field has no column of its own: x-db type, unique and index do not apply');
}

function lintEntity(model: EntityModel, entities: Record<string, EntityModel>, dictionaries: DictionaryDef[], report: Report) {
  const has = (f: string) => f in model.fieldMap;
  const readable = (f: string) => has(f) && !model.fieldMap[f].writeOnly;
  const detailNames = new Set(model.details.map((d) => d.name));
  model.list.columns.forEach(
    (c, i) => readable(c.field) || report(pointer('x-list', 'columns', i), `list column "${c.field}" is not a readable property`),
  );
  (model.schema['x-list']?.defaultSort ?? []).forEach(
    (s: { field: string }, i: number) =>
      has(s.field) || report(pointer('x-list', 'defaultSort', i, 'field'), `sort field "${s.field}" is not a property`),
  );
  model.search.forEach(
    (s, i) =>
      readable(s.field) || report(pointer('x-search', 'fields', i, 'field'), `search field "${s.field}" is not a readable property`),
  );
  model.search.forEach((s, i) => {
    const f = model.fieldMap[s.field];
    if (f && s.operator === 'dateRange' && f.kind !== 'date' && f.kind !== 'datetime') {
      report(pointer('x-search', 'fields', i, 'operator'), `dateRange needs a date or datetime field, "${s.field}" is ${f.kind}`);
    }
    if (f?.dict?.multiple && s.operator !== 'equal')
      report(
        pointer('x-search', 'fields', i, 'operator'),
        `a multi-select field is searched with "equal" (any of the chosen values), not "${s.operator}"`,
      );
  });
  model.layout.sections.forEach((s, i) =>
    s.fields.forEach(
      (f, j) =>
        has(f) || detailNames.has(f) || report(pointer('x-layout', 'sections', i, 'fields', j), `layout field "${f}" is not a property`),
    ),
  );
  model.layout.fill.forEach((a, i) => {
    Object.entries(a.params).forEach(
      ([name, f]) =>
        has(f) || report(pointer('x-layout', 'fill', i, 'params', name), `fill parameter ${name} reads "${f}", which is not a property`),
    );
    a.required.forEach(
      (f, j) =>
        Object.values(a.params).includes(f) ||
        report(pointer('x-layout', 'fill', i, 'required', j), `required fill field "${f}" is not one of its params`),
    );
    if (a.detail && !detailNames.has(a.detail))
      report(pointer('x-layout', 'fill', i, 'detail'), `fill detail "${a.detail}" is not a detail of the entity`);
  });
  const spec = model.schema['x-entity'];
  if (model.titleField && !has(model.titleField)) report('/x-entity/titleField', `titleField "${model.titleField}" is not a property`);
  model.optionFields.forEach((f, i) => {
    if (!has(f)) report(`/x-entity/optionFields/${i}`, `optionFields names "${f}", which is not a property`);
  });
  if (model.tree && !has(model.tree.parentField))
    report('/x-entity/tree/parentField', `tree parent field "${model.tree.parentField}" is not a property`);
  if (model.tree && !has(model.tree.keyField))
    report('/x-entity/tree/keyField', `tree key field "${model.tree.keyField}" is not a property`);
  model.lookupKeys.forEach((k, i) => {
    if (!has(k)) report(pointer('x-entity', 'lookupKeys', i), `lookup key "${k}" is not a property`);
    else if (!model.fieldMap[k].unique) report(pointer('x-entity', 'lookupKeys', i), `lookup key "${k}" must be unique (x-db.unique)`);
  });
  if (model.code && !has(model.code.field)) report('/x-entity/code/field', `code field "${model.code.field}" is not a property`);
  if (spec?.code && model.code && model.fieldMap[model.code.field]?.kind !== 'string')
    report('/x-entity/code/field', 'the code field must be a string');

  for (const keyword of ['activeIf', 'permanentIf', 'fixedIf'] as const) {
    const predicate = model[keyword];
    if (predicate)
      for (const name of fieldsOf(predicate))
        if (!readable(name)) report(`/x-entity/${keyword}`, `${keyword} names unknown field "${name}"`);
  }
  lintUniqueWithin(model, report);
  if (model.tenantRows && model.scope !== 'shared') report('/x-entity/tenantRows', 'tenantRows applies to shared entities only');
  lintDataScopes(model, entities, report);
  lintFieldRoles(model, entities, ['x-entity', 'fieldRoles'], report);
  for (const d of model.details) lintFieldRoles(d, entities, ['properties', d.name, 'x-detail', 'fieldRoles'], report);
  lintRoutes(model, report);
  if (model.readOnly) lintReadOnly(model, report);
  if (model.rowsOf) lintRowsOf(model, entities, report);
  if (model.workflow) lintWorkflow(model, dictionaries, report);
  for (const pack of installedPacks()) pack.lint?.(model, entities, report, dictionaries);
  const ctx = { entities, dictionaries, report };
  lintFields(model.fields, model.fieldMap, (name) => pointer('properties', name), ctx, model);
  for (const d of model.details) {
    lintFields(d.fields, d.fieldMap, (name) => pointer('properties', d.name, 'items', 'properties', name), ctx, model);
    for (const f of d.fields)
      if (f.uniqueWithin)
        report(
          pointer('properties', d.name, 'items', 'properties', f.name, 'x-db', 'uniqueWithin'),
          'uniqueWithin is for the record, not its rows',
        );
    if (d.foreignKey in d.fieldMap && d.fields.filter((f) => f.name === d.foreignKey).length > 1) {
      report(pointer('properties', d.name, 'x-detail', 'foreignKey'), `foreign key "${d.foreignKey}" clashes with a declared row property`);
    }
    d.pickFrom.forEach((p, i) =>
      lintPickSource(model, d, p, entities, (at, message) =>
        report(pointer('properties', d.name, 'x-detail', 'pickFrom', i, ...at), message),
      ),
    );
  }
}

/**
 * x-entity.fieldRoles and x-detail.fieldRoles: each names a field of the header (or the rows), and a
 * document role ("master.project") a reference to the document type playing it.
 */
function lintFieldRoles(owner: FieldRoleOwner, entities: Record<string, EntityModel>, at: readonly string[], report: Report) {
  for (const [role, name] of Object.entries(owner.fieldRoles)) {
    const field = owner.fieldMap[name];
    if (!field || field.writeOnly) report(pointer(...at, role), `field role "${role}" names "${name}", which is not a stored property`);
    else if (role.includes('.') && !(field.ref && entities[field.ref.entity] && hasRole(entities[field.ref.entity], role)))
      report(pointer(...at, role), `field role "${role}" names "${name}", which does not refer to a document type playing "${role}"`);
  }
  // two references to documents of one role: a rule could not tell which one it reads
  for (const role of new Set(Object.values(entities).flatMap((m) => m.roles)))
    try {
      fieldWithRole(entities, owner, role);
    } catch (err) {
      report(pointer(...at), (err as Error).message);
    }
}

/** x-db.uniqueWithin / uniqueWhen: stored fields of the record itself, and a condition of constants only. */
function lintUniqueWithin(model: EntityModel, report: Report) {
  const stored = (name: string) => {
    const f = model.fieldMap[name];
    return f !== undefined && !f.writeOnly && (!f.system || name === 'tenantId');
  };
  for (const f of model.fields) {
    const at = (...rest: (string | number)[]) => pointer('properties', f.name, 'x-db', ...rest);
    const db = (f.schema['x-db'] ?? {}) as { uniqueWhen?: unknown };
    if (db.uniqueWhen !== undefined && !f.uniqueWithin) report(at('uniqueWhen'), 'uniqueWhen narrows uniqueWithin, which is missing');
    if (!f.uniqueWithin) continue;
    if (f.unique) report(at('uniqueWithin'), 'a field is either unique or uniqueWithin, not both');
    f.uniqueWithin.fields.forEach((name, i) => {
      if (name === f.name) report(at('uniqueWithin', i), 'a field cannot be unique within itself');
      else if (!stored(name)) report(at('uniqueWithin', i), `"${name}" is not a stored field of the record`);
    });
    const when = f.uniqueWithin.when;
    if (!when) continue;
    for (const name of fieldsOf(when)) if (!stored(name)) report(at('uniqueWhen'), `uniqueWhen names unknown field "${name}"`);
    if (JSON.stringify(when).includes('"$')) report(at('uniqueWhen'), 'uniqueWhen compares with constants only (no $ tokens)');
  }
}

/** x-detail.pickFrom: the header reference, the source lines, the row id and the copied fields exist and fit. */
function lintPickSource(
  model: EntityModel,
  d: DetailModel,
  p: PickSource,
  entities: Record<string, EntityModel>,
  report: (at: string[], message: string) => void,
) {
  const header = model.fieldMap[p.header];
  if (!header?.ref || header.ref.separator) return report(['header'], `header field "${p.header}" is not a single reference (x-ref)`);
  const source = entities[p.entity];
  const lines = source?.details.find((x) => x.name === p.detail);
  if (!source || !lines) return report(['detail'], `${p.entity} has no detail array "${p.detail}"`);
  if (header.ref.valueField !== 'id' && !source.lookupKeys.includes(header.ref.valueField)) {
    report(['header'], `${p.entity} cannot be looked up by "${header.ref.valueField}" (add it to x-entity.lookupKeys)`);
  }
  const rowId = d.fieldMap[p.rowId];
  if (!rowId || rowId.system) report(['rowId'], `row id field "${p.rowId}" is not a property of the rows`);
  else if (rowId.kind !== 'id' || rowId.readOnly || rowId.ref)
    report(['rowId'], `row id field "${p.rowId}" must be a writable id (x-db.type bigint) without x-ref`);
  (p.unique ?? []).forEach((name, i) => {
    const f = d.fieldMap[name];
    if (!f || f.system || f.writeOnly || name === p.rowId)
      report(['unique', String(i)], `"${name}" is not a field of the rows that could tell two picks of one line apart`);
  });
  for (const [target, from] of Object.entries(p.map)) {
    const to = d.fieldMap[target];
    const value = lines.fieldMap[from];
    if (!to || to.system || target === p.rowId) report(['map', target], `"${target}" is not a field of the rows it could fill`);
    else if (!value) report(['map', target], `"${from}" is not a field of ${p.entity}.${p.detail}`);
    else {
      const misfit = pickMisfit(to, value);
      if (misfit) report(['map', target], `${p.entity}.${p.detail}.${from} cannot fill "${target}": ${misfit}`);
    }
  }
}

/** Why a source value would not fit the field it fills (kind, length, dictionary, reference), or undefined. */
function pickMisfit(to: FieldModel, from: FieldModel): string | undefined {
  const numeric = (f: FieldModel) => f.kind === 'decimal' || f.kind === 'integer';
  if (to.kind !== from.kind && !(to.kind === 'decimal' && from.kind === 'integer')) {
    return numeric(to) && numeric(from) ? 'a decimal into an integer' : `${from.kind} into ${to.kind}`;
  }
  if (to.maxLength !== undefined && (from.maxLength === undefined || from.maxLength > to.maxLength))
    return `text up to ${from.maxLength ?? 'any'} characters into ${to.maxLength}`;
  if (to.dict && to.dict.code !== from.dict?.code) return `dictionary ${from.dict?.code ?? 'none'} into ${to.dict.code}`;
  if (to.ref && (to.ref.entity !== from.ref?.entity || to.ref.valueField !== from.ref.valueField))
    return `reference to ${from.ref?.entity ?? 'nothing'} into a reference to ${to.ref.entity}`;
  return undefined;
}

/** The generic calls every entity has at its API base: an alias may not take one of their paths. */
const GENERIC_ROUTES = new Set([
  'list',
  'detail',
  'options',
  'save',
  'update',
  'submit',
  'updatePart',
  'remove',
  'export',
  'tree',
  'lazy-list',
  'lazy-tree',
  'recall',
]);
const TREE_ROUTES = new Set(['tree', 'lazy-list', 'lazy-tree']);

/** x-entity.routes: aliases of existing calls, on free paths. */
function lintRoutes(model: EntityModel, report: Report) {
  for (const [path, action] of Object.entries(model.routes)) {
    const at = pointer('x-entity', 'routes', path);
    if (GENERIC_ROUTES.has(path)) report(at, `route "${path}" is a generic call of every entity and cannot be an alias`);
    if (TREE_ROUTES.has(action) && !model.tree) report(at, `route "${path}" answers like "${action}", which only tree entities have`);
  }
}

const WRITE_ROUTES = new Set(['save', 'update', 'submit', 'updatePart', 'remove']);

/**
 * x-entity.rowsOf: the document and its detail exist; the records are read-only, live in that
 * detail's table and have nothing a table of their own would need; every property is a row field of
 * the detail (same kind and column) or one of the document's header fields named in parentFields.
 */
function lintRowsOf(model: EntityModel, entities: Record<string, EntityModel>, report: Report) {
  const rowsOf = model.rowsOf!;
  const parent = entities[rowsOf.entity];
  const detail = parent?.details.find((d) => d.name === rowsOf.detail);
  if (!parent) return report('/x-entity/rowsOf/entity', `rowsOf names unknown entity "${rowsOf.entity}"`);
  if (!detail) return report('/x-entity/rowsOf/detail', `${rowsOf.entity} has no detail array "${rowsOf.detail}"`);
  if (parent.rowsOf) report('/x-entity/rowsOf/entity', `${rowsOf.entity} is itself rows of another entity`);
  if (!model.readOnly) report('/x-entity/readOnly', 'rows of another document are written through that document: set x-entity.readOnly');
  if (model.table !== detail.table)
    report('/x-entity/table', `rows of ${rowsOf.entity}.${rowsOf.detail} live in its table "${detail.table}", not "${model.table}"`);
  if (model.scope !== parent.scope) report('/x-entity/scope', `the scope must be that of ${rowsOf.entity} (${parent.scope})`);
  const spec = model.schema['x-entity'] ?? {};
  for (const keyword of [
    'softDelete',
    'tree',
    'code',
    'lookupKeys',
    'activeIf',
    'permanentIf',
    'fixedIf',
    'routes',
    'labelsForMembers',
    'dataScopes',
  ]) {
    if (keyword in spec) report(pointer('x-entity', keyword), `"${keyword}" does not apply to rows of another document`);
  }
  if (model.workflow) report('/x-workflow', 'rows of another document follow its approval; they have no workflow of their own');
  for (const keyword of Object.keys(model.extensions)) report(`/${keyword}`, `rows of another document cannot have ${keyword}`);
  if (model.details.length) report(pointer('properties', model.details[0].name), 'rows of another document have no detail arrays');
  for (const [name, from] of Object.entries(rowsOf.parentFields)) {
    const at = pointer('x-entity', 'rowsOf', 'parentFields', name);
    const own = model.fieldMap[name];
    const source = parent.fieldMap[from];
    if (!own) report(at, `"${name}" is not a property`);
    else if (!source) report(at, `"${from}" is not a header field of ${rowsOf.entity}`);
    else if (own.kind !== source.kind) report(at, `${rowsOf.entity}.${from} is ${source.kind}, "${name}" is ${own.kind}`);
    if (own && detail.fieldMap[name])
      report(at, `"${name}" is a row field of ${rowsOf.entity}.${rowsOf.detail}; a parent field needs another name`);
  }
  for (const f of model.fields) {
    if (f.system || f.name in rowsOf.parentFields) continue;
    const row = detail.fieldMap[f.name];
    const at = pointer('properties', f.name);
    if (!row)
      report(at, `"${f.name}" is neither a row field of ${rowsOf.entity}.${rowsOf.detail} nor named in x-entity.rowsOf.parentFields`);
    else if (row.kind !== f.kind || row.column !== f.column)
      report(at, `"${f.name}" must be read as ${rowsOf.entity}.${rowsOf.detail}.${f.name} is stored (${row.kind}, column ${row.column})`);
  }
}

/** x-entity.readOnly: nothing may offer a write the server does not answer. */
function lintReadOnly(model: EntityModel, report: Report) {
  model.list.rowActions.forEach(
    (a, i) => a === 'view' || report(pointer('x-list', 'rowActions', i), `row action "${a}" on a readOnly entity`),
  );
  model.list.batchActions.forEach(
    (a, i) => a === 'delete' && report(pointer('x-list', 'batchActions', i), 'batch delete on a readOnly entity'),
  );
  for (const [path, action] of Object.entries(model.routes)) {
    if (WRITE_ROUTES.has(action))
      report(pointer('x-entity', 'routes', path), `route "${path}" answers like "${action}", which a readOnly entity does not have`);
  }
  if (model.workflow) report('/x-workflow', 'a readOnly entity cannot pass through a workflow (submit writes it)');
}

/** x-workflow names fields the server writes (status, instance) and fields handlers may change. */
function lintWorkflow(model: EntityModel, dictionaries: DictionaryDef[], report: Report) {
  const wf = model.workflow!;
  const own = (name: string) => (model.fieldMap[name] && !model.fieldMap[name].system ? model.fieldMap[name] : undefined);
  const status = own(wf.statusField);
  if (!status) report('/x-workflow/statusField', `status field "${wf.statusField}" is not a property`);
  else if (status.kind !== 'string' || !status.readOnly)
    report('/x-workflow/statusField', `status field "${wf.statusField}" must be a readOnly string (only the workflow sets it)`);
  if (wf.instanceField !== undefined) {
    const instance = own(wf.instanceField);
    if (!instance) report('/x-workflow/instanceField', `instance field "${wf.instanceField}" is not a property`);
    else if (instance.kind !== 'id' || !instance.readOnly)
      report('/x-workflow/instanceField', `instance field "${wf.instanceField}" must be a readOnly id`);
  }
  for (const [variable, field] of Object.entries(wf.variables)) {
    if (!own(field)) report(pointer('x-workflow', 'variables', variable), `variable "${variable}" reads unknown field "${field}"`);
  }
  for (const [task, fields] of Object.entries(wf.editable)) {
    fields.forEach((field, i) => {
      const f = own(field);
      if (!f && !model.details.some((d) => d.name === field))
        report(pointer('x-workflow', 'editable', task, i), `editable field "${field}" is not a property`);
      else if (f && (f.readOnly || field === wf.statusField))
        report(pointer('x-workflow', 'editable', task, i), `editable field "${field}" is readOnly`);
    });
  }
  for (const [field, value] of Object.entries(wf.onApproved)) {
    const f = own(field);
    const at = pointer('x-workflow', 'onApproved', field);
    if (!f) report(at, `onApproved sets unknown field "${field}"`);
    else if (!f.readOnly || field === wf.statusField)
      report(at, `onApproved field "${field}" must be readOnly (only the workflow sets it)`);
    else {
      const dict = f.dict && dictionaries.find((d) => d.code === f.dict!.code && d.source === f.dict!.source);
      const allowed = f.options?.map((o) => String(o.value)) ?? dict?.items.map((item) => item.key);
      if (allowed && !allowed.includes(value)) report(at, `"${value}" is not a value of "${field}"`);
    }
  }
}

interface LintContext {
  entities: Record<string, EntityModel>;
  dictionaries: DictionaryDef[];
  report: Report;
}

/** x-ref.inherit: header references only, onto editable fields of this record, from fields of the same kind. */
function lintInherit(
  f: FieldModel,
  fieldMap: Readonly<Record<string, FieldModel>>,
  target: EntityModel,
  header: boolean,
  report: (where: string, message: string) => void,
) {
  if (!header) report('/x-ref/inherit', 'only a header reference passes terms on (x-ref.inherit)');
  if (f.ref!.separator) report('/x-ref/inherit', 'a comma-joined reference cannot pass terms on');
  for (const [name, term] of Object.entries(f.ref!.inherit)) {
    const mine = fieldMap[name];
    const theirs = target.fieldMap[term.from];
    if (!mine) report('/x-ref/inherit', `inherit target "${name}" is not a field of this record`);
    else if (mine.readOnly || mine.system)
      report('/x-ref/inherit', `inherit target "${name}" is read-only (a snapshot belongs in x-ref.copy)`);
    else if (name in f.ref!.copy) report('/x-ref/inherit', `"${name}" is both copied and inherited`);
    if (!theirs) report('/x-ref/inherit', `inherit source "${term.from}" is not a field of ${f.ref!.entity}`);
    else if (mine && mine.kind !== theirs.kind)
      report('/x-ref/inherit', `inherit target "${name}" (${mine.kind}) and source "${term.from}" (${theirs.kind}) differ in kind`);
  }
}

function lintFields(
  fields: readonly FieldModel[],
  fieldMap: Readonly<Record<string, FieldModel>>,
  at: (name: string) => string,
  { entities, dictionaries, report }: LintContext,
  owner: EntityModel,
) {
  for (const f of fields) {
    if (f.system) continue;
    if (f.link && fields !== owner.fields) report(at(f.name) + '/x-db/link', 'a link table (x-db.link) is for header fields');
    if (f.kind === 'string' && f.maxLength === undefined && !f.dict && !f.options && !f.link) {
      report(at(f.name), `string property "${f.name}" needs maxLength`);
    }
    if (f.kind !== 'id' && typeof f.schema.pattern === 'string' && !Array.isArray(f.schema.examples)) {
      report(at(f.name), `property "${f.name}" has a pattern but no examples (they document the format and feed the conformance tests)`);
    }
    if (f.ref) {
      const target = entities[f.ref.entity];
      if (f.ref.separator && (f.kind !== 'string' || Object.keys(f.ref.copy).length))
        report(at(f.name) + '/x-ref/separator', 'a comma-joined reference must be a string and cannot copy fields');
      if (!target) report(at(f.name) + '/x-ref/entity', `x-ref names unknown entity "${f.ref.entity}"`);
      else {
        if (!(f.ref.valueField in target.fieldMap))
          report(at(f.name) + '/x-ref/valueField', `"${f.ref.valueField}" is not a field of ${f.ref.entity}`);
        if (f.ref.labelField && !(f.ref.labelField in target.fieldMap))
          report(at(f.name) + '/x-ref/labelField', `"${f.ref.labelField}" is not a field of ${f.ref.entity}`);
        for (const [targetField, sourceField] of Object.entries(f.ref.copy)) {
          if (!(targetField in fieldMap)) report(at(f.name) + '/x-ref/copy', `copy target "${targetField}" is not a field of this record`);
          if (!(sourceField in target.fieldMap))
            report(at(f.name) + '/x-ref/copy', `copy source "${sourceField}" is not a field of ${f.ref.entity}`);
        }
      }
      if (target && Object.keys(f.ref.inherit).length)
        lintInherit(f, fieldMap, target, fields === owner.fields, (where, message) => report(at(f.name) + where, message));
      if (f.ref.filter)
        for (const name of fieldsOf(f.ref.filter)) {
          if (target && !(name in target.fieldMap) && !(name in fieldMap))
            report(at(f.name) + '/x-ref/filter', `filter names unknown field "${name}"`);
        }
      for (const dep of f.ref.dependsOn)
        if (!(dep in fieldMap)) report(at(f.name) + '/x-ref/dependsOn', `dependsOn names unknown field "${dep}"`);
    }
    if (f.dict) {
      const dict = dictionaries.find((d) => d.code === f.dict!.code && d.source === f.dict!.source);
      if (!dict) report(at(f.name) + '/x-dict/code', `unknown ${f.dict.source} dictionary "${f.dict.code}"`);
    }
    if (f.display?.type === 'message' && (f.kind !== 'string' || f.dict || f.ref || f.options))
      report(at(f.name) + '/x-display/type', 'a stored message (key and parameters) is a plain string field');
    if (f.compute)
      lintCompute(f, fieldMap, owner, dictionaries, (message, where = '/expr') => report(at(f.name) + '/x-compute' + where, message));
    if (f.rules) {
      for (const key of ['visibleIf', 'requiredIf', 'readonlyIf'] as const) {
        const pred = f.rules[key];
        if (pred)
          for (const name of fieldsOf(pred))
            if (!(name in fieldMap)) report(`${at(f.name)}/x-rules/${key}`, `condition names unknown field "${name}"`);
      }
      for (const problem of orderProblems(f, fieldMap)) report(`${at(f.name)}/x-rules/atLeast`, problem);
    }
  }
}

/** What an x-rules.atLeast value is compared as: numbers, or one kind of date; null when it has no order. */
function orderOf(kind: FieldModel['kind']): string | null {
  if (kind === 'decimal' || kind === 'integer') return 'number';
  return kind === 'date' || kind === 'datetime' || kind === 'month' ? kind : null;
}

/** x-rules.atLeast names other fields of the record (or row) with values of the same kind. */
function orderProblems(f: FieldModel, fieldMap: Readonly<Record<string, FieldModel>>): string[] {
  const problems: string[] = [];
  for (const name of f.rules?.atLeast ?? []) {
    const other = fieldMap[name];
    if (!other) problems.push(`atLeast names unknown field "${name}"`);
    else if (name === f.name) problems.push('atLeast names the field itself');
    else if (orderOf(f.kind) === null || orderOf(f.kind) !== orderOf(other.kind))
      problems.push(`atLeast compares "${f.name}" (${f.kind}) with "${name}" (${other.kind}): both must be numbers, or dates of one kind`);
  }
  return problems;
}

/** A formula reads existing fields and sums existing columns, its types fit, its texts are the field's values. */
function lintCompute(
  f: FieldModel,
  fieldMap: Readonly<Record<string, FieldModel>>,
  owner: EntityModel,
  dictionaries: DictionaryDef[],
  report: (message: string, where?: string) => void,
) {
  const { expr } = f.compute!;
  for (const name of fieldsRead(expr)) if (!(name in fieldMap)) report(`expression reads unknown field "${name}"`);
  for (const { detail, field } of sumsRead(expr)) {
    const d = owner.details.find((x) => x.name === detail);
    if (!d) report(`sum over unknown detail "${detail}"`);
    else if (!(field in d.fieldMap)) report(`sum over unknown field "${detail}.${field}"`);
    else if (typeOfKind(d.fieldMap[field].kind) !== 'number') report(`sum over "${detail}.${field}", which is not a number`);
  }
  // a detail row's formula (its fields are not the header's) may read the header
  const inRow = fieldMap !== owner.fieldMap;
  const { type, problems } = checkExpr(expr, (name) => fieldMap[name]?.kind, inRow ? (name) => owner.fieldMap[name]?.kind : undefined);
  for (const name of inRow ? headerReads(expr) : []) {
    if (owner.fieldMap[name]?.compute && !owner.computeBeforeRows.includes(name))
      report(`header field "${name}" sums the rows, which cannot read it back`);
  }
  for (const problem of problems) report(problem);
  const target = typeOfKind(f.kind);
  if (target === null || f.kind === 'month' || f.kind === 'boolean') report(`x-compute cannot fill a ${f.kind} property`, '');
  else if (type !== null && type !== target) report(`the expression yields a ${type}, "${f.name}" holds a ${target}`);
  const allowed =
    f.options?.map((o) => String(o.value)) ??
    dictionaries.find((d) => d.code === f.dict?.code && d.source === f.dict?.source)?.items.map((i) => i.key);
  for (const text of textsYielded(expr)) if (allowed && !allowed.includes(text)) report(`text "${text}" is not a value of "${f.name}"`);
}

const CJK = /[\u3400-\u9fff]/;

/** Every title (entity, property, option, section) must carry its English text in x-i18n. */
function lintLabels(schema: JsonSchema, at: string, report: Report) {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    schema.forEach((s, i) => lintLabels(s, `${at}/${i}`, report));
    return;
  }
  if (typeof schema.title === 'string' && CJK.test(schema.title) && !schema['x-i18n']?.title) {
    report(at || '/', `title "${schema.title}" has no English text (x-i18n.title)`);
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'x-i18n' || k === 'x-compute' || k === 'x-rules' || k === 'default' || k === 'const' || k === 'examples') continue;
    if (v && typeof v === 'object') lintLabels(v as JsonSchema, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, report);
  }
}

/**
 * x-entity.dataScopes: the rules belong to a tenant's entity with a menu, and each compares a
 * header field of the right kind (a user, a department, the project).
 */
function lintDataScopes(model: EntityModel, entities: Record<string, EntityModel>, report: Report) {
  const spec = model.schema['x-entity']?.dataScopes;
  if (spec === undefined || spec === false || model.rowsOf) return;
  if (model.scope !== 'tenant' || !model.menu)
    return report('/x-entity/dataScopes', 'data scopes need a tenant entity with a menu (x-entity.menu)');
  const projectKey = Object.values(entities).find((m) => hasRole(m, PROJECT_ROLE))?.key;
  const targets: Record<string, string | undefined> = { own: 'user', ownDept: 'dept', deptTree: 'dept', ownProject: projectKey };
  for (const [kind, rule] of Object.entries(spec as Record<string, unknown>)) {
    const at = pointer('x-entity', 'dataScopes', kind);
    if (kind === 'ownProject' && rule !== false && !projectKey) {
      report(at, `own projects need a project entity (x-entity.roles "${PROJECT_ROLE}")`);
      continue;
    }
    if (kind === 'ownProject' && rule === true && !projectReference(model, projectKey))
      report(at, `${model.key} has no reference to ${projectKey}: name the field ({"field": …})`);
    if (typeof rule !== 'object' || rule === null) continue;
    const name = (rule as { field: string }).field;
    const field = model.fieldMap[name];
    const target = targets[kind];
    if (!field) report(pointer('x-entity', 'dataScopes', kind, 'field'), `"${name}" is not a header property`);
    else if (!comparesWith(model, field, kind, target))
      report(pointer('x-entity', 'dataScopes', kind, 'field'), `"${name}" must name a ${target} (an id or a reference to it)`);
  }
}

function comparesWith(model: EntityModel, field: FieldModel, kind: string, target: string | undefined): boolean {
  if (kind !== 'ownProject') return field.kind === 'id' || field.ref?.entity === target;
  return model.key === target ? field.name === 'id' : field.ref?.entity === target;
}
