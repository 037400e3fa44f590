// Log rows leave the request's path: they wait in memory and are written in batches, one
// multi-row INSERT per table, when enough have gathered, on an interval and on shutdown. A burst
// of requests costs an array push each; the database sees a few statements a second.
import type { EntityModel } from '../../../engine/model/types.ts';
import type { Db, Row } from '../../db/db.ts';
import { q } from '../../db/sql.ts';

export interface WriterOptions {
  /** Written at the latest after this long (ms). */
  intervalMs: number;
  /** Written as soon as this many rows wait; also the most rows one INSERT carries. */
  batchSize: number;
  /** Rows beyond this many waiting are dropped (and counted) rather than exhaust memory. */
  maxQueue: number;
  /** A batch the database refused: reported, not retried. */
  onError: (err: unknown, model: EntityModel, rows: number) => void;
}

export class BatchWriter {
  private queue: { model: EntityModel; row: Row }[] = [];
  private running: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  /** Rows dropped because the queue was full. */
  dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly options: WriterOptions,
  ) {}

  start() {
    this.timer ??= setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  push(model: EntityModel, row: Row) {
    if (this.queue.length >= this.options.maxQueue) {
      this.dropped++;
      return;
    }
    this.queue.push({ model, row });
    if (this.queue.length >= this.options.batchSize) void this.flush();
  }

  /** Writes everything queued so far; resolves once it is stored. Flushes never overlap. */
  flush(): Promise<void> {
    this.running = this.running.then(() => this.drain());
    return this.running;
  }

  async close() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async drain() {
    while (this.queue.length) {
      const taken = this.queue;
      this.queue = [];
      const byModel = new Map<EntityModel, Row[]>();
      for (const { model, row } of taken) {
        const rows = byModel.get(model) ?? [];
        if (!rows.length) byModel.set(model, rows);
        rows.push(row);
      }
      for (const [model, rows] of byModel) {
        for (let i = 0; i < rows.length; i += this.options.batchSize) {
          const batch = rows.slice(i, i + this.options.batchSize);
          await this.insert(model, batch).catch((err) => this.options.onError(err, model, batch.length));
        }
      }
    }
  }

  /** One INSERT of many rows; columns are the model's, values are parameters. */
  private async insert(model: EntityModel, rows: Row[]) {
    const columns = model.columns.filter((c) => rows.some((r) => r[c.name] !== undefined));
    const values: unknown[] = [];
    const tuples = rows.map((row) => `(${columns.map((c) => `$${values.push(row[c.name] ?? null)}`).join(', ')})`);
    await this.db.query(
      `INSERT INTO ${q(model.table)} (${columns.map((c) => q(c.column)).join(', ')}) VALUES ${tuples.join(', ')}`,
      values,
    );
  }
}
