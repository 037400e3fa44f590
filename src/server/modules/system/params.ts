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
  const table = q(catalog.entities.param.table);
  const rows = await db.query<{ v: string }>(
    `SELECT param_value AS v FROM ${table} WHERE param_key = $1 AND tenant_id IN ($2, $3) AND is_deleted = 0 ORDER BY (tenant_id = $2) DESC LIMIT 1`,
    [key, tenantId, PLATFORM_TENANT],
  );
  return rows[0]?.v ?? fallback;
}
