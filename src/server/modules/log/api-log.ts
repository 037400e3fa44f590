// The API log: after each answer has left, the call is queued for the log (time, tenant, user,
// method, path, masked parameters, address, agent, duration, status). Calls that change data are
// always kept; reads only for tenants whose log.apiReads parameter is "true".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { maskedParams, maskUrlPasswords } from './mask.ts';
import { originOf, whoOf, type LogService } from './service.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const PARAMS_LIMIT = 8000;

/** Whether to keep the call: known at once, or once the tenant's parameter has been read. */
function logged(logs: LogService, request: FastifyRequest, tenantId: string): boolean | Promise<boolean> {
  if (!request.url.startsWith('/api/')) return false;
  return !READS.has(request.method) || logs.logsReads(tenantId);
}

/**
 * The request log's view of a request (Fastify's own fields), its URL masked: a token sent as a
 * query parameter (a download's ?blade-auth=bearer …) or a password in a link never reaches it.
 */
export const REQUEST_LOG_SERIALIZERS = {
  req: (request: FastifyRequest) => ({
    method: request.method,
    url: maskUrlPasswords(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }),
};

export function registerApiLog(app: FastifyInstance, logs: LogService) {
  app.addHook('onResponse', (request, reply, done) => {
    const who = whoOf(request);
    const keep = () =>
      logs.api(who, {
        method: request.method,
        requestUri: request.url.split('?')[0],
        status: reply.statusCode,
        duration: Math.round(reply.elapsedTime),
        params: maskedParams(request.query, request.body, PARAMS_LIMIT),
        ...originOf(request),
      });
    const decision = logged(logs, request, who.tenantId);
    if (decision === true) keep();
    else if (decision !== false) void decision.then((yes) => yes && keep());
    done();
  });
}
