import { describe, expect, it } from 'vitest';
import { FairQueue, takeTicket } from './fairness.ts';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('FairQueue', () => {
  it('serves the oldest request first, whatever order its statements arrive in', async () => {
    const queue = new FairQueue();
    const log: string[] = [];
    const statement = (name: string) =>
      queue.run(async () => {
        log.push(name);
        await tick();
      });
    // request 1 arrives first and needs two statements; requests 2 and 3 arrive while its first runs
    const request = (name: string, delay: number) =>
      new Promise<void>((resolve) => {
        setTimeout(async () => {
          takeTicket();
          await statement(`${name}.count`);
          await statement(`${name}.page`);
          resolve();
        }, delay);
      });
    const first = request('r1', 0);
    await tick();
    await Promise.all([first, request('r2', 0), request('r3', 0)]);
    // in arrival order of statements it would be r1.count, r2.count, r3.count, r1.page, …
    expect(log).toEqual(['r1.count', 'r1.page', 'r2.count', 'r2.page', 'r3.count', 'r3.page']);
  });

  it('runs one job at a time and passes results and errors through', async () => {
    const queue = new FairQueue();
    let active = 0;
    let most = 0;
    const job = (v: number) =>
      queue.run(async () => {
        active++;
        most = Math.max(most, active);
        await tick();
        active--;
        if (v < 0) throw new Error('bad');
        return v * 2;
      });
    const results = await Promise.allSettled([job(1), job(-1), job(3)]);
    expect(most).toBe(1);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'error'))).toEqual([2, 'error', 6]);
  });
});
