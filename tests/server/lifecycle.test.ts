// Starting and restarting: a second start re-opens the data as it was; tables follow the schemas
// additively; a destructive change is refused unless a migration makes it.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { createApp } from '../../src/server/app.ts';
import { isWidening, SchemaSyncError, syncSchema } from '../../src/server/db/sync.ts';
import { seedRegions } from '../../src/server/modules/system/regions.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, type TestServer } from './harness.ts';
import { project } from './fixtures.ts';

/** A first start initialises and seeds a database: seconds on a quiet machine, minutes on a loaded one. */
const FIRST_START = 600_000;

describe('restart on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'zs-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    're-opens existing data: nothing lost, nothing seeded twice',
    async () => {
      const config = testConfig({ dataDir });
      const first = await createApp(config, { logger: false });
      const token = await first.tokens.sign({ tenant_id: '000000', user_id: '1', role_name: 'administrator' });
      const created = await project(client(first as TestServer, token), { name: '重启后仍在的项目' });
      const dictRows = (await first.db.query('SELECT count(*)::int AS n FROM blade_dict'))[0].n;
      const regions = async (db: typeof first.db) => (await db.query('SELECT count(*)::int AS n FROM blade_region'))[0].n as number;
      const seededRegions = await regions(first.db);
      expect(seededRegions).toBeGreaterThan(3000);
      // an installation from before the regions were seeded
      await first.db.query('DELETE FROM blade_region');
      // and from before the report list and the top menus moved to the platform's view paths; a
      // tenant pointed its data-scope entry elsewhere
      await first.db.query(`UPDATE blade_menu SET path = '/report/report' WHERE code = 'report' AND category = 1`);
      await first.db.query(`UPDATE blade_menu SET path = '/system/topMenu' WHERE code = 'topmenu' AND category = 1`);
      await first.db.query(`UPDATE blade_menu SET path = '/custom/scopes' WHERE code = 'data_scope' AND category = 1`);
      await first.close();

      const second = await createApp(config, { logger: false });
      try {
        expect(second.sync.created).toEqual([]);
        const api = client(second as TestServer, token); // same signing key: the old token still works
        const res = await api.get('/api/construct/project/detail', { id: created.id });
        expect(res.body.data.name).toBe('重启后仍在的项目');
        expect((await second.db.query('SELECT count(*)::int AS n FROM blade_dict'))[0].n).toBe(dictRows);
        expect(await regions(second.db)).toBe(seededRegions);
        const paths = await second.db.query<{ code: string; path: string }>(
          `SELECT code, path FROM blade_menu WHERE code IN ('report', 'topmenu', 'data_scope') AND category = 1 ORDER BY code`,
        );
        expect(paths).toEqual([
          { code: 'data_scope', path: '/custom/scopes' },
          { code: 'report', path: '/report/reportlist' },
          { code: 'topmenu', path: '/system/topmenu' },
        ]);
        // regions an administrator keeps are never added to
        await second.db.query('DELETE FROM blade_region');
        await api.post('/api/blade-system/region/save', { code: '99', parentCode: '00', name: '自设区域', regionLevel: '1', sort: 1 });
        expect(await seedRegions(second.db)).toBe(0);
        expect(await regions(second.db)).toBe(1);
      } finally {
        await second.close();
      }
    },
    FIRST_START,
  );
});

/** Removes a property and every mention of it, as an author deleting a field would. */
function dropField(schema: any, name: string) {
  delete schema.properties[name];
  for (const section of schema['x-layout']?.sections ?? []) section.fields = section.fields.filter((f: string) => f !== name);
  schema['x-list'].columns = schema['x-list'].columns.filter((c: string) => c !== name);
}

describe.each(databaseKinds())('schema sync on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  function sourceWith(change: (files: Record<string, any>) => void) {
    const source = structuredClone(readSchemaSource());
    change(source.files);
    return compile(source).catalog;
  }

  /** A database whose tables match the unchanged schemas. */
  async function freshDb() {
    const { db, drop } = await openTestDb(kind);
    cleanups.push(drop);
    await syncSchema(db, compile(readSchemaSource()).catalog, '/nonexistent');
    return db;
  }

  it('adds a new field as a column and widens a longer one', async () => {
    const db = await freshDb();
    const catalog = sourceWith((files) => {
      const p = files['schemas/construct/project.schema.json'];
      p.properties.bidNo = {
        type: 'string',
        maxLength: 40,
        title: '中标通知书编号',
        'x-i18n': { title: 'Bid notice no.' },
        'x-db': { index: true },
      };
      p.properties.shortName.maxLength = 80;
    });
    const report = await syncSchema(db, catalog, '/nonexistent');
    expect(report.altered).toEqual(expect.arrayContaining(['construct_project.bid_no', 'construct_project.short_name']));
    const cols = await db.query(
      `SELECT column_name, character_maximum_length AS len FROM information_schema.columns WHERE table_name = 'construct_project' AND column_name IN ('bid_no', 'short_name') ORDER BY column_name`,
    );
    expect(cols).toEqual([
      { column_name: 'bid_no', len: 40 },
      { column_name: 'short_name', len: 80 },
    ]);
    const again = await syncSchema(db, catalog, '/nonexistent');
    expect(again.altered).toEqual([]);
  });

  it('keeps a field unique within others by a partial unique index; records from before that break it leave the start going without it', async () => {
    const db = await freshDb();
    const catalog = compile(readSchemaSource()).catalog;
    const INDEX = 'blade_dict_parent_id_code_uq';
    const indexes = async () =>
      (await db.query<{ def: string }>(`SELECT indexdef AS def FROM pg_indexes WHERE indexname = $1`, [INDEX])).map((r) => r.def);
    // a dictionary's code once among the live roots (x-db.uniqueWithin, uniqueWhen)
    expect(await indexes()).toEqual([expect.stringMatching(/UNIQUE INDEX .* \(parent_id, code\) WHERE \(\(is_deleted = 0\) AND .*'0'/)]);
    // a copy of the live root 'sex', as an earlier installation could hold it
    const duplicateSex = () =>
      db.transaction(async (tx) => {
        await tx.query(
          `CREATE TEMP TABLE sex_copy ON COMMIT DROP AS SELECT * FROM blade_dict WHERE parent_id = 0 AND code = 'sex' AND is_deleted = 0`,
        );
        await tx.query(`UPDATE sex_copy SET id = id + 7`);
        await tx.query(`INSERT INTO blade_dict SELECT * FROM sex_copy`);
      });
    // the database itself refuses it, whatever could slip past the store
    await expect(duplicateSex()).rejects.toThrow(new RegExp(INDEX));

    // an installation from before the rule, with two live roots 'sex'
    await db.query(`DROP INDEX ${INDEX}`);
    await duplicateSex();
    await db.query(`DELETE FROM zs_setting WHERE key = 'schema.fingerprint'`);
    const started = await syncSchema(db, catalog, '/nonexistent');
    expect(started.skippedIndexes).toEqual([{ name: INDEX, reason: expect.stringContaining('sex') }]);
    expect(await indexes()).toEqual([]);
    // once the duplicate is gone, the next start makes the index
    await db.query(
      `UPDATE blade_dict SET is_deleted = 1 WHERE parent_id = 0 AND code = 'sex' AND id = (SELECT max(id) FROM blade_dict WHERE parent_id = 0 AND code = 'sex')`,
    );
    expect((await syncSchema(db, catalog, '/nonexistent')).skippedIndexes).toEqual([]);
    expect(await indexes()).toHaveLength(1);
    expect((await syncSchema(db, catalog, '/nonexistent')).skippedIndexes).toEqual([]);
  });

  it('refuses a dropped or narrowed column, naming it', async () => {
    const db = await freshDb();
    const dropped = sourceWith((files) => {
      dropField(files['schemas/construct/project.schema.json'], 'structureType');
    });
    await expect(syncSchema(db, dropped, '/nonexistent')).rejects.toThrow(SchemaSyncError);
    await expect(syncSchema(db, dropped, '/nonexistent')).rejects.toThrow(
      /construct_project\.structure_type: the column is in the database but no longer in the model/,
    );
    const narrowed = sourceWith((files) => {
      files['schemas/construct/project.schema.json'].properties.name.maxLength = 10;
    });
    await expect(syncSchema(db, narrowed, '/nonexistent')).rejects.toThrow(
      /construct_project\.name: the model says varchar\(10\), the database has varchar\(100\)/,
    );
  });

  it('accepts the change once a migration makes it', async () => {
    const db = await freshDb();
    const dir = mkdtempSync(join(tmpdir(), 'zs-migrations-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, '2026-11-22-drop-structure-type.sql'),
      '-- structure type moves to the engineering module\nALTER TABLE construct_project DROP COLUMN structure_type;\n',
    );
    const dropped = sourceWith((files) => {
      dropField(files['schemas/construct/project.schema.json'], 'structureType');
    });
    const report = await syncSchema(db, dropped, dir);
    expect(report.migrations).toEqual(['2026-11-22-drop-structure-type.sql']);
    expect((await syncSchema(db, dropped, dir)).migrations).toEqual([]);
  });
});

describe('column widening rules', () => {
  it('knows which type changes keep every value', () => {
    expect(isWidening('varchar(50)', 'varchar(100)')).toBe(true);
    expect(isWidening('varchar(50)', 'text')).toBe(true);
    expect(isWidening('varchar(50)', 'varchar(20)')).toBe(false);
    expect(isWidening('numeric(18,2)', 'numeric(20,4)')).toBe(true);
    expect(isWidening('numeric(18,4)', 'numeric(18,2)')).toBe(false);
    expect(isWidening('numeric(18,2)', 'numeric(18,4)')).toBe(false);
    expect(isWidening('integer', 'bigint')).toBe(true);
    expect(isWidening('bigint', 'integer')).toBe(false);
    expect(isWidening('date', 'varchar(10)')).toBe(false);
  });
});
