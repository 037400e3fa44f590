// Sign-in, tokens, captchas and the login rate limit (docs/security.md).
import type { ServerModule } from '../module.ts';
import { CAPTCHA_DDL } from './captcha.ts';
import { IDENTITY_DDL } from './identity.ts';
import { RATE_LIMIT_DDL } from './rate-limit.ts';
import { AUTH_PUBLIC_PATHS, AUTH_SESSION_PATHS, registerAuthRoutes } from './routes.ts';

export const authModule: ServerModule = {
  name: 'auth',
  ddl: [IDENTITY_DDL, CAPTCHA_DDL, RATE_LIMIT_DDL].join('\n'),
  publicPaths: AUTH_PUBLIC_PATHS,
  passwordChangePaths: AUTH_SESSION_PATHS,
  routes: (app, { identity, access, config, limits, logs, sm2 }) =>
    registerAuthRoutes(app, identity, access, {
      exposeCaptchaCode: config.exposeCaptchaCode,
      loginLimits: config.loginLimits,
      captchaPerAddress: limits.captchaPerAddress,
      logs,
      sm2,
    }),
};
