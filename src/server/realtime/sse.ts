// Opens a server-sent event stream on a Fastify request for one subscriber of the hub. The stream
// ends when the client goes away, when the server closes, or when the caller's token expires (the
// browser then reconnects with its refreshed token).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sseFrame, type SubscriptionHub } from './hub.ts';

/** A client this far behind (bytes buffered by the kernel and Node) is dropped. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** Browsers retry after this long when a stream ends without their own backoff. */
const RETRY_MS = 3000;

export interface StreamOptions {
  tenantId: string;
  userId: string;
  /** Seconds since the epoch when the token expires. */
  expiresAt?: number;
  /** The first event (its data), sent when the stream opens. */
  ready?: unknown;
}

export function openEventStream(hub: SubscriptionHub, request: FastifyRequest, reply: FastifyReply, options: StreamOptions) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  request.raw.socket.setNoDelay(true);
  request.raw.socket.setKeepAlive(true);

  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    remove();
    if (expiry) clearTimeout(expiry);
    if (!res.writableEnded) res.end();
  };
  const write = (frame: string) => {
    if (!open || res.destroyed || res.writableEnded) return false;
    if (res.writableLength > MAX_BUFFERED_BYTES) return false;
    res.write(frame);
    return true;
  };
  const remove = hub.add({ tenantId: options.tenantId, userId: options.userId, write, close });
  res.on('close', close);
  res.on('error', close);

  const expiry = options.expiresAt
    ? setTimeout(
        () => {
          write(sseFrame('expired'));
          close();
        },
        Math.min(Math.max(0, options.expiresAt * 1000 - Date.now()), 2 ** 31 - 1),
      )
    : undefined;
  expiry?.unref();

  res.write(`retry: ${RETRY_MS}\n\n`);
  write(sseFrame('ready', options.ready));
}
