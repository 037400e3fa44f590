// Guards against floods and bad traffic (docs/operations.md#limits-and-faults): body size and slow-client
// timeouts as Fastify and Node options, an envelope for errors Node answers on the raw socket, and
// a check that no text carries characters the database cannot keep.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { t, type MessageKey } from '../../engine/i18n/messages.ts';
import type { Limits } from '../config.ts';
import { AppError } from '../errors.ts';
import { envelope } from './envelope.ts';

/** Fastify's options for the limits; `http` goes to Node's http.createServer. */
export function serverLimitOptions(limits: Limits): FastifyServerOptions & { http: Record<string, number> } {
  return {
    bodyLimit: Math.round(limits.bodyLimitMb * 1024 * 1024),
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs || limits.headersTimeoutMs),
      requestTimeout: limits.requestTimeoutMs,
      // Node checks the two timeouts on this interval (default 30 s, too coarse for short limits)
      connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(limits.headersTimeoutMs / 4) || 5_000)),
    },
    clientErrorHandler: answerClientError,
  };
}

const CLIENT_ERRORS: Record<string, [number, MessageKey]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'requestTimeout'],
  HPE_HEADER_OVERFLOW: [431, 'badRequest'],
};

/**
 * What Node could not parse (a header with a line break or NUL, a broken request line, a request
 * too slow to arrive) never reaches a route: answer it on the socket, still as an envelope, in
 * Chinese (the request's language is unknown), then close the connection.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, key] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'badRequest'];
  const body = JSON.stringify(envelope(status, null, t(key, 'zh')));
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

// NUL, which PostgreSQL refuses in text, and halves of a surrogate pair, which UTF-8 cannot encode
// (Node would silently store U+FFFD instead)
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first string (value or key) in `value` holding a character no column can keep. */
export function badTextPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? path || '/' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${key}`;
    if (BAD_TEXT.test(key)) return at;
    const found = badTextPath(item, at);
    if (found) return found;
  }
  return undefined;
}

/** Refuses, before any route runs, a query or body with such a character: 400, nothing stored. */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const inQuery = badTextPath(request.query);
    if (inQuery) throw new AppError(400, 'badTextCharacter', { where: `?${inQuery.slice(1)}` });
    const inBody = badTextPath(request.body);
    if (inBody) throw new AppError(400, 'badTextCharacter', { where: inBody });
  });
}
