// The embedded database. PGlite runs on the main thread and executes one statement at a time;
// statements and transactions pass through a FairQueue that serves the oldest request first.
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, Row } from './db.ts';
import { FairQueue } from './fairness.ts';

function wrap(q: { query: (sql: string, params?: any[]) => Promise<{ rows: unknown[] }> }): Queryable {
  return {
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      return (await q.query(sql, params as unknown[])).rows as T[];
    },
  };
}

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
  const base = wrap(pglite);
  const queue = new FairQueue();
  return {
    kind: 'pglite',
    pglite,
    query: (sql, params) => queue.run(() => base.query(sql, params)),
    transaction: (fn) => queue.run(() => pglite.transaction((tx) => fn(wrap(tx)))),
    exec: (sql) =>
      queue.run(async () => {
        await pglite.exec(sql);
      }),
    close: () => pglite.close(),
  };
}
