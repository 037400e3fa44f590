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
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Nesting a JSON body may have: a document with detail rows is 3 deep, the deepest schema file 16. */
export const MAX_JSON_DEPTH = 64;
/** Members of one object: an entity has at most about 60 fields. */
export const MAX_OBJECT_KEYS = 1_000;
/**
 * Values in one body (object members and array elements, at any depth): the largest document is
 * 5,000 detail rows of 34 fields, about 175,000.
 */
export const MAX_JSON_VALUES = 250_000;

export interface JsonBounds {
  depth: number;
  objectKeys: number;
  values: number;
}

const JSON_BOUNDS: JsonBounds = { depth: MAX_JSON_DEPTH, objectKeys: MAX_OBJECT_KEYS, values: MAX_JSON_VALUES };

/**
 * Why the text of a JSON body is refused before it is parsed, if it is: nested deeper than
 * MAX_JSON_DEPTH (walking it would overflow the stack), an object of more than MAX_OBJECT_KEYS
 * members or more than MAX_JSON_VALUES values in all (parsing, checking and logging such a body
 * held the event loop for seconds). One pass over the text, strings skipped; what is not JSON is
 * left to the parser to refuse.
 */
export function jsonShapeRefusal(text: string, bounds: JsonBounds = JSON_BOUNDS): AppError | undefined {
  const { depth: maxDepth, objectKeys: maxKeys, values: maxValues } = bounds;
  // per open object or array: members so far, and whether an array's first element is still to come
  const counts = new Int32Array(maxDepth + 1);
  const isArray = new Uint8Array(maxDepth + 1);
  const awaitingFirst = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let values = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // white space between tokens
    if (c === 32 || c === 10 || c === 13 || c === 9) continue;
    if (depth > 0 && awaitingFirst[depth]) {
      awaitingFirst[depth] = 0;
      if (c !== 93 && ++values > maxValues) return new AppError(413, 'bodyTooManyValues', { limit: maxValues });
    }
    if (c === 34) {
      // a string: to the next quote that no backslash escapes
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 92) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return undefined;
      i = end;
    } else if (c === 123 || c === 91) {
      if (depth === maxDepth) return new AppError(400, 'bodyTooDeep', { limit: maxDepth });
      depth++;
      counts[depth] = 0;
      isArray[depth] = c === 91 ? 1 : 0;
      awaitingFirst[depth] = isArray[depth];
    } else if (c === 125 || c === 93) {
      if (depth > 0) depth--;
    } else if (depth > 0 && (c === 58 || (c === 44 && isArray[depth]))) {
      // ":" after a member's name, "," between elements
      if (c === 58 && ++counts[depth] > maxKeys) return new AppError(413, 'bodyTooManyKeys', { limit: maxKeys });
      if (++values > maxValues) return new AppError(413, 'bodyTooManyValues', { limit: maxValues });
    }
  }
  return undefined;
}

/**
 * JSON bodies are parsed by Fastify's own parser (which refuses __proto__ and constructor.prototype
 * keys), after jsonShapeRefusal: a refusal is 400 or 413 in the caller's language.
 */
export function registerJsonLimits(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    const refusal = jsonShapeRefusal(body);
    if (refusal) return done(refusal, undefined);
    return parse(request, body, done);
  });
}

// NUL, which PostgreSQL refuses in text, and halves of a surrogate pair, which UTF-8 cannot encode
// (Node would silently store U+FFFD instead)
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path of the first string (value or key) in `value` holding a character no column can keep.
 * The path is built on the way back from a find: nothing is allocated for the strings that pass.
 */
export function badTextPath(value: unknown): string | undefined {
  const found = badTextSteps(value);
  return found && (found.length ? `/${found.reverse().join('/')}` : '/');
}

/** The keys leading to the bad string, innermost first. */
function badTextSteps(value: unknown): string[] | undefined {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? [] : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' && typeof item !== 'string') continue;
      const found = badTextSteps(item);
      if (found) return (found.push(String(i)), found);
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (BAD_TEXT.test(key)) return [key];
    const found = badTextSteps((value as Record<string, unknown>)[key]);
    if (found) return (found.push(key), found);
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
