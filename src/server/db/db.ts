// One small database interface with two implementations: PGlite (PostgreSQL in WASM, embedded in
// the process, data in DATA_DIR) and node-postgres (a PostgreSQL server through DATABASE_URL).
// Both speak the same SQL; nothing above this file knows which one it has.
export type Row = Record<string, any>;

export interface QueryOptions {
  /**
   * Keep the statement's plan on the connection (a named prepared statement), for hot statements
   * whose planning costs more than their run. Only for texts from a fixed set of shapes: each
   * connection keeps every one it has seen.
   */
  prepare?: boolean;
}

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Several statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Waits until no other server process is starting on this database, then holds it off until the
   * returned release is called: schema sync, the signing key and first-start seeding run once
   * even when N processes start at the same moment. PostgreSQL only (the embedded database has
   * one process: the server locks its data directory, db/data-dir-lock.ts).
   */
  lockStartup?(): Promise<() => Promise<void>>;
  /**
   * Commits stop waiting for the disk until the returned restore is called, which makes them all
   * durable at once. For the start-up's thousands of small commits (table sync, the first start's
   * seed), before the server listens: nothing else may use the database meanwhile. A crash in
   * between loses the last commits, never consistency. PostgreSQL only (PGlite does not wait on them).
   */
  relaxCommits?(): Promise<() => Promise<void>>;
  /**
   * Every statement keeps its plan on its connection until the returned restore is called, which
   * drops them all. For the start-up's thousands of statements of a bounded set of texts (the
   * first start's seed), before the server listens. See db/plans.ts.
   */
  keepPlans?(): Promise<() => Promise<void>>;
}

/** PostgreSQL's error code, from either driver. */
export function sqlState(err: unknown): string | undefined {
  // only a driver's error carries a text code; an AppError thrown inside a transaction has a number
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}
