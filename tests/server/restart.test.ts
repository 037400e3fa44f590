// A restart on existing data does not check the schema set again when the same engine checked the
// same set before (src/server/schema-checks.ts): the operator sees it on the ready line. A set that
// changed is checked again, so a broken one still refuses to start, naming its file.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { SKIPPED_CHECKS_NOTE } from '../../src/server/schema-checks.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { testConfig } from './config.ts';
import { databaseKinds, openTestDb } from './harness.ts';

const BROKEN_FILE = 'schemas/construct/project.schema.json';

/** The installation's schema set, with one unknown keyword on a property of BROKEN_FILE. */
function brokenSchemaCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zs-restart-schemas-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'entities.manifest.json'), join(dir, 'entities.manifest.json'));
  const schema = JSON.parse(readFileSync(join(dir, BROKEN_FILE), 'utf8'));
  const [first] = Object.keys(schema.properties);
  schema.properties[first]['x-colour'] = 'red';
  writeFileSync(join(dir, BROKEN_FILE), JSON.stringify(schema));
  return dir;
}

/** Each test starts the app two or three times. */
const STARTS_TIMEOUT = 240_000;

describe.each(databaseKinds())('restarts on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let schemaDir: string;

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    schemaDir = brokenSchemaCopy();
  });
  afterAll(async () => {
    await drop?.();
    rmSync(schemaDir, { recursive: true, force: true });
  });

  async function start(config = testConfig()) {
    const app = await createApp(config, { db, logger: false });
    const health = await app.app.inject({ method: 'GET', url: '/api/health' });
    await app.close();
    return { ready: app.startup.toString(), status: health.statusCode };
  }

  it(
    'checks the schema set once, then restarts without checking it again',
    async () => {
      await db.query(`DELETE FROM zs_setting WHERE key = 'schema.checked'`);
      const first = await start();
      expect(first.status).toBe(200);
      expect(first.ready).not.toContain(SKIPPED_CHECKS_NOTE);
      const second = await start();
      expect(second.status).toBe(200);
      expect(second.ready).toContain(SKIPPED_CHECKS_NOTE);
      expect(second.ready).toMatch(/^open \d+, schemas \d+, sync \d+/);
    },
    STARTS_TIMEOUT,
  );

  it(
    'checks a changed schema set again: a broken one refuses to start, naming its file',
    async () => {
      expect((await start()).ready).toContain(SKIPPED_CHECKS_NOTE);
      await expect(createApp(testConfig({ schemaDir }), { db, logger: false })).rejects.toThrow(/project\.schema\.json[\s\S]*x-colour/);
      // the database still serves the set it had
      expect((await start()).ready).toContain(SKIPPED_CHECKS_NOTE);
    },
    STARTS_TIMEOUT,
  );
});
