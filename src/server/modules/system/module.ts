// The platform's own entities: users, roles, menus, departments, tenants, dictionaries, regions and
// the tenants' data sources.
import { TENANT_DATABASE_DDL } from '../../db/tenant-databases.ts';
import type { ServerModule } from '../module.ts';
import { registerDictionaryRoutes } from './dictionary.ts';
import { systemHooks } from './hooks.ts';
import { registerMenuRoutes } from './menu.ts';
import { ORGANIZATION_PUBLIC_PATHS, registerOrganizationRoutes } from './organization.ts';
import { registerRegionRoutes } from './regions.ts';
import { registerTenantDatasourceRoutes } from './tenant-datasource.ts';
import { registerUserRoutes, USER_PASSWORD_CHANGE_PATHS, USER_PUBLIC_PATHS } from './user.ts';

export const systemModule: ServerModule = {
  name: 'system',
  ddl: TENANT_DATABASE_DDL,
  publicPaths: [...USER_PUBLIC_PATHS, ...ORGANIZATION_PUBLIC_PATHS],
  passwordChangePaths: USER_PASSWORD_CHANGE_PATHS,
  hooks: ({ ctx, identity, access, caches, flow, reference }) =>
    systemHooks({
      catalog: ctx.catalog,
      identity,
      access,
      caches,
      storeContext: () => ctx,
      processRoles: () => flow.definitions.defaultGroups(),
      referenceData: () => reference,
    }),
  routes: (app, { ctx, db, identity, limits, tenants }) => {
    registerUserRoutes(app, ctx, identity, { importMaxBytes: Math.round(limits.bodyLimitMb * 1024 * 1024) });
    registerMenuRoutes(app, ctx);
    registerOrganizationRoutes(app, ctx);
    registerRegionRoutes(app, ctx);
    registerTenantDatasourceRoutes(app, ctx, { main: db, tenants, catalog: ctx.catalog });
    for (const key of Object.values(ctx.dictionaryEntities)) registerDictionaryRoutes(app, ctx, ctx.catalog.entities[key]);
  },
};
