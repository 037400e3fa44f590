// Data sources of code generation: PostgreSQL connections only. The password (typed, or inside a
// postgres:// URL, which is input only) never becomes a column: it is sealed with the installation's
// key (SecretBox) into a table of its own. Connecting (test, table-list,
// table-info) is limited to an allow-list of hosts, checked before any socket is opened; this
// machine and the main database's server are the platform administrator's alone (outgoing.ts).
import pg from 'pg';
import type { Queryable } from '../../db/db.ts';
import type { Row } from '../../db/db.ts';
import type { Actor, EntityHooks } from '../../db/store.ts';
import { AppError, notFound } from '../../errors.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { failureFloor, ReservedTarget, type PlatformAddresses } from './outgoing.ts';

export const DATASOURCE_SECRET_TABLE = 'blade_datasource_secret';

export const DEVELOP_DDL = `
CREATE TABLE IF NOT EXISTS ${DATASOURCE_SECRET_TABLE} (
  datasource_id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  secret text NOT NULL
);
`;

/** The hosts a data source may reach when ZS_DATASOURCE_HOSTS says nothing: this machine. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

const CONNECT_TIMEOUT_MS = 5000;

export interface PgConnection {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/**
 * host, port, database, user and password of a postgres:// URL. Query parameters are refused: the
 * driver would read `?host=` and `?sslrootcert=` from them, around the allow-list and onto the disk.
 * The JDBC form the platform's clients send (`jdbc:postgresql://host:port/database`) is read too:
 * its user and password may stand in the connection's own fields or as `?user=&password=`, and its
 * other parameters (driver settings of Java's) are ignored: only the fields returned here connect.
 */
export function parsePostgresUrl(text: string): PgConnection {
  const jdbc = /^jdbc:postgresql:\/\//i.test(text);
  let url: URL;
  try {
    url = new URL(jdbc ? text.slice('jdbc:'.length) : text);
  } catch {
    throw new AppError(400, 'datasourceUrl');
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const user = url.username ? decodeURIComponent(url.username) : jdbc ? (url.searchParams.get('user') ?? '') : '';
  const valid =
    /^postgres(ql)?:$/.test(url.protocol) &&
    url.hostname &&
    (user || jdbc) &&
    database &&
    !database.includes('/') &&
    (jdbc || !url.search) &&
    !url.hash;
  if (!valid) throw new AppError(400, 'datasourceUrl');
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 5432),
    database,
    user,
    password: url.password ? decodeURIComponent(url.password) : jdbc ? (url.searchParams.get('password') ?? '') : '',
  };
}

export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return allowed.some((h) => h.toLowerCase() === name);
}

export function datasourceHooks(box: SecretBox): EntityHooks {
  return {
    // a URL fills the connection fields left empty; then they must be complete
    async beforeWrite({ record }) {
      if (typeof record.url === 'string' && record.url !== '') {
        const parsed = parsePostgresUrl(record.url);
        const fromUrl: Row = { host: parsed.host, port: parsed.port, databaseName: parsed.database, username: parsed.user || undefined };
        for (const [name, value] of Object.entries(fromUrl))
          if (record[name] === undefined || record[name] === null || record[name] === '') record[name] = value;
      }
      if (!record.host || !record.databaseName || !record.username) throw new AppError(400, 'datasourceIncomplete');
    },
    async afterWrite({ tx, actor, id, body }) {
      const fromUrl = typeof body.url === 'string' && body.url ? parsePostgresUrl(body.url).password : '';
      const password = typeof body.password === 'string' && body.password !== '' ? body.password : fromUrl;
      // an update that leaves the password empty keeps the stored one
      if (!password) return;
      await tx.query(
        `INSERT INTO ${DATASOURCE_SECRET_TABLE} (datasource_id, tenant_id, secret) VALUES ($1, $2, $3)
         ON CONFLICT (datasource_id) DO UPDATE SET secret = EXCLUDED.secret, tenant_id = EXCLUDED.tenant_id`,
        [id, actor.tenantId, box.seal(password)],
      );
    },
    async beforeRemove({ tx, actor, ids }) {
      await tx.query(`DELETE FROM ${DATASOURCE_SECRET_TABLE} WHERE datasource_id = ANY($1::bigint[]) AND tenant_id = $2`, [
        ids,
        actor.tenantId,
      ]);
    },
  };
}

/**
 * The connection settings of the caller's tenant's data source, password opened. The one place a
 * stored password is read in clear (also for tenant data sources later): keep it that way.
 */
export async function readConnection(
  db: Queryable,
  box: SecretBox,
  table: string,
  actor: Actor,
  id: string,
): Promise<PgConnection & { name: string }> {
  const [row] = await db.query<Row>(
    `SELECT d.name, d.host, d.port, d.database_name AS "databaseName", d.username, s.secret
       FROM ${table} d LEFT JOIN ${DATASOURCE_SECRET_TABLE} s ON s.datasource_id = d.id AND s.tenant_id = d.tenant_id
      WHERE d.id = $1 AND d.tenant_id = $2 AND d.is_deleted = 0`,
    [id, actor.tenantId],
  );
  if (!row) throw notFound({ zh: '数据源', en: 'Data source' });
  return {
    name: String(row.name),
    host: String(row.host),
    port: Number(row.port ?? 5432),
    database: String(row.databaseName),
    user: String(row.username),
    password: row.secret ? box.open(String(row.secret)) : '',
  };
}

/** What a connection to a data source is checked against, and where its failures are told. */
export interface ConnectionGuard {
  /** ZS_DATASOURCE_HOSTS. */
  allowedHosts: readonly string[];
  /** This machine and the main database's server. */
  addresses: PlatformAddresses;
  /** The platform administrator (or the platform's own tenant databases): this machine and the main server are theirs. */
  platform: boolean;
  /** Writes a failed connection's cause to the server's log: the caller is never told it. */
  log: (detail: Record<string, unknown>, message: string) => void;
}

/**
 * Runs `work` on a fresh connection to `c`, closed afterwards. The host is checked against the
 * allow-list first, and for anyone but the platform against this machine and the main database's
 * server: a refused host is answered at once, no socket opened. A tenant's host is resolved once
 * and its address connected to. Every failure to connect is answered with one message, no sooner
 * than FAILURE_FLOOR_MS after the attempt began; its cause goes to the server's log.
 */
export async function withConnection<T>(
  c: PgConnection & { name: string },
  guard: ConnectionGuard,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  if (!isAllowedHost(c.host, guard.allowedHosts)) throw new AppError(400, 'datasourceHostRefused', { host: c.host });
  const started = Date.now();
  const failed = async (err: unknown) => {
    guard.log({ err, datasource: c.name, host: c.host, port: c.port }, 'connecting to a data source failed');
    await failureFloor(started);
    return new AppError(400, 'datasourceConnectFailed', { name: c.name });
  };
  let host = c.host;
  if (!guard.platform) {
    try {
      host = await guard.addresses.tenantAddress(c.host, c.port);
    } catch (err) {
      if (err instanceof ReservedTarget) throw new AppError(400, 'datasourceHostReserved', { host: c.host });
      throw await failed(err);
    }
  }
  const client = new pg.Client({
    host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: c.password,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: 10_000,
  });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw await failed(err);
  }
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
