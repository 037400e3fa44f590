// Fair service for the embedded database. PGlite executes one statement at a time on the main
// thread; served in arrival order of *statements*, a request's second query queues behind every
// request that arrived meanwhile, and under load some requests wait for seconds. Here each request
// takes a ticket when it arrives, and the queue serves statements (or whole transactions) by ticket:
// the oldest request runs to completion first, so waiting time grows with the queue and no request
// is starved.
import { AsyncLocalStorage } from 'node:async_hooks';

const tickets = new AsyncLocalStorage<number>();
let lastTicket = 0;

/** Gives the current request (the rest of this async context) its place in line. */
export function takeTicket(): void {
  tickets.enterWith(++lastTicket);
}

interface Job {
  ticket: number;
  order: number;
  start: () => void;
}

export class FairQueue {
  private readonly waiting: Job[] = [];
  private running = false;
  private order = 0;

  /** Runs `fn` when every job of an older ticket has run; work outside a request goes last in line. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const ticket = tickets.getStore() ?? Number.MAX_SAFE_INTEGER;
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        ticket,
        order: this.order++,
        start: () => {
          fn()
            .then(resolve, reject)
            .finally(() => {
              this.running = false;
              this.next();
            });
        },
      };
      this.insert(job);
      this.next();
    });
  }

  private insert(job: Job) {
    let i = this.waiting.length;
    while (
      i > 0 &&
      (this.waiting[i - 1].ticket > job.ticket || (this.waiting[i - 1].ticket === job.ticket && this.waiting[i - 1].order > job.order))
    )
      i--;
    this.waiting.splice(i, 0, job);
  }

  private next() {
    if (this.running) return;
    const job = this.waiting.shift();
    if (!job) return;
    this.running = true;
    // Start it on the next turn of the event loop: PGlite runs on this thread, and without the
    // pause a busy queue never lets Node accept new connections (they waited seconds, unaccepted).
    setImmediate(job.start);
  }
}
