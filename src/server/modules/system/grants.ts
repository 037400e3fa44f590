// The role ↔ menu link table.
import type { Queryable } from '../../db/db.ts';

/** Replaces the menus (and buttons) of roles. */
export async function grantMenus(tx: Queryable, tenantId: string, roleIds: string[], menuIds: string[]) {
  await tx.query(`DELETE FROM blade_role_menu WHERE role_id = ANY($1::bigint[]) AND tenant_id = $2`, [roleIds, tenantId]);
  if (!menuIds.length) return;
  for (const roleId of roleIds) {
    await tx.query(
      `INSERT INTO blade_role_menu (role_id, menu_id, tenant_id) SELECT $1, m, $3 FROM unnest($2::bigint[]) AS m ON CONFLICT DO NOTHING`,
      [roleId, menuIds, tenantId],
    );
  }
}

/** Replaces the data scopes (category 1) or API scopes (category 2) of roles. */
export async function grantScopes(tx: Queryable, tenantId: string, roleIds: string[], category: 1 | 2, scopeIds: string[]) {
  await tx.query(`DELETE FROM blade_role_scope WHERE role_id = ANY($1::bigint[]) AND tenant_id = $2 AND scope_category = $3`, [
    roleIds,
    tenantId,
    category,
  ]);
  if (!scopeIds.length) return;
  for (const roleId of roleIds) {
    await tx.query(
      `INSERT INTO blade_role_scope (role_id, scope_category, scope_id, tenant_id) SELECT $1, $2, s, $4 FROM unnest($3::bigint[]) AS s ON CONFLICT DO NOTHING`,
      [roleId, category, scopeIds, tenantId],
    );
  }
}
