// Where a start goes: createApp marks each phase as it ends, main.ts prints them on the ready line
// and tests/bench/startup.ts records them (docs/operations.md#start-up).
import { performance } from 'node:perf_hooks';

export interface StartupPhase {
  name: string;
  ms: number;
}

export class StartupClock {
  readonly phases: StartupPhase[] = [];
  /** What made this start shorter or longer than the phases say (printed after them). */
  readonly notes: string[] = [];
  private last = performance.now();

  /** Ends the phase running since the last mark (or since the clock was made). */
  mark(name: string): void {
    const now = performance.now();
    this.phases.push({ name, ms: Math.round(now - this.last) });
    this.last = now;
  }

  /** "open 120, schemas 310, …; note" */
  toString(): string {
    return [this.phases.map((p) => `${p.name} ${p.ms}`).join(', '), ...this.notes].join('; ');
  }
}
