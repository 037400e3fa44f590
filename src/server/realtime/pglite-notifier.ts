// Live events on the embedded database: PGlite implements LISTEN/NOTIFY inside this process, with
// PostgreSQL's semantics (a notification raised in a transaction is delivered when it commits and
// dropped when it rolls back). Nothing crosses processes: the embedded database has only one.
import type { PGlite } from '@electric-sql/pglite';
import { LIVE_CHANNEL, SqlNotifier } from './notifier.ts';

export class PgliteNotifier extends SqlNotifier {
  private constructor(private readonly unlisten: () => Promise<void>) {
    super();
  }

  static async start(pglite: PGlite): Promise<PgliteNotifier> {
    let notifier: PgliteNotifier | undefined;
    const unlisten = await pglite.listen(LIVE_CHANNEL, (payload) => notifier?.receive(payload));
    notifier = new PgliteNotifier(unlisten);
    return notifier;
  }

  async close(): Promise<void> {
    await this.unlisten().catch(() => undefined);
  }
}
