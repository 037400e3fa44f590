// Builds one seeded embedded database before the suite and hands it to every test file as a data
// dump: opening a dump takes a fraction of a second, running initdb and the seed takes several.
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createApp } from '../../src/server/app.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { testConfig } from '../server/config.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
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
  return () => rmSync(dir, { recursive: true, force: true });
}
