// The auth guard: every /api route needs `Blade-Auth: bearer <token>` unless it is listed as public.
// The verified claims become request.actor, which is all the data layer trusts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pickLang } from '../../engine/i18n/messages.ts';
import type { Actor } from '../db/store.ts';
import { AppError } from '../errors.ts';
import { TokenError, type TokenService } from '../security/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
    lang: 'zh' | 'en';
  }
}

/** Paths answered without a token (metadata, no data). */
const PUBLIC_PATHS = new Set(['/api/openapi.json']);

export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value && /^bearer\s+(\S+)$/i.exec(value.trim());
  return match ? match[1] : undefined;
}

export function registerAuth(app: FastifyInstance, tokens: TokenService) {
  app.decorateRequest('actor', null);
  app.decorateRequest('lang', 'zh');
  app.addHook('onRequest', async (request) => {
    request.lang = pickLang(request.headers['accept-language']);
    const path = request.url.split('?')[0];
    if (!path.startsWith('/api/') || PUBLIC_PATHS.has(path)) return;
    const token = bearerToken(request.headers['blade-auth']);
    if (!token) throw new AppError(401, 'tokenMissing');
    try {
      const claims = await tokens.verify(token);
      request.actor = { tenantId: claims.tenant_id, userId: claims.user_id, deptId: claims.dept_id || null, lang: request.lang };
    } catch (err) {
      if (err instanceof TokenError) throw new AppError(401, 'unauthorized');
      throw err;
    }
  });
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError(401, 'unauthorized');
  return request.actor;
}
