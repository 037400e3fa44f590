// Data sources of code generation: PostgreSQL, MySQL and MariaDB connections (MariaDB through the
// MySQL driver: one protocol). The password (typed, or inside a connection URL, which is input only)
// never becomes a column: it is sealed with the installation's key (SecretBox) into a table of its
// own. Connecting (test, table-list, table-info) is limited to an allow-list of hosts, checked
// before any socket is opened; this machine and the main database's server are the platform
// administrator's alone (outgoing.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Queryable } from '../../db/db.ts';
import type { Row } from '../../db/db.ts';
import type { Actor, EntityHooks } from '../../db/store.ts';
import { AppError, notFound } from '../../errors.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { Engine, SourceDb } from './introspect.ts';
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

/** Bounds of a data source's connection: a dead or silent host answers within these. */
const CONNECT_TIMEOUT_MS = 5000;
const QUERY_TIMEOUT_MS = 10_000;

/** The platform's driver classes (its form's choices, bar Oracle), and the engine each reaches. */
export const DRIVERS: Record<string, Engine> = {
  'org.postgresql.Driver': 'postgresql',
  'com.mysql.cj.jdbc.Driver': 'mysql',
  'org.mariadb.jdbc.Driver': 'mysql',
};
export const POSTGRES_DRIVER = 'org.postgresql.Driver';

const DEFAULT_PORT: Record<Engine, number> = { postgresql: 5432, mysql: 3306 };

/** The engine of a stored driver class; rows from before MySQL came are PostgreSQL's. */
export function engineOf(driverClass: unknown): Engine {
  return DRIVERS[String(driverClass ?? '')] ?? 'postgresql';
}

export interface DatasourceConnection {
  engine: Engine;
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
}

/** The engine and driver class a URL's scheme names (`postgres:`, `postgresql:`, `mysql:`, `mariadb:`). */
const SCHEMES: Record<string, { engine: Engine; driverClass: string }> = {
  'postgres:': { engine: 'postgresql', driverClass: POSTGRES_DRIVER },
  'postgresql:': { engine: 'postgresql', driverClass: POSTGRES_DRIVER },
  'mysql:': { engine: 'mysql', driverClass: 'com.mysql.cj.jdbc.Driver' },
  'mariadb:': { engine: 'mysql', driverClass: 'org.mariadb.jdbc.Driver' },
};

/**
 * engine, driver class, host, port, database, user and password of a postgres://, mysql:// or
 * mariadb:// URL. Query parameters are refused: a driver given the URL would read `?host=` and
 * `?sslrootcert=` from them, around the allow-list and onto the disk. The JDBC forms the platform's
 * clients send (`jdbc:postgresql://`, `jdbc:mysql://`, `jdbc:mariadb://host:port/database`) are read
 * too: their user and password may stand in the connection's own fields or as `?user=&password=`,
 * and their other parameters (driver settings of Java's) are ignored: only the fields returned here
 * connect, never the URL.
 */
export function parseDatasourceUrl(text: string): DatasourceConnection & { driverClass: string } {
  const jdbc = /^jdbc:(postgresql|mysql|mariadb):\/\//i.test(text);
  let url: URL;
  try {
    url = new URL(jdbc ? text.slice('jdbc:'.length) : text);
  } catch {
    throw new AppError(400, 'datasourceUrl');
  }
  const scheme = SCHEMES[url.protocol];
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const user = url.username ? decodeURIComponent(url.username) : jdbc ? (url.searchParams.get('user') ?? '') : '';
  const valid = scheme && url.hostname && (user || jdbc) && database && !database.includes('/') && (jdbc || !url.search) && !url.hash;
  if (!valid) throw new AppError(400, 'datasourceUrl');
  return {
    ...scheme,
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || DEFAULT_PORT[scheme.engine]),
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
    // a URL fills the connection fields left empty (the driver too); then they must be complete
    async beforeWrite({ record }) {
      if (typeof record.url === 'string' && record.url !== '') {
        const parsed = parseDatasourceUrl(record.url);
        if (record.driverClass && engineOf(record.driverClass) !== parsed.engine)
          throw new AppError(400, 'datasourceDriverMismatch', { driver: String(record.driverClass) });
        const fromUrl: Row = {
          driverClass: parsed.driverClass,
          host: parsed.host,
          port: parsed.port,
          databaseName: parsed.database,
          username: parsed.user || undefined,
        };
        for (const [name, value] of Object.entries(fromUrl))
          if (record[name] === undefined || record[name] === null || record[name] === '') record[name] = value;
      }
      if (!record.driverClass) record.driverClass = POSTGRES_DRIVER;
      if (!record.host || !record.databaseName || !record.username) throw new AppError(400, 'datasourceIncomplete');
    },
    async afterWrite({ tx, actor, id, body }) {
      const fromUrl = typeof body.url === 'string' && body.url ? parseDatasourceUrl(body.url).password : '';
      const password = typeof body.password === 'string' && body.password !== '' ? body.password : fromUrl;
      // an update that leaves the password empty keeps the stored one
      if (!password) return;
      await tx.query(
        `INSERT INTO ${DATASOURCE_SECRET_TABLE} (datasource_id, tenant_id, secret) VALUES ($1, $2, $3)
         ON CONFLICT (datasource_id) DO UPDATE SET secret = EXCLUDED.secret, tenant_id = EXCLUDED.tenant_id`,
        [id, actor.tenantId, box.seal(password)],
      );
    },
    // rows saved before MySQL came have no driver: they are PostgreSQL's
    async afterRead({ records }) {
      for (const record of records) record.driverClass ||= POSTGRES_DRIVER;
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
): Promise<DatasourceConnection & { name: string }> {
  const [row] = await db.query<Row>(
    `SELECT d.name, d.driver_class AS "driverClass", d.host, d.port, d.database_name AS "databaseName", d.username, s.secret
       FROM ${table} d LEFT JOIN ${DATASOURCE_SECRET_TABLE} s ON s.datasource_id = d.id AND s.tenant_id = d.tenant_id
      WHERE d.id = $1 AND d.tenant_id = $2 AND d.is_deleted = 0`,
    [id, actor.tenantId],
  );
  if (!row) throw notFound({ zh: '数据源', en: 'Data source' });
  const engine = engineOf(row.driverClass);
  return {
    name: String(row.name),
    engine,
    host: String(row.host),
    port: Number(row.port ?? DEFAULT_PORT[engine]),
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

/** An open connection to a data source's database: reading it, and closing it. */
interface OpenSource {
  db: SourceDb;
  close(): Promise<void>;
}

async function openPostgres(c: DatasourceConnection, host: string): Promise<OpenSource> {
  const client = new pg.Client({
    host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: c.password,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: QUERY_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  return {
    db: { engine: 'postgresql', read: async (sql, params) => (await client.query(sql, params)).rows },
    close: () => client.end().catch(() => undefined),
  };
}

async function openMysql(c: DatasourceConnection, host: string): Promise<OpenSource> {
  // loaded by the first MySQL connection: its driver's modules took 30 ms of every start
  const { default: mysql } = await import('mysql2/promise');
  const connection = await mysql.createConnection({
    host,
    port: c.port,
    database: c.database,
    user: c.user,
    password: c.password,
    // the handshake included: a port that accepts and never answers fails here
    connectTimeout: CONNECT_TIMEOUT_MS,
    // no LOAD DATA LOCAL: the server is the tenant's, this machine's files are not
    flags: ['-LOCAL_FILES'],
    multipleStatements: false,
    charset: 'utf8mb4_general_ci',
  });
  return {
    db: {
      engine: 'mysql',
      read: async (sql, params) => {
        const [rows] = await connection.query({ sql, values: params, timeout: QUERY_TIMEOUT_MS });
        return rows as Record<string, unknown>[];
      },
    },
    // a polite goodbye, but never waited on for long: a server that stopped answering is cut off
    close: async () => {
      await Promise.race([connection.end().catch(() => undefined), sleep(1000)]);
      connection.destroy();
    },
  };
}

/**
 * Runs `work` on a fresh connection to `c`, closed afterwards. The host is checked against the
 * allow-list first, and for anyone but the platform against this machine and the main database's
 * server: a refused host is answered at once, no socket opened. A tenant's host is resolved once
 * and its address connected to. Every failure to connect is answered with one message, no sooner
 * than FAILURE_FLOOR_MS after the attempt began; its cause goes to the server's log.
 */
export async function withConnection<T>(
  c: DatasourceConnection & { name: string },
  guard: ConnectionGuard,
  work: (db: SourceDb) => Promise<T>,
): Promise<T> {
  if (!isAllowedHost(c.host, guard.allowedHosts)) throw new AppError(400, 'datasourceHostRefused', { host: c.host });
  const started = Date.now();
  const failed = async (err: unknown) => {
    guard.log({ err, datasource: c.name, engine: c.engine, host: c.host, port: c.port }, 'connecting to a data source failed');
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
  let source: OpenSource;
  try {
    source = await (c.engine === 'mysql' ? openMysql : openPostgres)(c, host);
  } catch (err) {
    throw await failed(err);
  }
  try {
    return await work(source.db);
  } finally {
    await source.close();
  }
}
