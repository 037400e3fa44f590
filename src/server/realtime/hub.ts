// The subscriptions of this process: each open event stream belongs to one user of one tenant.
// Events from the notifier are written to the streams of the users they name, the frame encoded
// once per event. A comment line every 25 s keeps idle connections (and proxies) open; a stream
// whose client stopped reading is dropped (the browser reconnects and refreshes).
import type { Db } from '../db/db.ts';
import { createNotifier, type LiveEvent, type Notifier } from './notifier.ts';

export interface Subscriber {
  tenantId: string;
  userId: string;
  /** Writes an encoded frame; false when the stream is gone or too far behind. */
  write(frame: string): boolean;
  close(): void;
}

const HEARTBEAT_MS = 25_000;

/** One server-sent event: `event:` and one `data:` line (JSON has no raw newlines). */
export function sseFrame(name: string, data: unknown = {}): string {
  return `event: ${name}\ndata: ${JSON.stringify(data ?? {})}\n\n`;
}

export class SubscriptionHub {
  private readonly byUser = new Map<string, Set<Subscriber>>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private subscribers = 0;

  constructor(readonly notifier: Notifier) {
    this.unsubscribe = notifier.subscribe((event) => this.deliver(event));
    this.heartbeat = setInterval(() => this.broadcast(': ping\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Open streams on this process. */
  get size(): number {
    return this.subscribers;
  }

  add(subscriber: Subscriber): () => void {
    const key = `${subscriber.tenantId}:${subscriber.userId}`;
    let set = this.byUser.get(key);
    if (!set) this.byUser.set(key, (set = new Set()));
    set.add(subscriber);
    this.subscribers++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.subscribers--;
      set!.delete(subscriber);
      if (!set!.size) this.byUser.delete(key);
    };
  }

  deliver(event: LiveEvent) {
    const frame = sseFrame(event.name, event.data);
    if (event.everyone) return this.broadcast(frame);
    for (const userId of event.userIds) {
      for (const subscriber of this.byUser.get(`${event.tenantId}:${userId}`) ?? []) this.send(subscriber, frame);
    }
  }

  private broadcast(frame: string) {
    for (const set of this.byUser.values()) for (const subscriber of set) this.send(subscriber, frame);
  }

  private send(subscriber: Subscriber, frame: string) {
    if (!subscriber.write(frame)) subscriber.close();
  }

  /** Ends every stream (server shutdown) and stops listening. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const set of [...this.byUser.values()]) for (const subscriber of [...set]) subscriber.close();
    this.byUser.clear();
    await this.notifier.close();
  }
}

/** The hub of this process, listening on the database's notifier. */
export async function startHub(db: Db): Promise<SubscriptionHub> {
  return new SubscriptionHub(await createNotifier(db));
}
