// Roles bind document types to the built-in cost rules as data (x-entity.roles). The ledger, the
// early warnings and the statistics are written against roles such as "stock.receipt"; each
// schema says which roles it plays. Code under src/ thus never names a business entity, and a
// deployment that renames or adds a document type binds it by editing its schema.
import type { EntityCatalog, EntityModel } from './types.ts';

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
