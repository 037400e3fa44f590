// Local storage in the platform's format: every entry under the key prefix, holding
// {type, content, datetime}, in session storage or persistent (local) storage. Tokens live in
// cookies of their own (access and refresh separately).
import { website } from '../app/website.ts';

interface Entry<T> {
  type: string;
  content: T;
  datetime: number;
}

const key = (name: string) => `${website.keyPrefix}-${name}`;
const area = (session: boolean) => (session ? window.sessionStorage : window.localStorage);

export function setStore<T>(name: string, content: T, session = false): void {
  const entry: Entry<T> = { type: typeof content, content, datetime: Date.now() };
  area(session).setItem(key(name), JSON.stringify(entry));
}

export function getEntry<T>(name: string): Entry<T> | undefined {
  const raw = window.sessionStorage.getItem(key(name)) ?? window.localStorage.getItem(key(name));
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Entry<T>;
  } catch {
    return undefined;
  }
}

export function getStore<T>(name: string): T | undefined {
  return getEntry<T>(name)?.content;
}

export function removeStore(name: string): void {
  window.sessionStorage.removeItem(key(name));
  window.localStorage.removeItem(key(name));
}

// ---- token cookies ----
const ACCESS = `${website.keyPrefix}-access-token`;
const REFRESH = `${website.keyPrefix}-refresh-token`;

function setCookie(name: string, value: string) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Strict`;
}

function getCookie(name: string): string {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : '';
}

function removeCookie(name: string) {
  document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}

export const tokenStore = {
  get access(): string {
    return getCookie(ACCESS);
  },
  get refresh(): string {
    return getCookie(REFRESH);
  },
  set(access: string, refresh: string) {
    setCookie(ACCESS, access);
    setCookie(REFRESH, refresh);
    setStore('token-time', Date.now());
  },
  /** When the stored token was obtained (ms). */
  get obtainedAt(): number {
    return getStore<number>('token-time') ?? 0;
  },
  clear() {
    removeCookie(ACCESS);
    removeCookie(REFRESH);
    removeStore('token-time');
  },
};
