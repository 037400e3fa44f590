// The two databases as the code above db/ meets them: the same transactions, whichever it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/db.ts';
import { databaseKinds, openTestDb } from './harness.ts';

describe.each(databaseKinds())('the %s database', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind, {}, { empty: true }));
    await db.exec('CREATE TABLE IF NOT EXISTS plan_probe (id bigint PRIMARY KEY, amount numeric(18,2), made timestamp)');
  });
  afterAll(() => drop?.());

  it('does not report a transaction committed when a statement in it failed, even one that was caught', async () => {
    const attempt = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO plan_probe (id, amount) VALUES ($1, 1)`, ['77']);
      await tx.query(`INSERT INTO plan_probe (id, amount) VALUES ($1, 1)`, ['77']).catch(() => undefined);
      return 'done';
    });
    await expect(attempt).rejects.toThrow();
    expect(await db.query(`SELECT id FROM plan_probe WHERE id = $1`, ['77'])).toEqual([]);
  });
});
