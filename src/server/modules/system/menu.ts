// Menus as the platform serves them: the caller's routes (menus, no buttons) and buttons (the
// permission tree), the grant trees of the role and top-menu dialogs and the keys already granted,
// and the tenant's top menus. Menus are filtered by the caller's grants and the tenant's package.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import { SCOPE_KIND_LABELS, SCOPE_TYPE } from '../../../engine/model/data-scopes.ts';
import type { DataScopeKind } from '../../../engine/model/types.ts';
import { forest } from '../../../engine/tree/forest.ts';
import type { Row } from '../../db/db.ts';
import { q, selectList, toRecord } from '../../db/sql.ts';
import { EntityStore, parseIds, PLATFORM_TENANT, type TreeNode } from '../../db/store.ts';
import { actorOf } from '../../http/auth.ts';
import { envelope } from '../../http/envelope.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { badRequest } from '../../errors.ts';
import { auditEvent } from '../log/service.ts';

type Query = Record<string, string | undefined>;

interface MenuNode extends Row {
  id: string;
  parentId: string;
  code: string;
  category: number;
  sort: number;
  children?: MenuNode[];
}

function treeNodes(rows: MenuNode[], lang: 'zh' | 'en'): TreeNode[] {
  const nodes: TreeNode[] = rows.map((r) => ({
    id: r.id,
    parentId: r.parentId,
    title: String((lang === 'en' && r.nameEn) || r.name),
    key: r.id,
    value: r.id,
  }));
  const roots = forest(nodes);
  const mark = (n: TreeNode) => {
    if (!n.children?.length) return;
    n.hasChildren = true;
    n.children.forEach(mark);
  };
  roots.forEach(mark);
  return roots;
}

interface RuleNode {
  id: string;
  menuId: string;
  scopeName: string;
  /** a built-in rule's name in English (the kind's) */
  nameEn?: string;
}

/** The built-in data-scope rules' kinds by rule type, for their names in the reader's language. */
const KIND_OF_TYPE = new Map(Object.entries(SCOPE_TYPE).map(([kind, type]) => [type, kind as DataScopeKind]));

/**
 * The scope rules a tenant sees and may grant: every rule of an entity without tenant rows, else
 * the platform's (the built-in ones among them) and the tenant's own (x-entity.tenantRows).
 */
export async function visibleRules(
  ctx: Pick<RouteContext, 'db' | 'catalog'>,
  entity: 'dataScope' | 'apiScope',
  tenantId: string,
): Promise<RuleNode[]> {
  const model = ctx.catalog.entities[entity];
  const own = model.tenantRows ? ` AND tenant_id IN ('${PLATFORM_TENANT}', $1)` : '';
  // the built-in rules first, by type; then the others as they were added
  const builtIn = 'builtIn' in model.fieldMap;
  const rows = await ctx.db.query<RuleNode & { builtIn: boolean; scopeType: string | null }>(
    `SELECT id::text AS id, menu_id::text AS "menuId", scope_name AS "scopeName", ${builtIn ? 'built_in = 1' : 'false'} AS "builtIn",
            scope_type AS "scopeType"
       FROM ${q(model.table)} WHERE is_deleted = 0${own} ORDER BY ${builtIn ? 'built_in DESC, scope_type, ' : ''}id`,
    model.tenantRows ? [tenantId] : [],
  );
  return rows.map(({ builtIn: b, scopeType, ...r }) => {
    const kind = b && scopeType ? KIND_OF_TYPE.get(scopeType) : undefined;
    return kind ? { ...r, nameEn: SCOPE_KIND_LABELS[kind].en } : r;
  });
}

export function registerMenuRoutes(app: FastifyInstance, ctx: RouteContext) {
  const model = ctx.catalog.entities.menu;
  const base = model.api;
  const ok = (request: FastifyRequest, data: unknown) => envelope(200, data, t('ok', request.lang));

  /** Every live menu, sorted, as records. */
  const allMenus = async (): Promise<MenuNode[]> => {
    const rows = await ctx.db.query(
      `SELECT ${selectList(model.columns)} FROM ${q(model.table)} t WHERE t.is_deleted = 0 ORDER BY t.sort, t.id`,
    );
    return rows.map((r) => toRecord(r, model.columns) as MenuNode);
  };

  /** The menus the caller may see: granted (administrator: all) and inside the tenant's package. */
  const visibleMenus = async (request: FastifyRequest): Promise<MenuNode[]> => {
    const actor = actorOf(request);
    const grants = await ctx.access.grants(actor);
    const pkg = await ctx.access.packageMenus(actor.tenantId);
    const menus = await allMenus();
    return menus.filter((m) => (grants.administrator || grants.codes.has(m.code)) && (!pkg || pkg.has(m.id)));
  };

  /** Adds the ancestors of the chosen menus, so that the forest has its groups. */
  const withAncestors = (chosen: MenuNode[], all: MenuNode[]): MenuNode[] => {
    const byId = new Map(all.map((m) => [m.id, m]));
    const keep = new Set(chosen.map((m) => m.id));
    for (const m of chosen) for (let p = byId.get(m.parentId); p && !keep.has(p.id); p = byId.get(p.parentId)) keep.add(p.id);
    return all.filter((m) => keep.has(m.id)).map((m) => ({ ...m, children: undefined }));
  };

  app.get(`${base}/routes`, async (request) => {
    const { topMenuId } = request.query as Query;
    let menus = (await visibleMenus(request)).filter((m) => m.category === 1);
    if (topMenuId) {
      const ids = new Set(
        (
          await ctx.db.query<{ id: string }>(`SELECT menu_id::text AS id FROM blade_top_menu_setting WHERE top_menu_id = $1`, [
            parseIds(topMenuId, 'topMenuId')[0],
          ])
        ).map((r) => r.id),
      );
      menus = menus.filter((m) => ids.has(m.id));
    }
    return ok(request, forest(withAncestors(menus, await allMenus()).filter((m) => m.category === 1)));
  });

  app.get(`${base}/buttons`, async (request) => {
    const buttons = (await visibleMenus(request)).filter((m) => m.category === 2);
    return ok(request, forest(withAncestors(buttons, await allMenus())));
  });

  // the document types the caller may read (keys of the schema set), so that a page asks only for
  // what it may see (the home's cost overview needs projects and expense contracts)
  app.get(`${base}/readable`, async (request) => {
    const actor = actorOf(request);
    // platform records (tenants, packages) are the platform tenant's alone, whatever the grants
    const models = Object.values(ctx.catalog.entities).filter((m) => m.scope !== 'platform' || actor.tenantId === PLATFORM_TENANT);
    const readable = await Promise.all(models.map((m) => ctx.access.mayRead(actor, m)));
    return ok(
      request,
      models.filter((_, i) => readable[i]).map((m) => m.key),
    );
  });

  /** Menus a tenant may hand out: all for the platform tenant, else its package. */
  const grantableMenus = async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const pkg = actor.tenantId === PLATFORM_TENANT ? undefined : await ctx.access.packageMenus(actor.tenantId);
    return (await allMenus()).filter((m) => !pkg || pkg.has(m.id));
  };

  /** The rules under their menus: the platform's (built-in ones among them) and, where a tenant may add rules, the caller's own. */
  const scopeTree = async (entity: 'dataScope' | 'apiScope', menus: MenuNode[], request: FastifyRequest): Promise<TreeNode[]> => {
    const rules = await visibleRules(ctx, entity, actorOf(request).tenantId);
    const owners = menus.filter((m) => rules.some((r) => r.menuId === m.id));
    const nodes: MenuNode[] = [
      ...withAncestors(owners, menus),
      ...rules
        .filter((r) => menus.some((m) => m.id === r.menuId))
        .map((r) => ({ id: r.id, parentId: r.menuId, code: '', category: 0, sort: 0, name: r.scopeName, nameEn: r.nameEn })),
    ];
    return treeNodes(nodes, request.lang);
  };

  app.get(`${base}/grant-tree`, async (request) => {
    const menus = await grantableMenus(request);
    return ok(request, {
      menu: treeNodes(menus, request.lang),
      dataScope: await scopeTree('dataScope', menus, request),
      apiScope: await scopeTree('apiScope', menus, request),
    });
  });

  app.get(`${base}/role-tree-keys`, async (request) => {
    const actor = actorOf(request);
    const roleIds = parseIds((request.query as Query).roleIds, 'roleIds');
    const menu = await ctx.db.query<{ id: string }>(
      `SELECT menu_id::text AS id FROM blade_role_menu WHERE role_id = ANY($1::bigint[]) AND tenant_id = $2`,
      [roleIds, actor.tenantId],
    );
    const scopes = await ctx.db.query<{ id: string; c: number }>(
      `SELECT scope_id::text AS id, scope_category AS c FROM blade_role_scope WHERE role_id = ANY($1::bigint[]) AND tenant_id = $2`,
      [roleIds, actor.tenantId],
    );
    return ok(request, {
      menu: [...new Set(menu.map((r) => r.id))],
      dataScope: scopes.filter((s) => s.c === 1).map((s) => s.id),
      apiScope: scopes.filter((s) => s.c === 2).map((s) => s.id),
    });
  });

  app.get(`${base}/grant-top-tree`, async (request) =>
    ok(request, {
      menu: treeNodes(
        (await grantableMenus(request)).filter((m) => m.category === 1),
        request.lang,
      ),
    }),
  );

  app.get(`${base}/top-tree-keys`, async (request) => {
    const ids = parseIds((request.query as Query).topMenuIds, 'topMenuIds');
    const own = await new EntityStore(ctx, ctx.catalog.entities.topMenu, actorOf(request)).list({
      current: 1,
      size: 500,
      filters: [],
      sort: [],
    });
    const mine = ids.filter((id) => own.records.some((r) => r.id === id));
    const rows = await ctx.db.query<{ id: string }>(
      `SELECT DISTINCT menu_id::text AS id FROM blade_top_menu_setting WHERE top_menu_id = ANY($1::bigint[])`,
      [mine],
    );
    return ok(request, { menu: rows.map((r) => r.id) });
  });

  app.get(`${base}/top-menu`, async (request) => {
    const store = new EntityStore(ctx, ctx.catalog.entities.topMenu, actorOf(request));
    return ok(request, (await store.list({ current: 1, size: 500, filters: [], sort: [{ field: 'sort', order: 'asc' }] })).records);
  });

  /** A tenant's menu pickers (a scope rule's menu) offer the menus of its package: no other would be granted. */
  const inPackage = async (request: FastifyRequest) => {
    const actor = actorOf(request);
    const pkg = actor.tenantId === PLATFORM_TENANT ? undefined : await ctx.access.packageMenus(actor.tenantId);
    return (id: string) => !pkg || pkg.has(id);
  };

  app.get(`${base}/tree`, async (request) => {
    await storeFor(ctx, model, request, 'view');
    const offered = await inPackage(request);
    return ok(
      request,
      treeNodes(
        (await allMenus()).filter((m) => m.category === 1 && offered(m.id)),
        request.lang,
      ),
    );
  });

  app.get(`${base}/lazy-tree`, async (request) => {
    const store = await storeFor(ctx, model, request, 'view');
    const offered = await inPackage(request);
    const nodes = await store.lazyTree((request.query as Query)[model.tree!.lazyParam] || model.tree!.root);
    return ok(
      request,
      nodes.filter((n) => offered(String(n.id))),
    );
  });

  // a tenant package names the menus and the buttons its tenants may have (access counts buttons by
  // id too), so its picker offers every menu with its buttons, not the menus-only tree above
  app.get(`${base}/package-tree`, async (request) => {
    await storeFor(ctx, ctx.catalog.entities.tenantPackage, request, 'view');
    return ok(request, treeNodes(await allMenus(), request.lang));
  });

  app.get(`${base}/menu-list`, async (request) => {
    await storeFor(ctx, model, request, 'view');
    return ok(request, forest((await allMenus()).filter((m) => m.category === 1)));
  });

  app.get(`${base}/lazy-menu-list`, async (request) => {
    const store = await storeFor(ctx, model, request, 'view');
    const rows = await store.children((request.query as Query).parentId || '0');
    return ok(
      request,
      rows.filter((r) => r.category === 1),
    );
  });

  // top menus: which menus each shows
  const topMenus = ctx.catalog.entities.topMenu;
  app.post(`${topMenus.api}/grant`, async (request) => {
    const actor = actorOf(request);
    await ctx.access.checkButton(actor, 'topmenu_setting');
    const body = (request.body ?? {}) as { topMenuIds?: unknown; menuIds?: unknown };
    if (!Array.isArray(body.topMenuIds) || !Array.isArray(body.menuIds)) throw badRequest('missingParam', { param: 'topMenuIds, menuIds' });
    const topIds = parseIds(body.topMenuIds.join(','), 'topMenuIds');
    const menuIds = body.menuIds.length ? parseIds(body.menuIds.join(','), 'menuIds') : [];
    const store = new EntityStore(ctx, topMenus, actor);
    for (const id of topIds) await store.detail(id);
    await ctx.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM blade_top_menu_setting WHERE top_menu_id = ANY($1::bigint[])`, [topIds]);
      for (const id of topIds) {
        if (menuIds.length)
          await tx.query(
            `INSERT INTO blade_top_menu_setting (top_menu_id, menu_id) SELECT $1, m FROM unnest($2::bigint[]) AS m ON CONFLICT DO NOTHING`,
            [id, menuIds],
          );
      }
    });
    auditEvent(ctx, request, { event: 'grant', subject: `topMenu ${topIds.join(',')}`, detail: { menuIds } });
    return ok(request, null);
  });
}
