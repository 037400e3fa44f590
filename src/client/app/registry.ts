// The app's renderer registry (renderers/registry.ts): the built-in widgets and displays, and the
// list actions of the administration, resource and approval screens. The approval actions follow
// the schema set, so a type code generation installs with x-workflow gets them too.
import type { EntityCatalog } from '../../engine/model/types.ts';
import { ADMIN_ACTIONS } from '../admin/register.ts';
import { mergeLists, type RendererRegistry } from '../renderers/registry.ts';
import { RESOURCE_ACTIONS } from '../shell/notifications/resource-actions.ts';
import { workflowActions } from '../workflow/register.ts';

const byCatalog = new WeakMap<EntityCatalog, RendererRegistry>();

export function appRegistry(catalog: EntityCatalog): RendererRegistry {
  let registry = byCatalog.get(catalog);
  if (!registry) {
    registry = { lists: mergeLists(ADMIN_ACTIONS, RESOURCE_ACTIONS, workflowActions(catalog)) };
    byCatalog.set(catalog, registry);
  }
  return registry;
}
