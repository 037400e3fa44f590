// The workflow's hot statements (work-list pages, a step's read and its write) run as prepared
// statements: their plans are made once per connection instead of on every request, which costs
// more than running them (about 2 ms of planning against 0.5 ms of execution for a todo page on
// a busy machine). Only texts built from a fixed set of shapes come here.
import type { Db, Queryable, Row } from '../../db/db.ts';

/** A transaction that can also run prepared statements. */
export interface StepTx extends Queryable {
  prepared<T extends Row = Row>(sql: string, params: unknown[]): Promise<T[]>;
}

export function queryPrepared<T extends Row = Row>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  return db.query<T>(sql, params, { prepare: true });
}

/** Runs `fn` in one transaction (Db.transaction), with prepared statements at hand. */
export function stepTransaction<T>(db: Db, fn: (tx: StepTx) => Promise<T>): Promise<T> {
  return db.transaction((tx) =>
    fn({ query: (sql, params) => tx.query(sql, params), prepared: (sql, params) => tx.query(sql, params, { prepare: true }) }),
  );
}
