// The auth guard: every /api route needs `Blade-Auth: bearer <token>` unless it is listed as public.
// The verified claims become request.actor, which is all the data layer trusts; then the API scope
// rules are checked for the path. A file download the browser opens itself (window.open) cannot
// send the header: a GET route that declares `config: DOWNLOAD` also takes the token from the query
// parameter `blade-auth`, as the platform's clients send it there; no other route does. A token
// of a user who must change the password first (claim zs_password_change) opens only the routes
// that change needs (the user's own info, the change, sign-out): anything else answers 403.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { pickLang } from '../../engine/i18n/messages.ts';
import type { Actor } from '../db/store.ts';
import { AppError } from '../errors.ts';
import { TokenError, type Claims, type TokenService } from '../security/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    lang: 'zh' | 'en';
  }
  interface FastifyContextConfig {
    /** A GET download opened by the browser: the token may come as the query parameter blade-auth. */
    queryToken?: boolean;
  }
}

/** Route config of a GET file download that accepts the token as the query parameter blade-auth. */
export const DOWNLOAD = { queryToken: true } as const;

/** The query parameter a download's token may come in (SpringBlade's name, read case-sensitively). */
const TOKEN_PARAM = 'blade-auth';

/** The token of a download route's query parameter, or undefined (any other route, or another method). */
function queryToken(request: FastifyRequest, config: FastifyContextConfig | undefined): string | undefined {
  if (request.method !== 'GET' || config?.queryToken !== true) return undefined;
  const value = (request.query as Record<string, unknown> | undefined)?.[TOKEN_PARAM];
  return typeof value === 'string' ? bearerToken(value) : undefined;
}

export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value && /^bearer\s+(\S+)$/i.exec(value.trim());
  return match ? match[1] : undefined;
}

export function actorFromClaims(claims: Claims, lang: 'zh' | 'en'): Actor {
  const list = (v: string | undefined) => (v ? v.split(',').filter(Boolean) : []);
  return {
    tenantId: claims.tenant_id,
    userId: claims.user_id,
    deptId: claims.dept_id || null,
    lang,
    roleIds: list(claims.role_id),
    roleAliases: list(claims.role_name),
  };
}

/**
 * A percent-encoded character that never needs encoding (RFC 3986 unreserved: letters, digits,
 * `-._~`), also encoded twice (`%2561`): no browser or client library writes one, and a check that
 * read the path as sent while the router decodes it would take `/%61pi/...` for something other
 * than `/api/...`. Refusing the doubled form too gives one answer whether or not a built client
 * would otherwise serve its page for the once-decoded path.
 */
const ENCODED_UNRESERVED = /%(?:25)?(?:[46][1-9a-f]|[57][0-9a]|3[0-9]|2[de]|5f|7e)/i;

/**
 * The path as the router (find-my-way) matches it: up to `?` or `#`, percent-decoded except the
 * reserved characters (`%2F` stays `%2F`, `%25` stays `%25`). Undefined for a malformed encoding.
 */
export function routedPath(url: string): string | undefined {
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path.replace(/%25/g, '%2525'));
  } catch {
    return undefined;
  }
}

export interface AuthOptions {
  /** Paths answered without a token. */
  publicPaths: ReadonlySet<string>;
  /** Paths open to a user who must change the password before anything else. */
  passwordChangePaths?: ReadonlySet<string>;
  /** Further checks once the caller is known (API scopes). */
  authorize?: (actor: Actor, path: string) => Promise<void>;
  /** The config of a route Fastify's router does not hold (the generic routes' table, route-table.ts). */
  configOf?: (request: FastifyRequest) => FastifyContextConfig | undefined;
}

export function registerAuth(app: FastifyInstance, tokens: TokenService, options: AuthOptions) {
  app.decorateRequest('actor', null);
  app.decorateRequest('lang', 'zh');
  app.addHook('onRequest', async (request) => {
    request.lang = pickLang(request.headers['accept-language']);
    // every decision below (token needed, public, API scopes) is taken on the path the router
    // matched; another spelling of it is refused before any of them
    const sent = request.url.split('?')[0];
    const encoded = ENCODED_UNRESERVED.exec(sent);
    if (encoded) throw new AppError(400, 'pathEncoded', { code: encoded[0] });
    const path = routedPath(request.url);
    if (path === undefined) throw new AppError(400, 'badRequest');
    // the route's own pattern when one matched (a public route is public however it was reached)
    const route = request.routeOptions.url;
    if (!path.startsWith('/api/') && !route?.startsWith('/api/')) return;
    if (options.publicPaths.has(route ?? path)) return;
    // the header wins; the query parameter counts only on a download route
    const token =
      bearerToken(request.headers['blade-auth']) ?? queryToken(request, options.configOf?.(request) ?? request.routeOptions.config);
    if (!token) throw new AppError(401, 'tokenMissing');
    let claims: Claims;
    try {
      claims = await tokens.verify(token);
    } catch (err) {
      if (err instanceof TokenError) throw new AppError(401, 'unauthorized');
      throw err;
    }
    if (claims.zs_password_change && !options.passwordChangePaths?.has(route ?? path)) throw new AppError(403, 'passwordChangeRequired');
    request.actor = actorFromClaims(claims, request.lang);
    await options.authorize?.(request.actor, path);
  });
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(401, 'unauthorized');
  return request.actor;
}
