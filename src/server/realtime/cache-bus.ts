// Caches of one process that a write on any process must empty (grants, parameters). A write
// announces the cache inside its transaction: the signal travels on the live-event channel and
// PostgreSQL delivers it to every process, this one included, when the transaction commits, so no
// process keeps answering from what was true before. The writer's own copy is emptied at once as
// well. After the listening connection was lost and came back, signals may have been missed:
// every cache is emptied then. A signal may name the keys that changed (the users whose tokens were
// revoked): a cache keyed by them forgets those entries only.
import type { Queryable } from '../db/db.ts';
import { LIVE_CHANNEL, type Notifier } from './notifier.ts';

/**
 * `schemas`: the schema set, read again from the shared schema folder (code generation's install).
 * `tokens`: the users' token generations (security/tokens.ts), keyed by user id.
 */
export type CacheName = 'access' | 'params' | 'schemas' | 'tokens';

/** What a cache forgets: the entries of these keys, or every entry when none are named. */
export type Forget = (keys?: readonly string[]) => void;

const SIGNAL = 'zs.cache';
/** NOTIFY carries under 8000 bytes: a longer list of keys empties the whole cache instead. */
const MAX_KEYS_BYTES = 6000;

export class CacheBus {
  private readonly handlers = new Map<CacheName, Forget[]>();

  constructor(notifier: Notifier) {
    notifier.subscribe((event) => {
      if (event.name === SIGNAL && !event.userIds.length) {
        const data = event.data as { cache?: CacheName; keys?: unknown } | undefined;
        const keys = Array.isArray(data?.keys) ? data.keys.map(String) : undefined;
        this.empty(data?.cache, keys);
      } else if (event.everyone && event.name === 'refresh') for (const name of this.handlers.keys()) this.empty(name);
    });
  }

  /** Runs `forget` whenever `cache` is announced (by any process). */
  on(cache: CacheName, forget: Forget) {
    this.handlers.set(cache, [...(this.handlers.get(cache) ?? []), forget]);
  }

  /**
   * Empties `cache` (only the entries of `keys`, when given) here now and on every process once
   * `db` (a transaction, or the pool) commits.
   */
  async announce(db: Queryable, cache: CacheName, keys?: readonly string[]): Promise<void> {
    const named = keys && Buffer.byteLength(JSON.stringify(keys)) <= MAX_KEYS_BYTES ? keys : undefined;
    this.empty(cache, named);
    // a live-event payload for no user: the hub delivers it to no stream, the bus above reads it
    await db.query('SELECT pg_notify($1, $2)', [
      LIVE_CHANNEL,
      JSON.stringify({ t: '', u: [], n: SIGNAL, d: named ? { cache, keys: named } : { cache } }),
    ]);
  }

  private empty(cache: CacheName | undefined, keys?: readonly string[]) {
    for (const forget of (cache && this.handlers.get(cache)) || []) forget(keys);
  }
}
