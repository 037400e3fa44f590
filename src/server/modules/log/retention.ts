// Log retention: rows older than the tenant's log.retentionDays (its own parameter, else the
// platform's, else 90 days) are removed a batch at a time, so that no statement holds the tables
// (or the embedded database's single thread) for long.
import type { EntityCatalog, EntityModel } from '../../../engine/model/types.ts';
import { nowText } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { PLATFORM_TENANT } from '../../db/store.ts';

const DEFAULT_DAYS = 90;
const BATCH = 1000;
const DAY_MS = 86_400_000;

function days(value: string | undefined): number | undefined {
  const n = Number(value?.trim());
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** Each tenant's retention in days. */
async function retentionByTenant(db: Db, catalog: EntityCatalog): Promise<Map<string, number>> {
  const params = await db.query<{ tenant: string; value: string }>(
    `SELECT tenant_id AS tenant, param_value AS value FROM ${q(catalog.entities.param.table)} WHERE param_key = 'log.retentionDays' AND is_deleted = 0`,
  );
  const own = new Map(params.map((p) => [p.tenant, days(p.value)]));
  const fallback = own.get(PLATFORM_TENANT) ?? DEFAULT_DAYS;
  const tenants = await db.query<{ tenant: string }>(`SELECT DISTINCT tenant_id AS tenant FROM ${q(catalog.entities.tenant.table)}`);
  return new Map([PLATFORM_TENANT, ...tenants.map((t) => t.tenant)].map((t) => [t, own.get(t) ?? fallback]));
}

export async function purgeExpiredLogs(
  ctx: { db: Db; catalog: EntityCatalog; timeZone: string },
  models: EntityModel[],
  now: Date,
): Promise<number> {
  let removed = 0;
  for (const [tenant, keep] of await retentionByTenant(ctx.db, ctx.catalog)) {
    const cutoff = nowText(ctx.timeZone, new Date(now.getTime() - keep * DAY_MS));
    for (const model of models) {
      for (;;) {
        const [{ n }] = await ctx.db.query<{ n: number }>(
          `WITH gone AS (DELETE FROM ${q(model.table)} WHERE id IN (SELECT id FROM ${q(model.table)} WHERE tenant_id = $1 AND create_time < $2 LIMIT ${BATCH}) RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [tenant, cutoff],
        );
        removed += n;
        if (n < BATCH) break;
      }
    }
  }
  return removed;
}
