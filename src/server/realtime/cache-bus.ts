// Caches of one process that a write on any process must empty (grants, parameters). A write
// announces the cache inside its transaction: the signal travels on the live-event channel and
// PostgreSQL delivers it to every process, this one included, when the transaction commits, so no
// process keeps answering from what was true before. The writer's own copy is emptied at once as
// well. After the listening connection was lost and came back, signals may have been missed:
// every cache is emptied then.
import type { Queryable } from '../db/db.ts';
import { LIVE_CHANNEL, type Notifier } from './notifier.ts';

/** `schemas`: the schema set, read again from the shared schema folder (code generation's install). */
export type CacheName = 'access' | 'params' | 'schemas';

const SIGNAL = 'zs.cache';

export class CacheBus {
  private readonly handlers = new Map<CacheName, (() => void)[]>();

  constructor(notifier: Notifier) {
    notifier.subscribe((event) => {
      if (event.name === SIGNAL && !event.userIds.length) this.empty((event.data as { cache?: CacheName } | undefined)?.cache);
      else if (event.everyone && event.name === 'refresh') for (const name of this.handlers.keys()) this.empty(name);
    });
  }

  /** Runs `forget` whenever `cache` is announced (by any process). */
  on(cache: CacheName, forget: () => void) {
    this.handlers.set(cache, [...(this.handlers.get(cache) ?? []), forget]);
  }

  /** Empties `cache` here now and on every process once `db` (a transaction, or the pool) commits. */
  async announce(db: Queryable, cache: CacheName): Promise<void> {
    this.empty(cache);
    // a live-event payload for no user: the hub delivers it to no stream, the bus above reads it
    await db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ t: '', u: [], n: SIGNAL, d: { cache } })]);
  }

  private empty(cache: CacheName | undefined) {
    for (const forget of (cache && this.handlers.get(cache)) || []) forget();
  }
}
