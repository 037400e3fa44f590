// Who sees a document type that code generation installed. As with any menu added to the platform:
// the installer's roles and the administrator roles of the installer's tenant are granted its menu
// and buttons (so the installer finds it in the sidebar and checked in the role's grant tree), and
// every top menu that shows its group shows it too. Nobody else is granted anything: the other
// roles, and other tenants (through their package, then their own administrators' grants), get it
// when an administrator decides so.
import type { EntityModel } from '../../../engine/model/types.ts';
import { q } from '../../db/sql.ts';
import type { Actor } from '../../db/store.ts';
import type { RouteContext } from '../../http/entity-routes.ts';

/** Role aliases of a tenant's administrators: the platform's and a tenant's own. */
const ADMIN_ALIASES = ['administrator', 'admin'];

export async function grantInstalledMenu(ctx: RouteContext, actor: Actor, model: EntityModel): Promise<void> {
  const menus = q(ctx.catalog.entities.menu.table);
  const [entry] = await ctx.db.query<{ id: string; parentId: string }>(
    `SELECT id::text AS id, parent_id::text AS "parentId" FROM ${menus} WHERE code = $1 AND category = 1 AND is_deleted = 0`,
    [model.menu!.code],
  );
  const buttons = await ctx.db.query<{ id: string }>(`SELECT id::text AS id FROM ${menus} WHERE parent_id = $1 AND is_deleted = 0`, [
    entry.id,
  ]);
  const admins = await ctx.db.query<{ id: string }>(
    `SELECT id::text AS id FROM ${q(ctx.catalog.entities.role.table)} WHERE tenant_id = $1 AND role_alias = ANY($2::text[]) AND is_deleted = 0`,
    [actor.tenantId, ADMIN_ALIASES],
  );
  const roleIds = [...new Set([...(actor.roleIds ?? []).filter((id) => /^\d{1,19}$/.test(id)), ...admins.map((r) => r.id)])];
  await ctx.db.query(
    `INSERT INTO blade_role_menu (role_id, menu_id, tenant_id)
     SELECT r, m, $3 FROM unnest($1::bigint[]) AS r CROSS JOIN unnest($2::bigint[]) AS m ON CONFLICT DO NOTHING`,
    [roleIds, [entry.id, ...buttons.map((b) => b.id)], actor.tenantId],
  );
  await ctx.db.query(
    `INSERT INTO blade_top_menu_setting (top_menu_id, menu_id)
     SELECT DISTINCT top_menu_id, $1::bigint FROM blade_top_menu_setting WHERE menu_id = $2::bigint ON CONFLICT DO NOTHING`,
    [entry.id, entry.parentId],
  );
}
