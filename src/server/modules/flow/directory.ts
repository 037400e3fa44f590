// Who a task is for, in database terms: an assignee or candidate user written in a model as a user
// id, as the platform's `taskUser_<id>`, or as an account name becomes a user id of the tenant;
// candidate groups are roles (alias or id) and reach every active user holding one.
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { Queryable } from '../../db/db.ts';
import { q } from '../../db/sql.ts';

const ID = /^\d{1,19}$/;

export class Directory {
  constructor(private readonly catalog: EntityCatalog) {}

  private get users() {
    return q(this.catalog.entities.user.table);
  }

  private get roles() {
    return q(this.catalog.entities.role.table);
  }

  /** Model values → users of the tenant (values naming nobody are absent from the map). */
  async resolveUsers(db: Queryable, tenantId: string, values: readonly string[]): Promise<Map<string, { id: string; active: boolean }>> {
    const wanted = [...new Set(values)];
    const out = new Map<string, { id: string; active: boolean }>();
    if (!wanted.length) return out;
    const idOf = (v: string) => (ID.test(v) ? v : /^taskUser_\d{1,19}$/.test(v) ? v.slice('taskUser_'.length) : undefined);
    const ids = wanted.map(idOf).filter((v): v is string => v !== undefined);
    const accounts = wanted.filter((v) => idOf(v) === undefined);
    const rows = await db.query<{ id: string; account: string; active: boolean }>(
      `SELECT id::text AS id, account, status = 1 AS active FROM ${this.users}
        WHERE tenant_id = $1 AND is_deleted = 0 AND (id = ANY($2::bigint[]) OR account = ANY($3::text[]))`,
      [tenantId, ids, accounts],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const byAccount = new Map(rows.map((r) => [r.account, r]));
    for (const v of wanted) {
      const id = idOf(v);
      const found = id !== undefined ? byId.get(id) : byAccount.get(v);
      if (found) out.set(v, { id: found.id, active: found.active });
    }
    return out;
  }

  /** Active users holding any of the roles (by alias or id). */
  async groupMembers(db: Queryable, tenantId: string, groups: readonly string[]): Promise<string[]> {
    if (!groups.length) return [];
    const rows = await db.query<{ id: string }>(
      `SELECT u.id::text AS id FROM ${this.users} u
        WHERE u.tenant_id = $1 AND u.is_deleted = 0 AND u.status = 1
          AND string_to_array(u.role_id, ',') && ARRAY(
            SELECT r.id::text FROM ${this.roles} r WHERE r.tenant_id = $1 AND r.is_deleted = 0 AND (r.role_alias = ANY($2::text[]) OR r.id::text = ANY($2::text[])))`,
      [tenantId, groups],
    );
    return rows.map((r) => r.id);
  }

  /** Display names of users of the tenant by id (for statements on a tenant's own database, which has no users). */
  async names(db: Queryable, tenantId: string, ids: readonly string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await db.query<{ id: string; name: string }>(
      `SELECT u.id::text AS id, ${this.nameOf('u')} AS name FROM ${this.users} u WHERE u.tenant_id = $1 AND u.id = ANY($2::bigint[])`,
      [tenantId, ids],
    );
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** SQL for a user's display name, joined as alias `alias` on `idColumn`. */
  nameJoin(alias: string, idColumn: string): string {
    return `LEFT JOIN ${this.users} ${alias} ON ${alias}.id = ${idColumn}`;
  }

  nameOf(alias: string): string {
    return `coalesce(nullif(${alias}.real_name, ''), ${alias}.name, ${alias}.account)`;
  }
}
