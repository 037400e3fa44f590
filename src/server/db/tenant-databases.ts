// The database of each tenant's business data (see tenant-data.ts for what that is): the main
// database, or the PostgreSQL database of a data source the tenant was bound to. Stores and modules
// ask `dbFor(tenantId)` and never learn which one they got.
//
// A bound data source gets a small pool of its own, opened on first use and closed when no tenant
// uses it any more and on shutdown. Which tenant is bound where is read from the main database
// (zs_tenant_database) and kept per process; a bind or move announces itself on the live channel,
// and every process forgets what it knew of that tenant.
//
// Moves and writes: every write transaction of a tenant first takes a shared advisory lock of that
// tenant on its database (without waiting) and then checks that the tenant has not left that
// database (zs_tenant_moved). A move holds the same lock exclusively on the old database from
// before the copy until the old rows are deleted and the marker is written, in one transaction:
// a write either committed before the copy started (and is copied), or is refused with a
// retryable 503, or runs on the new database. No write lands on the old database unseen.
import type { Db, QueryOptions, Queryable, Row } from './db.ts';
import { openPostgres } from './postgres.ts';
import { AppError } from '../errors.ts';

export const TENANT_DATABASE_DDL = `
CREATE TABLE IF NOT EXISTS zs_tenant_database (
  tenant_id varchar(12) PRIMARY KEY, datasource_id bigint NOT NULL, bound_at timestamp(0) NOT NULL DEFAULT now());
CREATE TABLE IF NOT EXISTS zs_tenant_moved (tenant_id varchar(12) PRIMARY KEY, moved_at timestamp(0) NOT NULL DEFAULT now());
`;

/** The first key of the tenants' move locks (two-int advisory locks: this, hashtext(tenant id)). */
export const MOVE_LOCK = 7_937_001;

/** Seconds a write refused during a move asks the client to wait. */
export const MOVE_RETRY_SECONDS = 2;

/** Connections of one bound data source's pool in each process. */
const TENANT_POOL_MAX = 5;

export interface TenantConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

export interface TenantDatabaseOptions {
  /** The connection of a platform data source, password opened; refuses a host outside the allow-list. */
  connectionOf(datasourceId: string): Promise<TenantConnection>;
  statementTimeoutMs?: number;
  /** Runs once on each pool this process opens, before its first use (the tables' migration). */
  prepare?(db: Db): Promise<void>;
}

export function postgresUrl(c: TenantConnection): string {
  const host = c.host.includes(':') ? `[${c.host}]` : c.host;
  return `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@${host}:${c.port}/${encodeURIComponent(c.database)}`;
}

const WRITE = /^\s*(insert|update|delete|merge)\b|^\s*with\b[\s\S]*\b(insert|update|delete)\b/i;

export function movingError(): AppError {
  return new AppError(503, 'tenantMoving', { seconds: MOVE_RETRY_SECONDS });
}

export class TenantDatabases {
  private readonly bindings = new Map<string, Promise<string | null>>();
  private readonly pools = new Map<string, Promise<Db>>();
  private readonly views = new Map<string, Db>();
  /** Tenants this process is moving: their writes are refused here without asking the database. */
  private readonly moving = new Set<string>();

  constructor(
    readonly main: Db,
    private readonly options: TenantDatabaseOptions,
  ) {}

  /** True when tenants may be bound at all: the main database must be a PostgreSQL server. */
  get bindable(): boolean {
    return this.main.kind === 'postgres';
  }

  /** The database of `tenantId`'s business data. Resolved on its first statement, so it costs nothing to ask. */
  dbFor(tenantId: string): Db {
    let view = this.views.get(tenantId);
    if (!view) this.views.set(tenantId, (view = this.view(tenantId)));
    return view;
  }

  /** The data source the tenant is bound to, or null for the main database. */
  datasourceOf(tenantId: string): Promise<string | null> {
    if (!this.bindable) return Promise.resolve(null);
    let bound = this.bindings.get(tenantId);
    if (!bound) {
      bound = this.main
        .query<{ id: string }>('SELECT datasource_id::text AS id FROM zs_tenant_database WHERE tenant_id = $1', [tenantId])
        .then((rows) => rows[0]?.id ?? null);
      bound.catch(() => this.bindings.delete(tenantId));
      this.bindings.set(tenantId, bound);
    }
    return bound;
  }

  /** The database itself (the main one, or the bound data source's pool). */
  async resolve(tenantId: string): Promise<Db> {
    const datasourceId = await this.datasourceOf(tenantId);
    return datasourceId ? this.pool(datasourceId) : this.main;
  }

  /** The pool of a data source, opened on first use. */
  pool(datasourceId: string): Promise<Db> {
    let pool = this.pools.get(datasourceId);
    if (!pool) {
      pool = this.open(datasourceId);
      pool.catch(() => this.pools.delete(datasourceId));
      this.pools.set(datasourceId, pool);
    }
    return pool;
  }

  private async open(datasourceId: string): Promise<Db> {
    const connection = await this.options.connectionOf(datasourceId);
    const db = await openPostgres(postgresUrl(connection), { max: TENANT_POOL_MAX, statementTimeoutMs: this.options.statementTimeoutMs });
    try {
      await this.options.prepare?.(db);
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
    return db;
  }

  /** Forgets every binding (the announcements may have been missed while the listener was away). */
  forgetAll(): void {
    this.bindings.clear();
  }

  /** Forgets what this process knew of the tenant's binding: its next statement reads it again. */
  forget(tenantId: string): void {
    this.bindings.delete(tenantId);
  }

  /** Closes the pools of data sources no tenant is bound to any more (after a move). */
  async closeUnused(): Promise<void> {
    if (!this.bindable) return;
    const rows = await this.main.query<{ id: string }>('SELECT DISTINCT datasource_id::text AS id FROM zs_tenant_database');
    const bound = new Set(rows.map((r) => r.id));
    for (const [datasourceId, pool] of [...this.pools]) {
      if (bound.has(datasourceId)) continue;
      this.pools.delete(datasourceId);
      await pool.then((db) => db.close()).catch(() => undefined);
    }
  }

  /** Refuses this process's writes of the tenant while `work` runs (the database lock refuses the others'). */
  async whileMoving<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    if (this.moving.has(tenantId)) throw movingError();
    this.moving.add(tenantId);
    try {
      return await work();
    } finally {
      this.moving.delete(tenantId);
    }
  }

  /**
   * The first statements of a tenant's write transaction: refused (503, retry) while the tenant is
   * being moved off this database, or once it has left it (this process had not heard yet).
   */
  async admitWrite(tx: Queryable, tenantId: string): Promise<void> {
    if (this.moving.has(tenantId)) throw movingError();
    if (!this.bindable) return;
    const [lock] = await tx.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock_shared($1, hashtext($2)) AS free', [
      MOVE_LOCK,
      tenantId,
    ]);
    if (!lock.free) throw movingError();
    // a statement of its own: its snapshot is taken after the lock, so it sees a finished move's marker
    const left = await tx.query('SELECT 1 FROM zs_tenant_moved WHERE tenant_id = $1', [tenantId]);
    if (left.length) {
      this.forget(tenantId);
      throw movingError();
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.bindings.clear();
    await Promise.all(pools.map((p) => p.then((db) => db.close()).catch(() => undefined)));
  }

  private view(tenantId: string): Db {
    const resolve = () => this.resolve(tenantId);
    const transaction = async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> =>
      (await resolve()).transaction(async (tx) => {
        await this.admitWrite(tx, tenantId);
        return fn(tx);
      });
    return {
      kind: this.main.kind,
      async query<T extends Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]> {
        // a lone write is a transaction of its own, admitted like any other
        if (WRITE.test(sql)) return transaction((tx) => tx.query<T>(sql, params, options));
        return (await resolve()).query<T>(sql, params, options);
      },
      transaction,
      exec: async (sql: string) => (await resolve()).exec(sql),
      // the databases are closed by their owner (close()), not through one tenant's view
      close: async () => undefined,
    };
  }
}
