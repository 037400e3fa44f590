// The stock and turnover ledgers the stock documents write.
import { ledgerPaths } from './openapi.ts';
import type { ServerModule } from '../../../../server/modules/module.ts';
import { LEDGER_DDL } from './ddl.ts';
import { ledgerHooks } from './hooks.ts';
import { registerLedgerRoutes } from './routes.ts';

export const ledgerModule: ServerModule = {
  name: 'ledger',
  ddl: LEDGER_DDL,
  besideDocuments: true,
  hooks: ({ ctx }) => ledgerHooks(ctx),
  routes: (app, { ctx }) => registerLedgerRoutes(app, ctx),
  openapi: (catalog) => ({ paths: ledgerPaths(catalog) }),
};
