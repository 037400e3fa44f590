// Internal messages and notices, delivered live through the hub.
import type { ServerModule } from '../module.ts';
import { registerMessageRoutes } from './routes.ts';
import { MESSAGE_DDL, messageHooks } from './service.ts';

export const messageModule: ServerModule = {
  name: 'message',
  ddl: MESSAGE_DDL,
  hooks: ({ ctx, hub, config }) => messageHooks({ catalog: ctx.catalog, notifier: hub.notifier, timeZone: config.timeZone }),
  routes: (app, { ctx, hub, tokens }) => registerMessageRoutes(app, ctx, { hub, tokens }),
};
