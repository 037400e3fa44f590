// Which statements keep their plans on a connection. Both databases are spoken to through
// node-postgres (db/postgres.ts, and db/pglite.ts through db/pglite-connection.ts), where a statement
// with a name is parsed and planned once per connection and then only bound and run.
//
// Two kinds are named: the hot statements a caller marks (`prepare`, kept for good), and, while a
// start-up keeps every plan (`keepAll`), every statement: the first start's seed runs about ten
// thousand statements of about a thousand texts, and planning was most of each one's cost in the
// embedded database. Those start-up names are dropped from the connections when the start-up ends.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { QueryOptions } from './db.ts';

const hotNames = new Map<string, string>();

/** Start-up names never repeat in a process: a connection that prepared one keeps remembering it. */
const STARTUP_PREFIX = 'zs_start_';
let startupCount = 0;

function hotName(sql: string): string {
  let name = hotNames.get(sql);
  if (!name) hotNames.set(sql, (name = `zs_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`));
  return name;
}

export class StatementPlans {
  private startup: Map<string, string> | undefined;

  /** The query as node-postgres takes it: named when its plan is kept. */
  config(sql: string, params: readonly unknown[] = [], options?: QueryOptions): pg.QueryConfig {
    const name = this.startup ? this.startupName(this.startup, sql) : options?.prepare ? hotName(sql) : undefined;
    return name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] };
  }

  /** From now on every statement keeps its plan, until `endKeepAll`. */
  keepAll(): void {
    this.startup ??= new Map();
  }

  /**
   * Ends `keepAll`: each connection drops the statements it prepared meanwhile (one batch of DEALLOCATE).
   * A hot statement is named as a start-up one while `keepAll` lasts, so none of those is lost.
   */
  async endKeepAll(connections: Iterable<pg.ClientBase>): Promise<void> {
    this.startup = undefined;
    for (const connection of connections) {
      const { rows } = await connection.query<{ name: string }>(
        `SELECT name FROM pg_prepared_statements WHERE starts_with(name, '${STARTUP_PREFIX}')`,
      );
      if (rows.length) await connection.query(rows.map((r) => `DEALLOCATE ${r.name};`).join(' '));
    }
  }

  private startupName(names: Map<string, string>, sql: string): string {
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `${STARTUP_PREFIX}${++startupCount}`));
    return name;
  }
}
