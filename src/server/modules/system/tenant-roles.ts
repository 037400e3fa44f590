// A new tenant's business roles. The default processes hand their tasks to roles by alias
// (project_manager, cost_manager …); a tenant holding only its administrator role would start
// processes that reach nobody. So a new tenant gets a copy of the platform tenant's role subtrees
// holding those roles (业务人员 and its children as seeded), with the same menu and scope grants,
// limited to the menus of the tenant's package.
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { Queryable } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { EntityStore, PLATFORM_TENANT, type StoreContext } from '../../db/store.ts';

interface RoleRow {
  id: string;
  parentId: string;
  roleName: string;
  roleAlias: string;
  sort: number | null;
}

/** The platform roles to copy: whole top-level subtrees that hold one of `aliases`, parents first. */
export function subtreesHolding(roles: readonly RoleRow[], aliases: readonly string[]): RoleRow[] {
  const byId = new Map(roles.map((r) => [r.id, r]));
  const rootOf = (role: RoleRow): RoleRow => {
    const seen = new Set<string>();
    let current = role;
    while (byId.has(current.parentId) && !seen.has(current.id)) {
      seen.add(current.id);
      current = byId.get(current.parentId)!;
    }
    return current;
  };
  const wanted = new Set(aliases);
  const roots = new Set(roles.filter((r) => wanted.has(r.roleAlias)).map((r) => rootOf(r).id));
  const out: RoleRow[] = [];
  const walk = (id: string) => {
    out.push(byId.get(id)!);
    for (const child of roles.filter((r) => r.parentId === id)) walk(child.id);
  };
  for (const id of roots) walk(id);
  return out;
}

/**
 * Copies the platform's roles named by `aliases` (with their subtrees) into `ctx`'s tenant, with
 * their grants restricted to `menuIds` (the tenant's package). Runs inside the tenant's creation.
 */
export async function copyBusinessRoles(
  ctx: StoreContext,
  tx: Queryable,
  tenantId: string,
  aliases: readonly string[],
  menuIds: readonly string[],
) {
  if (!aliases.length) return;
  const { role } = ctx.catalog.entities;
  const roles = await tx.query<RoleRow>(
    `SELECT id::text AS id, parent_id::text AS "parentId", role_name AS "roleName", role_alias AS "roleAlias", sort
       FROM ${q(role.table)} WHERE tenant_id = $1 AND is_deleted = 0 ORDER BY sort, id`,
    [PLATFORM_TENANT],
  );
  const store = new EntityStore(ctx, role, { tenantId, userId: '0', deptId: null, lang: 'zh' });
  const copies = new Map<string, string>();
  for (const source of subtreesHolding(roles, aliases)) {
    const created = await store.create({
      parentId: copies.get(source.parentId) ?? '0',
      roleName: source.roleName,
      roleAlias: source.roleAlias,
      sort: source.sort ?? 1,
    });
    copies.set(source.id, created.id);
  }
  for (const [from, to] of copies) await copyGrants(tx, ctx.catalog, tenantId, from, to, menuIds);
}

async function copyGrants(tx: Queryable, catalog: EntityCatalog, tenantId: string, from: string, to: string, menuIds: readonly string[]) {
  await tx.query(
    `INSERT INTO blade_role_menu (role_id, menu_id, tenant_id)
     SELECT $1, menu_id, $2 FROM blade_role_menu WHERE role_id = $3 AND tenant_id = $4 AND menu_id = ANY($5::bigint[]) ON CONFLICT DO NOTHING`,
    [to, tenantId, from, PLATFORM_TENANT, menuIds],
  );
  // scopes belong to menus too (their menu_id): a scope of a menu outside the package is left out
  const scopes = ['dataScope', 'apiScope']
    .map((key) => catalog.entities[key])
    .map((scope) => `SELECT id FROM ${q(scope.table)} WHERE ${q(scope.fieldMap.menuId.column)} = ANY($5::bigint[])`)
    .join(' UNION ');
  await tx.query(
    `INSERT INTO blade_role_scope (role_id, scope_category, scope_id, tenant_id)
     SELECT $1, scope_category, scope_id, $2 FROM blade_role_scope WHERE role_id = $3 AND tenant_id = $4 AND scope_id IN (${scopes}) ON CONFLICT DO NOTHING`,
    [to, tenantId, from, PLATFORM_TENANT, menuIds],
  );
}
