// A store context whose every statement runs inside an open transaction, so that document writes
// (EntityStore), messages and workflow rows commit or roll back together.
import type { Db, Queryable } from '../../db/db.ts';
import type { StoreContext } from '../../db/store.ts';

export function inTransaction<C extends StoreContext>(ctx: C, tx: Queryable): C {
  const db: Db = {
    kind: ctx.db.kind,
    query: (sql, params) => tx.query(sql, params),
    transaction: (fn) => fn(tx),
    exec: () => Promise.reject(new Error('no DDL inside a workflow step')),
    close: () => Promise.resolve(),
  };
  // the transaction is on the tenant's business database; platform data is read from the main one
  return { ...ctx, db, dbFor: () => db, mainDb: ctx.mainDb ?? ctx.db };
}
