// Early warnings when cost runs past plan, and the periodic late-settlement check.
import { warningPaths } from './openapi.ts';
import type { ServerModule } from '../../../../server/modules/module.ts';
import { migrateFormerWarnings } from './former-texts.ts';
import { warningHooks } from './hooks.ts';
import { LateSettlementCheck } from './late-job.ts';
import { registerWarningRoutes } from './routes.ts';

export const warningModule: ServerModule = {
  name: 'warning',
  hooks: ({ ctx }) => warningHooks(ctx),
  routes: (app, { ctx }) => registerWarningRoutes(app, ctx),
  // late settlement (c): at start and then every ZS_LATE_SETTLEMENT_MINUTES
  jobs: ({ ctx, config }) => {
    const lateSettlements = new LateSettlementCheck(ctx);
    lateSettlements.start((config.lateSettlementMinutes ?? 60) * 60_000);
    return { lateSettlements };
  },
  openapi: (catalog) => ({ paths: warningPaths(catalog) }),
  migrate: migrateFormerWarnings,
};
