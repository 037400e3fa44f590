// The browser's one live subscription: server-sent events read through fetch streaming, because
// EventSource cannot send the Blade-Auth header. The stream reconnects by itself, with a growing
// randomised delay (1 s, 2 s, 4 s … at most 30 s) that starts again once the server says `ready`;
// when the server ends the stream because the token expired, it reconnects at once with the
// current token. Failures are only logged to the console, never shown or logged out.
import { website } from '../app/website.ts';

export const LIVE_URL = '/api/blade-message/message/subscribe';

export interface LiveHandlers {
  /** Every event the server sends: `ready`, `message`, `changed`, `refresh`, `expired`. */
  onEvent(name: string, data: unknown): void;
}

export interface LiveOptions extends LiveHandlers {
  url?: string;
  /** The current access token ('' while there is none). */
  token(): string;
  lang?(): 'zh' | 'en';
  fetch?: typeof fetch;
  log?: (message: string, error?: unknown) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
}

export interface LiveSubscription {
  close(): void;
}

interface Frame {
  name: string;
  data: unknown;
}

/** Splits a text stream into events; keeps an unfinished frame for the next chunk. */
export class SseParser {
  private buffer = '';

  push(chunk: string): Frame[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const frames: Frame[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = value;
        else if (field === 'data') data.push(value);
      }
      if (!data.length) continue;
      const text = data.join('\n');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: handed over as text
      }
      frames.push({ name, data: parsed });
    }
    return frames;
  }
}

export function subscribeLive(options: LiveOptions): LiveSubscription {
  const url = options.url ?? LIVE_URL;
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const log = options.log ?? ((message, error) => console.info(message, error ?? ''));
  const initial = options.initialDelayMs ?? 1000;
  const max = options.maxDelayMs ?? 30_000;
  const random = options.random ?? Math.random;
  let stopped = false;
  let controller: AbortController | undefined;
  let wake: (() => void) | undefined;
  let attempt = 0;

  const delay = () => Math.round(Math.min(max, initial * 2 ** attempt++) * (0.5 + random() / 2));
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** One connection; resolves when it ends, with whether to reconnect at once. */
  async function connect(token: string): Promise<boolean> {
    controller = new AbortController();
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      Authorization: `Basic ${btoa(`${website.clientId}:${website.clientSecret}`)}`,
      [website.tokenHeader]: `bearer ${token}`,
      'Accept-Language': options.lang?.() === 'en' ? 'en' : 'zh-CN',
    };
    const response = await fetchFn(url, { headers, signal: controller.signal, cache: 'no-store', credentials: 'include' });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    let expired = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return expired;
      for (const frame of parser.push(value)) {
        if (frame.name === 'ready') attempt = 0;
        if (frame.name === 'expired') expired = true;
        options.onEvent(frame.name, frame.data);
      }
    }
  }

  void (async () => {
    while (!stopped) {
      const token = options.token();
      let immediately = false;
      if (token) {
        try {
          immediately = await connect(token);
        } catch (error) {
          if (stopped) return;
          log('[messages] live subscription failed; retrying', error);
        }
      }
      if (stopped) return;
      await sleep(immediately ? 0 : delay());
    }
  })();

  return {
    close() {
      stopped = true;
      controller?.abort();
      wake?.();
    },
  };
}
