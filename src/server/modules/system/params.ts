// Parameters (blade_param): a tenant's own value, else the platform tenant's, else the default.
import type { EntityCatalog } from '../../../engine/model/types.ts';
import type { Queryable } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { PLATFORM_TENANT } from '../../db/store.ts';

export const PARAMS = {
  initPassword: 'account.initPassword',
  failCount: 'account.failCount',
  registerUser: 'account.registerUser',
  switchMode: 'account.switchMode',
} as const;

export async function readParam(db: Queryable, catalog: EntityCatalog, tenantId: string, key: string, fallback: string): Promise<string> {
  return (await readParams(db, catalog, tenantId, [key])).get(key) ?? fallback;
}

/** The values of several parameters in one read: each key's own value for the tenant, else the platform's; a key set nowhere is absent. */
export async function readParams(
  db: Queryable,
  catalog: EntityCatalog,
  tenantId: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const table = q(catalog.entities.param.table);
  // the platform's rows first, so that the tenant's own value overwrites it
  const rows = await db.query<{ k: string; v: string }>(
    `SELECT param_key AS k, param_value AS v FROM ${table} WHERE param_key = ANY($1::text[]) AND tenant_id IN ($2, $3) AND is_deleted = 0 ORDER BY (tenant_id = $2), id`,
    [keys, tenantId, PLATFORM_TENANT],
  );
  return new Map(rows.map((r) => [r.k, r.v]));
}
