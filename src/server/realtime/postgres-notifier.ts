// Live events across server processes on one PostgreSQL database: each process keeps one connection
// of its pool LISTENing on the channel; publishing is a NOTIFY in the writer's transaction, which
// PostgreSQL delivers to every listening connection when that transaction commits. A lost listening
// connection is replaced with backoff; after a reconnection every local subscriber is told to
// refresh, since notifications sent meanwhile were missed.
import type pg from 'pg';
import { LIVE_CHANNEL, SqlNotifier } from './notifier.ts';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 15_000;

export class PostgresNotifier extends SqlNotifier {
  private client: pg.PoolClient | undefined;
  private closed = false;
  /** The reconnect under way, if any. */
  private reconnecting: Promise<void> | undefined;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  private constructor(private readonly pool: pg.Pool) {
    super();
  }

  static async start(pool: pg.Pool): Promise<PostgresNotifier> {
    const notifier = new PostgresNotifier(pool);
    await notifier.listen();
    return notifier;
  }

  /** Whether a listening connection is up (tests, health). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    // closed while the connection was being made: a client kept here would hold pool.end() forever
    if (this.closed) return client.release(true);
    client.on('notification', (msg) => {
      if (msg.channel === LIVE_CHANNEL) this.receive(msg.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (err) {
      client.release(true);
      throw err;
    }
    if (this.closed) return client.release(true);
    this.client = client;
    this.retryMs = RETRY_MIN_MS;
  }

  private lost(client: pg.PoolClient) {
    if (this.client !== client) return;
    this.client = undefined;
    try {
      client.release(true);
    } catch {
      // already released
    }
    if (!this.closed) this.scheduleReconnect();
  }

  private scheduleReconnect() {
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.closed) return;
      this.reconnecting = this.listen().then(
        () => {
          if (!this.closed) this.emit({ tenantId: '', userIds: [], name: 'refresh', everyone: true });
        },
        () => {
          if (!this.closed) this.scheduleReconnect();
        },
      );
    }, delay);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // a reconnect under way gives its connection back once it is made (listen checks `closed`)
    await this.reconnecting;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await client.query(`UNLISTEN ${LIVE_CHANNEL}`).catch(() => undefined);
    client.release(true);
  }
}
