// SIGTERM to the real server process: the port closes at once, a request in flight still gets its
// answer, open event streams end, and the process exits 0.
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loginAs, seededDataPlace, spawnServer, type ChildServer } from './child-server.ts';
import { databaseKinds } from './harness.ts';

/** A GET on a new connection (no keep-alive reuse): resolves with the status, rejects if refused. */
function freshGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens the caller's event stream; resolves once it is open, with a promise of its end. */
async function openStream(server: ChildServer, token: string): Promise<{ ended: Promise<string> }> {
  const res = await fetch(`${server.url}/api/blade-message/message/subscribe`, { headers: { 'blade-auth': `bearer ${token}` } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const ended = (async () => {
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
    }
  })();
  ended.catch(() => undefined); // awaited by the test; a failed test must not leave it unhandled
  return { ended };
}

describe.each(databaseKinds())('graceful shutdown on %s', (kind) => {
  it('stops accepting, finishes what is in flight, ends event streams and exits 0', async () => {
    const { env, databaseUrl, cleanup } = await seededDataPlace(kind);
    let server: ChildServer | undefined;
    let locker: pg.Client | undefined;
    try {
      server = await spawnServer(env);
      const token = await loginAs(server.url);
      const stream = await openStream(server, token);
      // on PostgreSQL a list is held on a table lock so that it is surely in flight at SIGTERM
      let inFlight: Promise<Response> | undefined;
      if (databaseUrl) {
        locker = new pg.Client({ connectionString: databaseUrl });
        await locker.connect();
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE construct_project IN ACCESS EXCLUSIVE MODE');
        inFlight = fetch(`${server.url}/api/construct/project/list`, { headers: { 'blade-auth': `bearer ${token}` } });
        inFlight.catch(() => undefined); // awaited below; a crash of the test must not leave it unhandled
        // generous: on a loaded machine the first list of a fresh process takes a while to get there
        await until(
          async () =>
            (
              await locker!.query(
                `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              )
            ).rows[0].n > 0,
          'the list waits on the lock',
          120_000,
        );
      }
      const health = `${server.url}/api/health`;
      expect(await freshGet(health)).toBe(200);

      server.proc.kill('SIGTERM');
      // the port closes: a new connection is refused
      await until(
        () =>
          freshGet(health).then(
            () => false,
            (err) => (err as NodeJS.ErrnoException).code === 'ECONNREFUSED',
          ),
        'the port closes',
      );
      if (locker && inFlight) {
        await locker.query('ROLLBACK');
        const answer = await inFlight;
        expect(answer.status).toBe(200);
        expect((await answer.json()).code).toBe(200);
      }
      // the event stream ends (the client then reconnects elsewhere), and the process exits cleanly
      await expect(stream.ended).resolves.toEqual(expect.any(String));
      expect(await server.exited).toBe(0);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- server output ---\n${server?.output() ?? ''}`);
    } finally {
      await locker?.end().catch(() => undefined);
      if (server && server.proc.exitCode === null) server.proc.kill('SIGKILL');
      await cleanup();
    }
  }, 400_000);
});
