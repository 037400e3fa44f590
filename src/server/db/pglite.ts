// The embedded database. PGlite runs on the main thread and executes one statement at a time;
// statements and transactions pass through a FairQueue that serves the oldest request first.
//
// It is spoken to through node-postgres (db/pglite-connection.ts), like the server database
// (db/postgres.ts): rows come out typed the same way, and a statement can keep its plan (a named
// prepared statement, db/plans.ts), which PGlite's own query API cannot. Planning is most of a
// statement's cost in WebAssembly: the first start's seed ran in two thirds of the time with its
// plans kept, and a primary-key read took a third of the time with its plan kept.
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { Db, QueryOptions, Queryable, Row } from './db.ts';
import { commit } from './commit.ts';
import { FairQueue } from './fairness.ts';
import { pgliteClientConfig } from './pglite-connection.ts';
import { StatementPlans } from './plans.ts';

// PGlite's PostgreSQL is 9 MB of WebAssembly. V8 compiles a function with its baseline compiler
// (Liftoff) on first call and recompiles the hot ones with its optimising compiler (TurboFan) on
// other threads. For this module the recompiling costs more than it wins: it held up the event loop
// for 0.3–1 s right after the database opened, and 100 joins over the regions ran in half the time
// without it; after 1,000 they were even (tests/bench/startup-results.md). So the process keeps Liftoff's code.
let baselineOnly = false;
function keepBaselineCode() {
  if (baselineOnly) return;
  setFlagsFromString('--liftoff-only');
  baselineOnly = true;
}

// PostgreSQL's buffer pool (shared_buffers). PGlite's 128 MB are set up at every open, which in
// WebAssembly took about 300 ms of a restart; with 32 MB the list benchmark on 100,000 projects
// answered as many requests (tests/bench/results.md), the operating system's cache being behind
// the pool's pages either way, and the process holds less memory.
const SHARED_BUFFERS = '32MB';

export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob | File } = {}): Promise<Db & { pglite: PGlite }> {
  keepBaselineCode();
  const pglite = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const client = new pg.Client(pgliteClientConfig(pglite));
  await client.connect();
  const plans = new StatementPlans();
  const statement: Queryable = {
    query: async <T extends Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) =>
      (await client.query(plans.config(sql, params, options))).rows as T[],
  };
  const queue = new FairQueue();
  return {
    kind: 'pglite',
    pglite,
    query: (sql, params, options) => queue.run(() => statement.query(sql, params, options)),
    transaction: (fn) => queue.run(() => inTransaction(client, () => fn(statement))),
    exec: (sql) =>
      queue.run(async () => {
        await client.query(sql);
      }),
    async keepPlans() {
      plans.keepAll();
      return () => queue.run(() => plans.endKeepAll([client]));
    },
    async close() {
      await client.end();
      await pglite.close();
    },
  };
}

/** Runs `fn` between BEGIN and COMMIT; rolled back when it throws. */
async function inTransaction<T>(client: pg.Client, fn: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await commit(client);
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
