import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTokenRefresh } from './tokenRefresh.ts';

describe('token refresh timing', () => {
  afterEach(() => vi.useRealTimers());

  it('checks every 10 s and refreshes once the token reaches the token time', async () => {
    vi.useFakeTimers();
    const obtained = Date.now();
    let resolveRefresh: () => void = () => undefined;
    const refresh = vi.fn(() => new Promise<void>((r) => (resolveRefresh = r)));
    const stop = startTokenRefresh({ hasToken: () => true, tokenObtainedAt: () => obtained, refresh });
    await vi.advanceTimersByTimeAsync(2990_000);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    // still running: the next checks do not start a second refresh
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    resolveRefresh();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).toHaveBeenCalledTimes(2);
    stop();
  });

  it('does nothing without a token', async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(async () => undefined);
    const stop = startTokenRefresh({ hasToken: () => false, tokenObtainedAt: () => 0, refresh });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).not.toHaveBeenCalled();
    stop();
  });
});
