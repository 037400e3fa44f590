// The logs (/api/blade-log): API calls, errors and audited business events, kept as the read-only
// entities of schemas/log (logApi, logError, logUsual), so that their list, detail, search and
// export are the generic ones, tenant-scoped and open to the holders of their menus only.
// Every row goes through one BatchWriter, off the request's path.
import type { FastifyRequest } from 'fastify';
import type { EntityCatalog, EntityModel } from '../../../engine/model/types.ts';
import { nowText } from '../../clock.ts';
import type { Db, Row } from '../../db/db.ts';
import { nextId } from '../../db/ids.ts';
import { PLATFORM_TENANT } from '../../db/store.ts';
import { readParam } from '../system/params.ts';
import { maskedJson } from './mask.ts';
import { purgeExpiredLogs } from './retention.ts';
import { BatchWriter, type WriterOptions } from './writer.ts';

export const LOG_ENTITIES = { api: 'logApi', error: 'logError', usual: 'logUsual' } as const;

export const LOG_PARAMS = {
  /** Days a log row is kept (tenant's own value, else the platform's, else 90). */
  retentionDays: 'log.retentionDays',
  /** "true": the API log records reads (GET) as well as writes. */
  apiReads: 'log.apiReads',
} as const;

/** Whose row it is: the tenant it belongs to and the user (if known) who caused it. */
export interface Who {
  tenantId: string;
  userId?: string | null;
  deptId?: string | null;
}

export type AuditEventType = 'login' | 'loginFailed' | 'logout' | 'lock' | 'unlock' | 'grant' | 'approve' | 'reject' | 'delete';

export interface AuditEvent {
  event: AuditEventType;
  /** The account concerned (the one logging in, the one unlocked). */
  account?: string;
  /** What was acted on, in a few words: "role 1123…", "project 1,2". */
  subject?: string;
  /** Anything else worth keeping; secrets in it are masked. */
  detail?: Record<string, unknown>;
  /** Defaults: the request's caller. */
  tenantId?: string;
  userId?: string | null;
}

export interface LogServiceOptions extends Partial<WriterOptions> {
  /** How often expired rows are looked for (ms; default hourly). */
  retentionEveryMs?: number;
}

const ID = /^\d{1,19}$/;
const TENANT = /^\d{1,12}$/;
const READS_CACHE_MS = 30_000;

/** The caller's tenant and user, else the tenant an anonymous call names (a login), else the platform. */
export function whoOf(request: FastifyRequest): Who {
  const actor = request.actor;
  if (actor) return { tenantId: actor.tenantId, userId: actor.userId, deptId: actor.deptId };
  const query = (request.query ?? {}) as Record<string, unknown>;
  const named = String(request.headers['tenant-id'] ?? query.tenantId ?? query.tenant_id ?? '');
  return { tenantId: TENANT.test(named) ? named : PLATFORM_TENANT };
}

export function originOf(request: FastifyRequest): { remoteIp: string; userAgent: string | undefined } {
  const agent = request.headers['user-agent'];
  return { remoteIp: request.ip, userAgent: Array.isArray(agent) ? agent[0] : agent };
}

export class LogService {
  readonly writer: BatchWriter;
  readonly models: Record<keyof typeof LOG_ENTITIES, EntityModel>;
  private readonly reads = new Map<string, { at: number; value?: boolean; pending: Promise<boolean> }>();
  private retentionTimer?: NodeJS.Timeout;

  constructor(
    private readonly ctx: { db: Db; catalog: EntityCatalog; timeZone: string },
    private readonly options: LogServiceOptions = {},
  ) {
    const entity = (key: string) => ctx.catalog.entities[key];
    this.models = { api: entity(LOG_ENTITIES.api), error: entity(LOG_ENTITIES.error), usual: entity(LOG_ENTITIES.usual) };
    this.writer = new BatchWriter(ctx.db, {
      intervalMs: options.intervalMs ?? 1000,
      batchSize: options.batchSize ?? 500,
      maxQueue: options.maxQueue ?? 50_000,
      onError: options.onError ?? ((err, model, rows) => console.error(`log: ${rows} ${model.key} rows not written`, err)),
    });
  }

  start() {
    this.writer.start();
    const every = this.options.retentionEveryMs ?? 3_600_000;
    this.retentionTimer ??= setInterval(() => void this.purge().catch((err) => console.error('log retention failed', err)), every);
    this.retentionTimer.unref();
  }

  async close() {
    clearInterval(this.retentionTimer);
    this.retentionTimer = undefined;
    await this.writer.close();
  }

  /** Writes what is queued (tests, shutdown, and answers that promise the rows are stored). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Removes rows older than each tenant's retention, in batches; returns how many went. */
  purge(now = new Date()): Promise<number> {
    return purgeExpiredLogs(this.ctx, Object.values(this.models), now);
  }

  api(
    who: Who,
    entry: {
      method: string;
      requestUri: string;
      status: number;
      duration: number;
      params: string | null;
      remoteIp?: string;
      userAgent?: string;
    },
  ) {
    this.push(this.models.api, who, entry);
  }

  /** Keeps an error and returns its id (the number the client is told to quote). */
  error(
    who: Who,
    entry: {
      source: 'server' | 'client';
      exceptionName?: string;
      message?: string;
      stackTrace?: string;
      method?: string;
      requestUri?: string;
      params?: string | null;
      remoteIp?: string;
      userAgent?: string;
      clientTime?: string;
    },
  ): string {
    const id = this.push(this.models.error, who, entry);
    // errors are rare and wanted soon: no need to wait for the interval
    void this.flush();
    return id;
  }

  usual(
    who: Who,
    entry: { event: AuditEventType; account?: string; subject?: string; detail?: string; remoteIp?: string; userAgent?: string },
  ) {
    this.push(this.models.usual, who, entry);
  }

  /**
   * Whether the tenant asked for reads in the API log: the answer when known (cached for 30 s, or
   * until a parameter changes on any process), else a promise of it.
   */
  logsReads(tenantId: string): boolean | Promise<boolean> {
    const hit = this.reads.get(tenantId);
    if (hit && Date.now() - hit.at <= READS_CACHE_MS) return hit.value ?? hit.pending;
    const entry: { at: number; value?: boolean; pending: Promise<boolean> } = {
      at: Date.now(),
      pending: readParam(this.ctx.db, this.ctx.catalog, tenantId, LOG_PARAMS.apiReads, 'false').then(
        (v) => v.trim() === 'true',
        () => false,
      ),
    };
    void entry.pending.then((value) => (entry.value = value));
    this.reads.set(tenantId, entry);
    return entry.pending;
  }

  /** Parameters changed (on any process): read them again. */
  forgetParams() {
    this.reads.clear();
  }

  private push(model: EntityModel, who: Who, fields: Row): string {
    const now = nowText(this.ctx.timeZone);
    const user = who.userId && ID.test(who.userId) ? who.userId : null;
    const dept = (who.deptId ?? '').split(',').find((d) => ID.test(d)) ?? null;
    const row: Row = {
      id: nextId(),
      tenantId: who.tenantId,
      userId: user,
      createUser: user,
      createDept: dept,
      createTime: now,
      updateUser: user,
      updateTime: now,
    };
    for (const [name, value] of Object.entries(fields)) {
      const field = model.fieldMap[name];
      if (!field || value === undefined || value === null) continue;
      // a value longer than its column would fail the whole batch: keep its beginning
      row[name] =
        typeof value === 'string' && field.maxLength !== undefined && value.length > field.maxLength
          ? `${value.slice(0, field.maxLength - 1)}…`
          : value;
    }
    this.writer.push(model, row);
    return row.id as string;
  }
}

// Modules reach the log through the database they already hold (a store context, the identity
// service), so that auditing an event needs no new parameter down every call chain.
const services = new WeakMap<Db, LogService>();

export function attachLogs(db: Db, logs: LogService) {
  services.set(db, logs);
}

/** Records a business event in the audit ("usual") log, after the fact and off the request's path. */
export function auditEvent(ctx: { db: Db }, request: FastifyRequest | undefined, event: AuditEvent) {
  const logs = services.get(ctx.db);
  if (!logs) return;
  const caller = request ? whoOf(request) : { tenantId: PLATFORM_TENANT };
  const who: Who = {
    ...caller,
    tenantId: event.tenantId ?? caller.tenantId,
    userId: event.userId === undefined ? caller.userId : event.userId,
  };
  logs.usual(who, {
    event: event.event,
    account: event.account,
    subject: event.subject,
    // the column keeps 8,000 characters
    detail: event.detail && maskedJson(event.detail, 8000),
    ...(request && originOf(request)),
  });
}
