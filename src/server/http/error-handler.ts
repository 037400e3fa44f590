// Every failure leaves as an envelope with a message in the caller's language. Unexpected errors
// are logged with their stack and answered with a generic message; when an error log keeps them,
// the answer quotes the log's id (data.errorId) so that an administrator can find the stack.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../engine/i18n/messages.ts';
import { QueryError } from '../../engine/query/list-params.ts';
import { LIMIT_DEFAULTS, type Limits } from '../config.ts';
import { isConnectionLost, isStatementTimeout, RETRY_AFTER_SECONDS } from '../db/faults.ts';
import { AppError, ValidationFailed } from '../errors.ts';
import { envelope } from './envelope.ts';
import { isApiPath } from './unprefixed.ts';

export interface ErrorHandlerOptions {
  /** Serve the client's index.html for unknown non-API GET paths (client-side routes). */
  spaFallback?: boolean;
  /** Keeps an unexpected error (with its stack) and returns the id the client may quote. */
  recordError?: (err: Error, request: FastifyRequest) => string;
  /** The limits the messages quote (default LIMIT_DEFAULTS). */
  limits?: Limits;
}

/** PostgreSQL's SQLSTATE for numeric_value_out_of_range. */
const NUMERIC_OUT_OF_RANGE = '22003';

export function registerErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}) {
  const limits = options.limits ?? LIMIT_DEFAULTS;
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const lang = request.lang ?? 'zh';
    if (err instanceof AppError) {
      // a refusal worth retrying (a tenant being moved to another database) says when
      if (err.status === 503) {
        const seconds = Number(err.params.seconds ?? RETRY_AFTER_SECONDS);
        return reply
          .status(503)
          .header('retry-after', String(seconds))
          .send(envelope(503, { retryAfter: seconds }, t(err.key, lang, err.params)));
      }
      return reply.status(err.status).send(envelope(err.code, null, t(err.key, lang, err.params)));
    }
    if (err instanceof ValidationFailed) {
      return reply.status(400).send(envelope(400, { errors: err.errors }, err.message));
    }
    if (err instanceof QueryError) {
      return reply.status(400).send(envelope(400, null, t(err.key, lang, err.params)));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err instanceof SyntaxError) {
      return reply.status(400).send(envelope(400, null, t('badJson', lang)));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send(envelope(413, null, t('bodyTooLarge', lang, { limit: limits.bodyLimitMb })));
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]
        .slice(0, 100);
      return reply.status(415).send(envelope(415, null, t('unsupportedMediaType', lang, { type })));
    }
    // the database went away under the request: its transaction was rolled back (or, if the cut fell
    // between COMMIT and its answer, did land: the client sees it when it reloads), worth a retry
    if (isConnectionLost(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(envelope(503, { retryAfter: RETRY_AFTER_SECONDS }, t('databaseUnavailable', lang, { seconds: RETRY_AFTER_SECONDS })));
    }
    // a number no column can hold (an id past bigint) is the request's fault, whatever route passed it on
    if ((err as { code?: string }).code === NUMERIC_OUT_OF_RANGE) {
      return reply.status(400).send(envelope(400, null, t('numberOutOfRange', lang)));
    }
    if (isStatementTimeout(err)) {
      return reply
        .status(504)
        .send(envelope(504, null, t('queryTimeout', lang, { seconds: Math.round(limits.statementTimeoutMs / 1000) })));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(envelope(err.statusCode, null, t('badRequest', lang)));
    }
    request.log.error({ err }, 'unhandled error');
    const errorId = options.recordError?.(err, request);
    if (errorId) return reply.status(500).send(envelope(500, { errorId }, t('serverErrorLogged', lang, { id: errorId })));
    return reply.status(500).send(envelope(500, null, t('serverError', lang)));
  });
  app.setNotFoundHandler((request, reply) => {
    // client routes (no file extension) get the app; a missing file and an API path stay a 404
    if (options.spaFallback && request.method === 'GET' && !isApiPath(request.url) && !/\.[a-z0-9]+(\?|$)/i.test(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(envelope(404, null, t('routeNotFound', request.lang ?? 'zh')));
  });
}
