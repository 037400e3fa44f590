// Start-up migration, once per installation. The form's tree picker (treeMultiSelect) used to add
// every node above the one a person picked: a user put in a project department was stored in its
// branch and its company as well, and a user given a role was given its parent role too, so a
// department data scope covered the whole company. The picker now stores exactly what was picked;
// this narrows the users stored before it: of a user's departments (roles), one that lies above
// another of the same user's is dropped, and the user's sessions end (their tokens carried the
// wider grants). It runs once, recorded in zs_setting: from then on a person may pick a department
// and one under it on purpose, and a later start leaves that alone.
import type { EntityCatalog, EntityModel } from '../../engine/model/types.ts';
import type { Queryable } from '../db/db.ts';
import { q } from '../db/sql.ts';

export const EXACT_TREE_PICKS_DONE = 'migration.exact-tree-picks';

/** The ids of `ids` that no other id of the list lies under (an id's parents from `parentOf`). */
export function withoutAncestors(ids: readonly string[], parentOf: ReadonlyMap<string, string>): string[] {
  const above = new Set<string>();
  for (const id of ids) {
    // stops at a node already seen: its own ancestors are in the set, and a cycle ends there
    for (let p = parentOf.get(id); p !== undefined && !above.has(p); p = parentOf.get(p)) above.add(p);
  }
  return ids.filter((id) => !above.has(id));
}

async function parentsOf(db: Queryable, model: EntityModel): Promise<Map<string, string>> {
  const parent = model.fieldMap[model.tree!.parentField].column;
  const rows = await db.query<{ id: string; parent: string | null }>(
    `SELECT id::text AS id, ${q(parent)}::text AS parent FROM ${q(model.table)} WHERE ${q(parent)} IS NOT NULL`,
  );
  return new Map(rows.filter((r) => r.parent && r.parent !== model.tree!.root).map((r) => [r.id, r.parent!]));
}

function narrowed(value: string | null, parentOf: ReadonlyMap<string, string>): string | null {
  if (!value?.includes(',')) return value;
  return withoutAncestors(value.split(','), parentOf).join(',');
}

/**
 * Narrows the departments and roles of the users stored before the picker was exact, once per
 * installation, in one transaction; `revoke` ends the sessions of the users it changed. Returns
 * how many users it changed (0 on every start after the first).
 */
export async function narrowWidenedPicks(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  catalog: EntityCatalog,
  revoke: (tx: Queryable, userIds: string[]) => Promise<void>,
): Promise<number> {
  const { user, dept, role } = catalog.entities;
  const deptColumn = q(user.fieldMap.deptId.column);
  const roleColumn = q(user.fieldMap.roleId.column);
  return db.transaction(async (tx) => {
    const [done] = await tx.query(`SELECT 1 FROM zs_setting WHERE key = $1`, [EXACT_TREE_PICKS_DONE]);
    if (done) return 0;
    const users = await tx.query<{ id: string; deptId: string | null; roleId: string | null }>(
      `SELECT id::text AS id, ${deptColumn} AS "deptId", ${roleColumn} AS "roleId" FROM ${q(user.table)}
        WHERE ${deptColumn} LIKE '%,%' OR ${roleColumn} LIKE '%,%'`,
    );
    const changed: string[] = [];
    if (users.length) {
      const depts = await parentsOf(tx, dept);
      const roles = await parentsOf(tx, role);
      for (const u of users) {
        const deptId = narrowed(u.deptId, depts);
        const roleId = narrowed(u.roleId, roles);
        if (deptId === u.deptId && roleId === u.roleId) continue;
        await tx.query(`UPDATE ${q(user.table)} SET ${deptColumn} = $1, ${roleColumn} = $2 WHERE id = $3`, [deptId, roleId, u.id]);
        changed.push(u.id);
      }
      if (changed.length) await revoke(tx, changed);
    }
    await tx.query(`INSERT INTO zs_setting (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [
      EXACT_TREE_PICKS_DONE,
      new Date().toISOString(),
    ]);
    return changed.length;
  });
}
