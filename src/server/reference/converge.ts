// Every start brings each tenant up to the schema set's reference data (docs/reference-data.md):
// what is missing is added, what the server wrote and no one changed since follows a changed
// declaration, nothing is deleted unless retired, and a grant is given once. zs_reference remembers,
// per tenant and natural key, the hash of what was last applied; one more row per tenant holds the
// digest of the whole declared set, so a start with nothing new reads those rows and stops.
import { createHash } from 'node:crypto';
import type { EntityModel } from '../../engine/model/types.ts';
import type { Queryable } from '../db/db.ts';
import { AppError } from '../errors.ts';
import { fieldColumn, q } from '../db/sql.ts';
import { EntityStore, PLATFORM_TENANT, type Actor, type StoreContext } from '../db/store.ts';
import { inTransaction } from '../modules/flow/tx.ts';
import { packageMenuIds } from '../security/access.ts';
import { declaredReference, type DictionaryDecl, type MenuDecl, type ReferenceSet, type RoleDecl } from './declared.ts';

export const REFERENCE_DDL = `
CREATE TABLE IF NOT EXISTS zs_reference (
  tenant_id varchar(12) NOT NULL,
  kind varchar(20) NOT NULL,
  key varchar(300) NOT NULL,
  hash varchar(40) NOT NULL,
  PRIMARY KEY (tenant_id, kind, key)
);`;

type Kind = 'dictionary' | 'dictionaryItem' | 'menu' | 'button' | 'role' | 'grant';

/** How many of each kind a converge added, and how many declared changes it applied or retired. */
export interface ConvergeReport {
  added: Record<Kind | 'process', number>;
  updated: number;
  retired: number;
}

/** One declared item of one tenant: what it is, its natural key, the values the hash covers. */
interface Item {
  kind: Kind;
  key: string;
  values: Record<string, unknown>;
  retired?: boolean;
}

/** A row as it stands, for an item with the same kind and key. */
interface Existing {
  id: string;
  values: Record<string, unknown>;
}

export interface ConvergeOptions {
  /** schemas/reference */
  dir: string;
  /** Puts the default processes in place for a tenant (on its own database when it has one); answers how many were deployed. */
  processes?: (tenantId: string) => Promise<number>;
  /** The administrator whose name seeded records carry. */
  author: { userId: string; deptId: string };
  /** Told once per tenant that wrote something (the grants cached from menus and roles are stale). */
  changed?: (tx: Queryable) => Promise<void>;
  log?: (message: string) => void;
}

const hashOf = (values: unknown) => createHash('sha1').update(JSON.stringify(values)).digest('hex');
const emptyReport = (): ConvergeReport => ({
  added: { dictionary: 0, dictionaryItem: 0, menu: 0, button: 0, role: 0, grant: 0, process: 0 },
  updated: 0,
  retired: 0,
});

/** The items a tenant is converged to: the platform tenant holds the shared ones (menus, system dictionaries, roles). */
function itemsOf(set: ReferenceSet, platform: boolean): Item[] {
  const dictionaries = set.dictionaries.filter((d) => d.source === 'biz' || platform);
  return [
    ...dictionaries.flatMap(dictionaryItems),
    ...(platform ? set.menus.map(menuItem) : []),
    ...(platform ? set.roles.map(roleItem) : []),
    ...[...set.grants].flatMap(([alias, codes]) =>
      [...codes].map((code) => ({ kind: 'grant' as const, key: `${alias}:${code}`, values: {} })),
    ),
  ];
}

const dictionaryItems = (d: DictionaryDecl): Item[] => [
  { kind: 'dictionary', key: `${d.source}:${d.code}`, values: { name: d.name, en: d.en, sort: d.sort } },
  ...d.items.map((i) => ({
    kind: 'dictionaryItem' as const,
    key: `${d.source}:${d.code}:${i.key}`,
    values: { value: i.value, en: i.en, sort: i.sort, remark: i.remark ?? null },
  })),
];

const menuItem = (m: MenuDecl): Item => ({
  kind: m.category === 2 ? 'button' : 'menu',
  key: m.code,
  values: { parent: m.parent ?? null, name: m.name, en: m.en, path: m.path, icon: m.icon, sort: m.sort, action: m.action },
  retired: m.retired,
});

const roleItem = (r: RoleDecl): Item => ({
  kind: 'role',
  key: r.alias,
  values: { name: r.name, parent: r.parent ?? null, sort: r.sort },
  retired: r.retired,
});

export class ReferenceData {
  constructor(
    private readonly ctx: StoreContext,
    private readonly options: ConvergeOptions,
  ) {}

  /**
   * Converges every tenant to the schema set's reference data. `fresh`: the database is being seeded
   * for the first time. An installation that predates this step (nothing converged, not fresh) adopts
   * the grants its tenants have as they stand: what their administrators took away stays away.
   */
  async converge(catalog = this.ctx.catalog, { fresh = false } = {}): Promise<ConvergeReport> {
    const ctx = { ...this.ctx, catalog };
    const set = declaredReference(catalog, this.options.dir);
    const tenants = await this.ctx.db.query<{ tenantId: string }>(
      `SELECT tenant_id AS "tenantId" FROM ${q(catalog.entities.tenant.table)} WHERE is_deleted = 0 ORDER BY (tenant_id = $1) DESC, id`,
      [PLATFORM_TENANT],
    );
    const ids = tenants.some((t) => t.tenantId === PLATFORM_TENANT)
      ? tenants.map((t) => t.tenantId)
      : [PLATFORM_TENANT, ...tenants.map((t) => t.tenantId)];
    const digests = new Map(
      (
        await this.ctx.db.query<{ tenantId: string; hash: string }>(
          `SELECT tenant_id AS "tenantId", hash FROM zs_reference WHERE kind = 'digest'`,
        )
      ).map((r) => [r.tenantId, r.hash]),
    );
    const report = emptyReport();
    const adoptGrants = !fresh && digests.size === 0;
    for (const tenantId of ids) {
      const items = itemsOf(set, tenantId === PLATFORM_TENANT);
      const digest = hashOf(items);
      if (digests.get(tenantId) === digest) continue;
      await this.ctx.db.transaction((tx) => this.tenant(ctx, tx, tenantId, report).run(items, adoptGrants));
      const processesInPlace = await this.processes(tenantId, report);
      if (processesInPlace)
        await this.ctx.db.query(
          `INSERT INTO zs_reference (tenant_id, kind, key, hash) VALUES ($1, 'digest', '*', $2) ON CONFLICT (tenant_id, kind, key) DO UPDATE SET hash = EXCLUDED.hash`,
          [tenantId, digest],
        );
    }
    return report;
  }

  /**
   * One tenant, inside the caller's transaction: a tenant being created gets its business dictionaries
   * (and, called again once its roles exist, their grants) from the same step as every start.
   */
  async convergeTenant(tx: Queryable, tenantId: string): Promise<ConvergeReport> {
    const report = emptyReport();
    const items = itemsOf(declaredReference(this.ctx.catalog, this.options.dir), tenantId === PLATFORM_TENANT);
    await this.tenant(this.ctx, tx, tenantId, report).run(items, false);
    return report;
  }

  /**
   * A tenant's converge in `tx`. Its writes go through the stores without the entity hooks, which would
   * only announce each menu and role to the grant caches: `changed` does that once.
   */
  private tenant(ctx: StoreContext, tx: Queryable, tenantId: string, report: ConvergeReport) {
    return new TenantConverge({ ...inTransaction(ctx, tx), hooks: {} }, tx, tenantId, this.options, report);
  }

  /** The tenant's default processes; a tenant database that does not answer is tried again at the next start. */
  private async processes(tenantId: string, report: ConvergeReport): Promise<boolean> {
    if (!this.options.processes) return true;
    try {
      report.added.process += await this.options.processes(tenantId);
      return true;
    } catch (err) {
      this.options.log?.(`reference data: the default processes of tenant ${tenantId} were not put in place: ${(err as Error).message}`);
      return false;
    }
  }
}

/** The id of a menu's or role's parent by its natural key; '0' for a top-level one. */
function parentId(kind: 'menu' | 'role', parent: string | null, existing: Map<string, Existing>): string {
  return parent ? (existing.get(`${kind}:${parent}`)?.id ?? '0') : '0';
}

/** The converge of one tenant, inside its transaction. */
class TenantConverge {
  private readonly actor: Actor;
  private readonly ledger = new Map<string, string>();
  private readonly written: { kind: string; key: string; hash: string }[] = [];
  /** The tenant's roles (several may share an alias: each is granted) */
  private tenantRoles: { id: string; alias: string }[] = [];
  /** Grants collected for one statement at the end */
  private readonly toGrant: { role: string; menu: string }[] = [];

  constructor(
    private readonly ctx: StoreContext,
    private readonly tx: Queryable,
    private readonly tenantId: string,
    private readonly options: Pick<ConvergeOptions, 'author' | 'changed'>,
    private readonly report: ConvergeReport,
  ) {
    this.actor = { tenantId, userId: options.author.userId, deptId: options.author.deptId, lang: 'zh' };
  }

  /** `adoptGrants`: record the declared grants as given without giving them (see ReferenceData.converge). */
  async run(items: Item[], adoptGrants: boolean) {
    for (const r of await this.tx.query<{ kind: string; key: string; hash: string }>(
      `SELECT kind, key, hash FROM zs_reference WHERE tenant_id = $1 AND kind <> 'digest'`,
      [this.tenantId],
    ))
      this.ledger.set(`${r.kind}:${r.key}`, r.hash);
    const existing = await this.existingRows();
    const packaged = new Set(await packageMenuIds(this.tx, this.ctx.catalog, this.tenantId));
    for (const item of items) {
      if (item.kind === 'grant') this.grant(item, existing, packaged, adoptGrants);
      else await this.converge(item, existing);
    }
    await this.giveGrants();
    if (!this.written.length) return;
    await this.options.changed?.(this.tx);
    await this.tx.query(
      `INSERT INTO zs_reference (tenant_id, kind, key, hash)
         SELECT $1, k, n, h FROM unnest($2::text[], $3::text[], $4::text[]) AS x(k, n, h)
         ON CONFLICT (tenant_id, kind, key) DO UPDATE SET hash = EXCLUDED.hash`,
      [this.tenantId, this.written.map((w) => w.kind), this.written.map((w) => w.key), this.written.map((w) => w.hash)],
    );
  }

  private record(item: Item, hash: string) {
    this.written.push({ kind: item.kind, key: item.key, hash });
  }

  /** Added when missing; updated (or retired) when the declaration changed and the row is still what was applied. */
  private async converge(item: Item, existing: Map<string, Existing>) {
    // a retirement is a change of the declaration like any other
    const hash = hashOf(item.retired ? { ...item.values, retired: true } : item.values);
    const applied = this.ledger.get(`${item.kind}:${item.key}`);
    if (applied === hash) return;
    const row = existing.get(`${item.kind}:${item.key}`);
    if (applied === undefined) {
      if (!row && !item.retired) {
        existing.set(`${item.kind}:${item.key}`, await this.create(item, existing));
        this.report.added[item.kind]++;
      }
    } else if (row && hashOf(row.values) === applied) {
      if (item.retired) {
        if (await this.remove(item, row)) this.report.retired++;
      } else {
        await this.update(item, row, existing);
        this.report.updated++;
      }
    }
    this.record(item, hash);
  }

  /**
   * A grant never applied to this tenant: given to its roles of that alias (within its package), or
   * adopted as it stands. The grants to give are written together (`giveGrants`).
   */
  private grant(item: Item, existing: Map<string, Existing>, packaged: Set<string>, adopt: boolean) {
    if (this.ledger.has(`grant:${item.key}`)) return;
    const [alias, code] = item.key.split(':');
    const roles = this.tenantRoles.filter((r) => r.alias === alias).map((r) => r.id);
    const menu = existing.get(`menu:${code}`) ?? existing.get(`button:${code}`);
    if (!roles.length || !menu) return;
    if (!adopt && (!packaged.size || packaged.has(menu.id))) for (const role of roles) this.toGrant.push({ role, menu: menu.id });
    this.record(item, hashOf(item.values));
  }

  /** Writes the grants `grant` collected in one statement; counts each role alias and menu newly granted once. */
  private async giveGrants() {
    if (!this.toGrant.length) return;
    const added = await this.tx.query<{ role: string; menu: string }>(
      `INSERT INTO blade_role_menu (role_id, menu_id, tenant_id) SELECT r, m, $3 FROM unnest($1::bigint[], $2::bigint[]) AS x(r, m)
       ON CONFLICT DO NOTHING RETURNING role_id::text AS role, menu_id::text AS menu`,
      [this.toGrant.map((g) => g.role), this.toGrant.map((g) => g.menu), this.tenantId],
    );
    const aliasOf = new Map(this.tenantRoles.map((r) => [r.id, r.alias]));
    this.report.added.grant += new Set(added.map((g) => `${aliasOf.get(g.role)}:${g.menu}`)).size;
  }

  /** The tenant's reference rows as they stand, by kind and natural key (menus and system dictionaries are shared). */
  private async existingRows(): Promise<Map<string, Existing>> {
    const { menu, role } = this.ctx.catalog.entities;
    const out = new Map<string, Existing>();
    const menus = await this.tx.query<{
      id: string;
      parentId: string;
      code: string;
      name: string;
      en: string;
      path: string;
      icon: string;
      sort: number;
      category: number;
      action: number;
    }>(
      `SELECT id::text AS id, parent_id::text AS "parentId", ${fieldColumn(menu, 'code')} AS code, ${fieldColumn(menu, 'name')} AS name, ${fieldColumn(menu, 'nameEn')} AS en,
              ${fieldColumn(menu, 'path')} AS path, ${fieldColumn(menu, 'source')} AS icon, ${fieldColumn(menu, 'sort')} AS sort, ${fieldColumn(menu, 'category')} AS category, ${fieldColumn(menu, 'action')} AS action
         FROM ${q(menu.table)} WHERE is_deleted = 0 ORDER BY id`,
    );
    const menuCode = new Map(menus.map((m) => [m.id, m.code]));
    for (const m of menus) {
      out.set(`${m.category === 2 ? 'button' : 'menu'}:${m.code}`, {
        id: m.id,
        values: {
          parent: menuCode.get(m.parentId) ?? null,
          name: m.name,
          en: m.en,
          path: m.path,
          icon: m.icon,
          sort: m.sort,
          action: m.action,
        },
      });
    }
    const roles = await this.tx.query<{ id: string; parentId: string; alias: string; name: string; sort: number }>(
      `SELECT id::text AS id, parent_id::text AS "parentId", ${fieldColumn(role, 'roleAlias')} AS alias, ${fieldColumn(role, 'roleName')} AS name, ${fieldColumn(role, 'sort')} AS sort
         FROM ${q(role.table)} WHERE tenant_id = $1 AND is_deleted = 0 ORDER BY id`,
      [this.tenantId],
    );
    this.tenantRoles = roles;
    const roleAlias = new Map(roles.map((r) => [r.id, r.alias]));
    for (const r of roles) {
      if (!out.has(`role:${r.alias}`))
        out.set(`role:${r.alias}`, { id: r.id, values: { name: r.name, parent: roleAlias.get(r.parentId) ?? null, sort: r.sort } });
    }
    // the system dictionaries are shared: only the platform tenant's converge holds them
    const sources = this.tenantId === PLATFORM_TENANT ? (['system', 'biz'] as const) : (['biz'] as const);
    for (const source of sources) await this.existingDictionaries(source, out);
    return out;
  }

  private async existingDictionaries(source: 'system' | 'biz', out: Map<string, Existing>) {
    const model = this.dictionaryModel(source);
    const rows = await this.tx.query<{
      id: string;
      parentId: string;
      code: string;
      key: string;
      value: string;
      en: string | null;
      sort: number;
      remark: string | null;
    }>(
      `SELECT id::text AS id, parent_id::text AS "parentId", ${fieldColumn(model, 'code')} AS code, ${fieldColumn(model, 'dictKey')} AS key, ${fieldColumn(model, 'dictValue')} AS value,
              ${fieldColumn(model, 'dictValueEn')} AS en, ${fieldColumn(model, 'sort')} AS sort, ${fieldColumn(model, 'remark')} AS remark
         FROM ${q(model.table)} WHERE is_deleted = 0 ${source === 'biz' ? 'AND tenant_id = $1' : ''} ORDER BY id`,
      source === 'biz' ? [this.tenantId] : [],
    );
    for (const r of rows) {
      if (r.parentId === '0')
        out.set(`dictionary:${source}:${r.code}`, { id: r.id, values: { name: r.value, en: r.en ?? '', sort: r.sort } });
      else
        out.set(`dictionaryItem:${source}:${r.code}:${r.key}`, {
          id: r.id,
          values: { value: r.value, en: r.en ?? '', sort: r.sort, remark: r.remark || null },
        });
    }
  }

  private dictionaryModel(source: 'system' | 'biz'): EntityModel {
    return this.ctx.catalog.entities[this.ctx.dictionaryEntities[source]];
  }

  private store(model: EntityModel) {
    return new EntityStore(this.ctx, model, this.actor);
  }

  private async create(item: Item, existing: Map<string, Existing>): Promise<Existing> {
    const v = item.values as Record<string, any>;
    const parentOf = (kind: 'menu' | 'role') => parentId(kind, v.parent, existing);
    let id: string;
    if (item.kind === 'menu' || item.kind === 'button') {
      id = await this.store(this.ctx.catalog.entities.menu).insert({
        ...this.menuBody(v, item.key, parentOf('menu')),
        category: item.kind === 'button' ? 2 : 1,
        isOpen: 1,
      });
    } else if (item.kind === 'role') {
      id = await this.store(this.ctx.catalog.entities.role).insert({
        parentId: parentOf('role'),
        roleName: v.name,
        roleAlias: item.key,
        sort: v.sort,
      });
      this.tenantRoles.push({ id, alias: item.key });
    } else {
      id = await this.store(this.dictionaryModel(this.sourceOf(item))).insert(this.dictionaryBody(item, existing));
    }
    return { id, values: item.values };
  }

  private async update(item: Item, row: Existing, existing: Map<string, Existing>) {
    const v = item.values as Record<string, any>;
    const parentOf = (kind: 'menu' | 'role') => parentId(kind, v.parent, existing);
    if (item.kind === 'menu' || item.kind === 'button')
      await this.store(this.ctx.catalog.entities.menu).updatePart(row.id, this.menuBody(v, item.key, parentOf('menu')));
    else if (item.kind === 'role')
      await this.store(this.ctx.catalog.entities.role).updatePart(row.id, { parentId: parentOf('role'), roleName: v.name, sort: v.sort });
    else {
      const { parentId: _parent, ...body } = this.dictionaryBody(item, existing);
      await this.store(this.dictionaryModel(this.sourceOf(item))).updatePart(row.id, body);
    }
    row.values = item.values;
  }

  /**
   * A retired menu goes with its grants, top-menu places and package entries; a retired role only while no one holds it
   * (answers false when it stays, the role being someone's).
   */
  private async remove(item: Item, row: Existing): Promise<boolean> {
    if (item.kind === 'role') {
      try {
        await this.store(this.ctx.catalog.entities.role).remove([row.id]);
        return true;
      } catch (err) {
        if (err instanceof AppError) return false;
        throw err;
      }
    }
    const { menu, tenantPackage } = this.ctx.catalog.entities;
    const packaged = tenantPackage.fieldMap.menuId;
    await this.tx.query('DELETE FROM blade_role_menu WHERE menu_id = $1', [row.id]);
    await this.tx.query('DELETE FROM blade_top_menu_setting WHERE menu_id = $1', [row.id]);
    if (packaged.link) await this.tx.query(`DELETE FROM ${q(packaged.link.table)} WHERE ${q(packaged.column)} = $1`, [row.id]);
    await this.tx.query(`UPDATE ${q(menu.table)} SET is_deleted = 1 WHERE id = $1`, [row.id]);
    return true;
  }

  private menuBody(v: Record<string, any>, code: string, parentId: string) {
    return { parentId, code, name: v.name, nameEn: v.en, path: v.path, source: v.icon, sort: v.sort, action: v.action };
  }

  private sourceOf(item: Item): 'system' | 'biz' {
    return item.key.startsWith('system:') ? 'system' : 'biz';
  }

  private dictionaryBody(item: Item, existing: Map<string, Existing>) {
    const [source, code, key] = item.key.split(':');
    const v = item.values as Record<string, any>;
    if (item.kind === 'dictionary')
      return { parentId: '0', code, dictKey: '-1', dictValue: v.name, dictValueEn: v.en, sort: v.sort, isSealed: 0 };
    return {
      parentId: existing.get(`dictionary:${source}:${code}`)?.id ?? '0',
      code,
      dictKey: key,
      dictValue: v.value,
      dictValueEn: v.en,
      sort: v.sort,
      isSealed: 0,
      ...(v.remark && { remark: v.remark }),
    };
  }
}

/** "reference data: 2 dictionaries, 1 menu, 1 process added; 3 updated" — or nothing when nothing changed. */
export function describeReport(report: ConvergeReport): string | undefined {
  const names: Record<keyof ConvergeReport['added'], [string, string]> = {
    dictionary: ['dictionary', 'dictionaries'],
    dictionaryItem: ['dictionary item', 'dictionary items'],
    menu: ['menu', 'menus'],
    button: ['button', 'buttons'],
    role: ['role', 'roles'],
    grant: ['grant', 'grants'],
    process: ['process', 'processes'],
  };
  const added = (Object.keys(names) as (keyof typeof names)[])
    .filter((k) => report.added[k])
    .map((k) => `${report.added[k]} ${names[k][report.added[k] === 1 ? 0 : 1]}`);
  const parts = [
    added.length ? `${added.join(', ')} added` : '',
    report.updated ? `${report.updated} updated` : '',
    report.retired ? `${report.retired} retired` : '',
  ].filter(Boolean);
  return parts.length ? `reference data: ${parts.join('; ')}` : undefined;
}
