// Live delivery between server processes. An event names the users it is for; it is published
// inside the transaction that caused it (so it travels only if that transaction commits) and every
// process's subscribers receive it. Two implementations share this interface:
// - PostgreSQL: NOTIFY on a channel, LISTEN on one dedicated connection per process, so a message
//   saved by one process reaches the browsers connected to any other (postgres-notifier.ts);
// - the embedded database: PGlite's own LISTEN/NOTIFY, which never leaves the process
//   (pglite-notifier.ts).
import type { Db, Queryable } from '../db/db.ts';

export interface LiveEvent {
  tenantId: string;
  /** The users the event is for (every connected user of every tenant when `everyone`). */
  userIds: readonly string[];
  /** The event's name in the stream: `message` (a new message), `changed` (read or removed). */
  name: string;
  /** Small: NOTIFY carries at most 8000 bytes (big recipient lists are split, the data is not). */
  data?: unknown;
  /** Local only: every subscriber of this process (after the listener reconnected). */
  everyone?: boolean;
}

export type LiveListener = (event: LiveEvent) => void;

export interface Notifier {
  /** Publishes through `db` (a transaction: delivered when it commits). */
  publish(db: Queryable, event: LiveEvent): Promise<void>;
  subscribe(listener: LiveListener): () => void;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = 'zs_live';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7900;

interface Wire {
  t: string;
  u: readonly string[];
  n: string;
  d?: unknown;
}

/** The event as NOTIFY payloads, its users split so that each payload fits. */
export function encodePayloads(event: LiveEvent): string[] {
  const head: Wire = { t: event.tenantId, u: [], n: event.name, d: event.data };
  const base = Buffer.byteLength(JSON.stringify(head));
  if (base > MAX_PAYLOAD_BYTES - 32) throw new Error(`live event ${event.name} carries too much data (${base} bytes)`);
  const out: string[] = [];
  let users: string[] = [];
  let size = base;
  for (const id of event.userIds) {
    const add = Buffer.byteLength(JSON.stringify(id)) + 1;
    if (users.length && size + add > MAX_PAYLOAD_BYTES) {
      out.push(JSON.stringify({ ...head, u: users }));
      users = [];
      size = base;
    }
    users.push(id);
    size += add;
  }
  if (users.length) out.push(JSON.stringify({ ...head, u: users }));
  return out;
}

export function decodePayload(text: string | undefined): LiveEvent | undefined {
  if (!text) return undefined;
  try {
    const w = JSON.parse(text) as Wire;
    if (typeof w.t !== 'string' || !Array.isArray(w.u) || typeof w.n !== 'string') return undefined;
    return { tenantId: w.t, userIds: w.u.map(String), name: w.n, data: w.d };
  } catch {
    return undefined;
  }
}

/** What both implementations share: the listeners, and publishing as SQL NOTIFY. */
export abstract class SqlNotifier implements Notifier {
  private readonly listeners = new Set<LiveListener>();

  async publish(db: Queryable, event: LiveEvent): Promise<void> {
    if (!event.userIds.length) return;
    for (const payload of encodePayloads(event)) await db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands a received payload to the listeners. */
  protected receive(payload: string | undefined) {
    const event = decodePayload(payload);
    if (event) this.emit(event);
  }

  protected emit(event: LiveEvent) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // one listener's failure does not keep the event from the others
      }
    }
  }

  abstract close(): Promise<void>;
}

/** The notifier for this database: PostgreSQL's LISTEN connection, or PGlite in-process. */
export async function createNotifier(db: Db): Promise<Notifier> {
  if (db.kind === 'postgres' && 'pool' in db) {
    const { PostgresNotifier } = await import('./postgres-notifier.ts');
    return PostgresNotifier.start((db as unknown as { pool: import('pg').Pool }).pool);
  }
  if (db.kind === 'pglite' && 'pglite' in db) {
    const { PgliteNotifier } = await import('./pglite-notifier.ts');
    return PgliteNotifier.start((db as unknown as { pglite: import('@electric-sql/pglite').PGlite }).pglite);
  }
  throw new Error(`no live notifier for a ${db.kind} database without its driver`);
}
