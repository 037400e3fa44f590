// The server test harness: the same suites run on the embedded database (a copy of the seeded
// template) and, when a PostgreSQL server is found (TEST_DATABASE_URL, or one on 127.0.0.1:5432), on a
// database of that server copied from the template seeded the same way (tests/setup/global.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { CATCH_ALL } from '../../src/server/http/route-table.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres, type PostgresOptions } from '../../src/server/db/postgres.ts';
import type { Db } from '../../src/server/db/db.ts';
import type { Config } from '../../src/server/config.ts';
import type { Claims } from '../../src/server/security/tokens.ts';
import { testConfig } from './config.ts';

export type DbKind = 'pglite' | 'postgres';

/** The databases this run covers. */
export function databaseKinds(): DbKind[] {
  return inject('postgresUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestServer extends App {
  kind: DbKind;
  /** A token as login would issue it; by default the platform administrator's. */
  token(claims?: Partial<Claims>): Promise<string>;
  /** Creates a tenant through the API (as the platform administrator) and returns its admin's token. */
  newTenant(name?: string): Promise<{ tenantId: string; token: string; adminId: string; roleId: string }>;
  dispose(): Promise<void>;
}

/**
 * A new database on the test PostgreSQL server, empty or (seeded: true) a copy of the seeded template:
 * its URL, and how to drop it (closing its connections).
 */
export async function createTestDatabase(options: { seeded?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('postgresUrl');
  const template = options.seeded ? inject('postgresTemplate') : '';
  if (options.seeded && !template)
    throw new Error("no seeded PostgreSQL template: the integration project's global setup makes it (tests/setup/global.ts)");
  const name = `zs_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function freshPostgres(options: PostgresOptions = {}, seeded = true): Promise<{ db: Db; drop: () => Promise<void> }> {
  const { url, drop } = await createTestDatabase({ seeded });
  const db = await openPostgres(url, { max: 5, ...options });
  return {
    db,
    drop: async () => {
      await db.close();
      await drop();
    },
  };
}

/**
 * A database for one suite, seeded as createApp seeds a new installation (testConfig()), on either
 * kind; `{ empty: true }` for one that createApp has never seen. `postgres` options (pool size,
 * statement timeout) apply to PostgreSQL only.
 */
export async function openTestDb(
  kind: DbKind,
  postgres: PostgresOptions = {},
  options: { empty?: boolean } = {},
): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'postgres') return freshPostgres(postgres, !options.empty);
  if (options.empty) {
    const db = await openPglite();
    return { db, drop: () => db.close() };
  }
  const db = await openPglite(undefined, { loadDataDir: seededTemplate() });
  return { db, drop: () => db.close() };
}

let templateBytes: Buffer | undefined;

/**
 * The run's seeded embedded database (tests/setup/global.ts), as PGlite's loadDataDir takes it.
 * Node's own Blob hands out its bytes in small chunks that arrayBuffer() joins again: for the 70 MB
 * template about a second of CPU per suite on a busy machine. This one copies the file's bytes, read
 * once per process.
 */
export function seededTemplate(): Blob {
  templateBytes ??= readFileSync(inject('pgliteTemplate'));
  return new BytesBlob(templateBytes);
}

class BytesBlob extends Blob {
  constructor(private readonly content: Uint8Array) {
    super();
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(new Uint8Array(this.content).buffer);
  }
}

export async function startServer(kind: DbKind, config: Partial<Config> = {}): Promise<TestServer> {
  const { db, drop } = await openTestDb(kind);
  const app = await createApp(testConfig(config), { db, logger: false });
  const token = (claims: Partial<Claims> = {}) =>
    app.tokens.sign({
      tenant_id: '000000',
      user_id: '1123598821738675201',
      dept_id: '1123598813738675201',
      role_name: 'administrator',
      ...claims,
    });
  let tenants = 0;
  return {
    ...app,
    kind,
    token,
    async newTenant(name = `测试租户${++tenants}`) {
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/blade-system/tenant/save',
        payload: { tenantName: name, linkman: '测试', accountNumber: -1 },
        headers: { 'blade-auth': `bearer ${await token()}` },
      });
      const body = JSON.parse(res.body);
      if (body.code !== 200) throw new Error(`tenant not created: ${res.body}`);
      const tenantId = body.data.tenantId as string;
      const [admin] = await app.db.query(
        `SELECT id::text AS id, role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`,
        [tenantId],
      );
      const adminToken = await app.tokens.sign({
        tenant_id: tenantId,
        user_id: admin.id,
        dept_id: admin.deptId,
        role_id: admin.roleId,
        role_name: 'admin',
      });
      return { tenantId, token: adminToken, adminId: admin.id, roleId: admin.roleId };
    },
    async dispose() {
      await app.close();
      await drop();
    },
  };
}

export interface Answer<T = any> {
  status: number;
  body: { code: number; success: boolean; data: T; msg: string };
  headers: Record<string, unknown>;
  raw: Buffer;
}

/** A small client for app.inject with the platform's conventions. */
export function client(server: TestServer, token?: string, lang?: 'zh' | 'en') {
  const headers = (): Record<string, string> => ({
    ...(token ? { 'blade-auth': `bearer ${token}` } : {}),
    ...(lang ? { 'accept-language': lang } : {}),
  });
  const answer = (res: { statusCode: number; body: string; headers: Record<string, unknown>; rawPayload: Buffer }): Answer => {
    let body: any = null;
    try {
      body = JSON.parse(res.body);
    } catch {
      body = null;
    }
    return { status: res.statusCode, body, headers: res.headers, raw: res.rawPayload };
  };
  return {
    async get(url: string, query: Record<string, string> = {}) {
      return answer(await server.app.inject({ method: 'GET', url, query, headers: headers() }));
    },
    async post(url: string, payload?: unknown, query: Record<string, string> = {}) {
      return answer(
        await server.app.inject({
          method: 'POST',
          url,
          query,
          payload: payload as any,
          headers: { ...headers(), ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
        }),
      );
    },
  };
}

/** A client of the test server, as `client()` makes it. */
export type Api = ReturnType<typeof client>;

/** A node of a tree answer (menu/grant-tree, …), found by its title at any depth. */
export interface TreeNode {
  id: string;
  title: string;
  children?: TreeNode[];
}
export function findNode(nodes: TreeNode[], title: string): TreeNode | undefined {
  for (const n of nodes) {
    if (n.title === title) return n;
    const hit = n.children && findNode(n.children, title);
    if (hit) return hit;
  }
  return undefined;
}

/** A new role of the tenant `admin` administers and a user of it (in `deptId`, when given), with the user's client. */
export async function roleMember(server: TestServer, admin: Api, tenantId: string, deptId = ''): Promise<{ roleId: string; api: Api }> {
  const alias = `r${Math.random().toString(36).slice(2, 10)}`;
  const role = await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: alias, roleAlias: alias, sort: 9 });
  expect(role.body.code, JSON.stringify(role.body)).toBe(200);
  const user = await admin.post('/api/blade-system/user/save', {
    account: alias,
    password: 'secret1',
    name: alias,
    realName: alias,
    roleId: role.body.data.id,
    ...(deptId && { deptId }),
    status: 1,
  });
  expect(user.body.code, JSON.stringify(user.body)).toBe(200);
  const token = await server.tokens.sign({
    tenant_id: tenantId,
    user_id: user.body.data.id,
    dept_id: deptId,
    role_id: role.body.data.id,
    role_name: alias,
  });
  return { roleId: role.body.data.id, api: client(server, token) };
}

/** Makes a role's grants these menus and buttons (by code) and data-scope rules, as the grant dialog's save does. */
export async function grantRole(server: TestServer, admin: Api, roleId: string, codes: string[], dataScopeIds: string[] = []) {
  const menus = await server.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [codes]);
  const res = await admin.post('/api/blade-system/role/grant', {
    roleIds: [roleId],
    menuIds: menus.map((m) => m.id),
    dataScopeIds,
    apiScopeIds: [],
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
}

/**
 * Every API route the app answers, as [method, path] (HEAD left out: every GET answers it): Fastify's
 * own routes from its listing ("/api/x/list (GET, HEAD)"), and the generic routes of the document
 * types from their table, in place of the catch-all they answer behind.
 */
export function apiRoutes(server: App): Array<[method: string, path: string]> {
  const listing = server.app.printRoutes({ commonPrefix: false, includeHooks: false });
  const own = [...listing.matchAll(/(\/api\/\S*) \(([A-Z, ]+)\)/g)]
    .filter((m) => m[1] !== CATCH_ALL)
    .flatMap((m) =>
      m[2]
        .split(', ')
        .filter((method) => method !== 'HEAD')
        .map((method): [string, string] => [method, m[1]]),
    );
  const generic = server.routes.list().map((route): [string, string] => {
    const [method, path] = route.split(' ');
    return [method, path];
  });
  return [...own, ...generic];
}
