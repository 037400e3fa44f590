// A PostgreSQL server through node-postgres' pool.
import pg from 'pg';
import type { Db, QueryOptions, Queryable, Row } from './db.ts';
import { commit } from './commit.ts';
import { isConnectionLost } from './faults.ts';
import { StatementPlans } from './plans.ts';

export interface PostgresOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** Cancel any statement running longer (ms; 0 or absent: no limit). */
  statementTimeoutMs?: number;
}

/** The advisory lock key of server start-up: 'zhusuan' in ASCII as a bigint (a string: beyond 2^53). */
const STARTUP_LOCK = '34454800816234862';

/** A request waits at most this long for a free or new connection, then fails as "database unavailable". */
const CONNECT_TIMEOUT_MS = 10_000;

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Db & { pool: pg.Pool }> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  // A connection cut while checked out (between two statements of a transaction, or after its last
  // answer) is also an 'error' event, and one nobody listens to would end the process. The statement
  // that uses it next fails instead (answered 503), and the broken client is then discarded.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    connections.add(client);
  });
  pool.on('remove', (client) => {
    connections.delete(client);
    checkedOut.delete(client);
  });
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_err, client) => checkedOut.delete(client));
  const connections = new Set<pg.PoolClient>();
  const checkedOut = new Set<pg.PoolClient>();
  /**
   * The idle connections now, and (as a start-up parameter) the ones the pool opens later. A
   * connection someone holds is left alone: a SET there would run inside its owner's transaction,
   * or on the live-event listener's connection (which commits nothing).
   */
  const setOnAll = (value: 'on' | 'off') => {
    pool.options.options = value === 'off' ? '-c synchronous_commit=off' : undefined;
    const idle = [...connections].filter((c) => !checkedOut.has(c));
    return Promise.all(idle.map((c) => c.query(`SET synchronous_commit = ${value}`)));
  };
  await pool.query('select 1');
  const plans = new StatementPlans();
  const config = (sql: string, params: readonly unknown[], options?: QueryOptions) => plans.config(sql, params, options);
  const query = async <T extends Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) =>
    (await pool.query(config(sql, params, options))).rows as T[];
  return {
    kind: 'postgres',
    pool,
    query,
    async transaction(fn) {
      const client = await pool.connect();
      let failure: unknown;
      const tx: Queryable = { query: async (sql, params = [], options) => (await client.query(config(sql, params, options))).rows };
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await commit(client);
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        failure ??= err;
        throw err;
      } finally {
        // a connection that broke is closed rather than handed to the next request
        client.release(isConnectionLost(failure) ? (failure as Error) : undefined);
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
    async relaxCommits() {
      await setOnAll('off');
      return async () => {
        await setOnAll('on');
        // a synchronous commit flushes the log up to it: every relaxed commit before it is on disk
        await pool.query('SELECT txid_current()');
      };
    },
    async keepPlans() {
      plans.keepAll();
      // at the end of start-up every connection is idle (see setOnAll for one that is held)
      return () => plans.endKeepAll([...connections].filter((c) => !checkedOut.has(c)));
    },
    async lockStartup() {
      // a session lock on a connection of its own, outside the pool (whose connections the start-up
      // work needs), without a statement timeout: it waits as long as another process's start takes
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined); // a cut connection only releases the lock early
      try {
        await client.connect();
        await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
      } catch (err) {
        await client.end().catch(() => undefined);
        throw err;
      }
      return () => client.end().catch(() => undefined); // ending the session releases the lock
    },
  };
}
