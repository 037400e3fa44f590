import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleOf } from './prng.ts';

const letters = [...'abcdefghijklmnopqrstuvwxyz'];

describe('sampleOf', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('draws the same items for the same seed, in their original order, each once', () => {
    const first = sampleOf('letters', letters, 8, 42);
    expect(sampleOf('letters', letters, 8, 42)).toEqual(first);
    expect(new Set(first).size).toBe(8);
    expect([...first].sort()).toEqual(first);
  });

  it('draws other items for another seed', () => {
    expect(sampleOf('letters', letters, 8, 7)).not.toEqual(sampleOf('letters', letters, 8, 42));
  });

  it('gives every item when asked for all, or for as many as there are', () => {
    vi.stubEnv('ZS_SAMPLE', 'all');
    expect(sampleOf('letters', letters, 3, 42)).toEqual(letters);
    vi.unstubAllEnvs();
    expect(sampleOf('letters', letters, 26, 42)).toEqual(letters);
  });
});
