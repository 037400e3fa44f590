// Every API route also answers without its /api prefix (/blade-system/user/list as well as
// /api/blade-system/user/list): the platform's open-source client strips /api in its development
// proxy, and deployments often mount the gateway at the root. The routes are registered once; a
// request whose path, prefixed, is one of them is rewritten to that path before the router (and
// every check after it) sees it. A path that is no API route keeps its spelling, so the client's
// own pages (/construct/contract…) are never taken for the API.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';

export const API_PREFIX = '/api';

export interface UnprefixedApi {
  /** Fastify's rewriteUrl: the request's URL as the router should read it. */
  rewrite(request: IncomingMessage): string;
  /** Learns the API's routes as they are registered (call before any route is). */
  follow(app: FastifyInstance): void;
}

export function unprefixedApi(): UnprefixedApi {
  // the API's routes without their prefix, matched as Fastify's own router matches them
  const routes = FindMyWay();
  const noop = () => undefined;
  return {
    rewrite(request) {
      const url = request.url ?? '/';
      if (url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)) return url;
      const end = url.search(/[?#]/);
      const path = end < 0 ? url : url.slice(0, end);
      return routes.find((request.method ?? 'GET') as HTTPMethod, path) ? API_PREFIX + url : url;
    },
    follow(app) {
      app.addHook('onRoute', (route) => {
        // a wildcard (the catch-all of types added while running, late-routes.ts) would take every
        // page of the client for the API: those answer under /api only
        if (!route.url.startsWith(`${API_PREFIX}/`) || route.url.includes('*')) return;
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const path = route.url.slice(API_PREFIX.length);
        for (const method of methods) if (!routes.hasRoute(method as HTTPMethod, path)) routes.on(method as HTTPMethod, path, noop);
      });
    },
  };
}

/**
 * Whether a path names the API however it is spelled (`/api%2Fschemas`, `//api/...`), or a service
 * of the platform without the prefix (`/blade-system/...`, which no page of the client uses): such a
 * path never gets the client's page, so an unknown API path answers 404 in every spelling.
 */
export function isApiPath(url: string): boolean {
  const path = url.split('?')[0];
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return /^\/+(?:api(?:[/;]|$)|blade-)/i.test(decoded);
}
