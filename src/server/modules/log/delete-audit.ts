// Deletes in the audit ("usual") log, for every remove route in one place: the generic entity
// removal and the modules' own (messages, attachments, flow models, data sources, …). After a
// POST …/remove has been answered 200, the ids it named are recorded with the entity whose API
// base the path is under (else the path itself), like any audited event: off the request's path.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { Db } from '../../db/db.ts';
import { auditEvent } from './service.ts';

const REMOVE = /\/remove$/;
const ID = /^\d{1,19}$/;

function removedIds(request: FastifyRequest): string[] {
  const fields = [request.query, request.body].map((v) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {}));
  const raw = fields.map((f) => f.ids ?? f.id).find((v) => v !== undefined && v !== null);
  return String(raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => ID.test(s));
}

export function registerDeleteAudit(app: FastifyInstance, ctx: { db: Db; catalog: EntityCatalog }) {
  const entityByBase = new Map(Object.values(ctx.catalog.entities).map((m) => [m.api, m.key]));
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && reply.statusCode === 200 && REMOVE.test(path) && request.actor) {
      const base = path.replace(REMOVE, '');
      auditEvent(ctx, request, { event: 'delete', subject: `${entityByBase.get(base) ?? base} ${removedIds(request).join(',')}`.trim() });
    }
    done();
  });
}
