// The auth guard: every /api route needs `Blade-Auth: bearer <token>` unless it is listed as public.
// The verified claims become request.actor, which is all the data layer trusts; then the API scope
// rules are checked for the path.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pickLang } from '../../engine/i18n/messages.ts';
import type { Actor } from '../db/store.ts';
import { AppError } from '../errors.ts';
import { TokenError, type Claims, type TokenService } from '../security/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    lang: 'zh' | 'en';
  }
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

export interface AuthOptions {
  /** Paths answered without a token. */
  publicPaths: ReadonlySet<string>;
  /** Further checks once the caller is known (API scopes). */
  authorize?: (actor: Actor, path: string) => Promise<void>;
}

export function registerAuth(app: FastifyInstance, tokens: TokenService, options: AuthOptions) {
  app.decorateRequest('actor', null);
  app.decorateRequest('lang', 'zh');
  app.addHook('onRequest', async (request) => {
    request.lang = pickLang(request.headers['accept-language']);
    const path = request.url.split('?')[0];
    if (!path.startsWith('/api/') || options.publicPaths.has(path)) return;
    const token = bearerToken(request.headers['blade-auth']);
    if (!token) throw new AppError(401, 'tokenMissing');
    try {
      request.actor = actorFromClaims(await tokens.verify(token), request.lang);
    } catch (err) {
      if (err instanceof TokenError) throw new AppError(401, 'unauthorized');
      throw err;
    }
    await options.authorize?.(request.actor, path);
  });
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(401, 'unauthorized');
  return request.actor;
}
