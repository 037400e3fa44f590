// A PostgreSQL server through node-postgres' pool.
import pg from 'pg';
import type { Db, Queryable, Row } from './db.ts';

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Db & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  await pool.query('select 1');
  const query = async <T extends Row>(sql: string, params: readonly unknown[] = []) =>
    (await pool.query(sql, params as unknown[])).rows as T[];
  return {
    kind: 'postgres',
    pool,
    query,
    async transaction(fn) {
      const client = await pool.connect();
      const tx: Queryable = { query: async (sql, params = []) => (await client.query(sql, params as unknown[])).rows };
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
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
