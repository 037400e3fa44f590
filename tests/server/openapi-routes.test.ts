// The OpenAPI document against the routes the server really has: every path and method it
// describes answers, and every business route (/api/construct) is described — the cumulative
// query of each x-cumulative document among them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cumulativeOf } from '../../src/packs/cost/engine/cumulative/model.ts';
import { apiRoutes, databaseKinds, startServer, type TestServer } from './harness.ts';

/** Full route paths with their methods. */
function routesOf(server: TestServer): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  for (const [method, path] of apiRoutes(server)) routes.set(path, [...(routes.get(path) ?? []), method]);
  return routes;
}

describe.each(databaseKinds())('the OpenAPI document and the routes on %s', (kind) => {
  let server: TestServer;
  let doc: { paths: Record<string, Record<string, any>> };

  beforeAll(async () => {
    server = await startServer(kind);
    doc = JSON.parse((await server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
  }, 120_000);

  afterAll(async () => server?.dispose());

  it('describes only routes that exist, with their methods', () => {
    const missing = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((method) => !server.routes.has(method.toUpperCase() as 'GET', path))
        .map((method) => `${method} ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('describes every business route', () => {
    const routes = [...routesOf(server)].filter(([path]) => path.startsWith('/api/construct/'));
    expect(routes).not.toEqual([]);
    const undescribed = routes.flatMap(([path, methods]) =>
      methods.filter((m) => !doc.paths[path]?.[m.toLowerCase()]).map((m) => `${m} ${path}`),
    );
    expect(undescribed).toEqual([]);
  });

  it('describes the cumulative query of every x-cumulative document, with its keys', () => {
    const documents = Object.values(server.catalog.entities).filter((m) => cumulativeOf(m));
    expect(documents.map((m) => m.key)).toEqual(
      expect.arrayContaining(['subcontractMonthlySettlement', 'subcontractSettlementFiling', 'laborSettlementFinalization']),
    );
    for (const model of documents) {
      const get = doc.paths[`${model.api}/cumulative`]?.get;
      expect(get, model.key).toBeDefined();
      const required = get.parameters.filter((p: any) => p.required).map((p: any) => p.name);
      expect(required, model.key).toEqual(cumulativeOf(model)!.queryKeys);
    }
    const filing = doc.paths['/api/construct/subcontractSettlementFiling/cumulative'].get;
    expect(filing.parameters.map((p: any) => [p.name, p.required])).toEqual([
      ['projectId', true],
      ['expenditureContractCode', false],
      ['subcontractorId', false],
      ['excludeId', false],
    ]);
  });
});
