// The workflow's hot statements (work-list pages, a step's read and its write) as named, prepared
// statements on PostgreSQL: their plans are made once per connection instead of on every request,
// which costs more than running them (about 2 ms of planning against 0.5 ms of execution for a
// todo page on a busy machine). Only texts built from a fixed set of shapes come here, so each
// connection holds a bounded number of them. The embedded database runs the text as usual.
import { createHash } from 'node:crypto';
import type { Db, Queryable, Row } from '../../db/db.ts';

interface NamedClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
  query(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

interface NamedPool extends NamedClient {
  connect(): Promise<NamedClient & { release(): void }>;
}

/** A transaction that can also run prepared statements. */
export interface StepTx extends Queryable {
  prepared<T extends Row = Row>(sql: string, params: unknown[]): Promise<T[]>;
}

const names = new Map<string, string>();

function nameOf(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `zs_flow_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}

const poolOf = (db: Queryable) => (db as { pool?: NamedPool }).pool;

export async function queryPrepared<T extends Row = Row>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const pool = poolOf(db);
  if (!pool) return db.query<T>(sql, params);
  return (await pool.query({ name: nameOf(sql), text: sql, values: params })).rows as T[];
}

/** Runs `fn` in one transaction (as Db.transaction), with prepared statements where the database has them. */
export async function stepTransaction<T>(db: Db, fn: (tx: StepTx) => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  if (!pool) return db.transaction((tx) => fn({ query: (sql, params) => tx.query(sql, params), prepared: (sql, params) => tx.query(sql, params) }));
  const client = await pool.connect();
  const tx: StepTx = {
    query: async <R extends Row>(sql: string, params: readonly unknown[] = []) => (await client.query(sql, params as unknown[])).rows as R[],
    prepared: async <R extends Row>(sql: string, params: unknown[]) => (await client.query({ name: nameOf(sql), text: sql, values: params })).rows as R[],
  };
  try {
    await client.query('BEGIN');
    const result = await fn(tx);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
