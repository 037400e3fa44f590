// Server settings, from the environment (see README "Configuration").
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
  /** Login attempts per minute: per client address and per account. */
  loginLimits: { perAddress: number; perAccount: number };
  /** Where uploaded files live on the server's own disk (default: DATA_DIR/files). */
  storageDir?: string;
  /** No upload is read beyond this many MB, whatever a storage configuration allows (default 20). */
  uploadMaxMb?: number;
  /** Record the API log (default on; ZS_API_LOG=off turns it off, e.g. to measure its cost). */
  apiLog?: boolean;
}

/**
 * The demo company on first start: `full` (master data, contracts and months of documents taken
 * through their approvals), `basic` (master data and a few drafts: a quick start, for tests) or `off`.
 */
export type DemoLevel = 'full' | 'basic' | 'off';

function demoLevel(value: string | undefined): DemoLevel {
  return value === 'off' || value === 'basic' ? value : 'full';
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.ZS_JWT_SECRET || undefined,
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
  };
}
