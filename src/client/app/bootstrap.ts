// What a session loads from the server: the sidebar menus (of the chosen top menu), the button
// permissions, and the schema set the document pages are compiled from.
import { authApi, http } from '../api/client.ts';
import type { SchemaSet } from '../renderers/catalog.ts';
import { appStore, menusAtom, permissionAtom, permissionsFrom, topMenuIdAtom } from '../state/session.ts';

export async function loadMenus(topMenuId: string | null = appStore.get(topMenuIdAtom)) {
  appStore.set(topMenuIdAtom, topMenuId);
  appStore.set(menusAtom, await authApi.routes(topMenuId));
}

export async function loadPermissions() {
  appStore.set(permissionAtom, permissionsFrom(await authApi.buttons()));
}

export async function loadSession() {
  await Promise.all([loadMenus(null), loadPermissions()]);
}

/** The schema set (GET /api/schemas, not enveloped), for renderers/catalog.ts loadCatalog(). */
export const fetchSchemaSet = (url: string) => http.raw<SchemaSet>('get', url);
