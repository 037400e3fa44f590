// What a session loads from the server: the sidebar menus (of the chosen top menu) and the
// button permissions.
import { authApi } from '../api/client.ts';
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
