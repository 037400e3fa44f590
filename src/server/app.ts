// createApp(config): compiles the schemas, opens the database (embedded PGlite or PostgreSQL),
// brings its tables in line with the models, seeds an empty database, and builds the Fastify app
// with the generic routes of every manifest entity. Tests call it with app.inject; main.ts listens.
import { existsSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { installPacks } from '../engine/packs.ts';
import { compile, type CompileResult } from '../engine/model/compile.ts';
import type { SchemaSource } from '../engine/model/source.ts';
import type { EntityCatalog } from '../engine/model/types.ts';
import { openApiDocument } from '../engine/openapi/openapi.ts';
import { limitsOf, type Config, type DemoLevel } from './config.ts';
import type { Db, Queryable } from './db/db.ts';
import { lockDataDir } from './db/data-dir-lock.ts';
import { takeTicket } from './db/fairness.ts';
import { openPglite } from './db/pglite.ts';
import { copyTemplate, needsTemplate } from './db/pglite-template.ts';
import { openPostgres } from './db/postgres.ts';
import { syncSchema, type SyncReport } from './db/sync.ts';
import { TenantDatabases } from './db/tenant-databases.ts';
import { registerAuth } from './http/auth.ts';
import { envelope } from './http/envelope.ts';
import { registerEntityRoutes, registerRouteAliases, type RouteContext } from './http/entity-routes.ts';
import { RouteTable } from './http/route-table.ts';
import { clientCacheControl, registerCompression } from './http/compression.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerJsonLimits, registerTextGuard, serverLimitOptions } from './http/limits.ts';
import { registerDrain } from './http/drain.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerQueryGuard } from './http/query-guard.ts';
import { IdentityService } from './modules/auth/identity.ts';
import { loadSm2KeyPair } from './modules/auth/sm2.ts';
import { unprefixedApi } from './http/unprefixed.ts';
import { registerApiLog, REQUEST_LOG_SERIALIZERS } from './modules/log/api-log.ts';
import { registerDeleteAudit } from './modules/log/delete-audit.ts';
import { adoptClientErrorTable } from './modules/log/client-logs.ts';
import { attachLogs, LogService, originOf, whoOf } from './modules/log/service.ts';
import { followMoves, migrateTenantDatabase, platformConnection } from './modules/system/tenant-datasource.ts';
import { ACCESS_DDL, AccessControl } from './security/access.ts';
import { readSchemaSource, PROJECT_ROOT } from './schema-source.ts';
import { createTokenService, loadSigningKey, TOKEN_DDL, type TokenService } from './security/tokens.ts';
import { narrowWidenedPicks } from './seed/exact-tree-picks.ts';
import { storeFormerTexts } from './seed/former-texts.ts';
import { describeReport, REFERENCE_DDL, ReferenceData } from './reference/converge.ts';
import { moveFormerMenuPaths, RESEEDED_NOTE, SEED_ADMIN, seededTables, seedOnce, type SeedProgress } from './seed/seed.ts';
import { syncDerivedScopes } from './security/derived-scopes.ts';
import { checkDigest, checkedBefore, rememberChecked, SKIPPED_CHECKS_NOTE } from './schema-checks.ts';
import { StartupClock } from './startup-clock.ts';
import { seedRegions } from './modules/system/regions.ts';
import { sdkS3Factory, type S3Factory } from './modules/resource/storage.ts';
import { startHub, type SubscriptionHub } from './realtime/hub.ts';
import { CacheBus } from './realtime/cache-bus.ts';
import { ENGINE_PACKS, SERVER_MODULES } from './modules/index.ts';
import { composeHooks, openApiFragments, type BackgroundJob, type HookOrder, type Platform } from './modules/module.ts';
import { LOOPBACK_HOSTS } from './modules/develop/datasource.ts';
import { PlatformAddresses } from './modules/develop/outgoing.ts';
import { createSecretBox, loadKeyMaterial } from './security/secret-box.ts';
import { messageNotifier } from './modules/flow/notify.ts';
import { createFlow, defaultsDir, type Flow } from './modules/flow/routes.ts';

export interface App {
  app: FastifyInstance;
  db: Db;
  catalog: EntityCatalog;
  tokens: TokenService;
  /** What the data layer and routes need: tests and modules build stores from it. */
  ctx: RouteContext;
  access: AccessControl;
  identity: IdentityService;
  sync: SyncReport;
  /** Live delivery: this process's event-stream subscriptions and its notifier. */
  hub: SubscriptionHub;
  /** Approval workflows: definitions, the step runner, lists. */
  flow: Flow;
  /** The generic routes of the document types, answered behind one catch-all (what Fastify's listing does not show). */
  routes: RouteTable;
  /** API, error and audit logs (written in batches; flush() stores what is queued). */
  logs: LogService;
  /** The database of each tenant's business data (the main one unless bound to a data source). */
  tenantDatabases: TenantDatabases;
  /** The modules' background jobs, by name (the warning module's lateSettlements: run(today) runs a round now). */
  jobs: Readonly<Record<string, BackgroundJob>>;
  /** Per entity and event, the modules whose hooks run, in order (modules/module.ts). */
  hookOrder: HookOrder;
  /** How long each phase of this start took (main.ts prints them, the start-up benchmark records them). */
  startup: StartupClock;
  close(): Promise<void>;
}

export interface AppOptions {
  /** Use this database instead of opening one from the config (tests). */
  db?: Db;
  /** Seed demonstration data on first start (default: the config's; true is full, false off). */
  demo?: boolean | DemoLevel;
  /** Log requests (default: the config's level). */
  logger?: boolean;
  /** Builds S3 clients for storage configurations (tests inject a fake; default: the AWS SDK). */
  s3Factory?: S3Factory;
  /** Told how far the first start's seed has come (main.ts prints a progress line). */
  onSeedProgress?: SeedProgress;
}

/** Tables that are not documents: the platform's (grants, signing keys, reference data digests), then the modules'. */
/** The texts and records written before their form changed, in one database: the platform's and each module's (ServerModule.migrate). */
export async function migrateStoredData(db: Queryable, catalog: EntityCatalog): Promise<number> {
  let changed = await storeFormerTexts(db, catalog);
  for (const module of SERVER_MODULES) changed += (await module.migrate?.(db, catalog)) ?? 0;
  return changed;
}

/** The modules' tables a tenant's own database holds too. */
const TENANT_MODULE_DDL = SERVER_MODULES.flatMap((m) => (m.besideDocuments && m.ddl ? [m.ddl] : [])).join('\n');
const MODULE_DDL = [ACCESS_DDL, TOKEN_DDL, REFERENCE_DDL, ...SERVER_MODULES.flatMap((m) => (m.ddl ? [m.ddl] : []))].join('\n');

/** The dictionary entities the data layer checks dictionary values against. */
const DICTIONARY_ENTITIES = { system: 'dict', biz: 'dictBiz' } as const;

/** The workflow module as the seed uses it: demo approvals are history, they send no messages. */
function seedFlow(ctx: RouteContext, schemaRoot: string): Flow {
  return createFlow(ctx, { defaultsDir: defaultsDir(schemaRoot) });
}

function demoOption(demo: AppOptions['demo']): DemoLevel | undefined {
  return typeof demo === 'boolean' ? (demo ? 'full' : 'off') : demo;
}

/**
 * Opens the configured database; `fresh` says it is a new embedded one, whose files are being
 * copied from the template meanwhile (a first start).
 */
export function openDatabase(config: Config): { db: Promise<Db>; fresh: boolean } {
  if (config.databaseUrl)
    return {
      db: openPostgres(config.databaseUrl, { max: config.poolSize, statementTimeoutMs: limitsOf(config).statementTimeoutMs }),
      fresh: false,
    };
  mkdirSync(config.dataDir, { recursive: true });
  // before PGlite touches a file: a second process on the directory would damage the database
  const release = lockDataDir(config.dataDir);
  const pgDir = join(config.dataDir, 'pg');
  const fresh = needsTemplate(pgDir);
  const open = async () => {
    if (fresh) await copyTemplate(pgDir);
    const db = await openPglite(pgDir);
    return { ...db, close: () => db.close().finally(release) };
  };
  return {
    db: open().catch((err) => {
      release();
      throw err;
    }),
    fresh,
  };
}

/** The schema set compiled, or why it could not be: thrown where the start can close what it opened. */
type Compiled = { result: CompileResult } | { error: unknown };

function tryCompile(source: SchemaSource, checks: 'all' | 'skip'): Compiled {
  try {
    // validators are generated on first use: `schemas:check` and the tests compile every one
    return { result: compile(source, { validators: 'lazy', checks }) };
  } catch (error) {
    return { error };
  }
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = new StartupClock();
  installPacks(ENGINE_PACKS);
  // the schema set: entities.manifest.json and schemas/ (its reference data, workflows and seed)
  const schemaRoot = config.schemaDir ?? PROJECT_ROOT;
  const source = readSchemaSource(schemaRoot);
  const opened = options.db ? { db: Promise.resolve(options.db), fresh: false } : openDatabase(config);
  // a new database has passed no schema checks: the set is compiled with all of them while a
  // worker thread copies the database's files (the two took a second, one after the other)
  const early = opened.fresh ? tryCompile(source, 'all') : undefined;
  if (early) clock.mark('schemas');
  const db = await opened.db;
  clock.mark('open');
  let hub: SubscriptionHub | undefined;
  let tenantDatabases: TenantDatabases | undefined;
  let releaseStartup: (() => Promise<void>) | undefined;
  let restoreCommits: (() => Promise<void>) | undefined;
  let forgetPlans: (() => Promise<void>) | undefined;
  try {
    const digest = checkDigest(source);
    const checked = !early && (await checkedBefore(db, digest));
    const compiled = early ?? tryCompile(source, checked ? 'skip' : 'all');
    if ('error' in compiled) throw compiled.error;
    const { catalog, ajv } = compiled.result;
    if (!early) clock.mark('schemas');
    if (checked) clock.notes.push(SKIPPED_CHECKS_NOTE);
    // schema sync, the signing key and the first start's seed: once, however many processes start
    releaseStartup = await db.lockStartup?.();
    restoreCommits = await db.relaxCommits?.();
    await db.exec(MODULE_DDL);
    const sync = await syncSchema(db, catalog, join(PROJECT_ROOT, 'migrations'));
    if (!checked) await rememberChecked(db, digest);
    clock.mark('sync');
    forgetPlans = await db.keepPlans?.();
    const tokens = createTokenService(await loadSigningKey(db, config.jwtSecret), { db });
    const sm2 = await loadSm2KeyPair(db, config.sm2PrivateKey);
    // the grants follow the schema set served now (code generation's install replaces ctx.catalog)
    const access = new AccessControl(db, () => ctx.catalog);
    // data sources' passwords: sealed with a key of this installation (no default key)
    const secretBox = createSecretBox(await loadKeyMaterial(db, 'datasource.key', config.datasourceKey, 'ZS_DATASOURCE_KEY'));
    const identity = new IdentityService(db, catalog, tokens, config.timeZone, config.loginLimits);
    const allowedHosts = config.datasourceHosts ?? LOOPBACK_HOSTS;
    // this machine and the main database's server: no tenant's data source or storage may name them
    const platformAddresses = new PlatformAddresses(db, config.databaseUrl);
    const migrationsDir = join(PROJECT_ROOT, 'migrations');
    tenantDatabases = new TenantDatabases(db, {
      connectionOf: (datasourceId) => platformConnection(db, secretBox, catalog, allowedHosts, datasourceId),
      prepare: (tenantDb) =>
        migrateTenantDatabase(tenantDb, catalog, migrationsDir, { ddl: TENANT_MODULE_DDL, migrate: migrateStoredData }),
      statementTimeoutMs: limitsOf(config).statementTimeoutMs,
    });
    const tenants = tenantDatabases;
    const ctx: RouteContext = {
      db,
      catalog,
      ajv,
      timeZone: config.timeZone,
      dictionaryEntities: DICTIONARY_ENTITIES,
      access,
      dbFor: (tenantId) => tenants.dbFor(tenantId),
      isBound: async (tenantId) => (await tenants.datasourceOf(tenantId)) !== null,
    };
    const logs = new LogService(ctx);
    await adoptClientErrorTable(db, logs.models.error, config.timeZone);
    attachLogs(db, logs);
    hub = await startHub(db);
    followMoves(hub.notifier, tenants);
    // grants and parameters cached here are emptied when any process changes them
    const caches = new CacheBus(hub.notifier);
    access.shareThrough(caches);
    // so are the users' token generations, when any process revokes their tokens
    tokens.shareThrough(caches);
    caches.on('params', () => logs.forgetParams());
    const flow = createFlow(ctx, { defaultsDir: defaultsDir(schemaRoot), notify: messageNotifier(ctx) });
    const reference = new ReferenceData(ctx, {
      dir: join(schemaRoot, 'schemas/reference'),
      processes: (tenantId) => flow.definitions.ensureDefaults(tenantId),
      author: SEED_ADMIN,
      changed: (tx) => access.invalidate(tx),
      log: (message) => clock.notes.push(message),
    });
    const platform: Platform = {
      config,
      limits: limitsOf(config),
      db,
      ctx,
      identity,
      access,
      tokens,
      sm2,
      hub,
      caches,
      flow,
      reference,
      secretBox,
      addresses: platformAddresses,
      tenants,
      logs,
      source,
      schemaRoot,
      s3Factory: options.s3Factory ?? sdkS3Factory,
    };
    const { hooks, order: hookOrder } = composeHooks(SERVER_MODULES, platform);
    ctx.hooks = hooks;
    clock.mark('services');
    if (config.seed) {
      const seeded = await seedOnce(ctx, {
        dir: join(schemaRoot, 'schemas/seed'),
        demo: demoOption(options.demo) ?? config.demo ?? 'full',
        flow: seedFlow(ctx, schemaRoot),
        onProgress: options.onSeedProgress,
        tables: seededTables(catalog, MODULE_DDL),
        converge: async (first) => {
          const converged = describeReport(await reference.converge(catalog, { fresh: first }));
          clock.mark('reference');
          if (converged) clock.notes.push(converged);
        },
      });
      clock.mark('seed');
      if (seeded === 'seeded again') clock.notes.push(RESEEDED_NOTE);
      // reference data an installation that predates it gets too: only into an empty table
      await seedRegions(db, catalog.entities.region.table);
      clock.mark('regions');
    }
    await moveFormerMenuPaths(db, catalog);
    await migrateStoredData(db, catalog);
    await narrowWidenedPicks(db, catalog, (tx, userIds) => identity.revokeUsers(tx, userIds));
    await syncDerivedScopes(db, catalog, config.timeZone, SEED_ADMIN);
    await forgetPlans?.();
    forgetPlans = undefined;
    await restoreCommits?.();
    restoreCommits = undefined;
    await releaseStartup?.();
    releaseStartup = undefined;

    const limits = platform.limits;
    const unprefixed = unprefixedApi();
    const app = Fastify({
      // the request log writes each URL with its secret-named query parameters masked (a download's ?blade-auth=)
      logger: options.logger ?? (config.logLevel !== 'silent' ? { level: config.logLevel, serializers: REQUEST_LOG_SERIALIZERS } : false),
      ...serverLimitOptions(limits),
      trustProxy: config.trustProxy ?? false,
      rewriteUrl: unprefixed.rewrite,
    });
    for (const skipped of sync.skippedIndexes)
      app.log.warn({ index: skipped.name }, `unique index not created, the records already break it: ${skipped.reason}`);
    await registerCompression(app);
    const clientDir = config.clientDir ?? join(PROJECT_ROOT, 'dist/client');
    const hasClient = existsSync(join(clientDir, 'index.html'));
    registerSecurityHeaders(app);
    registerJsonLimits(app);
    registerErrorHandler(app, {
      spaFallback: hasClient,
      limits,
      recordError: (err, request) =>
        logs.error(whoOf(request), {
          source: 'server',
          exceptionName: err.name,
          message: err.message,
          stackTrace: err.stack,
          method: request.method,
          requestUri: request.url.split('?')[0],
          ...originOf(request),
        }),
    });
    if (config.apiLog !== false) registerApiLog(app, logs);
    registerDeleteAudit(app, ctx);
    logs.start();
    app.addHook('onClose', async () => logs.close());
    // the tenants' own databases close after the requests and the logs
    app.addHook('onClose', async () => tenants.close());
    // the embedded database serves requests in arrival order (see db/fairness.ts)
    app.addHook('onRequest', async () => takeTicket());
    for (const module of SERVER_MODULES) module.beforeAuth?.(app, platform);
    registerAuth(app, tokens, {
      publicPaths: new Set(['/api/openapi.json', '/api/health', ...SERVER_MODULES.flatMap((m) => m.publicPaths ?? [])]),
      passwordChangePaths: new Set(SERVER_MODULES.flatMap((m) => m.passwordChangePaths ?? [])),
      authorize: (actor, path) => access.checkApi(actor, path),
      configOf: (request) => routeTable.routeOf(request)?.config,
    });
    // about 1.5 MB: serialised on first request once per schema set (code generation's install adds to it), not per request
    const openApiText = (of: EntityCatalog) => ({
      of,
      text: JSON.stringify(openApiDocument(of, { title: 'Zhusuan API', version: '1' }, openApiFragments(SERVER_MODULES, of))),
    });
    let openapi: ReturnType<typeof openApiText> | undefined;
    app.get('/api/openapi.json', async (_req, reply) => {
      if (openapi?.of !== ctx.catalog) openapi = openApiText(ctx.catalog);
      return reply.type('application/json; charset=utf-8').send(openapi.text);
    });
    // for load balancers and probes: says the process answers, nothing about any tenant
    app.get('/api/health', async () => envelope(200, { status: 'UP' }, 'ok'));
    registerTextGuard(app);
    registerQueryGuard(app);
    registerDrain(app);
    // the generic routes of the document types, in one table behind a catch-all (http/route-table.ts)
    const routeTable = new RouteTable(app);
    unprefixed.follow(app, routeTable);
    const liveHub = hub;
    app.addHook('preClose', async () => liveHub.close());
    // modules first: a route a module defines replaces the generic one
    for (const module of SERVER_MODULES) await module.routes?.(app, platform, routeTable);
    const jobs = Object.assign({}, ...SERVER_MODULES.map((m) => m.jobs?.(platform) ?? {})) as Record<string, BackgroundJob>;
    app.addHook('preClose', async () => {
      await Promise.all(Object.values(jobs).map((job) => job.stop()));
    });
    for (const model of Object.values(catalog.entities)) registerEntityRoutes(routeTable.collector(), ctx, model);
    for (const model of Object.values(catalog.entities)) registerRouteAliases(ctx, model, routeTable);
    if (hasClient) {
      await app.register(fastifyStatic, {
        root: clientDir,
        // files are looked up per request, so a rebuilt client is served without a restart
        wildcard: true,
        // the build's .br and .gz beside each file (http/compression.ts)
        preCompressed: true,
        setHeaders: (res, path) => res.header('cache-control', clientCacheControl(path)),
      });
    }
    clock.mark('routes');

    return {
      app,
      db,
      catalog,
      routes: routeTable,
      tokens,
      ctx,
      sync,
      access,
      identity,
      hub,
      flow,
      logs,
      tenantDatabases: tenants,
      jobs,
      hookOrder,
      startup: clock,
      async close() {
        await app.close();
        if (!options.db) await db.close();
      },
    };
  } catch (err) {
    await forgetPlans?.().catch(() => undefined);
    await restoreCommits?.().catch(() => undefined);
    await releaseStartup?.();
    await hub?.close().catch(() => undefined);
    await tenantDatabases?.close();
    if (!options.db) await db.close();
    throw err;
  }
}
