// Where the line runs between a tenant's business data, which may live on a database of its own,
// and the platform data, which stays on the main database.
//
// Business data: every tenant-scoped document type that is not under a platform folder (the
// construct documents with their detail rows, the early-warning tips, and any document type added
// later), the workflow tables (instances, tasks, history, definitions: a step and the document's
// approval status commit together), the material ledger and the numbering sequences. A save with
// its detail rows and number, and a workflow step with its document, each run on one database.
//
// Platform data: users, roles, departments, posts, menus, grants, tenants and packages,
// parameters, dictionaries, regions, notices, messages, files and attachments, logs, reports, data
// sources and code generation. Business transactions read some of it (a dictionary, a parameter,
// the users of a task); for a tenant on a database of its own those reads go to the main database,
// outside the transaction. Messages a step or a warning sends are written there too, in a
// transaction of their own (they name users and join them).
import type { EntityCatalog, EntityModel } from '../../engine/model/types.ts';

const PLATFORM_FOLDERS = ['system', 'desk', 'message', 'resource', 'log', 'report', 'develop'];

/** Tables of the modules that hold business data (besides the document types' own tables). */
export const TENANT_MODULE_TABLES = [
  'zs_sequence',
  'wf_model',
  'wf_deployment',
  'wf_definition',
  'wf_default_seed',
  'wf_instance',
  'wf_task',
  'wf_history',
  'material_ledger',
  'material_ledger_close',
] as const;

/** True when the entity's rows are a tenant's business data (they go with the tenant's database). */
export function isTenantData(model: EntityModel): boolean {
  if (model.scope !== 'tenant') return false;
  const folder = /(?:^|\/)schemas\/([^/]+)\//.exec(model.file ?? '')?.[1];
  return !folder || !PLATFORM_FOLDERS.includes(folder);
}

/** The catalog restricted to business data: what a tenant database is migrated to. */
export function tenantDataCatalog(catalog: EntityCatalog): EntityCatalog {
  const entities = Object.fromEntries(Object.entries(catalog.entities).filter(([, m]) => isTenantData(m)));
  return { ...catalog, entities };
}

/** Every table of a tenant's business data: document headers, their detail rows, module tables. */
export function tenantDataTables(catalog: EntityCatalog): string[] {
  const tables = new Set<string>(TENANT_MODULE_TABLES);
  for (const m of Object.values(catalog.entities)) {
    if (!isTenantData(m) || m.rowsOf) continue;
    tables.add(m.table);
    for (const d of m.details) tables.add(d.table);
    // link tables (x-db.link) carry the tenant too, and move with their records
    for (const f of m.columns) if (f.link) tables.add(f.link.table);
  }
  return [...tables];
}
