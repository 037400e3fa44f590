// The two statements the app runs for GET /api/construct/project/list (src/server/db/store.ts
// EntityStore.list with sql.ts selectList/orderSql and filter-sql.ts filterSql), written out by hand so the bare
// reference server and the SQL-only timings run exactly the same SQL: a count, then the page, read
// directly for shallow pages and through the page's ids (a "deferred join") from offset 200 on, as
// store.ts does. run.ts checks that the bare server returns the same rows with the same fields as
// the app, so a drift in the app's SQL shows up as a failed check.

export const SELECT_LIST = [
  `t."id"::text AS "id"`,
  `t."tenant_id" AS "tenantId"`,
  `t."create_user"::text AS "createUser"`,
  `t."create_dept"::text AS "createDept"`,
  `to_char(t."create_time", 'YYYY-MM-DD HH24:MI:SS') AS "createTime"`,
  `t."update_user"::text AS "updateUser"`,
  `to_char(t."update_time", 'YYYY-MM-DD HH24:MI:SS') AS "updateTime"`,
  `t."is_deleted" AS "isDeleted"`,
  `t."code" AS "code"`,
  `t."name" AS "name"`,
  `t."short_name" AS "shortName"`,
  `t."project_type" AS "projectType"`,
  `t."party_a_id"::text AS "partyAId"`,
  `t."org_name" AS "orgName"`,
  `t."province" AS "province"`,
  `t."city" AS "city"`,
  `t."district" AS "district"`,
  `t."address" AS "address"`,
  `t."building_area"::text AS "buildingArea"`,
  `t."structure_type" AS "structureType"`,
  `t."target_cost"::text AS "targetCost"`,
  `to_char(t."planned_start_date", 'YYYY-MM-DD') AS "plannedStartDate"`,
  `to_char(t."planned_end_date", 'YYYY-MM-DD') AS "plannedEndDate"`,
  `to_char(t."actual_start_date", 'YYYY-MM-DD') AS "actualStartDate"`,
  `to_char(t."actual_end_date", 'YYYY-MM-DD') AS "actualEndDate"`,
  `t."project_manager_name" AS "projectManagerName"`,
  `t."cost_manager_name" AS "costManagerName"`,
  `t."project_status" AS "projectStatus"`,
  `t."remark" AS "remark"`,
].join(', ');

/** store.ts DEFERRED_JOIN_OFFSET: from this offset on the app reads the page's ids first. */
export const DEFERRED_JOIN_OFFSET = 200;

export interface ListArgs {
  tenantId: string;
  current: number;
  size: number;
  nameLike?: string;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function listStatements(a: ListArgs) {
  const params: unknown[] = [a.tenantId];
  const where = ['t.tenant_id = $1', 't.is_deleted = 0'];
  if (a.nameLike !== undefined) {
    params.push(`%${escapeLike(a.nameLike)}%`);
    where.push(`t."name" ILIKE $${params.length}`);
  }
  const from = `FROM "construct_project" t WHERE ${where.join(' AND ')}`;
  const offset = (a.current - 1) * a.size;
  const order = 't."create_time" DESC, t.id DESC';
  const limit = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  const page =
    offset >= DEFERRED_JOIN_OFFSET
      ? `SELECT ${SELECT_LIST} FROM "construct_project" t JOIN (SELECT t.id ${from} ORDER BY ${order} ${limit}) page ON page.id = t.id ORDER BY ${order}`
      : `SELECT ${SELECT_LIST} ${from} ORDER BY ${order} ${limit}`;
  return {
    count: { sql: `SELECT count(*)::int AS total ${from}`, params },
    page: { sql: page, params: [...params, a.size, offset] },
    offset,
  };
}
