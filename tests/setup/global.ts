// Builds one seeded embedded database before the suite and hands it to every test file as a data
// dump: opening a dump takes a fraction of a second, running initdb and the seed takes several.
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createApp } from '../../src/server/app.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { testConfig } from '../server/config.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** A PostgreSQL server the suites also run on ('' when there is none). */
    postgresUrl: string;
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

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'zs-template-'));
  const db = await openPglite();
  const { close } = await createApp(testConfig(), { db, logger: false });
  await close();
  const dump = await db.pglite.dumpDataDir('none');
  await db.close();
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  project.provide('postgresUrl', await findPostgres());
  return () => rmSync(dir, { recursive: true, force: true });
}
