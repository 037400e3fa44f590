// Builds the seeded databases of the integration project once per run (vitest.config.ts): an embedded
// one, handed to every test file as a data dump (opening a dump takes a fraction of a second, running
// initdb and the seed takes several), and, when a PostgreSQL server is found, a template database on
// it that every suite's database is copied from (CREATE DATABASE … TEMPLATE: a fifth of a second,
// where building and seeding the tables took 8 s on a quiet machine and minutes on a busy one).
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createApp } from '../../src/server/app.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { testConfig } from '../server/config.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** A PostgreSQL server the suites also run on ('' when there is none). */
    postgresUrl: string;
    /** The seeded database on that server a suite's database is copied from ('' when there is none). */
    postgresTemplate: string;
  }
}

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/** TEST_DATABASE_URL if set ('none' turns PostgreSQL off), else a local server if one answers. */
async function findPostgres(): Promise<string> {
  const configured = process.env.TEST_DATABASE_URL;
  if (configured === 'none') return '';
  const url = configured || LOCAL_POSTGRES;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch (err) {
    if (configured) throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer: ${(err as Error).message}`);
    console.warn(`No PostgreSQL at ${LOCAL_POSTGRES}: server suites run on the embedded database only.`);
    return '';
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const TEMPLATE_PREFIX = 'zs_test_template_';

/**
 * A database on the PostgreSQL server seeded as the embedded template is, closed to connections
 * (a copy cannot be made of a database someone is connected to). Named with its creation time, so
 * that a later run can drop one a killed run left behind (a day old: no run lasts that long; other
 * runs on the same server may be using theirs).
 */
async function postgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const stale = await adminQuery(adminUrl, `SELECT datname FROM pg_database WHERE datname LIKE '${TEMPLATE_PREFIX}%'`);
  const dayAgo = Math.floor(Date.now() / 1000) - 86_400;
  for (const { datname } of stale.rows as { datname: string }[]) {
    const created = Number(datname.slice(TEMPLATE_PREFIX.length).split('_')[0]);
    if (created && created < dayAgo) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
  }
  const name = `${TEMPLATE_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const drop = async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = await openPostgres(url.toString(), { max: 5 });
    try {
      const { close } = await createApp(testConfig(), { db, logger: false });
      await close();
    } finally {
      await db.close();
    }
    await adminQuery(adminUrl, `ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
  return { name, drop };
}

/** The embedded database seeded, as a data dump written to `file`. */
async function pgliteTemplate(file: string): Promise<void> {
  const db = await openPglite();
  const { close } = await createApp(testConfig(), { db, logger: false });
  await close();
  // a checkpoint first: a dump of the seeded database whose changes are still only in the WAL makes
  // every suite's open replay them (about a quarter of an open's time)
  await db.exec('CHECKPOINT');
  const dump = await db.pglite.dumpDataDir('none');
  await db.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
}

/** How long `work` took, printed when ZS_TEST_PROFILE is set (tests/setup/summary-reporter.ts). */
async function timed<T>(what: string, work: Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work;
  if (process.env.ZS_TEST_PROFILE) console.log(`global setup: ${what} ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * The pictures failing browser tests left in an earlier run. Cleared here, once per run, rather than
 * by each browser file, which would delete the picture of a file that failed before it in this run.
 */
function clearFailurePictures() {
  const shots = join(PROJECT_ROOT, 'tests/e2e/screenshots');
  if (!existsSync(shots)) return;
  for (const f of readdirSync(shots)) if (f.startsWith('failed-')) rmSync(join(shots, f));
}

export default async function setup(project: TestProject) {
  clearFailurePictures();
  const dir = mkdtempSync(join(tmpdir(), 'zs-template-'));
  const file = join(dir, 'template.tar');
  // both seeds at once: the embedded one is this process's CPU, the other is half PostgreSQL's
  const [embedded, postgres] = await timed(
    'both seeded',
    Promise.allSettled([
      timed('embedded database seeded', pgliteTemplate(file)),
      findPostgres().then(async (url) => ({
        url,
        template: url ? await timed('PostgreSQL template seeded', postgresTemplate(url)) : undefined,
      })),
    ]),
  );
  if (embedded.status === 'rejected' || postgres.status === 'rejected') {
    rmSync(dir, { recursive: true, force: true });
    if (postgres.status === 'fulfilled') await postgres.value.template?.drop().catch(() => undefined);
    throw embedded.status === 'rejected' ? embedded.reason : (postgres as PromiseRejectedResult).reason;
  }
  const { url: postgresUrl, template } = postgres.value;
  project.provide('pgliteTemplate', file);
  project.provide('postgresUrl', postgresUrl);
  project.provide('postgresTemplate', template?.name ?? '');
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await template?.drop();
  };
}
