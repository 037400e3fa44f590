// The generic routes of the document types (entity-routes.ts) live in one table, not in Fastify's
// router: one catch-all under /api/ dispatches to it, and exact routes (the modules' own) always win
// over the catch-all. Registering some 1,300 routes with Fastify, each with its HEAD twin, was a
// third of a restart; a table entry costs a Map insert. Types added while the server runs
// (code generation's install) go into the same table, since Fastify takes no route once it listens.
// A path the table does not hold gets the usual 404.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, HTTPMethods, RouteHandlerMethod } from 'fastify';

export const CATCH_ALL = '/api/*';

interface TableRoute {
  handler: RouteHandlerMethod;
  config: FastifyContextConfig;
}

export class RouteTable {
  private readonly routes = new Map<string, TableRoute>();
  /** Handlers of the Fastify routes registered after the table: an alias may answer like a module's own route. */
  private readonly exact = new Map<string, RouteHandlerMethod>();

  constructor(private readonly app: FastifyInstance) {
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) this.exact.set(`${method} ${route.url}`, route.handler as RouteHandlerMethod);
    });
    app.route({
      method: ['GET', 'POST'],
      url: CATCH_ALL,
      handler: (request, reply) => {
        const route = this.routeOf(request);
        if (!route) return reply.callNotFound();
        return route.handler.call(app, request, reply);
      },
    });
  }

  /** The table's route of a request that reached the catch-all (a HEAD request answers like the GET). */
  routeOf(request: FastifyRequest): TableRoute | undefined {
    if (request.routeOptions.url !== CATCH_ALL) return undefined;
    return this.find(request.method === 'HEAD' ? 'GET' : request.method, request.url.split('?')[0]);
  }

  find(method: string, path: string): TableRoute | undefined {
    return this.routes.get(`${method} ${path}`);
  }

  /** The handler that answers `method path`: a Fastify route's registered after the table, else the table's. */
  handlerOf(method: string, path: string): RouteHandlerMethod | undefined {
    return this.exact.get(`${method} ${path}`) ?? this.find(method, path)?.handler;
  }

  /** Whether the app answers `method url`, by an exact route of Fastify's or by this table. */
  has(method: HTTPMethods, url: string): boolean {
    return this.routes.has(`${method} ${url}`) || this.app.hasRoute({ method, url });
  }

  /** Every route of the table, as "METHOD path". */
  list(): string[] {
    return [...this.routes.keys()];
  }

  /**
   * What the route registrations need of an app, recording into this table instead:
   * `get(url, handler)`, `get(url, { config }, handler)`, `post`, `route`, and `hasRoute`.
   */
  collector(): FastifyInstance {
    const add = (method: string, url: string, args: unknown[]) => {
      const handler = args.at(-1) as RouteHandlerMethod;
      const options = args.length > 1 ? (args[0] as { config?: FastifyContextConfig }) : {};
      this.routes.set(`${method} ${url}`, { handler, config: options.config ?? {} });
      return true;
    };
    const stand = {
      get: (url: string, ...rest: unknown[]) => add('GET', url, rest),
      post: (url: string, ...rest: unknown[]) => add('POST', url, rest),
      route: (r: { method: string; url: string; handler: RouteHandlerMethod; config?: FastifyContextConfig }) =>
        add(r.method, r.url, [{ config: r.config }, r.handler]),
      hasRoute: (r: { method: HTTPMethods; url: string }) => this.has(r.method, r.url),
    };
    return stand as unknown as FastifyInstance;
  }
}
