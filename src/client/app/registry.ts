// Where the signed-in app is put together with its packs: their engine faces, installed before the
// schema set compiles, and the app's renderer registry (renderers/registry.ts): the built-in widgets
// and displays, the list actions of the administration, resource and approval screens, and the cost
// rules' panels. The approval actions are computed from the catalog given.
import type { EntityCatalog } from '../../engine/model/types.ts';
import { installPacks } from '../../engine/packs.ts';
import { ENGINE_PACKS } from '../../packs/engine.ts';
import { ADMIN_ACTIONS } from '../admin/register.ts';
import { mergeLists, type RendererRegistry } from '../renderers/registry.ts';
import { RULE_PANELS } from '../../packs/cost/client/panels/panels.tsx';
import { RESOURCE_ACTIONS } from '../shell/notifications/resource-actions.ts';
import { workflowActions } from '../workflow/register.ts';

/** Installs the packs' engine faces (before the schema set compiles: x-cumulative, stored texts). */
export function installAppPacks(): void {
  installPacks(ENGINE_PACKS);
}

const byCatalog = new WeakMap<EntityCatalog, RendererRegistry>();

export function appRegistry(catalog: EntityCatalog): RendererRegistry {
  let registry = byCatalog.get(catalog);
  if (!registry) {
    registry = { ...RULE_PANELS, lists: mergeLists(ADMIN_ACTIONS, RESOURCE_ACTIONS, workflowActions(catalog)) };
    byCatalog.set(catalog, registry);
  }
  return registry;
}
