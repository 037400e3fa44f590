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
