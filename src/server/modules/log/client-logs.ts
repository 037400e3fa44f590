// The browser's local error log (url, time, type, message, stack, info), uploaded on
// logout and from the error log dialog, kept as error-log rows of source "client".
import type { FastifyRequest } from 'fastify';
import type { EntityModel } from '../../../engine/model/types.ts';
import type { Db } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { maskedJson } from './mask.ts';
import { originOf, whoOf, type LogService } from './service.ts';

/** At most this many entries are kept from one upload. */
const MAX_ENTRIES = 200;
/** The longest column an entry's text goes to (the stack): what is past it is never written. */
const MAX_TEXT = 20_000;

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? maskedJson(value, MAX_TEXT) : String(value);
}

/** Queues the uploaded entries (the request's body, a list) and returns how many were taken. */
export function storeClientLogs(logs: LogService, request: FastifyRequest): number {
  const entries = Array.isArray(request.body) ? (request.body as Record<string, unknown>[]).slice(0, MAX_ENTRIES) : [];
  const who = whoOf(request);
  const { userAgent, remoteIp } = originOf(request);
  for (const entry of entries) {
    if (!entry || typeof entry !== 'object') continue;
    logs.error(who, {
      source: 'client',
      exceptionName: text(entry.type),
      message: text(entry.message),
      stackTrace: text(entry.stack),
      requestUri: text(entry.url),
      clientTime: text(entry.time),
      params: text(entry.info),
      remoteIp,
      userAgent,
    });
  }
  return entries.length;
}

/**
 * Earlier versions kept uploaded browser logs in a table of their own (zs_client_error_log): its
 * rows move into the error log once, and the table goes.
 */
export async function adoptClientErrorTable(db: Db, errors: EntityModel, timeZone: string) {
  const [{ found }] = await db.query<{ found: boolean }>(`SELECT to_regclass('zs_client_error_log') IS NOT NULL AS found`);
  if (!found) return;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO ${q(errors.table)} (id, tenant_id, user_id, create_user, create_time, update_user, update_time, source, exception_name, message, stack_trace, request_uri, client_time, params)
       SELECT id, tenant_id, user_id, user_id, (created_at AT TIME ZONE $1)::timestamp(0), user_id, (created_at AT TIME ZONE $1)::timestamp(0), 'client', left(type, 200), left(message, 4000), left(stack, 20000), left(url, 1000), left(logged_at, 40), left(info, 8000)
         FROM zs_client_error_log ON CONFLICT (id) DO NOTHING`,
      [timeZone],
    );
    await tx.query(`DROP TABLE zs_client_error_log`);
  });
}
