// The administration calls of the admin dialogs and dictionary pages, answered in memory over the
// records of createFakeHttp (renderers/testing/fake-http.ts), in the server's shapes: grant trees,
// granted keys, role / top-menu / user grants, tenant settings, dictionary parents and children.
// Every other call goes to the generic fake, and all calls land in the same `calls` list.
import { forest } from '../../../engine/tree/forest.ts';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import { ApiError } from '../../api/http.ts';
import { createFakeHttp, type FakeHttp, type FakeHttpOptions } from '../../renderers/testing/fake-http.ts';
import type { GrantNode } from '../tree.ts';

type Row = Record<string, any>;
type Params = Record<string, string | number | boolean | undefined | null> | undefined;
export type GrantKeys = { menu: string[]; dataScope: string[]; apiScope: string[] };

export interface FakeAdminHttp extends FakeHttp {
  /** Keys granted per role id (role-tree-keys answers their union). */
  roleGrants: Map<string, GrantKeys>;
  /** Menus shown per top menu id. */
  topMenuGrants: Map<string, string[]>;
}

const SYSTEM = '/api/blade-system';

function nodes(rows: Row[], title: (r: Row) => string, parent: (r: Row) => string): GrantNode[] {
  return forest(rows.map((r) => ({ id: String(r.id), parentId: parent(r), title: title(r) })));
}

export function createFakeAdminHttp(catalog: EntityCatalog, options: FakeHttpOptions = {}): FakeAdminHttp {
  const fake = createFakeHttp(catalog, options);
  const roleGrants = new Map<string, GrantKeys>();
  const topMenuGrants = new Map<string, string[]>();
  const table = (key: string) => fake.tables.get(key) ?? [];
  const menuTree = (rows: Row[]) =>
    nodes(
      rows,
      (r) => String(r.name),
      (r) => String(r.parentId),
    );

  /** Menus owning scope rules (with their ancestors), the rules hung under them. */
  const scopeTree = (entity: 'dataScope' | 'apiScope') => {
    const menus = table('menu');
    const rules = table(entity);
    const keep = new Set<string>();
    for (const rule of rules)
      for (let m = menus.find((x) => x.id === rule.menuId); m && !keep.has(m.id); m = menus.find((x) => x.id === m!.parentId))
        keep.add(m.id);
    const menuNodes = menus
      .filter((m) => keep.has(m.id))
      .map((m) => ({ id: String(m.id), parentId: String(m.parentId), title: String(m.name) }));
    return forest([...menuNodes, ...rules.map((r) => ({ id: String(r.id), parentId: String(r.menuId), title: String(r.scopeName) }))]);
  };

  const union = (grants: Map<string, GrantKeys>, ids: string[]): GrantKeys => {
    const out: GrantKeys = { menu: [], dataScope: [], apiScope: [] };
    for (const id of ids) for (const kind of ['menu', 'dataScope', 'apiScope'] as const) out[kind].push(...(grants.get(id)?.[kind] ?? []));
    return { menu: [...new Set(out.menu)], dataScope: [...new Set(out.dataScope)], apiScope: [...new Set(out.apiScope)] };
  };

  const get = async (url: string, q: Record<string, string>): Promise<any> => {
    switch (url) {
      case `${SYSTEM}/menu/grant-tree`:
        return { menu: menuTree(table('menu')), dataScope: scopeTree('dataScope'), apiScope: scopeTree('apiScope') };
      case `${SYSTEM}/menu/role-tree-keys`:
        return union(roleGrants, q.roleIds.split(','));
      case `${SYSTEM}/menu/grant-top-tree`:
        return { menu: menuTree(table('menu').filter((m) => Number(m.category) === 1)) };
      case `${SYSTEM}/menu/top-tree-keys`:
        return { menu: [...new Set(q.topMenuIds.split(',').flatMap((id) => topMenuGrants.get(id) ?? []))] };
      case `${SYSTEM}/role/tree`:
        return nodes(
          table('role'),
          (r) => String(r.roleName),
          (r) => String(r.parentId),
        );
      case `${SYSTEM}/tenant/package-detail`: {
        const tenant = table('tenant').find((t) => t.tenantId === q.tenantId);
        return structuredClone(table('tenantPackage').find((p) => tenant && p.id === tenant.packageId) ?? {});
      }
      case `${SYSTEM}/dict/parent-list`:
      case `${SYSTEM}/dict-biz/parent-list`:
      case `${SYSTEM}/dict/child-list`:
      case `${SYSTEM}/dict-biz/child-list`: {
        const searched = ['code', 'dictValue'].filter((f) => q[f]);
        const rows = table(url.includes('dict-biz') ? 'dictBiz' : 'dict')
          .filter((r) => String(r.parentId) === (url.endsWith('child-list') ? q.parentId : '0'))
          .filter((r) => searched.every((f) => String(r[f] ?? '').includes(q[f])));
        return { records: structuredClone(rows), total: rows.length, size: rows.length, current: 1, pages: 1 };
      }
      default:
        return undefined;
    }
  };

  const post = async (url: string, json: unknown, q: Record<string, string>): Promise<any> => {
    const body = (json ?? {}) as Record<string, string[]>;
    switch (url) {
      case `${SYSTEM}/role/grant`:
        for (const id of body.roleIds) roleGrants.set(id, { menu: body.menuIds, dataScope: body.dataScopeIds, apiScope: body.apiScopeIds });
        return null;
      case `${SYSTEM}/topmenu/grant`:
        for (const id of body.topMenuIds) topMenuGrants.set(id, body.menuIds);
        return null;
      case `${SYSTEM}/user/grant`:
        for (const user of table('user').filter((u) => q.userIds.split(',').includes(u.id))) user.roleId = q.roleIds;
        return null;
      case `${SYSTEM}/user/reset-password`:
      case `${SYSTEM}/user/unlock`:
        return null;
      case `${SYSTEM}/tenant/setting`:
        for (const tenant of table('tenant').filter((t) => q.ids.split(',').includes(t.id)))
          Object.assign(tenant, { accountNumber: Number(q.accountNumber), expireTime: q.expireTime || null });
        return null;
      case `${SYSTEM}/tenant/package-setting`:
        for (const tenant of table('tenant').filter((t) => t.tenantId === q.tenantId)) tenant.packageId = q.packageId || null;
        return null;
      case `${SYSTEM}/tenant/datasource`:
        for (const tenant of table('tenant').filter((t) => t.tenantId === q.tenantId)) tenant.datasourceId = q.datasourceId || null;
        return null;
      default:
        return undefined;
    }
  };

  /** Records the call like the generic fake does, with its latency and failure options. */
  const answerAdmin = async (method: 'get' | 'post', url: string, params: Params, json?: unknown) => {
    fake.calls.push({ method, url, params, body: json });
    if (options.hang) await new Promise(() => undefined);
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    if (options.failWith) throw new ApiError(500, options.failWith, null);
    const q = Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, v === undefined || v === null ? '' : String(v)]));
    return method === 'get' ? get(url, q) : post(url, json, q);
  };

  const ADMIN_URLS = [
    'menu/grant-tree',
    'menu/role-tree-keys',
    'menu/grant-top-tree',
    'menu/top-tree-keys',
    'role/tree',
    'role/grant',
    'topmenu/grant',
    'user/grant',
    'user/reset-password',
    'user/unlock',
    'tenant/setting',
    'tenant/package-detail',
    'tenant/package-setting',
    'tenant/datasource',
    'dict/parent-list',
    'dict/child-list',
    'dict-biz/parent-list',
    'dict-biz/child-list',
  ].map((u) => `${SYSTEM}/${u}`);

  return {
    ...fake,
    roleGrants,
    topMenuGrants,
    get: (url, params) => (ADMIN_URLS.includes(url) ? answerAdmin('get', url, params) : fake.get(url, params)),
    post: (url, json, opts) => (ADMIN_URLS.includes(url) ? answerAdmin('post', url, opts?.searchParams, json) : fake.post(url, json, opts)),
  };
}
