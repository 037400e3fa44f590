// A server module is a declaration: its tables, its entity hooks, its routes, the paths it opens to
// callers without a session, its background jobs. createApp builds the platform's services (the
// database, tokens, access control, the live hub, workflows, reference data, logs), then loops over
// the modules of modules/index.ts; adding a module touches its folder and one line of that list.
//
// Hooks: every module's hooks of an entity form one chain per event, run in the list's order (a
// validate's field errors are joined). The order is data: `order` of composeHooks says, per entity
// and event, which modules' hooks run, and a test prints it.
import type { FastifyInstance } from 'fastify';
import type { SchemaSource } from '../../engine/model/source.ts';
import type { EntityCatalog } from '../../engine/model/types.ts';
import type { OpenApiFragment } from '../../engine/openapi/openapi.ts';
import type { FieldError } from '../../engine/validate/record.ts';
import type { Config, Limits } from '../config.ts';
import type { Db, Queryable } from '../db/db.ts';
import type { EntityHooks } from '../db/store.ts';
import type { TenantDatabases } from '../db/tenant-databases.ts';
import type { RouteContext } from '../http/entity-routes.ts';
import type { RouteTable } from '../http/route-table.ts';
import type { CacheBus } from '../realtime/cache-bus.ts';
import type { SubscriptionHub } from '../realtime/hub.ts';
import type { ReferenceData } from '../reference/converge.ts';
import type { AccessControl } from '../security/access.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { TokenService } from '../security/tokens.ts';
import type { IdentityService } from './auth/identity.ts';
import type { Sm2KeyPair } from './auth/sm2.ts';
import type { PlatformAddresses } from './develop/outgoing.ts';
import type { Flow } from './flow/routes.ts';
import type { LogService } from './log/service.ts';
import type { S3Factory } from './resource/storage.ts';

/** The services createApp makes before it asks the modules for anything. */
export interface Platform {
  config: Config;
  limits: Limits;
  /** The main database. */
  db: Db;
  /** The data layer's context: the catalog, the databases, the composed hooks. */
  ctx: RouteContext;
  identity: IdentityService;
  access: AccessControl;
  tokens: TokenService;
  sm2: Sm2KeyPair;
  hub: SubscriptionHub;
  /** Caches every process keeps, emptied on all when one changes them. */
  caches: CacheBus;
  flow: Flow;
  reference: ReferenceData;
  /** Seals data sources' passwords. */
  secretBox: SecretBox;
  /** This machine's and the main database's addresses: no tenant's data source or storage may name them. */
  addresses: PlatformAddresses;
  tenants: TenantDatabases;
  logs: LogService;
  /** The schema set served, and the folder it was read from. */
  source: SchemaSource;
  schemaRoot: string;
  s3Factory: S3Factory;
}

/** Background work a module starts with the server; stopped before the databases close. */
export interface BackgroundJob {
  stop(): Promise<void> | void;
}

export interface ServerModule {
  /** Names the module where the hook order is printed. */
  name: string;
  /** Its tables beside the documents' (`CREATE … IF NOT EXISTS`), made before the schema sync. */
  ddl?: string;
  /** Its tables live beside the documents: a tenant's own database holds them too. */
  besideDocuments?: boolean;
  /**
   * Brings its stored data up to date at start, in the main database and in each tenant's own when
   * it opens; answers how many rows changed (a second run: none).
   */
  migrate?: (db: Queryable, catalog: EntityCatalog) => Promise<number>;
  /** Paths anyone may call, without a session. */
  publicPaths?: readonly string[];
  /** Paths a user who must change their password may still call. */
  passwordChangePaths?: readonly string[];
  /** Its hooks, by entity key. */
  hooks?(platform: Platform): Record<string, EntityHooks>;
  /** Request hooks that must run before the session is checked. */
  beforeAuth?(app: FastifyInstance, platform: Platform): void;
  /** Its routes; a route of a module replaces the generic route of the same path. */
  routes?(app: FastifyInstance, platform: Platform, table: RouteTable): void | Promise<void>;
  /** Its background jobs, started, by name. */
  jobs?(platform: Platform): Record<string, BackgroundJob>;
  /** Its part of the OpenAPI document (GET /api/openapi.json) for the schema set served. */
  openapi?(catalog: EntityCatalog): OpenApiFragment;
}

export const HOOK_EVENTS = ['validate', 'beforeWrite', 'afterWrite', 'beforeRemove', 'afterStatus', 'afterRead'] as const;
type HookEvent = (typeof HOOK_EVENTS)[number];

/** Per entity, per event: the modules whose hooks run, in order. */
export type HookOrder = Record<string, Partial<Record<HookEvent, string[]>>>;

type Contribution = { module: string; hooks: EntityHooks };

/** Every module's hooks of one entity as one set: each event's hooks run in the modules' order. */
function chain(contributions: Contribution[]): EntityHooks {
  const of = <E extends HookEvent>(event: E) => contributions.flatMap((c) => (c.hooks[event] ? [c.hooks[event]!] : []));
  const validates = of('validate');
  const sequence = <T>(handlers: ((event: T) => Promise<void>)[]) =>
    handlers.length
      ? async (event: T) => {
          for (const handler of handlers) await handler(event);
        }
      : undefined;
  const hooks: EntityHooks = {
    validate: validates.length ? (event) => validates.flatMap((validate): FieldError[] => validate(event)) : undefined,
    beforeWrite: sequence(of('beforeWrite')),
    afterWrite: sequence(of('afterWrite')),
    beforeRemove: sequence(of('beforeRemove')),
    afterStatus: sequence(of('afterStatus')),
    afterRead: sequence(of('afterRead')),
  };
  return Object.fromEntries(Object.entries(hooks).filter(([, hook]) => hook)) as EntityHooks;
}

/** The modules' hooks, one set per entity, and the order they run in. */
export function composeHooks(
  modules: readonly ServerModule[],
  platform: Platform,
): { hooks: Record<string, EntityHooks>; order: HookOrder } {
  const byEntity = new Map<string, Contribution[]>();
  for (const module of modules) {
    for (const [entity, hooks] of Object.entries(module.hooks?.(platform) ?? {}))
      byEntity.set(entity, [...(byEntity.get(entity) ?? []), { module: module.name, hooks }]);
  }
  const hooks: Record<string, EntityHooks> = {};
  const order: HookOrder = {};
  for (const [entity, contributions] of byEntity) {
    hooks[entity] = chain(contributions);
    order[entity] = Object.fromEntries(
      HOOK_EVENTS.map((event) => [event, contributions.filter((c) => c.hooks[event]).map((c) => c.module)]).filter(
        ([, names]) => names.length,
      ),
    );
  }
  return { hooks, order };
}

/** The modules' parts of the OpenAPI document, in the modules' order. */
export function openApiFragments(modules: readonly ServerModule[], catalog: EntityCatalog): OpenApiFragment[] {
  return modules.flatMap((m) => (m.openapi ? [m.openapi(catalog)] : []));
}
