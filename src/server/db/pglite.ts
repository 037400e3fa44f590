// The embedded database. PGlite runs on the main thread and executes one statement at a time;
// its own mutex queues callers in arrival order, so concurrent requests are served fairly as
// long as each statement stays short (indexed lookups, bounded pages).
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, Row } from './db.ts';

function wrap(q: { query: (sql: string, params?: any[]) => Promise<{ rows: unknown[] }> }): Queryable {
  return {
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return (await q.query(sql, params as unknown[])).rows as T[];
    },
  };
}

export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob | File } = {}): Promise<Db & { pglite: PGlite }> {
  const pglite = await PGlite.create(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  const base = wrap(pglite);
  return {
    kind: 'pglite',
    pglite,
    query: base.query,
    transaction: (fn) => pglite.transaction((tx) => fn(wrap(tx))),
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    close: () => pglite.close(),
  };
}
