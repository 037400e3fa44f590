// Ending a transaction on a node-postgres client.
import type pg from 'pg';

/**
 * COMMIT. PostgreSQL answers a COMMIT of a transaction in which a statement failed (even one whose
 * error the code caught and went past) with ROLLBACK and no error: nothing was written, and the
 * caller must not report that it was.
 */
export async function commit(client: pg.ClientBase): Promise<void> {
  const { command } = await client.query('COMMIT');
  if (command === 'ROLLBACK') throw new Error('the transaction was rolled back: a statement in it failed');
}
