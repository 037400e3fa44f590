// Roles, departments, posts and tenants beyond the generic routes: role grants and trees, the
// pickers of the switch dialog, and the tenant administration calls.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { q } from '../../db/sql.ts';
import { EntityStore, parseId, parseIds, PLATFORM_TENANT, type TreeNode } from '../../db/store.ts';
import { AppError, badRequest } from '../../errors.ts';
import { actorOf } from '../../http/auth.ts';
import { envelope } from '../../http/envelope.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { isAdministrator } from '../../security/access.ts';
import { grantMenus, grantScopes } from './grants.ts';
import { visibleRules } from './menu.ts';
import { auditEvent } from '../log/service.ts';

type Query = Record<string, string | undefined>;

export const ORGANIZATION_PUBLIC_PATHS = ['/api/blade-system/tenant/info'];

function idList(value: unknown, param: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest('missingParam', { param });
  return value.length ? parseIds(value.join(','), param) : [];
}

export function registerOrganizationRoutes(app: FastifyInstance, ctx: RouteContext) {
  const { role, dept, post, tenant, user, menu } = ctx.catalog.entities;
  const ok = (request: FastifyRequest, data: unknown = null) => envelope(200, data, t('ok', request.lang));

  /** The user's own ids of a comma field (roleId, deptId), or undefined for "all". */
  const userLinks = async (request: FastifyRequest, field: 'roleId' | 'deptId'): Promise<string[] | undefined> => {
    const { userId } = request.query as Query;
    if (!userId) return undefined;
    const record = await new EntityStore(ctx, user, actorOf(request)).detail(parseId(userId, 'userId'));
    return String(record[field] ?? '')
      .split(',')
      .filter(Boolean);
  };

  const select = (model: typeof role, field: 'roleId' | 'deptId') => async (request: FastifyRequest) => {
    const ids = await userLinks(request, field);
    const store = new EntityStore(ctx, model, actorOf(request));
    const all = await store.list({ current: 1, size: 500, filters: [], sort: [{ field: 'sort', order: 'asc' }] });
    return ok(request, ids ? all.records.filter((r) => ids.includes(r.id)) : all.records);
  };
  app.get(`${role.api}/select`, select(role, 'roleId'));
  app.get(`${dept.api}/select`, select(dept, 'deptId'));

  app.get(`${post.api}/select`, async (request) => {
    const store = new EntityStore(ctx, post, actorOf(request));
    return ok(request, (await store.list({ current: 1, size: 500, filters: [], sort: [{ field: 'sort', order: 'asc' }] })).records);
  });

  /** The role tree, without the platform administrator role unless the caller holds it. */
  app.get(`${role.api}/tree`, async (request) => {
    const actor = actorOf(request);
    const nodes = await (await storeFor(ctx, role, request, 'view')).tree();
    if (isAdministrator(actor)) return ok(request, nodes);
    const rows = await ctx.db.query<{ id: string }>(`SELECT id::text AS id FROM ${q(role.table)} WHERE role_alias = 'administrator'`);
    const hidden = new Set(rows.map((r) => r.id));
    const prune = (list: TreeNode[]): TreeNode[] =>
      list.filter((n) => !hidden.has(n.id)).map((n) => (n.children ? { ...n, children: prune(n.children) } : n));
    return ok(request, prune(nodes));
  });

  app.get(`${role.api}/tree-by-id`, async (request) => {
    const roleId = parseId((request.query as Query).roleId, 'roleId');
    const nodes = await (await storeFor(ctx, role, request, 'view')).tree();
    const find = (list: TreeNode[]): TreeNode | undefined => {
      for (const n of list) {
        if (n.id === roleId) return n;
        const hit = n.children && find(n.children);
        if (hit) return hit;
      }
      return undefined;
    };
    const hit = find(nodes);
    return ok(request, hit ? [hit] : []);
  });

  app.post(`${role.api}/grant`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'role_grant');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const roleIds = idList(body.roleIds, 'roleIds');
    if (!roleIds.length) throw badRequest('missingParam', { param: 'roleIds' });
    const menuIds = idList(body.menuIds, 'menuIds');
    const dataScopeIds = idList(body.dataScopeIds, 'dataScopeIds');
    const apiScopeIds = idList(body.apiScopeIds, 'apiScopeIds');
    const roles = new EntityStore(ctx, role, actor);
    for (const id of roleIds) await roles.detail(id);
    // a tenant hands out only menus of its package
    const pkg = actor.tenantId === PLATFORM_TENANT ? undefined : await ctx.access.packageMenus(actor.tenantId);
    const known = new Set(
      (
        await ctx.db.query<{ id: string }>(`SELECT id::text AS id FROM ${q(menu.table)} WHERE id = ANY($1::bigint[]) AND is_deleted = 0`, [
          menuIds,
        ])
      ).map((r) => r.id),
    );
    if (menuIds.some((id) => !known.has(id) || (pkg && !pkg.has(id)))) throw new AppError(403, 'forbidden');
    // a role is granted the rules its tenant sees: the platform's, the built-in ones and its own
    for (const [entity, ids] of [
      ['dataScope', dataScopeIds],
      ['apiScope', apiScopeIds],
    ] as const) {
      if (!ids.length) continue;
      const visible = new Set((await visibleRules(ctx, entity, actor.tenantId)).map((r) => r.id));
      if (ids.some((id) => !visible.has(id))) throw new AppError(403, 'forbidden');
    }
    await ctx.db.transaction(async (tx) => {
      await grantMenus(tx, actor.tenantId, roleIds, menuIds);
      await grantScopes(tx, actor.tenantId, roleIds, 1, dataScopeIds);
      await grantScopes(tx, actor.tenantId, roleIds, 2, apiScopeIds);
    });
    await ctx.access.invalidate();
    auditEvent(ctx, request, { event: 'grant', subject: `role ${roleIds.join(',')}`, detail: { menuIds, dataScopeIds, apiScopeIds } });
    return ok(request);
  });

  // tenants (platform tenant only: the entity's scope already says so for the generic routes)
  const tenantStore = async (request: FastifyRequest, button: string) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, button);
    return new EntityStore(ctx, tenant, actor);
  };

  app.get(`${tenant.api}/info`, async (request) => {
    const domain = (request.query as Query).domain;
    if (!domain) return ok(request, {});
    const [row] = await ctx.db.query(
      `SELECT tenant_id AS "tenantId", domain, background_url AS "backgroundUrl" FROM ${q(tenant.table)} WHERE domain = $1 AND is_deleted = 0`,
      [domain],
    );
    return ok(request, row ?? {});
  });

  app.post(`${tenant.api}/setting`, async (request) => {
    const query = { ...(request.query as Query), ...((request.body ?? {}) as Query) };
    const store = await tenantStore(request, 'tenant_setting');
    // a value not sent stays as it is; an empty one clears it (no expiry)
    const settings = Object.fromEntries(
      (['accountNumber', 'expireTime'] as const).filter((k) => query[k] !== undefined).map((k) => [k, query[k]]),
    );
    for (const id of parseIds(query.ids)) await store.updatePart(id, settings);
    return ok(request);
  });

  app.get(`${tenant.api}/package-detail`, async (request) => {
    const tenantId = (request.query as Query).tenantId ?? '';
    const store = new EntityStore(ctx, tenant, actorOf(request));
    const record = await store.detail(tenantId, 'tenantId');
    if (!record.packageId) return ok(request, {});
    return ok(request, await new EntityStore(ctx, ctx.catalog.entities.tenantPackage, actorOf(request)).detail(String(record.packageId)));
  });

  app.post(`${tenant.api}/package-setting`, async (request) => {
    const query = request.query as Query;
    const store = await tenantStore(request, 'tenant_package_setting');
    const record = await store.detail(query.tenantId ?? '', 'tenantId');
    await store.updatePart(record.id, { packageId: query.packageId ? parseId(query.packageId, 'packageId') : null });
    await ctx.access.invalidate();
    return ok(request);
  });

  // tenant/datasource: tenant-datasource.ts

  app.get(`${tenant.api}/select`, async (request) => {
    const store = await storeFor(ctx, tenant, request, 'view');
    return ok(request, (await store.list({ current: 1, size: 500, filters: [], sort: [{ field: 'tenantId', order: 'asc' }] })).records);
  });
}
