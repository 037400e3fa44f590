// Every start brings the reference data up to the schema set (docs/reference-data.md): what is new is
// added, a changed label reaches the rows nobody edited, and what an administrator edited, deleted or
// took away stays as they left it. Each test restarts the app on the same database with a changed
// copy of the schema set.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { testConfig } from './config.ts';
import { client, databaseKinds, openTestDb, type TestServer } from './harness.ts';

const STARTS_TIMEOUT = 240_000;

/** A copy of the installation's schema set, `change`d. */
function schemaCopy(change: (read: (file: string) => any, write: (file: string, json: unknown) => void) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'zs-reference-'));
  cpSync(join(PROJECT_ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'entities.manifest.json'), join(dir, 'entities.manifest.json'));
  change(
    (file) => JSON.parse(readFileSync(join(dir, file), 'utf8')),
    (file, json) => writeFileSync(join(dir, file), JSON.stringify(json, null, 2)),
  );
  return dir;
}

const ADMIN = { tenant_id: '000000', user_id: '1123598821738675201', dept_id: '1123598813738675201', role_name: 'administrator' };

describe.each(databaseKinds())('reference data on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const dirs: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(async () => {
    await drop?.();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the app on the shared database, runs `use` on it, closes it; answers its ready line. */
  async function started(schemaDir: string | undefined, use: (app: App) => Promise<void> = async () => {}) {
    const app = await createApp(testConfig(schemaDir ? { schemaDir } : {}), { db, logger: false });
    try {
      await use(app);
    } finally {
      await app.close();
    }
    return app.startup.toString();
  }

  const projectTypes = async (tenantId: string) =>
    new Map(
      (
        await db.query<{ key: string; value: string }>(
          `SELECT dict_key AS key, dict_value AS value FROM blade_dict_biz WHERE code = 'project_type' AND parent_id <> 0 AND is_deleted = 0 AND tenant_id = $1`,
          [tenantId],
        )
      ).map((r) => [r.key, r.value]),
    );
  const granted = async (tenantId: string, alias: string) =>
    new Set(
      (
        await db.query<{ code: string }>(
          `SELECT m.code FROM blade_role_menu rm JOIN blade_role r ON r.id = rm.role_id JOIN blade_menu m ON m.id = rm.menu_id
            WHERE r.tenant_id = $1 AND r.role_alias = $2 AND r.is_deleted = 0 AND m.is_deleted = 0`,
          [tenantId, alias],
        )
      ).map((r) => r.code),
    );
  const menuNamed = async (code: string) =>
    (await db.query<{ name: string }>(`SELECT name FROM blade_menu WHERE code = $1 AND is_deleted = 0`, [code]))[0]?.name;

  it(
    'a restart with nothing new declared writes nothing and says nothing',
    async () => {
      const ledger = async () => (await db.query(`SELECT tenant_id, kind, key, hash FROM zs_reference ORDER BY 1, 2, 3`)) as unknown[];
      const before = await ledger();
      expect(before.length).toBeGreaterThan(0);
      expect(await started(undefined)).not.toContain('reference data:');
      expect(await ledger()).toEqual(before);
    },
    STARTS_TIMEOUT,
  );

  it(
    'a changed schema set reaches what nobody edited; what an administrator edited, deleted or took away stays',
    async () => {
      let tenantId = '';
      // before the change: a tenant is created, and the platform's administrator edits, deletes and takes away
      await started(undefined, async (app) => {
        const api = client(app as unknown as TestServer, await app.tokens.sign(ADMIN));
        const created = await api.post('/api/blade-system/tenant/save', { tenantName: '参考数据租户', linkman: '测试', accountNumber: -1 });
        expect(created.body.code).toBe(200);
        tenantId = created.body.data.tenantId;
        const items = (await api.get('/api/blade-system/dict-biz/child-list', { parentId: await rootOf('project_type'), size: '100' })).body
          .data.records as { id: string; dictKey: string }[];
        const byKey = (key: string) => items.find((i) => i.dictKey === key)!;
        const edited = await api.post('/api/blade-system/dict-biz/update', { ...byKey('municipal'), dictValue: '市政工程(本公司)' });
        expect(edited.body.code).toBe(200);
        expect((await api.post('/api/blade-system/dict-biz/remove', undefined, { ids: byKey('railway').id })).body.code).toBe(200);
        // the role dialog's save without 项目立项 查看
        await db.query(
          `DELETE FROM blade_role_menu WHERE role_id IN (SELECT id FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'project_clerk')
             AND menu_id IN (SELECT id FROM blade_menu WHERE code = 'project_view')`,
        );
      });
      const changed = schemaCopy((read, write) => {
        const biz = read('schemas/dictionaries/biz.json');
        const types = biz.dictionaries.find((d: { code: string }) => d.code === 'project_type');
        for (const item of types.items) if (item.key !== 'other') item.value = `${item.value}(新)`;
        types.items.push({ key: 'port', value: '港口航道', en: 'Ports and waterways' });
        biz.dictionaries.push({ code: 'safety_level', name: '安全等级', en: 'Safety level', items: [{ key: 'a', value: '甲', en: 'A' }] });
        write('schemas/dictionaries/biz.json', biz);
        const menus = read('schemas/reference/menus.json');
        menus.menus.find((m: { code: string }) => m.code === 'cost_master').name = '基础数据';
        menus.menus.find((m: { code: string }) => m.code === 'work_done').retired = true;
        write('schemas/reference/menus.json', menus);
        const roles = read('schemas/reference/roles.json');
        roles.roles.push({ alias: 'safety_officer', name: '安全员', parent: 'business', sort: 5 });
        write('schemas/reference/roles.json', roles);
        const grants = read('schemas/reference/grants.json');
        grants.grants.push({ roles: ['project_clerk'], menus: ['flow_follow'] });
        write('schemas/reference/grants.json', grants);
      });
      dirs.push(changed);

      const ready = await started(changed);
      expect(ready).toMatch(/reference data: [^;]*added; \d+ updated; 1 retired/);
      for (const tenant of ['000000', tenantId]) {
        const types = await projectTypes(tenant);
        expect(types.get('building')).toBe('房屋建筑(新)');
        expect(types.get('port')).toBe('港口航道');
        expect(types.get('other')).toBe('其他');
        const [level] = await db.query(
          `SELECT dict_value AS name FROM blade_dict_biz WHERE code = 'safety_level' AND parent_id = 0 AND tenant_id = $1`,
          [tenant],
        );
        expect(level).toEqual({ name: '安全等级' });
        expect(await granted(tenant, 'project_clerk')).toContain('flow_follow');
      }
      const platform = await projectTypes('000000');
      expect(platform.get('municipal')).toBe('市政工程(本公司)');
      expect(platform.has('railway')).toBe(false);
      // the new tenant's own copy was not edited: it follows
      expect((await projectTypes(tenantId)).get('railway')).toBe('铁路(新)');
      expect(await granted('000000', 'project_clerk')).not.toContain('project_view');
      expect(await menuNamed('cost_master')).toBe('基础数据');
      expect(await menuNamed('work_done')).toBeUndefined();
      const [officer] = await db.query(
        `SELECT role_name AS name FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'safety_officer' AND is_deleted = 0`,
      );
      expect(officer).toEqual({ name: '安全员' });

      // and the next start with the same set has nothing to do
      expect(await started(changed)).not.toContain('reference data:');
    },
    STARTS_TIMEOUT,
  );

  async function rootOf(code: string): Promise<string> {
    const [root] = await db.query<{ id: string }>(
      `SELECT id::text AS id FROM blade_dict_biz WHERE code = $1 AND parent_id = 0 AND tenant_id = '000000' AND is_deleted = 0`,
      [code],
    );
    return root.id;
  }
});
