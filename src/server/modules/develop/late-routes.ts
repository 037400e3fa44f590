// Routes of document types added while the server runs. Fastify takes no route once it listens, so
// one catch-all under /api/ (registered at start; exact routes always win over it) dispatches to a
// table that registerEntityRoutes fills for a new entity through a stand-in of the app. Paths the
// table does not hold get the usual 404.
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';

export class LateRoutes {
  private readonly handlers = new Map<string, RouteHandlerMethod>();

  constructor(private readonly app: FastifyInstance) {
    app.route({
      method: ['GET', 'POST'],
      url: '/api/*',
      handler: (request, reply) => {
        const handler = this.handlers.get(`${request.method} ${request.url.split('?')[0]}`);
        if (!handler) return reply.callNotFound();
        return handler.call(app, request, reply);
      },
    });
  }

  /** What registerEntityRoutes needs of an app, recording into this table instead. */
  collector(): FastifyInstance {
    const add = (method: string, url: string, handler: RouteHandlerMethod) => {
      this.handlers.set(`${method} ${url}`, handler);
      return true;
    };
    // app.get(url, handler) or app.get(url, options, handler); the options (a route's config) are not kept
    const last = (args: unknown[]) => args.at(-1) as RouteHandlerMethod;
    const stand = {
      get: (url: string, ...rest: unknown[]) => add('GET', url, last(rest)),
      post: (url: string, ...rest: unknown[]) => add('POST', url, last(rest)),
      route: (r: { method: string; url: string; handler: RouteHandlerMethod }) => add(r.method, r.url, r.handler),
      hasRoute: (r: { method: string; url: string }) =>
        this.handlers.has(`${r.method} ${r.url}`) || this.app.hasRoute(r as Parameters<FastifyInstance['hasRoute']>[0]),
    };
    return stand as unknown as FastifyInstance;
  }
}
