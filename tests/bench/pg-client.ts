// One short-lived PostgreSQL connection for a benchmark's set-up and clean-up statements.
import pg from 'pg';

/** Runs `fn` on a fresh connection to `url`, closed afterwards whatever happens. */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
