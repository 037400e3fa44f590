// The listening connection's life when PostgreSQL cuts it: replaced with backoff, and given back to
// the pool when the notifier closes, even when the close comes while a replacement is being made
// (a connection kept then held pool.end(), and so the server's shutdown, forever).
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { PostgresNotifier } from './postgres-notifier.ts';

class FakeClient extends EventEmitter {
  released: boolean | undefined;
  query = vi.fn(async () => ({ rows: [] }));
  release(destroy?: boolean) {
    this.released = destroy ?? false;
  }
}

/** A pool whose connect() answers the clients the test hands it, when it hands them. */
function fakePool() {
  const waiting: ((client: FakeClient) => void)[] = [];
  const pool = { connect: () => new Promise<FakeClient>((resolve) => waiting.push(resolve)) };
  return {
    pool: pool as unknown as pg.Pool,
    asked: () => waiting.length,
    hand: (client: FakeClient) => waiting.shift()!(client),
  };
}

describe('the PostgreSQL live-event listener', () => {
  it('gives back a connection made after it closed, while it was reconnecting', async () => {
    const { pool, asked, hand } = fakePool();
    const first = new FakeClient();
    const starting = PostgresNotifier.start(pool);
    hand(first);
    const notifier = await starting;
    expect(notifier.listening).toBe(true);

    first.emit('end'); // PostgreSQL cut it
    expect(notifier.listening).toBe(false);
    expect(first.released).toBe(true);
    await vi.waitFor(() => expect(asked()).toBe(1), { timeout: 5_000 }); // the reconnect asks the pool

    const closing = notifier.close();
    const late = new FakeClient();
    hand(late);
    await closing;
    expect(late.released, 'the connection made after close went back to the pool').toBe(true);
    expect(notifier.listening).toBe(false);
  });
});
