// /api/blade-develop beyond the generic routes of its four entities (datasource, model,
// modelPrototype, code; schemas/develop):
//   POST datasource/test?id=            connects to a stored data source (button datasource_test)
//   GET  model/table-list?datasourceId= the tables of a data source (none: the application's database)
//   GET  model/table-info?modelId= | tableName=&datasourceId=   the fields a table suggests
//   GET  model-prototype/select?modelId= the fields of a model, in order
//   POST model-prototype/submit-list    replaces the fields of one model, all or nothing
//   POST code/copy?id=                  a copy of a generation setting (button code_copy)
//   POST code/gen-code?ids=             the schema file and manifest entry of each (button code_gen)
//   GET  code/download?id=              the generated schema file, as a download
//   POST code/install?id=               writes it into the deployment and serves it at once, on
//                                       every process (platform administrator; new types only)
//   GET  /api/schemas                   the schema set browsers compile their catalog from
//                                       (signed-in users; ETag: its version)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { SchemaSource } from '../../../engine/model/source.ts';
import type { EntityModel } from '../../../engine/model/types.ts';
import { parseListParams } from '../../../engine/query/list-params.ts';
import type { Queryable, Row } from '../../db/db.ts';
import { parseId, parseIds, EntityStore, PLATFORM_TENANT, type Actor } from '../../db/store.ts';
import { SchemaSyncError, syncSchema } from '../../db/sync.ts';
import { AppError, badRequest } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { acceptedEncoding } from '../../http/compression.ts';
import { envelope } from '../../http/envelope.ts';
import { isAdministrator } from '../../security/access.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { menuRows } from '../../seed/seed.ts';
import type { ReferenceData } from '../../reference/converge.ts';
import { syncDerivedScopes } from '../../security/derived-scopes.ts';
import { inTransaction } from '../flow/tx.ts';
import { readConnection, withConnection, type ConnectionGuard } from './datasource.ts';
import { generateSchema, type GeneratedSchema, type PrototypeRow } from './generate.ts';
import { listTables, productOf, proposeFields, serverVersion, type SourceDb } from './introspect.ts';
import type { PlatformAddresses } from './outgoing.ts';
import type { CacheBus } from '../../realtime/cache-bus.ts';
import type { RouteTable } from '../../http/route-table.ts';
import { LiveSchemas } from './live-schemas.ts';
import { grantInstalledMenu } from './menu-grant.ts';
import { checkGenerated, prepareInstall } from './schema-set.ts';

type Query = Record<string, string | undefined>;

export interface DevelopOptions {
  /** The table of generic routes: a type installed while running adds its own there. */
  routes: RouteTable;
  box: SecretBox;
  /** Hosts a data source may connect to. */
  allowedHosts: readonly string[];
  /** This machine and the main database's server: the platform administrator's alone. */
  addresses: PlatformAddresses;
  /** The folder of entities.manifest.json and schemas/ that install writes to. */
  schemaRoot: string;
  migrationsDir: string;
  /** The schema set the server started with. */
  source: SchemaSource;
  /** Tells the installation's other processes of an install. */
  bus: CacheBus;
  /** Brings the reference data up to a schema set: the installed type's menu entry and buttons. */
  reference: ReferenceData;
}

export const SCHEMAS_PATH = '/api/schemas';

/** Registers the routes; answers the process's live schema set. */
export function registerDevelopRoutes(app: FastifyInstance, ctx: RouteContext, options: DevelopOptions): LiveSchemas {
  const entity = (key: string): EntityModel => ctx.catalog.entities[key];
  const queryOf = (request: FastifyRequest) => request.query as Query;
  const ok = (request: FastifyRequest, data: unknown) => envelope(200, data, t('ok', request.lang));
  const storeOf = (key: string, actor: Actor, db = ctx) => new EntityStore(db, entity(key), actor);
  const schemas = new LiveSchemas({
    root: options.schemaRoot,
    source: options.source,
    ctx,
    routes: options.routes,
    bus: options.bus,
    onError: (err) => app.log.error({ err }, 'the schema set changed on disk but could not be reloaded'),
  });

  // not secret from a signed-in user (the same files the OpenAPI document describes), never anonymous
  app.get(SCHEMAS_PATH, async (request, reply) => {
    const answer = schemas.answer();
    const etag = `"${answer.version}"`;
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
    const known = String(request.headers['if-none-match'] ?? '')
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''));
    if (known.includes(etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    // encoded once per version here, not per request by the compression plugin
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(answer.json);
    return reply.header('content-encoding', encoding).send(answer.encodedAs(encoding));
  });

  /** The checks of the caller's connections: this machine and the main database's server are the platform administrator's. */
  const guardOf = (request: FastifyRequest, actor: Actor): ConnectionGuard => ({
    allowedHosts: options.allowedHosts,
    addresses: options.addresses,
    platform: isAdministrator(actor),
    log: (detail, message) => request.log.warn(detail, message),
  });

  /** Runs `work` on the data source's database, or on the application's own. */
  async function readDatabase<T>(
    request: FastifyRequest,
    actor: Actor,
    datasourceId: string | undefined,
    work: (db: SourceDb) => Promise<T>,
  ): Promise<T> {
    if (!datasourceId) {
      // the application's own tables are every tenant's business: the platform tenant's alone
      if (actor.tenantId !== PLATFORM_TENANT) throw new AppError(400, 'developMainDatabase');
      return work({ engine: 'postgresql', read: (sql, params) => ctx.db.query(sql, params) });
    }
    const connection = await readConnection(ctx.db, options.box, entity('datasource').table, actor, parseId(datasourceId, 'datasourceId'));
    return withConnection(connection, guardOf(request, actor), work);
  }

  app.post(`${entity('datasource').api}/test`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'datasource_test');
    const connection = await readConnection(ctx.db, options.box, entity('datasource').table, actor, parseId(queryOf(request).id));
    const version = await withConnection(connection, guardOf(request, actor), serverVersion);
    return ok(request, { name: connection.name, product: productOf(connection.engine, version), serverVersion: version });
  });

  app.get(`${entity('model').api}/table-list`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.check(actor, entity('model'), 'view');
    return ok(request, await readDatabase(request, actor, queryOf(request).datasourceId || undefined, listTables));
  });

  app.get(`${entity('model').api}/table-info`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.check(actor, entity('model'), 'view');
    const query = queryOf(request);
    let { tableName, datasourceId } = query;
    if (query.modelId) {
      const model = await storeOf('model', actor).detail(parseId(query.modelId, 'modelId'));
      tableName = String(model.modelTable);
      datasourceId = model.datasourceId ? String(model.datasourceId) : undefined;
    }
    if (!tableName) throw new AppError(400, 'missingParam', { param: 'tableName' });
    const fields = await readDatabase(request, actor, datasourceId || undefined, (db) => proposeFields(db, tableName!));
    if (!fields) throw new AppError(400, 'developTableNotFound', { table: tableName });
    return ok(request, { tableName, fields });
  });

  async function prototypesOf(actor: Actor, modelId: string): Promise<Row[]> {
    const proto = entity('modelPrototype');
    return storeOf('modelPrototype', actor).all(parseListParams(proto, { modelId_equal: modelId }).filters);
  }

  app.get(`${entity('modelPrototype').api}/select`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.check(actor, entity('modelPrototype'), 'view');
    const modelId = parseId(queryOf(request).modelId, 'modelId');
    await storeOf('model', actor).detail(modelId);
    return ok(request, await prototypesOf(actor, modelId));
  });

  app.post(`${entity('modelPrototype').api}/submit-list`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.check(actor, entity('modelPrototype'), 'add');
    const rows = request.body;
    if (!Array.isArray(rows) || !rows.length || rows.some((r) => typeof r !== 'object' || r === null || Array.isArray(r)))
      throw badRequest('badJson');
    const modelId = parseId(String(queryOf(request).modelId ?? rows[0].modelId ?? ''), 'modelId');
    if (rows.some((r) => r.modelId !== undefined && String(r.modelId) !== modelId)) throw new AppError(400, 'developMixedModels');
    await storeOf('model', actor).detail(modelId);
    // the fields of a model are replaced together: one bad row changes nothing
    const saved = await ctx.db.transaction(async (tx) => {
      const store = storeOf('modelPrototype', actor, inTransaction(ctx, tx));
      const old = await prototypesOfIn(tx, actor.tenantId, modelId);
      if (old.length) await store.remove(old);
      const out: Row[] = [];
      for (const [i, row] of rows.entries()) out.push(await store.create({ ...row, id: undefined, modelId, sort: row.sort ?? i + 1 }));
      return out;
    });
    return ok(request, saved);
  });

  async function prototypesOfIn(tx: Queryable, tenantId: string, modelId: string): Promise<string[]> {
    const rows = await tx.query<{ id: string }>(
      `SELECT id::text AS id FROM ${entity('modelPrototype').table} WHERE tenant_id = $1 AND model_id = $2`,
      [tenantId, modelId],
    );
    return rows.map((r) => r.id);
  }

  app.post(`${entity('code').api}/copy`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'code_copy');
    const store = storeOf('code', actor);
    const source = await store.detail(parseId(queryOf(request).id));
    const copy = Object.fromEntries(
      entity('code')
        .fields.filter((f) => !f.readOnly)
        .map((f) => [f.name, source[f.name]]),
    );
    return ok(request, await store.create({ ...copy, codeName: `${String(source.codeName).slice(0, 60)}-copy` }));
  });

  /** The schema a code setting generates, from its model and the model's fields. */
  async function generate(actor: Actor, codeId: string): Promise<GeneratedSchema> {
    const code = await storeOf('code', actor).detail(codeId);
    const model = await storeOf('model', actor).detail(String(code.modelId));
    const prototypes = (await prototypesOf(actor, String(model.id))) as unknown as PrototypeRow[];
    if (!prototypes.length) throw new AppError(400, 'developNoFields', { model: model.modelName });
    return generateSchema(model as never, prototypes, code as never, ctx.catalog);
  }

  app.post(`${entity('code').api}/gen-code`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'code_gen');
    const ids = parseIds(queryOf(request).ids ?? (request.body as Query | undefined)?.ids);
    const out = [];
    for (const id of ids) {
      const generated = await generate(actor, id);
      out.push({
        codeId: id,
        key: generated.key,
        file: generated.file,
        manifestEntry: { [generated.key]: generated.file },
        schema: generated.schema,
        issues: checkGenerated(options.schemaRoot, generated),
      });
    }
    return ok(request, out);
  });

  app.get(`${entity('code').api}/download`, async (request, reply) => {
    const actor = actorOf(request);
    await ctx.access.check(actor, entity('code'), 'view');
    const generated = await generate(actor, parseId(queryOf(request).id));
    const name = generated.file.split('/').pop()!;
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(`${JSON.stringify(generated.schema, null, 2)}\n`);
  });

  app.post(`${entity('code').api}/install`, async (request) => {
    const actor = actorOf(request);
    // it changes the deployment for every tenant
    if (!isAdministrator(actor)) throw new AppError(403, 'forbidden');
    const generated = await generate(actor, parseId(queryOf(request).id));
    const groups = await menuRows(ctx.db, entity('menu'));
    const parent = (generated.schema['x-entity'] as { menu: { parent: string } }).menu.parent;
    if (!groups.some((g) => g.code === parent)) throw new AppError(400, 'developMenuParent', { code: parent });
    const next = prepareInstall(options.schemaRoot, generated);
    try {
      await syncSchema(ctx.db, next.catalog, options.migrationsDir);
    } catch (err) {
      // an existing table whose columns differ from the model: sync changes nothing and says what
      if (err instanceof SchemaSyncError) throw new AppError(400, 'developNotAdditive', { reason: err.problems.join('; ') });
      throw err;
    }
    next.write();
    schemas.adopt(next.source, next);
    const model = next.catalog.entities[generated.key];
    await options.reference.converge(next.catalog);
    await grantInstalledMenu(ctx, actor, model);
    await syncDerivedScopes(ctx.db, next.catalog, ctx.timeZone, { userId: actor.userId, deptId: actor.deptId ?? '0' });
    await ctx.access.invalidate();
    await schemas.announce(ctx.db);
    return ok(request, { key: generated.key, file: generated.file, api: model.api, table: model.table, version: schemas.version });
  });

  return schemas;
}
