// The data-scope rules a document type offers out of the box, derived from its schema
// (x-entity.dataScopes): all records, the own department's, the own department's and those below,
// the own records, and — where the document names its project — the own projects'. The server
// keeps one rule row per document type and kind (src/server/security/derived-scopes.ts), so any
// tenant's administrator can grant them to a role without the platform writing a rule first.
import { hasRole } from './roles.ts';
import type { DataScopeKind, DerivedScopeModel, EntityModel, Label } from './types.ts';

/** The role of the project entity, whose departments define a user's own projects. */
export const PROJECT_ROLE = 'master.project';

/** The platform's rule types (dictionary data_scope_type), 6 being ours: own projects. */
export const SCOPE_TYPE: Record<DataScopeKind, string> = { all: '1', own: '2', ownDept: '3', deptTree: '4', ownProject: '6' };

export const SCOPE_KIND_LABELS: Record<DataScopeKind, Label> = {
  all: { zh: '全部数据', en: 'All records' },
  ownDept: { zh: '本部门', en: 'Own department' },
  deptTree: { zh: '本部门及以下', en: 'Own department and below' },
  own: { zh: '本人', en: 'Own records' },
  ownProject: { zh: '所属项目', en: 'Own projects' },
};

/** The order the rules are offered in. */
export const SCOPE_KINDS: readonly DataScopeKind[] = ['all', 'ownDept', 'deptTree', 'own', 'ownProject'];

/** What x-entity.dataScopes says of one rule: off, on with its default field, or on comparing `field`. */
type RuleSpec = boolean | { field: string } | undefined;

/**
 * Whether the records are documents that get the rules without asking: a tenant's entity with a
 * menu, written by people (not rows of another document nor a log), that goes through an approval
 * or belongs to a project (or is the project).
 */
export function isDocumentType(model: EntityModel, projectKey: string | undefined): boolean {
  if (model.scope !== 'tenant' || !model.menu || model.rowsOf || model.readOnly) return false;
  return model.workflow !== undefined || model.key === projectKey || projectReference(model, projectKey) !== undefined;
}

/** The header field naming the document's project (the project itself: its id). */
export function projectReference(model: EntityModel, projectKey: string | undefined): string | undefined {
  if (!projectKey) return undefined;
  if (model.key === projectKey) return 'id';
  return model.fields.find((f) => !f.system && f.ref?.entity === projectKey)?.name;
}

const DEFAULT_FIELD: Record<DataScopeKind, (model: EntityModel, projectKey: string | undefined) => string | undefined> = {
  all: () => undefined,
  ownDept: () => 'createDept',
  deptTree: () => 'createDept',
  own: () => 'createUser',
  ownProject: projectReference,
};

/** The rules of one document type: none when it is no document type or says `"dataScopes": false`. */
export function dataScopesOf(model: EntityModel, projectKey: string | undefined): DerivedScopeModel[] {
  const spec = model.schema['x-entity']?.dataScopes as false | Partial<Record<DataScopeKind, RuleSpec>> | undefined;
  if (spec === false || model.scope !== 'tenant' || !model.menu) return [];
  if (spec === undefined && !isDocumentType(model, projectKey)) return [];
  const rules: DerivedScopeModel[] = [];
  for (const kind of SCOPE_KINDS) {
    const rule = spec?.[kind];
    if (rule === false) continue;
    const field = typeof rule === 'object' ? rule.field : DEFAULT_FIELD[kind](model, projectKey);
    // own projects need a project reference (and a project entity to read the departments of)
    if (kind !== 'all' && field === undefined) continue;
    rules.push({ kind, scopeType: SCOPE_TYPE[kind], ...(field !== undefined && { field }), label: SCOPE_KIND_LABELS[kind] });
  }
  return rules;
}

/** Fills every entity's derived rules (compile() calls it once all entities are built). */
export function deriveDataScopes(entities: Record<string, EntityModel>) {
  const projectKey = Object.values(entities).find((m) => hasRole(m, PROJECT_ROLE))?.key;
  for (const model of Object.values(entities))
    (model as { dataScopes: readonly DerivedScopeModel[] }).dataScopes = dataScopesOf(model, projectKey);
}
