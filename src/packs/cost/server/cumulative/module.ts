// Cumulative figures of settlements against their contracts, and final settlements.
import { cumulativePaths, cumulativeSchemas } from './openapi.ts';
import type { ServerModule } from '../../../../server/modules/module.ts';
import { cumulativeHooks } from './hooks.ts';
import { registerCumulativeRoutes } from './routes.ts';

export const cumulativeModule: ServerModule = {
  name: 'cumulative',
  hooks: ({ ctx }) => cumulativeHooks(ctx),
  routes: (app, { ctx }) => registerCumulativeRoutes(app, ctx),
  openapi: (catalog) => ({ paths: cumulativePaths(catalog), schemas: cumulativeSchemas }),
};
