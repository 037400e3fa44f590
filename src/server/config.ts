// Server settings, from the environment (see docs/operations.md#configuration).
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Where the embedded database (and its files) live. */
  dataDir: string;
  /** A postgres:// URL; absent means the embedded database in dataDir. */
  databaseUrl?: string;
  /** Signing key override; by default one is generated on first start. */
  jwtSecret?: string;
  /** SM2 private key (64 hex digits) of the SpringBlade sign-in; by default one is generated on first start. */
  sm2PrivateKey?: string;
  timeZone: string;
  /** Seed data on first start (the platform tenant, dictionaries, parameters). */
  seed: boolean;
  /** What the first start's seed adds of the demo company (default full; ZS_DEMO). */
  demo?: DemoLevel;
  logLevel: string;
  /** Size of the PostgreSQL connection pool. */
  poolSize: number;
  /** Tests only (ZS_TEST_CAPTCHA=expose): the captcha answer travels in a response header. */
  exposeCaptchaCode: boolean;
  /**
   * perAddress: login attempts per minute per client address (ZS_LOGIN_LIMIT_ADDRESS). perAccount:
   * failed logins of one account from all addresses in 30 minutes after which an address that has
   * not signed in to it needs the captcha (ZS_LOGIN_LIMIT_ACCOUNT).
   */
  loginLimits: { perAddress: number; perAccount: number };
  /** Where uploaded files live on the server's own disk (default: DATA_DIR/files). */
  storageDir?: string;
  /** No upload is read beyond this many MB, whatever a storage configuration allows (default 20). */
  uploadMaxMb?: number;
  /** Record the API log (default on; ZS_API_LOG=off turns it off, e.g. to measure its cost). */
  apiLog?: boolean;
  /** Hosts a data source may connect to (ZS_DATASOURCE_HOSTS, comma-separated; default loopback only). */
  datasourceHosts?: string[];
  /** Hosts an object storage (S3) endpoint may name (ZS_OSS_HOSTS, comma-separated; default loopback only). */
  ossHosts?: string[];
  /** Key of the data sources' stored passwords (ZS_DATASOURCE_KEY); by default one is generated on first start. */
  datasourceKey?: string;
  /** The folder holding entities.manifest.json and schemas/ (ZS_SCHEMA_DIR; default: the installation's own). */
  schemaDir?: string;
  /** The built client the server serves (default: the installation's dist/client; tests give their own). */
  clientDir?: string;
  /** Guards against floods and slow clients; unset ones take LIMIT_DEFAULTS. */
  limits?: Partial<Limits>;
  /**
   * Proxies whose X-Forwarded-For names the client (ZS_TRUST_PROXY: `loopback`, or addresses and
   * CIDRs, comma-separated). Behind nginx, without it every client has nginx's address, and the
   * per-address limits count them all together.
   */
  trustProxy?: string;
  /** Minutes between two rounds of the late-settlement check (ZS_LATE_SETTLEMENT_MINUTES; default 60, 0 = never, not even at start). */
  lateSettlementMinutes?: number;
}

/** What one request may cost the server (docs/operations.md#limits-and-faults). */
export interface Limits {
  /** Largest JSON or form body, refused with 413 from its Content-Length before it is read (ZS_BODY_LIMIT_MB). */
  bodyLimitMb: number;
  /** A request must have arrived whole within this time, else 408 (ZS_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Its headers within this time (ZS_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** On PostgreSQL, a statement running longer is cancelled and answered 504; 0 = no limit (ZS_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs: number;
  /** Captchas per minute per client address (ZS_CAPTCHA_LIMIT_ADDRESS). */
  captchaPerAddress: number;
  /** On SIGTERM, in-flight requests get this long to finish before the process exits anyway (ZS_SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
}

export const LIMIT_DEFAULTS: Limits = {
  bodyLimitMb: 5,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  statementTimeoutMs: 30_000,
  captchaPerAddress: 30,
  shutdownGraceMs: 20_000,
};

export function limitsOf(config: Pick<Config, 'limits'>): Limits {
  return { ...LIMIT_DEFAULTS, ...config.limits };
}

function limitsFromEnv(env: NodeJS.ProcessEnv): Partial<Limits> {
  const names: Record<keyof Limits, string> = {
    bodyLimitMb: 'ZS_BODY_LIMIT_MB',
    requestTimeoutMs: 'ZS_REQUEST_TIMEOUT_MS',
    headersTimeoutMs: 'ZS_HEADERS_TIMEOUT_MS',
    statementTimeoutMs: 'ZS_STATEMENT_TIMEOUT_MS',
    captchaPerAddress: 'ZS_CAPTCHA_LIMIT_ADDRESS',
    shutdownGraceMs: 'ZS_SHUTDOWN_GRACE_MS',
  };
  const limits: Partial<Limits> = {};
  for (const [key, name] of Object.entries(names) as [keyof Limits, string][]) {
    if (!env[name]) continue;
    const value = Number(env[name]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0, not ${env[name]}`);
    limits[key] = value;
  }
  return limits;
}

/**
 * The demo company on first start: `full` (master data, contracts and months of documents taken
 * through their approvals), `basic` (master data and a few drafts: a quick start, for tests) or `off`.
 */
export type DemoLevel = 'full' | 'basic' | 'off';

function demoLevel(value: string | undefined): DemoLevel {
  return value === 'off' || value === 'basic' ? value : 'full';
}

function minutes(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  if (!env[name]) return fallback;
  const value = Number(env[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0, not ${env[name]}`);
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.ZS_JWT_SECRET || undefined,
    sm2PrivateKey: env.ZS_SM2_PRIVATE_KEY || undefined,
    timeZone: env.ZS_TIME_ZONE ?? 'Asia/Shanghai',
    seed: env.ZS_SEED !== 'off',
    demo: demoLevel(env.ZS_DEMO),
    logLevel: env.LOG_LEVEL ?? 'info',
    poolSize: Number(env.ZS_POOL_SIZE ?? 10),
    exposeCaptchaCode: env.ZS_TEST_CAPTCHA === 'expose',
    loginLimits: { perAddress: Number(env.ZS_LOGIN_LIMIT_ADDRESS ?? 30), perAccount: Number(env.ZS_LOGIN_LIMIT_ACCOUNT ?? 10) },
    storageDir: env.ZS_STORAGE_DIR ? resolve(env.ZS_STORAGE_DIR) : undefined,
    uploadMaxMb: Number(env.ZS_UPLOAD_MAX_MB ?? 20),
    apiLog: env.ZS_API_LOG !== 'off',
    datasourceHosts: env.ZS_DATASOURCE_HOSTS
      ? env.ZS_DATASOURCE_HOSTS.split(',')
          .map((h) => h.trim())
          .filter(Boolean)
      : undefined,
    ossHosts: env.ZS_OSS_HOSTS
      ? env.ZS_OSS_HOSTS.split(',')
          .map((h) => h.trim())
          .filter(Boolean)
      : undefined,
    datasourceKey: env.ZS_DATASOURCE_KEY || undefined,
    schemaDir: env.ZS_SCHEMA_DIR ? resolve(env.ZS_SCHEMA_DIR) : undefined,
    limits: limitsFromEnv(env),
    trustProxy: env.ZS_TRUST_PROXY || undefined,
    lateSettlementMinutes: minutes(env, 'ZS_LATE_SETTLEMENT_MINUTES', 60),
  };
}
