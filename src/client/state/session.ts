// Client state that outlives a render: the session (token, user, menus, buttons), tabs, lock,
// theme, language, the local error log. Jotai atoms in one store, so that non-React code (the HTTP
// client, the token timer) reads and writes the same state as the components.
import { atom, createStore } from 'jotai';
import { website, type ThemeName } from '../app/website.ts';
import { getStore, removeStore, setStore, tokenStore } from './storage.ts';

export interface UserInfo {
  account: string;
  user_name: string;
  nick_name: string;
  real_name: string;
  role_name: string;
  role_id: string;
  dept_id: string;
  user_id: string;
  tenant_id: string;
  oauth_id: string;
  avatar: string;
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  /** Signed in with the initial (or a reset) password: nothing opens before it is changed (ours, not the platform's). */
  must_change_password?: boolean;
}

export interface MenuNode {
  id: string;
  parentId: string;
  code: string;
  name: string;
  nameEn?: string;
  path: string;
  source?: string;
  sort: number;
  category: number;
  isOpen?: number;
  meta?: { roles?: string[]; i18n?: string };
  children?: MenuNode[];
}

export interface Tab {
  label: string;
  value: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  meta?: Record<string, unknown>;
  group?: string[];
  close: boolean;
}

export interface ErrorLogEntry {
  url: string;
  time: string;
  type: string;
  message: string;
  stack: string;
  info: string;
}

export type Lang = 'zh' | 'en';

export const appStore = createStore();

function persisted<T>(name: string, initial: T, session = false) {
  const base = atom<T>(getStore<T>(name) ?? initial);
  return atom(
    (get) => get(base),
    (_get, set, value: T) => {
      set(base, value);
      if (value === undefined || value === null) removeStore(name);
      else setStore(name, value, session);
    },
  );
}

export const HOME_TAB: Tab = { label: website.firstPage.label, value: website.firstPage.path, close: false };

export const userInfoAtom = persisted<UserInfo | null>('userInfo', null);
export const tokenAtom = atom<string>(typeof document === 'undefined' ? '' : tokenStore.access);
export const menusAtom = persisted<MenuNode[]>('menu', []);
/** Button codes the user holds: {user_add: true, …} (session storage, as the platform keeps it). */
export const permissionAtom = persisted<Record<string, boolean>>('permission', {}, true);
export const tabsAtom = persisted<Tab[]>('tabs', [HOME_TAB]);
export const lockPasswordAtom = persisted<string | null>('lockPasswd', null, true);
export const themeAtom = persisted<ThemeName>('theme', website.theme as ThemeName);
export const langAtom = persisted<Lang>('language', website.language);
export const collapseAtom = persisted<boolean>('collapse', false);
export const topMenuIdAtom = atom<string | null>(null);
export const errorLogAtom = persisted<ErrorLogEntry[]>('logs', []);
/** Visits per route, for the home page's tiles. */
export const visitsAtom = persisted<Record<string, number>>('visits', {});

/** A successful login: tokens stored, tabs back to home only, lock cleared. */
export function startSession(info: UserInfo) {
  tokenStore.set(info.access_token, info.refresh_token);
  setStore('tenantId', info.tenant_id);
  appStore.set(tokenAtom, info.access_token);
  appStore.set(userInfoAtom, info);
  appStore.set(tabsAtom, [HOME_TAB]);
  appStore.set(lockPasswordAtom, null);
}

/** A refreshed token keeps the session as it is. */
export function renewSession(info: UserInfo) {
  tokenStore.set(info.access_token, info.refresh_token);
  appStore.set(tokenAtom, info.access_token);
  appStore.set(userInfoAtom, info);
}

/** Logout or forced logout: token, menus, roles, tabs and lock are cleared. */
export function endSession() {
  tokenStore.clear();
  appStore.set(tokenAtom, '');
  appStore.set(userInfoAtom, null);
  appStore.set(menusAtom, []);
  appStore.set(permissionAtom, {});
  appStore.set(tabsAtom, [HOME_TAB]);
  appStore.set(lockPasswordAtom, null);
}

/** Leaf codes of the button tree become the permission map. */
export function permissionsFrom(tree: MenuNode[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const walk = (n: MenuNode) => (n.children?.length ? n.children.forEach(walk) : (out[n.code] = true));
  tree.forEach(walk);
  return out;
}

export function logError(entry: Omit<ErrorLogEntry, 'time' | 'url'> & { url?: string }) {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  const logs = appStore.get(errorLogAtom);
  appStore.set(
    errorLogAtom,
    [
      { url: entry.url ?? window.location.pathname, time, type: entry.type, message: entry.message, stack: entry.stack, info: entry.info },
      ...logs,
    ].slice(0, 500),
  );
}
