// A first start that fails half-way through its seed leaves nothing the next start keeps: the next
// start on the same database clears what was seeded, seeds again from scratch and comes up as a
// normal first start does (issue #22: it used to come up half-seeded, and logins failed with
// invalid_client). The fault is thrown from the seed's progress callback, after half of its steps,
// or the server process is killed (SIGKILL) once it says it is half-way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { clientHash } from '../../src/server/security/passwords.ts';
import { RESEEDED_NOTE } from '../../src/server/seed/seed.ts';
import { httpApi, killServerAt, loginAs, spawnServer, type ChildServer } from './child-server.ts';
import { testConfig } from './config.ts';
import { createTestDatabase, databaseKinds, openTestDb, type DbKind } from './harness.ts';

const SABER = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** Each test starts the app twice, seeding the basic demo both times. */
const STARTS_TIMEOUT = 240_000;

/** Rows of every table in the database's schema, by table. */
async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
    counts[name] = row.n;
  }
  return counts;
}

const rows = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe.each(databaseKinds())('a failed first start on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let normal: { db: Db; drop: () => Promise<void> };

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind, {}, { empty: true }));
    // a database seeded by a normal first start, to compare with
    normal = await openTestDb(kind);
  });
  afterAll(async () => {
    await drop?.();
    await normal?.drop();
  });

  it(
    'leaves a database the next start seeds again from scratch, as a normal first start does',
    async () => {
      let total = 0;
      const failed = createApp(testConfig(), {
        db,
        logger: false,
        onSeedProgress: (done, steps) => {
          total = steps;
          if (done === Math.floor(steps / 2)) throw new Error('injected fault half-way through the seed');
        },
      });
      await expect(failed).rejects.toThrow('injected fault half-way through the seed');
      // it did die half-way: some of the seed is there, not all
      const half = await tableCounts(db);
      expect(total).toBeGreaterThan(10);
      expect(half.blade_user).toBeGreaterThan(0);
      expect(rows(half)).toBeLessThan(rows(await tableCounts(normal.db)));

      const app = await createApp(testConfig(), { db, logger: false });
      try {
        expect(app.startup.notes).toContain(RESEEDED_NOTE);
        // every table holds what a normal first start leaves, no more and no less
        expect(await tableCounts(db)).toEqual(await tableCounts(normal.db));
        const [marker] = await db.query(`SELECT value FROM zs_setting WHERE key = 'seed.version'`);
        expect(marker.value).toBe('1');

        // the administrator signs in with the seeded web client and sees the demo projects
        const login = await app.app.inject({
          method: 'POST',
          url: '/api/blade-auth/oauth/token',
          query: { tenantId: '000000', username: 'admin', password: clientHash('admin'), grant_type: 'password', scope: 'all' },
          headers: { authorization: SABER, 'tenant-id': '000000' },
        });
        const token = JSON.parse(login.body).access_token;
        expect(token, login.body).toBeTruthy();
        const projects = await app.app.inject({
          method: 'GET',
          url: '/api/construct/project/list',
          headers: { 'blade-auth': `bearer ${token}` },
        });
        const body = JSON.parse(projects.body);
        expect(body.code).toBe(200);
        expect(body.data.total).toBe((await tableCounts(normal.db)).construct_project);
      } finally {
        await app.close();
      }

      // and the start after that is a plain restart: nothing seeded again
      const again = await createApp(testConfig(), { db, logger: false });
      await again.close();
      expect(again.startup.notes).not.toContain(RESEEDED_NOTE);
      expect(await tableCounts(db)).toMatchObject({ blade_user: (await tableCounts(normal.db)).blade_user });
    },
    STARTS_TIMEOUT,
  );
});

/** A place for a child server's data that no start has seen: an empty data directory or PostgreSQL database. */
async function emptyDataPlace(kind: DbKind): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const { url, drop } = await createTestDatabase();
    return { env: { DATABASE_URL: url }, cleanup: drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'zs-first-start-'));
  return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

describe.each(databaseKinds())('a first start killed while seeding on %s', (kind) => {
  it(
    'leaves data the next start seeds again, then the administrator signs in and finds the demo',
    async () => {
      const place = await emptyDataPlace(kind);
      let server: ChildServer | undefined;
      try {
        await killServerAt(place.env, /first start, seeding the database: 50 %/);
        server = await spawnServer(place.env);
        await expect.poll(() => server!.output()).toContain(RESEEDED_NOTE);
        const api = httpApi(server.url, await loginAs(server.url));
        const projects = await api.get('/api/construct/project/list');
        expect(projects.code).toBe(200);
        // the basic demo's projects, each once: as many as a normal first start seeds
        const normal = await openTestDb(kind);
        try {
          expect(projects.data.total).toBe((await tableCounts(normal.db)).construct_project);
        } finally {
          await normal.drop();
        }
      } finally {
        server?.proc.kill('SIGTERM');
        await server?.exited;
        await place.cleanup();
      }
    },
    STARTS_TIMEOUT,
  );
});
