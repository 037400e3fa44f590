// Files (local or object storage) and text messages.
import { join } from 'node:path';
import { LOOPBACK_HOSTS } from '../develop/datasource.ts';
import type { ServerModule } from '../module.ts';
import { registerFileCookieAuth } from './cookie-auth.ts';
import { RESOURCE_DDL, resourceHooks } from './hooks.ts';
import { registerOssRoutes } from './oss.ts';
import { registerSmsRoutes } from './sms.ts';

export const resourceModule: ServerModule = {
  name: 'resource',
  ddl: RESOURCE_DDL,
  hooks: ({ ctx }) => resourceHooks(ctx.catalog),
  // file links are also opened by <img> and <a>, which carry the session cookie but no header
  beforeAuth: (app, { ctx }) => registerFileCookieAuth(app, ctx.catalog.entities.oss.api),
  routes: async (app, { ctx, config, s3Factory, addresses }) => {
    await registerOssRoutes(app, ctx, {
      storageDir: config.storageDir ?? join(config.dataDir, 'files'),
      uploadMaxMb: config.uploadMaxMb ?? 20,
      s3Factory,
      allowedHosts: config.ossHosts ?? LOOPBACK_HOSTS,
      addresses,
    });
    registerSmsRoutes(app, ctx);
  },
};
