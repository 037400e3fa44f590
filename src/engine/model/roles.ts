// Roles bind document types to the built-in cost rules as data (x-entity.roles). The ledger, the
// early warnings and the statistics are written against roles such as "stock.receipt"; each
// schema says which roles it plays. Code under src/ thus never names a business entity, and a
// deployment that renames or adds a document type binds it by editing its schema.
import type { DetailModel, EntityCatalog, EntityModel, FieldModel } from './types.ts';

/** Whether a document type plays a role. */
export function hasRole(model: EntityModel, role: string): boolean {
  return model.roles.includes(role);
}

/** Every document type playing a role, in manifest order (none is a valid answer). */
export function entitiesWithRole(catalog: EntityCatalog, role: string): EntityModel[] {
  return Object.values(catalog.entities).filter((m) => hasRole(m, role));
}

/**
 * The one document type playing a role. A rule module calls it when it starts, so a schema set
 * that lacks the role, or gives it to two types, refuses to start with the role named.
 */
export function entityWithRole(catalog: EntityCatalog, role: string): EntityModel {
  const found = entitiesWithRole(catalog, role);
  if (found.length === 1) return found[0];
  const which = found.length ? `${found.length} entities (${found.map((m) => m.key).join(', ')}) do` : 'none does';
  throw new Error(`exactly one entity must declare x-entity.roles "${role}"; ${which}`);
}

/** The one document type playing a role, or undefined when none does (optional rules). */
export function optionalEntityWithRole(catalog: EntityCatalog, role: string): EntityModel | undefined {
  return entitiesWithRole(catalog, role).length ? entityWithRole(catalog, role) : undefined;
}

/** A document's header, or one of its details: what holds fields playing roles. */
export type FieldRoleOwner = Pick<EntityModel, 'fields' | 'fieldMap' | 'fieldRoles'> | DetailModel;

/** Document roles are dotted ("master.project"); a field role of that form is a reference to such a document. */
const isDocumentRole = (role: string) => role.includes('.');

/** The references of a header or detail to documents playing a role. */
function referencesTo(entities: Readonly<Record<string, EntityModel>>, owner: FieldRoleOwner, role: string): FieldModel[] {
  return owner.fields.filter((f) => !f.system && f.ref && entities[f.ref.entity] && hasRole(entities[f.ref.entity], role));
}

/**
 * The field playing a field role in a document's header or in one of its details: the one its
 * fieldRoles names, or, for a document role ("master.project"), its one reference to the document
 * type playing it. Undefined when none does; an error when two references could.
 */
export function fieldWithRole(
  entities: Readonly<Record<string, EntityModel>>,
  owner: FieldRoleOwner,
  role: string,
): FieldModel | undefined {
  const declared = owner.fieldRoles[role];
  if (declared !== undefined) return owner.fieldMap[declared];
  if (!isDocumentRole(role)) return undefined;
  const found = referencesTo(entities, owner, role);
  if (found.length > 1)
    throw new Error(`${found.map((f) => f.name).join(' and ')} both refer to "${role}": name one in fieldRoles ({"${role}": …})`);
  return found[0];
}

/**
 * The fields a rule reads of a document playing `documentRole`, by field role. A rule binds them
 * when the server starts, so that a schema whose field was renamed (or whose fieldRoles lack one)
 * refuses to start, naming the document, its role and the field role.
 */
export function fieldsWithRoles<R extends string>(
  entities: Readonly<Record<string, EntityModel>>,
  model: EntityModel,
  documentRole: string,
  roles: readonly R[],
  detail?: DetailModel,
): Record<R, FieldModel> {
  const owner = detail ?? model;
  const bound = {} as Record<R, FieldModel>;
  for (const role of roles) {
    const field = fieldWithRole(entities, owner, role);
    if (!field) {
      const where = detail
        ? `its ${detail.name} have no field playing "${role}" (x-detail.fieldRoles)`
        : `it has no field playing "${role}" (x-entity.fieldRoles)`;
      throw new Error(`${model.key} plays "${documentRole}" but ${where}`);
    }
    bound[role] = field;
  }
  return bound;
}

/**
 * The detail of a document whose rows carry every field role a rule reads of its lines (the first
 * such detail), with those fields: refused, naming the document and its role, when none does.
 */
export function linesWithRoles<R extends string>(
  entities: Readonly<Record<string, EntityModel>>,
  model: EntityModel,
  documentRole: string,
  roles: readonly R[],
): { detail: DetailModel; fields: Record<R, FieldModel> } {
  for (const detail of model.details) {
    const found = roles.map((role) => [role, fieldWithRole(entities, detail, role)] as const);
    if (found.every(([, f]) => f)) return { detail, fields: Object.fromEntries(found) as Record<R, FieldModel> };
  }
  const names = roles.map((r) => `"${r}"`).join(', ');
  throw new Error(`${model.key} plays "${documentRole}" but no detail of it has rows with fields playing ${names} (x-detail.fieldRoles)`);
}
