// What a session loads from the server: the sidebar menus (of the chosen top menu), the button
// permissions, and the schema set the document pages are compiled from.
import { authApi, http } from '../api/client.ts';
import type { SchemaSet } from '../renderers/catalog.ts';
import { atom, type WritableAtom } from 'jotai';
import { keepEarly, takeEarly } from './prefetch.ts';
import { appStore, menusAtom, permissionAtom, permissionsFrom, topMenuIdAtom } from '../state/session.ts';

let menuRequests = 0;
let menuRequestsUnderWay = 0;

/**
 * Whether a menus request of this page load has been answered, or has failed. Until then an address
 * that matches none of the stored menus may still be one of the user's pages: the menus are stored a
 * moment after sign-in (a page loaded before that has none), and a grant given since is not among them.
 */
export const menusAnsweredAtom = atom(false);

/**
 * The sidebar's menus of a top menu (the stored one by default). The request made last wins whichever
 * answer comes first: a top menu chosen while the page load's request is under way stays chosen.
 */
export async function loadMenus(topMenuId: string | null = appStore.get(topMenuIdAtom)) {
  const request = ++menuRequests;
  appStore.set(topMenuIdAtom, topMenuId);
  menuRequestsUnderWay++;
  try {
    const menus = await authApi.routes(topMenuId);
    if (request === menuRequests) setIfChanged(menusAtom, menus);
  } finally {
    menuRequestsUnderWay--;
    appStore.set(menusAnsweredAtom, true);
  }
}

/**
 * Asks for the menus and the buttons unless the menus have answered or are being asked for (the
 * router, for an address none of the stored menus matches: a page loaded before sign-in stored them
 * has neither).
 */
export function requestSessionOnce() {
  if (appStore.get(menusAnsweredAtom) || menuRequestsUnderWay > 0) return;
  // a failure leaves what is stored, and the address is judged by it
  Promise.all([loadMenus(), loadPermissions()]).catch(() => undefined);
}

export async function loadPermissions() {
  setIfChanged(permissionAtom, permissionsFrom(await authApi.buttons()));
}

/**
 * An answer equal to what is stored changes nothing: the page load's menus and buttons, usually the
 * ones stored at sign-in, arrive while the page renders, and a new value would render the shell and
 * the page again (the router resolves the route from the menus).
 */
function setIfChanged<T>(target: WritableAtom<T, [T], void>, value: T) {
  if (JSON.stringify(appStore.get(target)) !== JSON.stringify(value)) appStore.set(target, value);
}

export async function loadSession() {
  await Promise.all([loadMenus(null), loadPermissions()]);
}

/** The schema set is not enveloped: its early request is kept apart from the enveloped GETs of the same address. */
const UNENVELOPED = { raw: true };

/**
 * Asks for the schema set now, before the catalog's code has arrived (a page load of a signed-in
 * page, from the entry script): the catalog's first load takes this answer rather than asking again.
 */
export function requestSchemaSet(url: string) {
  void keepEarly(url, UNENVELOPED, http.raw<SchemaSet>('get', url));
}

/** The schema set (GET /api/schemas, not enveloped), for renderers/catalog.ts loadCatalog(): the request made early, once, else a new one. */
export const fetchSchemaSet = (url: string): Promise<SchemaSet> =>
  takeEarly<SchemaSet>(url, UNENVELOPED) ?? http.raw<SchemaSet>('get', url);
