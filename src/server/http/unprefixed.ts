// Every API route also answers without its /api prefix (/blade-system/user/list as well as
// /api/blade-system/user/list): the platform's open-source client strips /api in its development
// proxy, and deployments often mount the gateway at the root. The routes are registered once; a
// request whose path, prefixed, is one of them is rewritten to that path before the router (and
// every check after it) sees it. A path that is no API route keeps its spelling, so the client's
// own pages (/construct/contract…) are never taken for the API.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { RouteTable } from './route-table.ts';

export const API_PREFIX = '/api';

export interface UnprefixedApi {
  /** Fastify's rewriteUrl: the request's URL as the router should read it. */
  rewrite(request: IncomingMessage): string;
  /** The app whose routes the unprefixed paths are matched against (before it serves a request), and its table of generic routes. */
  follow(app: FastifyInstance, table: RouteTable): void;
}

export function unprefixedApi(): UnprefixedApi {
  // asked of Fastify's own router, so no second router is built route by route at start-up
  let app: FastifyInstance | undefined;
  let table: RouteTable | undefined;
  return {
    rewrite(request) {
      const url = request.url ?? '/';
      if (!app || url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`)) return url;
      const end = url.search(/[?#]/);
      const path = end < 0 ? url : url.slice(0, end);
      const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
      const route = app.findRoute({ method: method as HTTPMethods, url: API_PREFIX + path });
      // the catch-all of the generic routes would take every page of the client for the API: a path
      // it reaches is the API only when the table holds it
      const api = route && ('*' in (route.params ?? {}) ? table?.find(method, API_PREFIX + path) !== undefined : true);
      return api ? API_PREFIX + url : url;
    },
    follow(instance, routes) {
      app = instance;
      table = routes;
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
