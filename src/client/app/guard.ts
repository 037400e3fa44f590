// The navigation guard (docs/client.md#the-shell), as a pure function the router applies on every navigation.
import type { MessageKey } from '../i18n/messages.ts';

export interface RouteMeta {
  /** false: open without logging in. */
  isAuth?: boolean;
  /** false: not shown as a tab. */
  isTab?: boolean;
  /** Message key of the page title. */
  title?: MessageKey;
}

export interface GuardState {
  path: string;
  meta: RouteMeta;
  /** A session exists (user info stored). */
  loggedIn: boolean;
  /** The access token cookie. */
  token: string;
  locked: boolean;
  /** Signed in with the initial (or a reset) password: only the password change opens. */
  mustChangePassword?: boolean;
}

export type GuardDecision = { kind: 'allow'; addTab: boolean } | { kind: 'redirect'; to: string; delayMs?: number; logout?: boolean };

export const LOCK_PATH = '/lock';
export const LOGIN_PATH = '/login';
export const PASSWORD_PATH = '/password';

export function guard(s: GuardState): GuardDecision {
  if (s.loggedIn && !s.token) return { kind: 'redirect', to: LOGIN_PATH, logout: true };
  if (s.loggedIn) {
    if (s.mustChangePassword) return s.path === PASSWORD_PATH ? { kind: 'allow', addTab: false } : { kind: 'redirect', to: PASSWORD_PATH };
    if (s.path === PASSWORD_PATH) return { kind: 'redirect', to: '/' };
    if (s.locked && s.path !== LOCK_PATH) return { kind: 'redirect', to: LOCK_PATH, delayMs: 100 };
    if (s.path === LOGIN_PATH) return { kind: 'redirect', to: '/' };
    return { kind: 'allow', addTab: s.meta.isTab !== false && s.meta.isAuth !== false };
  }
  if (s.meta.isAuth === false) return { kind: 'allow', addTab: false };
  return { kind: 'redirect', to: LOGIN_PATH };
}
