// Reports designed in the browser, and their data.
import type { ServerModule } from '../module.ts';
import { registerReportRoutes, reportHooks } from './routes.ts';

export const reportModule: ServerModule = {
  name: 'report',
  hooks: ({ ctx, access }) => reportHooks(ctx.catalog, access),
  routes: (app, { ctx }) => registerReportRoutes(app, ctx),
};
