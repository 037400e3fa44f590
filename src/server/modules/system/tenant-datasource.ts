// POST /api/blade-system/tenant/datasource (tenantId, datasourceId): puts a tenant's business data on
// the PostgreSQL database of a data source of the platform tenant, or (no datasourceId) back on the
// main database. The platform administrator only; the main database must be PostgreSQL.
//
// A move: the target is migrated (the business tables, see db/tenant-data.ts); the tenant's writes
// are held off on its current database (db/tenant-databases.ts); every business table's rows of the
// tenant are copied in one transaction on the target, whose row counts and sums of every numeric
// column must equal the source's; then the binding is switched on the main database (announced to
// every process) and the rows are deleted from the old database, which remembers that the tenant
// left it. A check that fails leaves the tenant where it was.
import type { FastifyInstance } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { parseId, PLATFORM_TENANT, type Actor } from '../../db/store.ts';
import { syncSchema } from '../../db/sync.ts';
import { tenantDataCatalog, tenantDataTables } from '../../db/tenant-data.ts';
import { MOVE_LOCK, TENANT_DATABASE_DDL, type TenantConnection, type TenantDatabases } from '../../db/tenant-databases.ts';
import { AppError, notFound } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import { envelope } from '../../http/envelope.ts';
import type { RouteContext } from '../../http/entity-routes.ts';
import { LIVE_CHANNEL, type Notifier } from '../../realtime/notifier.ts';
import { isAdministrator } from '../../security/access.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { isAllowedHost, readConnection } from '../develop/datasource.ts';

/** The live-channel signal of a bind or move: every process forgets what it knew of the tenant. */
const MOVED_SIGNAL = 'zs.tenant-database';
const COPY_BATCH = 500;
const TENANT_ID = /^\d{6}$/;

const PLATFORM_ACTOR: Actor = { tenantId: PLATFORM_TENANT, userId: '0', deptId: null, lang: 'zh' };

/** A data source of the platform tenant, password opened; a host outside the allow-list is refused before any connection. */
export async function platformConnection(
  main: Db,
  box: SecretBox,
  catalog: EntityCatalog,
  allowedHosts: readonly string[],
  datasourceId: string,
): Promise<TenantConnection> {
  const c = await readConnection(main, box, q(catalog.entities.datasource.table), PLATFORM_ACTOR, datasourceId);
  // the tenant's tables are PostgreSQL's (the same SQL as the main database's)
  if (c.engine !== 'postgresql') throw new AppError(400, 'tenantDatabaseNotPostgres', { name: c.name });
  if (!isAllowedHost(c.host, allowedHosts)) throw new AppError(400, 'datasourceHostRefused', { host: c.host });
  return c;
}

/** What the modules add to a tenant's own database: their tables beside the documents, and their data migrations. */
export interface TenantDatabaseModules {
  ddl: string;
  migrate: (db: Db, catalog: EntityCatalog) => Promise<number>;
}

/** Brings a tenant database in line with the business tables (on bind, and when a process first opens it). */
export async function migrateTenantDatabase(
  db: Db,
  catalog: EntityCatalog,
  migrationsDir: string,
  modules: TenantDatabaseModules,
): Promise<void> {
  const release = await db.lockStartup?.();
  try {
    await db.exec([TENANT_DATABASE_DDL, modules.ddl].join('\n'));
    await syncSchema(db, tenantDataCatalog(catalog), migrationsDir);
    await modules.migrate(db, tenantDataCatalog(catalog));
  } finally {
    await release?.();
  }
}

/** Makes every process forget the tenant's binding when the main database's transaction `tx` commits. */
async function announceMove(tx: Queryable, tenantId: string): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ t: tenantId, u: [], n: MOVED_SIGNAL })]);
}

/** Listens for other processes' moves (and forgets every binding after the listener reconnected). */
export function followMoves(notifier: Notifier, tenants: TenantDatabases): () => void {
  return notifier.subscribe((event) => {
    if (event.name === MOVED_SIGNAL) {
      tenants.forget(event.tenantId);
      void tenants.closeUnused().catch(() => undefined);
    } else if (event.everyone && event.name === 'refresh') tenants.forgetAll();
  });
}

async function copyTable(source: Queryable, target: Queryable, table: string, tenantId: string): Promise<void> {
  await target.query(`DELETE FROM ${q(table)} WHERE tenant_id = $1`, [tenantId]);
  // rows travel as PostgreSQL's own JSON text (bigint ids, numerics and timestamps never pass through JS numbers)
  await source.query(
    `DECLARE zs_tenant_copy NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${q(table)} t WHERE t.tenant_id = '${tenantId}'`,
  );
  for (;;) {
    const rows = await source.query<{ r: string }>(`FETCH ${COPY_BATCH} FROM zs_tenant_copy`);
    if (!rows.length) break;
    await target.query(`INSERT INTO ${q(table)} SELECT * FROM json_populate_recordset(NULL::${q(table)}, $1::json)`, [
      `[${rows.map((row) => row.r).join(',')}]`,
    ]);
  }
  await source.query('CLOSE zs_tenant_copy');
  // a serial column's sequence continues after the copied values
  const serials = await target.query<{ c: string }>(
    `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_default LIKE 'nextval(%'`,
    [table],
  );
  for (const { c } of serials) {
    await target.query(`SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(${q(c)}) FROM ${q(table)}), 1))`, [table, c]);
  }
}

async function numericColumns(db: Queryable, table: string): Promise<string[]> {
  const rows = await db.query<{ c: string }>(
    `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
        AND data_type IN ('smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision') ORDER BY column_name`,
    [table],
  );
  return rows.map((r) => r.c);
}

/** The row count and the sum of every numeric column of the tenant's rows, as one text. */
async function figures(db: Queryable, table: string, columns: readonly string[], tenantId: string): Promise<string> {
  const sums = columns.map((c) => `coalesce(sum(${q(c)}::numeric), 0)::text`);
  const [row] = await db.query<{ f: string }>(
    `SELECT concat_ws(' ', count(*)::text, ${[...sums, "''"].join(', ')}) AS f FROM ${q(table)} WHERE tenant_id = $1`,
    [tenantId],
  );
  return row.f.trim();
}

async function checkCopy(source: Queryable, target: Queryable, table: string, tenantId: string): Promise<void> {
  const sourceColumns = new Set(await numericColumns(source, table));
  const columns = (await numericColumns(target, table)).filter((c) => sourceColumns.has(c));
  const [from, to] = [await figures(source, table, columns, tenantId), await figures(target, table, columns, tenantId)];
  if (from !== to) throw new AppError(500, 'tenantDatabaseMismatch', { table, source: from, target: to });
}

/** Where a failed connection's cause is written: the server's log, never the answer. */
type FailureLog = (detail: Record<string, unknown>, message: string) => void;

async function openTarget(tenants: TenantDatabases, datasourceId: string, log: FailureLog): Promise<Db> {
  try {
    return await tenants.pool(datasourceId);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // the one message of every failed connection (develop/datasource.ts), the cause logged
    log({ err, datasourceId }, 'connecting to a tenant database failed');
    throw new AppError(400, 'datasourceConnectFailed', { name: datasourceId });
  }
}

export interface MoveDeps {
  main: Db;
  tenants: TenantDatabases;
  catalog: EntityCatalog;
}

/** Moves the tenant's business data to `datasourceId`'s database (null: the main one). */
export async function moveTenant(
  deps: MoveDeps,
  tenantId: string,
  datasourceId: string | null,
  log: FailureLog = () => undefined,
): Promise<{ tables: number }> {
  const { main, tenants, catalog } = deps;
  const from = await tenants.datasourceOf(tenantId);
  if (from === datasourceId) throw new AppError(400, 'tenantDatabaseSame', { tenantId });
  const target = datasourceId ? await openTarget(tenants, datasourceId, log) : main;
  const source = from ? await tenants.pool(from) : main;
  const tables = tenantDataTables(catalog);
  await tenants.whileMoving(tenantId, () =>
    source.transaction(async (hold) => {
      // waits for the tenant's writes in flight, and refuses new ones until this transaction ends
      await hold.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MOVE_LOCK, tenantId]);
      await target.transaction(async (tx) => {
        for (const table of tables) await copyTable(hold, tx, table, tenantId);
        for (const table of tables) await checkCopy(hold, tx, table, tenantId);
        await tx.query('DELETE FROM zs_tenant_moved WHERE tenant_id = $1', [tenantId]);
      });
      await main.transaction(async (tx) => {
        if (datasourceId) {
          await tx.query(
            `INSERT INTO zs_tenant_database (tenant_id, datasource_id) VALUES ($1, $2)
           ON CONFLICT (tenant_id) DO UPDATE SET datasource_id = EXCLUDED.datasource_id, bound_at = now()`,
            [tenantId, datasourceId],
          );
        } else {
          await tx.query('DELETE FROM zs_tenant_database WHERE tenant_id = $1', [tenantId]);
        }
        await tx.query(`UPDATE ${q(catalog.entities.tenant.table)} SET datasource_id = $2 WHERE tenant_id = $1`, [tenantId, datasourceId]);
        await announceMove(tx, tenantId);
      });
      for (const table of tables) await hold.query(`DELETE FROM ${q(table)} WHERE tenant_id = $1`, [tenantId]);
      await hold.query('INSERT INTO zs_tenant_moved (tenant_id) VALUES ($1) ON CONFLICT (tenant_id) DO UPDATE SET moved_at = now()', [
        tenantId,
      ]);
    }),
  );
  tenants.forget(tenantId);
  await tenants.closeUnused();
  return { tables: tables.length };
}

export function registerTenantDatasourceRoutes(app: FastifyInstance, ctx: RouteContext, deps: MoveDeps) {
  const tenant = ctx.catalog.entities.tenant;
  app.post(`${tenant.api}/datasource`, async (request) => {
    const actor = actorOf(request);
    if (!isAdministrator(actor)) throw new AppError(403, 'tenantDatabaseAdminOnly');
    const query = { ...((request.body ?? {}) as Record<string, unknown>), ...(request.query as Record<string, unknown>) };
    const tenantId = String(query.tenantId ?? '').trim();
    if (!TENANT_ID.test(tenantId)) throw new AppError(400, 'badId', { param: 'tenantId', value: tenantId });
    if (tenantId === PLATFORM_TENANT) throw new AppError(400, 'tenantDatabasePlatform');
    const [known] = await ctx.db.query(`SELECT 1 FROM ${q(tenant.table)} WHERE tenant_id = $1 AND is_deleted = 0`, [tenantId]);
    if (!known) throw notFound(tenant.label);
    if (!deps.tenants.bindable) throw new AppError(400, 'tenantDatabaseNeedsPostgres');
    const raw = query.datasourceId === undefined || query.datasourceId === null ? '' : String(query.datasourceId).trim();
    const datasourceId = raw === '' || raw === '0' ? null : parseId(raw, 'datasourceId');
    await moveTenant(deps, tenantId, datasourceId, (detail, message) => request.log.warn(detail, message));
    return envelope(200, null, t('ok', request.lang));
  });
}
