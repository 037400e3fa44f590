// Code generation and data sources: document types added to a running installation.
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../schema-source.ts';
import type { ServerModule } from '../module.ts';
import { datasourceHooks, DEVELOP_DDL, LOOPBACK_HOSTS } from './datasource.ts';
import { registerDevelopRoutes } from './routes.ts';

export const developModule: ServerModule = {
  name: 'develop',
  ddl: DEVELOP_DDL,
  hooks: ({ secretBox }) => ({ datasource: datasourceHooks(secretBox) }),
  routes: (app, { ctx, config, secretBox, addresses, schemaRoot, source, caches, reference }, table) => {
    registerDevelopRoutes(app, ctx, {
      routes: table,
      box: secretBox,
      allowedHosts: config.datasourceHosts ?? LOOPBACK_HOSTS,
      addresses,
      schemaRoot,
      migrationsDir: join(PROJECT_ROOT, 'migrations'),
      source,
      bus: caches,
      reference,
    });
  },
};
