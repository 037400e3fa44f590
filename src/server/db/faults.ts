// Database failures that are not the request's fault: the connection went away (PostgreSQL
// restarted, a backend was terminated, the network broke) or a statement ran past its timeout.
// The HTTP layer answers the first with 503 and a retry hint, the second with 504.
import { sqlState } from './db.ts';

/** Seconds a client is asked to wait before retrying after the database went away. */
export const RETRY_AFTER_SECONDS = 5;

const CONNECTION_STATES = new Set([
  '57P01', // admin_shutdown: terminated by an administrator or a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting or stopping
  '53300', // too_many_connections
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);
// node-postgres reports a dead socket with plain errors that carry no code
const LOST_MESSAGES =
  /Connection terminated|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect/i;

export function isConnectionLost(err: unknown): boolean {
  const code = sqlState(err);
  if (code && (CONNECTION_STATES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code))) return true;
  return err instanceof Error && LOST_MESSAGES.test(err.message);
}

/** A statement cancelled by statement_timeout (57014 query_canceled). */
export function isStatementTimeout(err: unknown): boolean {
  return sqlState(err) === '57014';
}
