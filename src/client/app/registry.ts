// The app's renderer registry (renderers/registry.ts): the built-in widgets and displays, the list
// actions of the administration, resource and approval screens, and the cost rules' form and detail
// panels. The approval actions are computed from the catalog given.
import type { EntityCatalog } from '../../engine/model/types.ts';
import { ADMIN_ACTIONS } from '../admin/register.ts';
import { mergeLists, type RendererRegistry } from '../renderers/registry.ts';
import { RULE_PANELS } from '../../packs/cost/client/panels/panels.tsx';
import { RESOURCE_ACTIONS } from '../shell/notifications/resource-actions.ts';
import { workflowActions } from '../workflow/register.ts';

const byCatalog = new WeakMap<EntityCatalog, RendererRegistry>();

export function appRegistry(catalog: EntityCatalog): RendererRegistry {
  let registry = byCatalog.get(catalog);
  if (!registry) {
    registry = { ...RULE_PANELS, lists: mergeLists(ADMIN_ACTIONS, RESOURCE_ACTIONS, workflowActions(catalog)) };
    byCatalog.set(catalog, registry);
  }
  return registry;
}
