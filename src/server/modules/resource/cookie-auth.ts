// File links are opened by the browser itself (<img src>, <a href>), which cannot add the
// Blade-Auth header. For GETs of file links only, the session's access-token cookie (set by the
// client, SameSite=Strict) stands in for the header; the auth guard then checks it like any token
// and the file route checks the caller's tenant. Every other route still needs the header.
import type { FastifyInstance } from 'fastify';

/** The client's cookie (src/client/state/storage.ts: `${website.keyPrefix}-access-token`). */
export const ACCESS_COOKIE = 'zhusuan-access-token';

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function registerFileCookieAuth(app: FastifyInstance, ossApi: string) {
  const prefix = `${ossApi}/file/`;
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'GET' || !request.url.startsWith(prefix) || request.headers['blade-auth']) return;
    const token = cookieValue(request.headers.cookie, ACCESS_COOKIE);
    if (token && /^[A-Za-z0-9._-]+$/.test(token)) request.headers['blade-auth'] = `bearer ${token}`;
  });
}
