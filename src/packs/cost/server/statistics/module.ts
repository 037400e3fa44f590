// The cost statistics pages' figures.
import { statisticsPaths, statisticsSchemas } from './openapi.ts';
import type { ServerModule } from '../../../../server/modules/module.ts';
import { registerStatisticsRoutes } from './routes.ts';

export const statisticsModule: ServerModule = {
  name: 'statistics',
  routes: (app, { ctx }) => registerStatisticsRoutes(app, ctx),
  openapi: (catalog) => ({ paths: statisticsPaths(catalog), schemas: statisticsSchemas }),
};
