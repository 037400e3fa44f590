// The live subscription's rules: frames parsed across chunks, the token sent as Blade-Auth, events
// handed over, reconnection with growing delays that restart after `ready`, an immediate
// reconnection when the token expired, failures only logged, and nothing after close.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SseParser, subscribeLive } from './live.ts';

/** A fetch answer whose body the test writes frame by frame. */
function streamed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('SseParser', () => {
  it('reads events split across chunks, skips comments and the retry hint, accepts CRLF', () => {
    const parser = new SseParser();
    expect(parser.push('retry: 3000\n\n: ping\n\nevent: mess')).toEqual([]);
    expect(parser.push('age\ndata: {"id":"1","title":"钢筋"}\n\nevent: changed\r\ndata: {}\r\n\r\n')).toEqual([
      { name: 'message', data: { id: '1', title: '钢筋' } },
      { name: 'changed', data: {} },
    ]);
    expect(parser.push('data: plain text\n\n')).toEqual([{ name: 'message', data: 'plain text' }]);
  });
});

describe('subscribeLive', () => {
  it('sends the token as Blade-Auth and hands every event over', async () => {
    const stream = streamed();
    const fetchFn = vi.fn(async () => stream.response);
    const events: [string, unknown][] = [];
    const sub = subscribeLive({
      token: () => 'tok-1',
      fetch: fetchFn as typeof fetch,
      onEvent: (n, d) => events.push([n, d]),
      log: () => undefined,
    });
    await tick();
    const [url, init] = fetchFn.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/blade-message/message/subscribe');
    expect((init.headers as Record<string, string>)['Blade-Auth']).toBe('bearer tok-1');
    expect((init.headers as Record<string, string>).Authorization).toBe(`Basic ${btoa('saber:saber_secret')}`);
    stream.send('event: ready\ndata: {}\n\nevent: message\ndata: {"id":"7","title":"进场验收"}\n\n');
    await vi.waitFor(() =>
      expect(events).toEqual([
        ['ready', {}],
        ['message', { id: '7', title: '进场验收' }],
      ]),
    );
    sub.close();
    expect((init.signal as AbortSignal).aborted).toBe(true);
  });

  it('reconnects after failures with growing delays, only logging them, and starts over after ready', async () => {
    vi.useFakeTimers();
    const logged: string[] = [];
    const streams: ReturnType<typeof streamed>[] = [];
    let calls = 0;
    const fetchFn = vi.fn(async () => {
      calls++;
      if (calls <= 3) return new Response('busy', { status: 503 });
      const s = streamed();
      streams.push(s);
      return s.response;
    });
    const sub = subscribeLive({
      token: () => 'tok',
      fetch: fetchFn as typeof fetch,
      onEvent: () => undefined,
      log: (m) => logged.push(m),
      random: () => 1,
      initialDelayMs: 1000,
      maxDelayMs: 30_000,
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(4000);
    expect(calls).toBe(4);
    expect(logged).toEqual(Array(3).fill('[messages] live subscription failed; retrying'));

    // connected: ready resets the delay; the server ending the stream brings a reconnection after 1 s
    streams[0].send('event: ready\ndata: {}\n\n');
    await vi.advanceTimersByTimeAsync(0);
    streams[0].end();
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(5);
    sub.close();
  });

  it('reconnects at once with the current token when the server says the token expired', async () => {
    vi.useFakeTimers();
    let token = 'old';
    const seen: string[] = [];
    const streams: ReturnType<typeof streamed>[] = [];
    const fetchFn = vi.fn(async (_url: string, init: RequestInit) => {
      seen.push((init.headers as Record<string, string>)['Blade-Auth']);
      const s = streamed();
      streams.push(s);
      return s.response;
    });
    const sub = subscribeLive({
      token: () => token,
      fetch: fetchFn as unknown as typeof fetch,
      onEvent: () => undefined,
      log: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(0);
    token = 'new';
    streams[0].send('event: expired\ndata: {}\n\n');
    streams[0].end();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['bearer old', 'bearer new']);
    sub.close();
  });

  it('waits without a token and stops for good on close', async () => {
    vi.useFakeTimers();
    let token = '';
    const fetchFn = vi.fn(async () => new Response('x', { status: 500 }));
    const sub = subscribeLive({
      token: () => token,
      fetch: fetchFn as typeof fetch,
      onEvent: () => undefined,
      log: () => undefined,
      random: () => 1,
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetchFn).not.toHaveBeenCalled();
    token = 't';
    await vi.advanceTimersByTimeAsync(10_000);
    const after = fetchFn.mock.calls.length;
    expect(after).toBeGreaterThan(0);
    sub.close();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetchFn.mock.calls.length).toBe(after);
  });
});
