// The two databases as the code above db/ meets them: the same rows, the same transactions, and
// statements that keep their plans (db/plans.ts). The embedded one is spoken to through
// node-postgres too, so none of this depends on which one it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../../src/server/db/db.ts';
import { databaseKinds, openTestDb } from './harness.ts';

/** The named statements of the connection `tx` runs on. */
async function preparedNames(tx: Queryable): Promise<string[]> {
  const rows = await tx.query<{ name: string }>(`SELECT name FROM pg_prepared_statements ORDER BY name`);
  return rows.map((r) => r.name);
}

describe.each(databaseKinds())('the %s database', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind, {}, { empty: true }));
    await db.exec('CREATE TABLE IF NOT EXISTS plan_probe (id bigint PRIMARY KEY, amount numeric(18,2), made timestamp)');
  });
  afterAll(() => drop?.());

  it('answers bigints and decimals as text, exactly', async () => {
    await db.query(`INSERT INTO plan_probe (id, amount, made) VALUES ($1, $2, '2026-11-29 09:30:00')`, ['9007199254740993', '12.30']);
    const [row] = await db.query(`SELECT id, amount FROM plan_probe WHERE id = $1`, ['9007199254740993']);
    expect(row).toEqual({ id: '9007199254740993', amount: '12.30' });
  });

  it('keeps the plan of a statement marked hot on its connection', async () => {
    const sql = 'SELECT count(*)::int AS n FROM plan_probe WHERE amount > $1';
    const names = await db.transaction(async (tx) => {
      await tx.query(sql, [0], { prepare: true });
      return preparedNames(tx);
    });
    expect(names.some((name) => /^zs_[0-9a-f]{24}$/.test(name))).toBe(true);
  });

  it("keeps every statement's plan during start-up, and none after it", async () => {
    const forget = await db.keepPlans!();
    const during = await db.transaction(async (tx) => {
      await tx.query('SELECT id FROM plan_probe WHERE id = $1', ['1']);
      return preparedNames(tx);
    });
    expect(during.filter((name) => name.startsWith('zs_start_')).length).toBeGreaterThanOrEqual(1);
    await forget();
    const after = await db.transaction((tx) => preparedNames(tx));
    expect(after.filter((name) => name.startsWith('zs_start_'))).toEqual([]);
    // the statement runs unnamed again, with the same answer
    expect(await db.query('SELECT id FROM plan_probe WHERE id = $1', ['9007199254740993'])).toEqual([{ id: '9007199254740993' }]);
  });

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
