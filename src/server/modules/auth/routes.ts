// /api/blade-auth/oauth: token (password, captcha and refresh_token grants), captcha, logout,
// user-info, clear-cache, in the platform's shapes: the token answer is flat snake_case JSON, and
// a refused login is {error, error_description} with the description in the caller's language.
// Beside it, the open-source flavour's /api/blade-auth/token, captcha and logout (token-flavours.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { PLATFORM_TENANT } from '../../db/store.ts';
import { AppError } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import { envelope } from '../../http/envelope.ts';
import { isAdministrator, type AccessControl } from '../../security/access.ts';
import { storeClientLogs } from '../log/client-logs.ts';
import { auditEvent, type LogService } from '../log/service.ts';
import { issueCaptcha } from './captcha.ts';
import { LoginError, type IdentityService } from './identity.ts';
import { clientAddress, RateLimiter } from './rate-limit.ts';
import type { Sm2KeyPair } from './sm2.ts';
import { bladeXFlavour, springBladeFlavour, type TokenFlavour } from './token-flavours.ts';

export const AUTH_PUBLIC_PATHS = [
  '/api/blade-auth/oauth/token',
  '/api/blade-auth/oauth/token/refresh',
  '/api/blade-auth/oauth/captcha',
  '/api/blade-auth/token',
  '/api/blade-auth/captcha',
  '/api/blade-auth/public-key',
];

/** Sign-out and who is signed in: open also to a user who must change the password first. */
export const AUTH_SESSION_PATHS = [
  '/api/blade-auth/oauth/logout',
  '/api/blade-auth/logout',
  '/api/blade-auth/oauth/user-info',
  '/api/blade-auth/oauth/client-logs',
];

type Params = Record<string, string | undefined>;

export interface AuthRouteOptions {
  /** Tests only: answer the captcha's code in a header so a browser test can log in. */
  exposeCaptchaCode: boolean;
  /** Login attempts allowed per minute per client address. */
  loginLimits: { perAddress: number };
  /** Captchas issued per minute per address (each is a row in the database). */
  captchaPerAddress: number;
  /** Where uploaded browser error logs go (the error log). */
  logs: LogService;
  /** The key pair the SpringBlade flavour's passwords are encrypted with. */
  sm2: Sm2KeyPair;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

const FLAT_OK = { success: 'true', msg: 'success' };

export function registerAuthRoutes(app: FastifyInstance, identity: IdentityService, access: AccessControl, options: AuthRouteOptions) {
  const perAddress = new RateLimiter(identity.db, 'login-address', options.loginLimits.perAddress, 60_000);
  const captchasPerAddress = new RateLimiter(identity.db, 'captcha-address', options.captchaPerAddress, 60_000);

  const tokenHandler = (flavour: TokenFlavour, forcedGrant?: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const params: Params = { ...(request.query as Params), ...((typeof request.body === 'object' && request.body) as Params) };
    const asked = flavour.read(params, request);
    const tenantId = header(request, 'Tenant-Id') || asked.tenantId || PLATFORM_TENANT;
    const grantType = forcedGrant ?? asked.grantType ?? 'password';
    const address = clientAddress(request.ip);
    try {
      const attempt = grantType !== 'refresh_token';
      // a limit per address only: one per account would let anyone keep its owner out (failures
      // per account and address make the captcha necessary instead, see identity.ts)
      if (attempt && !(await perAddress.take(address))) throw new LoginError(429, 'access_denied', 'tooManyAttempts');
      const client = await identity.authenticateClient(header(request, 'authorization'));
      const token = await identity.token({
        grantType,
        tenantId,
        client,
        username: asked.username,
        password: attempt ? asked.password() : undefined,
        refreshToken: asked.refreshToken,
        captchaKey: header(request, 'Captcha-Key'),
        captchaCode: header(request, 'Captcha-Code'),
        address,
        deptId: header(request, 'Dept-Id') || params.deptId,
        roleId: header(request, 'Role-Id') || params.roleId,
      });
      if (attempt) auditEvent(identity, request, { event: 'login', tenantId, userId: String(token.user_id), account: asked.username });
      return reply.send(flavour.answer(token, request.lang));
    } catch (err) {
      if (err instanceof LoginError) {
        // a refused login is audited (never with its password); a refused refresh is not a login
        if (grantType !== 'refresh_token') {
          const failed = { tenantId, userId: null, account: asked.username, detail: { reason: err.key, grantType } };
          auditEvent(identity, request, { event: 'loginFailed', ...failed });
          if (err.lockedNow) auditEvent(identity, request, { event: 'lock', ...failed });
        }
        return reply.status(err.status).send(flavour.refuse(err, request.lang));
      }
      throw err;
    }
  };

  const captcha = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await captchasPerAddress.take(clientAddress(request.ip)))) {
      const seconds = await captchasPerAddress.retryAfterSeconds(clientAddress(request.ip));
      reply
        .status(429)
        .header('retry-after', String(seconds))
        .send(envelope(429, null, t('tooManyRequests', request.lang, { seconds })));
      return undefined;
    }
    const { key, image, code } = await issueCaptcha(identity.db);
    if (options.exposeCaptchaCode) reply.header('x-test-captcha-code', code);
    return { key, image };
  };

  const bladeX = bladeXFlavour();
  app.post('/api/blade-auth/oauth/token', tokenHandler(bladeX));
  app.post('/api/blade-auth/oauth/token/refresh', tokenHandler(bladeX, 'refresh_token'));
  app.get('/api/blade-auth/oauth/captcha', async (request, reply) => (await captcha(request, reply)) ?? reply);

  // the open-source flavour (SpringBlade, the Saber client): camelCase in the R envelope
  const springBlade = springBladeFlavour(options.sm2);
  app.post('/api/blade-auth/token', tokenHandler(springBlade));
  app.get('/api/blade-auth/captcha', async (request, reply) => {
    const issued = await captcha(request, reply);
    return issued ? envelope(200, issued, t('ok', request.lang)) : reply;
  });
  // what a Saber build is configured with (website.auth.publicKey)
  app.get('/api/blade-auth/public-key', async (request) =>
    envelope(200, { publicKey: options.sm2.publicKey, algorithm: 'SM2', cipherMode: 'C1C2C3' }, t('ok', request.lang)),
  );

  /** The browser's local error log, kept in the error log; answered once stored. */
  const uploadClientLogs = async (request: FastifyRequest) => {
    actorOf(request);
    const count = storeClientLogs(options.logs, request);
    await options.logs.flush();
    return count;
  };

  const logout = async (request: FastifyRequest) => {
    await identity.revokeUsers(identity.db, [actorOf(request).userId]);
    auditEvent(identity, request, { event: 'logout' });
    await uploadClientLogs(request);
    return FLAT_OK;
  };
  app.get('/api/blade-auth/oauth/logout', logout);
  app.post('/api/blade-auth/oauth/logout', logout);
  app.post('/api/blade-auth/logout', async (request) => {
    await logout(request);
    return envelope(200, null, t('ok', request.lang));
  });

  // the error log dialog's "upload to server": the logs without ending the session
  app.post('/api/blade-auth/oauth/client-logs', async (request) =>
    envelope(200, { stored: await uploadClientLogs(request) }, t('ok', request.lang)),
  );

  app.get('/api/blade-auth/oauth/user-info', async (request) => {
    const actor = actorOf(request);
    return envelope(
      200,
      {
        tenantId: actor.tenantId,
        userId: actor.userId,
        deptId: actor.deptId,
        roleId: (actor.roleIds ?? []).join(','),
        roleName: (actor.roleAliases ?? []).join(','),
      },
      t('ok', request.lang),
    );
  });

  // empties every process's permission caches, for every tenant: the platform administrator's call
  app.get('/api/blade-auth/oauth/clear-cache', async (request) => {
    if (!isAdministrator(actorOf(request))) throw new AppError(403, 'forbidden');
    await access.invalidate();
    return FLAT_OK;
  });
}
