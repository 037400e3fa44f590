// Every query parameter of the API is one value: a key given twice (?id=1&id=2) would reach the
// routes as an array where each expects a string, so it is refused before any route runs.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

export function registerQueryGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query || typeof query !== 'object') return;
    const repeated = Object.keys(query).find((key) => Array.isArray(query[key]));
    if (repeated !== undefined) throw new AppError(400, 'repeatedParam', { param: repeated.slice(0, 100) });
  });
}
