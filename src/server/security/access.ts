// Access control, enforced by the server on every route (a hidden button is not a boundary):
// - button grants: a role holds menus and buttons; writing an entity needs <menu>_add / _edit /
//   _delete, exporting <menu>_export, reading the menu itself (or a way to pick it: see canRead);
// - data scopes: rules granted to a role narrow the rows of an entity (own, own department,
//   department and below, own projects, or a custom condition);
// - API scopes: a path covered by API scope rules is open only to roles granted one of them.
// The platform administrator (role alias administrator in tenant 000000) passes every check.
import type { EntityCatalog, EntityModel, Label } from '../../engine/model/types.ts';
import type { Db, Queryable } from '../db/db.ts';
import type { Predicate } from '../../engine/predicate/predicate.ts';
import type { CacheBus } from '../realtime/cache-bus.ts';
import { q } from '../db/sql.ts';
import { PLATFORM_TENANT, type Actor, type DataFilter } from '../db/store.ts';
import { AppError } from '../errors.ts';
import { predicateTree } from '../../engine/query/filter.ts';
import { filterSql } from '../db/filter-sql.ts';
import { PROJECT_ROLE, projectReference } from '../../engine/model/data-scopes.ts';
import { hasRole } from '../../engine/model/roles.ts';

/**
 * The menu ids of a tenant's live package, read from the package's link table (x-db.link of its
 * menuId); none when the tenant has no package.
 */
export async function packageMenuIds(db: Queryable, catalog: EntityCatalog, tenantId: string): Promise<string[]> {
  const { tenant, tenantPackage } = catalog.entities;
  const menus = tenantPackage.fieldMap.menuId;
  const rows = await db.query<{ id: string }>(
    `SELECT l.${q(menus.column)}::text AS id FROM ${q(tenant.table)} t
       JOIN ${q(tenantPackage.table)} p ON p.id = t.package_id AND p.is_deleted = 0
       JOIN ${q(menus.link!.table)} l ON l.${q(menus.link!.ownerColumn)} = p.id
      WHERE t.tenant_id = $1 AND t.is_deleted = 0
      ORDER BY l.sort`,
    [tenantId],
  );
  return rows.map((r) => r.id);
}

export type Action = 'view' | 'add' | 'edit' | 'delete' | 'export';

export const ACTION_LABELS: Record<Action, Label> = {
  view: { zh: '查看', en: 'view' },
  add: { zh: '新增', en: 'add' },
  edit: { zh: '修改', en: 'edit' },
  delete: { zh: '删除', en: 'delete' },
  export: { zh: '导出', en: 'export' },
};

export interface DataRule {
  menuCode: string;
  scopeType: string;
  scopeColumn: string | null;
  scopeValue: string | null;
}

export interface Grants {
  administrator: boolean;
  /** Codes of the granted menus and buttons. */
  codes: ReadonlySet<string>;
  dataRules: readonly DataRule[];
  apiScopeIds: ReadonlySet<string>;
}

/** Link tables of the grants (not documents, so not schemas). */
export const ACCESS_DDL = `
CREATE TABLE IF NOT EXISTS blade_role_menu (role_id bigint NOT NULL, menu_id bigint NOT NULL, tenant_id varchar(12) NOT NULL, PRIMARY KEY (role_id, menu_id));
CREATE TABLE IF NOT EXISTS blade_role_scope (role_id bigint NOT NULL, scope_category integer NOT NULL, scope_id bigint NOT NULL, tenant_id varchar(12) NOT NULL, PRIMARY KEY (role_id, scope_category, scope_id));
CREATE TABLE IF NOT EXISTS blade_top_menu_setting (top_menu_id bigint NOT NULL, menu_id bigint NOT NULL, PRIMARY KEY (top_menu_id, menu_id));
`;

const CACHE_MS = 10_000;

export function isAdministrator(actor: Actor): boolean {
  return actor.tenantId === PLATFORM_TENANT && (actor.roleAliases ?? []).includes('administrator');
}

export class AccessControl {
  private readonly cache = new Map<string, { at: number; grants: Promise<Grants> }>();
  private apiRules?: { at: number; rules: Promise<{ id: string; path: string }[]> };
  private bus?: CacheBus;
  /** What the grants read of the schema set, derived again when the set changes (code generation's install). */
  private derived?: {
    catalog: EntityCatalog;
    /** entity key -> entities whose records refer to it (header or rows) */
    referencedBy: Map<string, EntityModel[]>;
    /** API bases of rows of another document, with their document's */
    rowsApis: { api: string; parentApi: string }[];
  };

  /** `catalog`: the schema set, or how to find the one served now. */
  constructor(
    private readonly db: Db,
    private readonly catalogNow: EntityCatalog | (() => EntityCatalog),
  ) {}

  private get catalog(): EntityCatalog {
    return typeof this.catalogNow === 'function' ? this.catalogNow() : this.catalogNow;
  }

  private schemaFacts() {
    const catalog = this.catalog;
    if (this.derived?.catalog === catalog) return this.derived;
    const referencedBy = new Map<string, EntityModel[]>();
    for (const model of Object.values(catalog.entities)) {
      for (const f of [...model.fields, ...model.details.flatMap((d) => d.fields)]) {
        if (!f.ref || f.ref.entity === model.key) continue;
        const list = referencedBy.get(f.ref.entity) ?? [];
        if (!list.includes(model)) list.push(model);
        referencedBy.set(f.ref.entity, list);
      }
    }
    const rowsApis = Object.values(catalog.entities).flatMap((m) =>
      m.rowsOf ? [{ api: m.api, parentApi: catalog.entities[m.rowsOf.entity].api }] : [],
    );
    return (this.derived = { catalog, referencedBy, rowsApis });
  }

  private table(key: string): string {
    return q(this.catalog.entities[key].table);
  }

  /** Empties this process's grants when any process announces a change (see cache-bus.ts). */
  shareThrough(bus: CacheBus) {
    this.bus = bus;
    bus.on('access', () => this.forget());
  }

  /**
   * Forget cached grants (after a grant, a menu or a scope changed), here at once and on every
   * process when `db` (the writing transaction, by default the pool) commits.
   */
  async invalidate(db: Queryable = this.db): Promise<void> {
    this.forget();
    // the signal is lost only with the connection; the other processes' grants then expire within CACHE_MS
    await this.bus?.announce(db, 'access').catch((err) => console.error('access: change not announced to other processes', err));
  }

  private forget() {
    this.cache.clear();
    this.apiRules = undefined;
  }

  grants(actor: Actor): Promise<Grants> {
    const key = `${actor.tenantId}|${(actor.roleIds ?? []).join(',')}|${(actor.roleAliases ?? []).join(',')}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.grants;
    const grants = this.loadGrants(actor);
    this.cache.set(key, { at: Date.now(), grants });
    grants.catch(() => this.cache.delete(key));
    return grants;
  }

  private async loadGrants(actor: Actor): Promise<Grants> {
    const roleIds = (actor.roleIds ?? []).filter((id) => /^\d{1,19}$/.test(id));
    if (isAdministrator(actor)) return { administrator: true, codes: new Set(), dataRules: [], apiScopeIds: new Set() };
    const allowed = await this.packageMenus(actor.tenantId);
    const menus = await this.db.query<{ id: string; code: string }>(
      `SELECT m.id::text AS id, m.code FROM blade_role_menu rm JOIN ${this.table('menu')} m ON m.id = rm.menu_id AND m.is_deleted = 0
        WHERE rm.role_id = ANY($1::bigint[]) AND rm.tenant_id = $2`,
      [roleIds, actor.tenantId],
    );
    const codes = new Set(menus.filter((m) => !allowed || allowed.has(m.id)).map((m) => m.code));
    const dataRules = await this.db.query<DataRule>(
      `SELECT m.code AS "menuCode", ds.scope_type AS "scopeType", ds.scope_column AS "scopeColumn", ds.scope_value AS "scopeValue"
         FROM blade_role_scope rs JOIN ${this.table('dataScope')} ds ON ds.id = rs.scope_id AND ds.is_deleted = 0
              AND ds.tenant_id IN ('${PLATFORM_TENANT}', rs.tenant_id)
         JOIN ${this.table('menu')} m ON m.id = ds.menu_id
        WHERE rs.scope_category = 1 AND rs.role_id = ANY($1::bigint[]) AND rs.tenant_id = $2`,
      [roleIds, actor.tenantId],
    );
    const api = await this.db.query<{ id: string }>(
      `SELECT rs.scope_id::text AS id FROM blade_role_scope rs WHERE rs.scope_category = 2 AND rs.role_id = ANY($1::bigint[]) AND rs.tenant_id = $2`,
      [roleIds, actor.tenantId],
    );
    return { administrator: false, codes, dataRules, apiScopeIds: new Set(api.map((r) => r.id)) };
  }

  /** The menu ids of the tenant's package, or undefined when the tenant has no package. */
  async packageMenus(tenantId: string): Promise<Set<string> | undefined> {
    if (tenantId === PLATFORM_TENANT) return undefined;
    const ids = await packageMenuIds(this.db, this.catalog, tenantId);
    return ids.length ? new Set(ids) : undefined;
  }

  /**
   * Reading an entity needs its menu, or a write grant on an entity that refers to it: whoever may
   * fill in a project's client must be able to pick one.
   */
  private canRead(model: EntityModel, codes: ReadonlySet<string>): boolean {
    const code = model.menu!.code;
    if (codes.has(code) || codes.has(`${code}_view`)) return true;
    return (this.schemaFacts().referencedBy.get(model.key) ?? []).some((other) => {
      const c = other.menu?.code;
      return c !== undefined && (codes.has(`${c}_add`) || codes.has(`${c}_edit`));
    });
  }

  /** The entity whose data scopes apply: rows of another document (x-entity.rowsOf) are that document's. */
  private governing(model: EntityModel): EntityModel {
    return model.rowsOf ? this.catalog.entities[model.rowsOf.entity] : model;
  }

  /**
   * Rows of another document (x-entity.rowsOf) are read with their own menu's grant or with the
   * document's: whoever may read an expense contract may read its lines, whoever may read a labour
   * settlement its derived laborMonthlySettlementDetail rows (which have no menu of their own).
   */
  async check(actor: Actor, model: EntityModel, action: Action): Promise<void> {
    const document = this.governing(model);
    // rows derived from a document's detail have no menu of their own: the document's alone governs them
    if (!model.menu && !document.menu) return;
    const grants = await this.grants(actor);
    if (grants.administrator) return;
    const allows = (m: EntityModel) =>
      m.menu !== undefined && (action === 'view' ? this.canRead(m, grants.codes) : grants.codes.has(`${m.menu.code}_${action}`));
    if (!allows(model) && !(document !== model && allows(document))) {
      throw new AppError(403, 'noPermission', { action: ACTION_LABELS[action], entity: model.label });
    }
  }

  /** Whether `check(actor, model, 'view')` passes, without the refusal. */
  async mayRead(actor: Actor, model: EntityModel): Promise<boolean> {
    return this.check(actor, model, 'view').then(
      () => true,
      (err) => {
        if (err instanceof AppError && err.status === 403) return false;
        throw err;
      },
    );
  }

  /**
   * May the caller read the display labels of `model`'s records without reading `model`? A record's
   * labels are shown wherever a record referring to it is read, so a reader of any entity whose
   * fields or detail rows refer to `model` may look them up by id (a project's reader names its
   * 建设单位, a demand's reader its 物资). Labels only: the options route answers nothing else on it.
   */
  async readsAReferrer(actor: Actor, model: EntityModel): Promise<boolean> {
    for (const referrer of this.schemaFacts().referencedBy.get(model.key) ?? []) if (await this.mayRead(actor, referrer)) return true;
    return false;
  }

  /** Checks a named button grant (user_reset, role_grant, …). */
  async checkButton(actor: Actor, code: string): Promise<void> {
    const grants = await this.grants(actor);
    if (!grants.administrator && !grants.codes.has(code)) throw new AppError(403, 'forbidden');
  }

  /** The row filters of the caller's data scopes on `model`; none means every row. */
  async dataFilters(actor: Actor, requested: EntityModel): Promise<DataFilter[]> {
    // over the document's columns for rows of another document: the store applies them to the document
    const model = this.governing(requested);
    if (!model.menu) return [];
    const grants = await this.grants(actor);
    const rules = grants.dataRules.filter((r) => r.menuCode === model.menu!.code);
    if (grants.administrator || !rules.length || rules.some((r) => r.scopeType === '1')) return [];
    const deptIds = (actor.deptId ?? '').split(',').filter((d) => /^\d{1,19}$/.test(d));
    // departments are platform data: the subtree is read here, not joined into the document's
    // statement (which runs on the tenant's own database when it has one)
    const subtree = rules.some((r) => r.scopeType === '4' || r.scopeType === '6') ? await this.deptSubtree(actor.tenantId, deptIds) : [];
    return rules.map((rule) => this.filterFor(actor, model, rule, deptIds, subtree));
  }

  /** The departments and every department below them. */
  private async deptSubtree(tenantId: string, deptIds: string[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT d.id::text AS id FROM ${this.table('dept')} d WHERE d.tenant_id = $1 AND d.is_deleted = 0
          AND (d.id = ANY($2::bigint[]) OR string_to_array(d.ancestors, ',') && $2::text[])`,
      [tenantId, deptIds],
    );
    return rows.map((r) => r.id);
  }

  private filterFor(actor: Actor, model: EntityModel, rule: DataRule, deptIds: string[], subtree: string[]): DataFilter {
    const column = (fallback: string) => q((model.fieldMap[rule.scopeColumn ?? ''] ?? model.fieldMap[fallback]).column);
    switch (rule.scopeType) {
      case '2':
        return (p, a) => `${a}.${column('createUser')} = ${p.add(actor.userId)}`;
      case '3':
        return (p, a) => `${a}.${column('createDept')} = ANY(${p.add(deptIds)}::bigint[])`;
      case '4':
        return (p, a) => `${a}.${column('createDept')} = ANY(${p.add(subtree)}::bigint[])`;
      case '6':
        return this.ownProjectFilter(actor, model, rule, subtree);
      default: {
        let condition: unknown;
        try {
          condition = JSON.parse(rule.scopeValue ?? '');
        } catch {
          condition = undefined;
        }
        // a custom rule that cannot be read admits nothing rather than everything
        if (!condition || typeof condition !== 'object') return () => 'false';
        const tokens: Record<string, unknown> = {
          '$user.userId': actor.userId,
          '$user.deptId': deptIds[0] ?? null,
          '$user.tenantId': actor.tenantId,
        };
        const tree = predicateTree(condition as Predicate, model, (v) =>
          typeof v === 'string' && Object.hasOwn(tokens, v) ? tokens[v] : v,
        );
        return (p, a) => filterSql(tree, model, p, a);
      }
    }
  }

  /**
   * Own projects: records whose project was set up in one of the user's departments or one below
   * them (the project's creating department: a project department's people set up its project). The
   * projects are read in the document's statement: both are the tenant's business data, on one database.
   */
  private ownProjectFilter(actor: Actor, model: EntityModel, rule: DataRule, subtree: string[]): DataFilter {
    const projectModel = Object.values(this.catalog.entities).find((m) => hasRole(m, PROJECT_ROLE));
    const name = model.fieldMap[rule.scopeColumn ?? ''] ? rule.scopeColumn! : projectReference(model, projectModel?.key);
    // a type without a project admits nothing rather than everything
    if (!projectModel || !name) return () => 'false';
    const column = q(model.fieldMap[name].column);
    return (p, a) =>
      `${a}.${column} IN (SELECT pr.id FROM ${q(projectModel.table)} pr WHERE pr.tenant_id = ${p.add(actor.tenantId)} AND pr.is_deleted = 0 AND pr.create_dept = ANY(${p.add(subtree)}::bigint[]))`;
  }

  private apiScopeRules(): Promise<{ id: string; path: string }[]> {
    if (this.apiRules && Date.now() - this.apiRules.at < CACHE_MS) return this.apiRules.rules;
    const rules = this.db.query<{ id: string; path: string }>(
      `SELECT id::text AS id, scope_path AS path FROM ${this.table('apiScope')} WHERE is_deleted = 0`,
    );
    this.apiRules = { at: Date.now(), rules };
    return rules;
  }

  /**
   * A path covered by API scope rules is open only to roles granted one of them. A path of rows of
   * another document (x-entity.rowsOf) is also held to the rules of the same call on that document.
   */
  async checkApi(actor: Actor, path: string): Promise<void> {
    await this.checkApiPath(actor, path);
    const rows = this.schemaFacts().rowsApis.find((r) => path.startsWith(`${r.api}/`));
    if (rows) await this.checkApiPath(actor, rows.parentApi + path.slice(rows.api.length));
  }

  private async checkApiPath(actor: Actor, path: string): Promise<void> {
    const rules = (await this.apiScopeRules()).filter((r) => path.startsWith(r.path.replace(/\*+$/, '')));
    if (!rules.length) return;
    const grants = await this.grants(actor);
    if (grants.administrator || rules.some((r) => grants.apiScopeIds.has(r.id))) return;
    throw new AppError(403, 'forbidden');
  }
}
