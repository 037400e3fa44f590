// A small seeded pseudo-random generator (mulberry32) for the tests that generate their cases:
// the same seed gives the same cases, so a failing one can be replayed.

/** A generator of numbers in [0, 1), deterministic for its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of this run's samples: ZS_SAMPLE_SEED when set (to replay a run), else a new one each
 * run, so that runs over time cover the whole of a matrix too large to walk every time.
 */
export const RUN_SEED = Number(process.env.ZS_SAMPLE_SEED) || 1 + Math.floor(Math.random() * 2 ** 31);

/**
 * `count` of `items`, drawn with `seed` (a partial Fisher–Yates shuffle), in their original order;
 * all of them when ZS_SAMPLE=all. Prints what it drew and how to draw it again.
 */
export function sampleOf<T>(what: string, items: readonly T[], count: number, seed = RUN_SEED): T[] {
  if (process.env.ZS_SAMPLE === 'all' || count >= items.length) return [...items];
  const random = prng(seed);
  const order = items.map((_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (order.length - i));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const picked = order.slice(0, count).sort((a, b) => a - b);
  console.log(`${what}: ${count} of ${items.length}, drawn with ZS_SAMPLE_SEED=${seed} (ZS_SAMPLE=all runs every one)`);
  return picked.map((i) => items[i]);
}
