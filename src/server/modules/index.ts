// The server's modules, in the order their hooks run (module.ts). The order is the rules':
//   flow        refuses a change to a document under approval before anything else runs;
//   ledger      writes the stock ledger before the other rules read a stock document's figures;
//   cumulative  writes a settlement's previous and cumulative values, which
//   warning     then evaluates (its caps read them).
// The modules without hooks may go anywhere; a new module is one more line.
import { authModule } from './auth/module.ts';
import { cumulativeModule } from '../../packs/cost/server/cumulative/module.ts';
import { deskModule } from './desk/module.ts';
import { developModule } from './develop/module.ts';
import { flowModule } from './flow/module.ts';
import { ledgerModule } from '../../packs/cost/server/ledger/module.ts';
import { messageModule } from './message/module.ts';
import type { ServerModule } from './module.ts';
import { reportModule } from './report/module.ts';
import { resourceModule } from './resource/module.ts';
import { statisticsModule } from '../../packs/cost/server/statistics/module.ts';
import { systemModule } from './system/module.ts';
import { warningModule } from '../../packs/cost/server/warning/module.ts';

export const SERVER_MODULES: readonly ServerModule[] = [
  authModule,
  flowModule,
  ledgerModule,
  systemModule,
  messageModule,
  deskModule,
  resourceModule,
  developModule,
  reportModule,
  statisticsModule,
  cumulativeModule,
  warningModule,
];

/** The packs' engine faces (src/packs/engine.ts), installed before the schema set compiles. */
export { ENGINE_PACKS } from '../../packs/engine.ts';
