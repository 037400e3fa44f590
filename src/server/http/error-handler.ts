// Every failure leaves as an envelope with a message in the caller's language. Unexpected errors
// are logged with their stack and answered with a generic message; when an error log keeps them,
// the answer quotes the log's id (data.errorId) so that an administrator can find the stack.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../engine/i18n/messages.ts';
import { QueryError } from '../../engine/query/list-params.ts';
import { AppError, ValidationFailed } from '../errors.ts';
import { envelope } from './envelope.ts';

export interface ErrorHandlerOptions {
  /** Serve the client's index.html for unknown non-API GET paths (client-side routes). */
  spaFallback?: boolean;
  /** Keeps an unexpected error (with its stack) and returns the id the client may quote. */
  recordError?: (err: Error, request: FastifyRequest) => string;
}

export function registerErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const lang = request.lang ?? 'zh';
    if (err instanceof AppError) {
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
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(envelope(err.statusCode, null, t('badRequest', lang)));
    }
    request.log.error({ err }, 'unhandled error');
    const errorId = options.recordError?.(err, request);
    if (errorId) return reply.status(500).send(envelope(500, { errorId }, t('serverErrorLogged', lang, { id: errorId })));
    return reply.status(500).send(envelope(500, null, t('serverError', lang)));
  });
  app.setNotFoundHandler((request, reply) => {
    // client routes (no file extension) get the app; a missing file stays a 404
    if (options.spaFallback && request.method === 'GET' && !request.url.startsWith('/api/') && !/\.[a-z0-9]+(\?|$)/i.test(request.url)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(envelope(404, null, t('routeNotFound', request.lang ?? 'zh')));
  });
}
