// A small server-sent-events client over fetch for the suites and the benchmark: subscribes with
// the Blade-Auth header (as the browser client does) and collects the events it receives.
export interface LiveEventSeen {
  name: string;
  data: any;
  /** performance.now() when the frame arrived. */
  at: number;
}

export interface LiveSubscription {
  status: number;
  events: LiveEventSeen[];
  /** The next event of that name (already received ones first), or a timeout error. */
  next(name: string, timeoutMs?: number): Promise<LiveEventSeen>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function subscribeLive(base: string, token: string, path = '/api/blade-message/message/subscribe'): Promise<LiveSubscription> {
  const controller = new AbortController();
  const res = await fetch(`${base}${path}`, {
    headers: { 'blade-auth': `bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events: LiveEventSeen[] = [];
  const consumed = new Set<LiveEventSeen>();
  const waiters: { name: string; resolve: (e: LiveEventSeen) => void }[] = [];
  const offer = (event: LiveEventSeen) => {
    events.push(event);
    const i = waiters.findIndex((w) => w.name === event.name);
    if (i >= 0) {
      consumed.add(event);
      waiters.splice(i, 1)[0].resolve(event);
    }
  };
  const ended = (async () => {
    if (!res.ok || !res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          const data: string[] = [];
          for (const line of frame.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (data.length) offer({ name, data: JSON.parse(data.join('\n')), at: performance.now() });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    events,
    ended,
    next(name, timeoutMs = 5000) {
      const seen = events.find((e) => e.name === name && !consumed.has(e));
      if (seen) {
        consumed.add(seen);
        return Promise.resolve(seen);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          name,
          resolve: (e: LiveEventSeen) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no "${name}" event within ${timeoutMs} ms (saw: ${events.map((e) => e.name).join(', ') || 'nothing'})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => controller.abort(),
  };
}
