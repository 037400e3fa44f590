// The data-scope rules derived from the schemas (x-entity.dataScopes, src/engine/model/data-scopes.ts)
// kept as rows of the platform tenant in the rule table, marked built-in: every tenant reads them,
// a role is granted them through blade_role_scope like any rule, and nobody changes them
// (x-entity.fixedIf). Each start makes the rows agree with the schema set: a missing rule is added,
// a changed one rewritten in place (its id, and so every grant of it, stays), one no longer derived
// is removed. The rule type 6 (own projects) joins the system dictionary of installations seeded
// before it.
import { SCOPE_KIND_LABELS } from '../../engine/model/data-scopes.ts';
import type { DataScopeKind, EntityCatalog, EntityModel } from '../../engine/model/types.ts';
import { nowText } from '../clock.ts';
import type { Queryable } from '../db/db.ts';
import { nextId } from '../db/ids.ts';
import { q } from '../db/sql.ts';
import { PLATFORM_TENANT } from '../db/store.ts';

interface Wanted {
  menuId: string;
  resourceCode: string;
  scopeName: string;
  scopeType: string;
  scopeColumn: string | null;
}

interface Stored extends Wanted {
  id: string;
}

const snake = (kind: DataScopeKind) => kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The rule rows the schema set asks for, one per document type (by its menu) and kind. */
async function wantedRules(db: Queryable, catalog: EntityCatalog): Promise<Wanted[]> {
  const models = Object.values(catalog.entities).filter((m) => m.menu && m.dataScopes.length);
  if (!models.length) return [];
  const menus = await db.query<{ id: string; code: string }>(
    `SELECT id::text AS id, code FROM ${q(catalog.entities.menu.table)} WHERE category = 1 AND is_deleted = 0 AND code = ANY($1::text[])`,
    [models.map((m) => m.menu!.code)],
  );
  const menuOf = new Map(menus.map((m) => [m.code, m.id]));
  return models.flatMap((m) => {
    const menuId = menuOf.get(m.menu!.code);
    if (!menuId) return []; // a menu a platform administrator removed: the type offers no rules
    return m.dataScopes.map((rule) => ({
      menuId,
      resourceCode: `${m.menu!.code}_${snake(rule.kind)}`,
      scopeName: SCOPE_KIND_LABELS[rule.kind].zh,
      scopeType: rule.scopeType,
      scopeColumn: rule.field ?? null,
    }));
  });
}

const keyOf = (r: { menuId: string; scopeType: string }) => `${r.menuId}|${r.scopeType}`;

/**
 * Makes the built-in rule rows agree with the schema set (at start and after code generation
 * installs a type). Answers how many rows it added, changed or removed.
 */
export async function syncDerivedScopes(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  catalog: EntityCatalog,
  timeZone: string,
  actor: { userId: string; deptId: string },
): Promise<number> {
  const model = catalog.entities.dataScope;
  const table = q(model.table);
  return db.transaction(async (tx) => {
    // rules written before tenants could add their own are the platform's
    await tx.query(`UPDATE ${table} SET tenant_id = $1 WHERE tenant_id IS NULL`, [PLATFORM_TENANT]);
    await tx.query(`UPDATE ${table} SET built_in = 0 WHERE built_in IS NULL`);
    await addOwnProjectType(tx, catalog, timeZone, actor);
    const wanted = await wantedRules(tx, catalog);
    const stored = await tx.query<Stored>(
      `SELECT id::text AS id, menu_id::text AS "menuId", resource_code AS "resourceCode", scope_name AS "scopeName",
              scope_type AS "scopeType", scope_column AS "scopeColumn"
         FROM ${table} WHERE built_in = 1 AND is_deleted = 0`,
    );
    const byKey = new Map(stored.map((r) => [keyOf(r), r]));
    const now = nowText(timeZone);
    let changes = 0;
    for (const rule of wanted) {
      const row = byKey.get(keyOf(rule));
      byKey.delete(keyOf(rule));
      if (!row) {
        await tx.query(
          `INSERT INTO ${table} (id, tenant_id, menu_id, resource_code, scope_name, scope_field, scope_column, scope_type, built_in,
                                 create_user, create_dept, create_time, update_user, update_time, is_deleted)
           VALUES ($1, $2, $3, $4, $5, '*', $6, $7, 1, $8, $9, $10, $8, $10, 0)`,
          [
            nextId(),
            PLATFORM_TENANT,
            rule.menuId,
            rule.resourceCode,
            rule.scopeName,
            rule.scopeColumn,
            rule.scopeType,
            actor.userId,
            actor.deptId,
            now,
          ],
        );
        changes++;
      } else if (row.resourceCode !== rule.resourceCode || row.scopeName !== rule.scopeName || row.scopeColumn !== rule.scopeColumn) {
        await tx.query(`UPDATE ${table} SET resource_code = $2, scope_name = $3, scope_column = $4, update_time = $5 WHERE id = $1`, [
          row.id,
          rule.resourceCode,
          rule.scopeName,
          rule.scopeColumn,
          now,
        ]);
        changes++;
      }
    }
    // turned off in the schema (or its type removed): the rule and so its grants stop applying
    const gone = [...byKey.values()].map((r) => r.id);
    if (gone.length) await tx.query(`UPDATE ${table} SET is_deleted = 1, update_time = $2 WHERE id = ANY($1::bigint[])`, [gone, now]);
    return changes + gone.length;
  });
}

/** Rule type 6 (own projects) in the system dictionary of an installation seeded before it existed. */
async function addOwnProjectType(tx: Queryable, catalog: EntityCatalog, timeZone: string, actor: { userId: string; deptId: string }) {
  const dict: EntityModel = catalog.entities.dict;
  const item = catalog.dictionaries.find((d) => d.code === 'data_scope_type')?.items.find((i) => i.key === '6');
  if (!dict || !item) return;
  const table = q(dict.table);
  const [root] = await tx.query<{ id: string }>(
    `SELECT id::text AS id FROM ${table} WHERE code = 'data_scope_type' AND parent_id = 0 AND is_deleted = 0 LIMIT 1`,
  );
  if (!root) return; // not seeded: the first start's seed writes the whole dictionary
  const [present] = await tx.query(`SELECT 1 FROM ${table} WHERE parent_id = $1 AND dict_key = '6' AND is_deleted = 0`, [root.id]);
  if (present) return;
  const now = nowText(timeZone);
  await tx.query(
    `INSERT INTO ${table} (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed, create_user, create_dept, create_time, update_user, update_time, is_deleted)
     VALUES ($1, $2, 'data_scope_type', '6', $3, $4, 6, 0, $5, $6, $7, $5, $7, 0)`,
    [nextId(), root.id, item.value, item.en ?? null, actor.userId, actor.deptId, now],
  );
}
