// Benchmark data, written with plain SQL after the app has created its tables: per tenant 50
// clients (construct_party_a) and N projects (construct_project) with every column a real row has.
// The same statements run on PostgreSQL and on PGlite. Values are derived from a hash of the row
// number, so every run produces the same data.

export const TENANT_BASE = 100001;
/** The name fragment of case (b): 3 of the 16 name "features" contain it (~19% of the rows). */
export const NAME_FRAGMENT = '花园';
const PARTIES_PER_TENANT = 50;
/** Snowflake epoch of src/server/db/ids.ts (2024-01-01T00:00:00Z) in ms. */
const ID_EPOCH_MS = 1704067200000;

export function tenantId(i: number): string {
  return String(TENANT_BASE + i);
}

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** One of `list`, chosen by a non-negative bigint expression. */
const pick = (list: string[], expr: string) => `(ARRAY[${list.map(lit).join(',')}])[1 + ((${expr}) % ${list.length})]`;
/** Snowflake-like id from a timestamp column, a 10-bit worker and a 12-bit sequence. */
const snowflake = (ts: string, worker: string, seq: string) =>
  `(((extract(epoch FROM ${ts})::bigint * 1000 - ${ID_EPOCH_MS}) << 22) | ((${worker}) << 12) | (${seq}))`;

const CITIES = [
  '杭州',
  '宁波',
  '苏州',
  '南京',
  '合肥',
  '武汉',
  '长沙',
  '成都',
  '重庆',
  '西安',
  '郑州',
  '济南',
  '青岛',
  '厦门',
  '福州',
  '昆明',
];
const PROVINCES = [
  '浙江省',
  '浙江省',
  '江苏省',
  '江苏省',
  '安徽省',
  '湖北省',
  '湖南省',
  '四川省',
  '重庆市',
  '陕西省',
  '河南省',
  '山东省',
  '山东省',
  '福建省',
  '福建省',
  '云南省',
];
const FEATURES = [
  '锦绣花园',
  '滨江新城',
  '科创园',
  '中央公园',
  '翡翠湾',
  '学府里',
  '香樟花园',
  '星河湾',
  '云栖小镇',
  '未来社区',
  '高铁新城',
  '临港产业园',
  '湖畔花园',
  '金融中心',
  '体育中心',
  '人民医院',
];
const PHASES = ['', '一期', '二期', '三期', 'A区', 'B区'];
const KINDS = [
  '住宅工程',
  '安置房工程',
  '综合楼工程',
  '道路改造工程',
  '桥梁工程',
  '雨污管网工程',
  '厂房工程',
  '学校工程',
  '精装修工程',
  '机电安装工程',
];
const KIND_TYPES = [
  'building',
  'building',
  'building',
  'municipal',
  'highway',
  'municipal',
  'building',
  'building',
  'decoration',
  'installation',
];
const STATUSES = ['preparing', 'constructing', 'constructing', 'constructing', 'suspended', 'completed', 'final_settled', 'closed'];
const DISTRICTS = ['高新区', '经开区', '新城区', '老城区', '滨江区', '开发区'];
const ORGS = [
  '筑算建设集团第一工程有限公司',
  '筑算建设集团第二工程有限公司',
  '筑算建设集团第三工程有限公司',
  '筑算市政工程有限公司',
  '筑算机电安装有限公司',
];
const STRUCTURES = ['框架结构', '剪力墙结构', '框架-剪力墙结构', '钢结构', '砖混结构', '装配式混凝土结构'];
const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴', '徐', '孙'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '强', '磊', '军', '洋', '勇', '杰', '涛', '明', '超', '霞', '平'];
const PARTY_SUFFIXES = ['城市建设投资集团有限公司', '城投置业有限公司', '交通投资集团有限公司', '住房保障服务中心'];
const PARTY_TYPES = ['government', 'soe', 'soe', 'private', 'foreign', 'other'];
const BANKS = ['中国工商银行', '中国建设银行', '中国农业银行', '中国银行', '交通银行'];

const person = (h: string) =>
  `${pick(SURNAMES, `${h} >> 5`)} || ${pick(GIVEN, `${h} >> 9`)} || CASE WHEN (${h} >> 13) % 2 = 0 THEN ${pick(GIVEN, `${h} >> 14`)} ELSE '' END`;

/** Statements that fill the tables (one transaction's worth; run VACUUM ANALYZE afterwards, separately). */
export function seedSql(tenants: number, perTenant: number): string[] {
  const parties = `
INSERT INTO construct_party_a (id, tenant_id, create_user, create_dept, create_time, update_user, update_time, is_deleted,
  name, credit_code, party_a_type, legal_person, contact_name, contact_phone, address, bank_name, bank_account, invoice_title, tax_no, status, remark)
SELECT ${snowflake('s.ct', '1023', 's.k')}, s.tenant, s.usr, s.dept, s.ct, s.usr, s.ct, 0,
  s.pname, s.credit, ${pick(PARTY_TYPES, 's.h >> 3')}, ${person('s.h')}, ${person('(s.h >> 17)')},
  '1' || (ARRAY['38','39','58','86'])[1 + (s.h >> 30) % 4] || lpad(((s.h >> 33) % 100000000)::text, 8, '0'),
  ${pick(PROVINCES, 's.i % 16')} || ${pick(CITIES, 's.i % 16')} || '市' || ${pick(DISTRICTS, 's.h >> 40')} || '人民路' || (1 + (s.h >> 43) % 300) || '号',
  ${pick(BANKS, 's.h >> 50')} || ${pick(CITIES, 's.i % 16')} || '分行',
  lpad(((s.h >> 8) % 1000000000000)::text, 12, '0') || lpad((s.k % 10000)::text, 4, '0'),
  s.pname, s.credit, CASE WHEN s.i % 17 = 16 THEN 'disabled' ELSE 'enabled' END, NULL
FROM (
  SELECT k, i, tenant, ct, h,
    1900000000000000000 + t * 100 + (h >> 56) % 5 AS usr,
    1800000000000000000 + t * 10 + (h >> 58) % 3 AS dept,
    ${pick(CITIES, 'i % 16')} || ${pick(PARTY_SUFFIXES, 'i / 16')} AS pname,
    '9133' || lpad(k::text, 14, '0') AS credit
  FROM (
    SELECT k, k % ${PARTIES_PER_TENANT} AS i, k / ${PARTIES_PER_TENANT} AS t, (${TENANT_BASE} + k / ${PARTIES_PER_TENANT})::text AS tenant,
      timestamp '2024-01-01 09:00:00' + k * interval '1 minute' AS ct,
      (hashint8extended(k, 7) & 9223372036854775807) AS h
    FROM generate_series(0, ${tenants * PARTIES_PER_TENANT - 1}) AS k
  ) base
) s`;

  const projects = `
INSERT INTO construct_project (id, tenant_id, create_user, create_dept, create_time, update_user, update_time, is_deleted,
  code, name, short_name, project_type, party_a_id, org_name, province, city, district, address, building_area, structure_type,
  target_cost, planned_start_date, planned_end_date, actual_start_date, actual_end_date, project_manager_name, cost_manager_name,
  project_status, remark)
SELECT ${snowflake('s.ct', 's.g % 1024', 's.g / 1024')}, s.tenant, s.usr, s.dept, s.ct, s.usr,
  s.ct + ((s.h >> 3) % 864000) * interval '1 second', 0,
  'XM-' || to_char(s.ct, 'YYYYMM') || '-' || lpad(row_number() OVER (PARTITION BY s.tenant, to_char(s.ct, 'YYYYMM') ORDER BY s.ct, s.g)::text, 4, '0'),
  ${pick(CITIES, 's.ci')} || ${pick(FEATURES, 's.h >> 8')} || ${pick(PHASES, 's.h >> 21')} || ${pick(KINDS, 's.ki')} || '第' || s.n || '标段',
  ${pick(CITIES, 's.ci')} || ${pick(FEATURES, 's.h >> 8')},
  ${pick(KIND_TYPES, 's.ki')}, p.id, ${pick(ORGS, 's.h >> 17')},
  ${pick(PROVINCES, 's.ci')}, ${pick(CITIES, 's.ci')} || '市', ${pick(DISTRICTS, 's.h >> 24')},
  ${pick(CITIES, 's.ci')} || '市' || ${pick(DISTRICTS, 's.h >> 24')} || ${pick(['建设路', '学院路', '滨江大道', '环城北路', '科技大道'], 's.h >> 27')} || (1 + (s.h >> 30) % 999) || '号',
  round((500 + ((s.h >> 16) % 3000000) / 10.0)::numeric, 4), ${pick(STRUCTURES, 's.h >> 35')},
  round((5000000 + (s.h % 90000000000) / 100.0)::numeric, 2),
  s.pstart, s.pstart + (365 + (s.h >> 26) % 730)::int,
  CASE WHEN s.status <> 'preparing' THEN s.pstart + ((s.h >> 36) % 20)::int END,
  CASE WHEN s.status IN ('completed', 'final_settled', 'closed') THEN s.pstart + (365 + (s.h >> 26) % 730)::int + ((s.h >> 40) % 60)::int - 30 END,
  ${person('s.h')}, ${person('(s.h >> 19)')}, s.status,
  CASE (s.h >> 45) % 10 WHEN 0 THEN '甲方要求提前完成主体结构' WHEN 1 THEN '含地下室两层,需基坑专项方案' ELSE NULL END
FROM (
  SELECT g, t, n, tenant, ct, h, (h >> 4) % 16 AS ci, (h >> 12) % 10 AS ki, (h >> 48) % ${PARTIES_PER_TENANT} AS pi,
    (ct + ((h >> 20) % 60) * interval '1 day')::date AS pstart,
    ${pick(STATUSES, 'h >> 32')} AS status,
    1900000000000000000 + t * 100 + (h >> 56) % 5 AS usr,
    1800000000000000000 + t * 10 + (h >> 58) % 3 AS dept
  FROM (
    SELECT g, g / ${perTenant} AS t, g % ${perTenant} + 1 AS n, (${TENANT_BASE} + g / ${perTenant})::text AS tenant,
      timestamp '2024-01-02 08:00:00' + ((g % ${perTenant}) * 5400 + (g / ${perTenant}) * 7 + (hashint8extended(g, 11) & 4095) % 3600) * interval '1 second' AS ct,
      (hashint8extended(g, 3) & 9223372036854775807) AS h
    FROM generate_series(0, ${tenants * perTenant - 1}) AS g
  ) base
) s
JOIN (SELECT tenant_id, id, row_number() OVER (PARTITION BY tenant_id ORDER BY id) - 1 AS i FROM construct_party_a) p
  ON p.tenant_id = s.tenant AND p.i = s.pi`;

  // The code counters, so a project created later continues each month's numbering.
  const sequences = `
INSERT INTO zs_sequence (tenant_id, name, period, value)
SELECT tenant_id, 'project', substr(code, 4, 6), max(substr(code, 11)::bigint) FROM construct_project GROUP BY 1, 3
ON CONFLICT (tenant_id, name, period) DO UPDATE SET value = GREATEST(zs_sequence.value, EXCLUDED.value)`;

  return [parties, projects, sequences];
}

/** The bench user's role in each tenant (ids are fixed so the token can name them). */
export function roleId(i: number): string {
  return String(1700000000000000001n + BigInt(i));
}
export const ROLE_ALIAS = 'project_clerk';

/**
 * What a tenant user needs to read projects once access control is on: the tenant itself (no
 * package: every menu allowed), a role, and the role's grant of the project menu with its buttons.
 * Each statement stands alone (run outside a transaction): a statement whose table does not exist
 * in this version of the app is reported and skipped.
 */
export function accessSql(tenants: number): { label: string; sql: string }[] {
  const ids = Array.from({ length: tenants }, (_, i) => i);
  const values = (f: (i: number) => string) => ids.map(f).join(',\n  ');
  return [
    {
      label: 'tenants (blade_tenant)',
      sql: `INSERT INTO blade_tenant (id, tenant_id, tenant_name, linkman, contact_number, account_number, is_deleted, create_time, update_time) VALUES
  ${values((i) => `(${1600000000000000001n + BigInt(i)}, '${tenantId(i)}', ${lit(`${CITIES[i % 16]}筑算建设集团${i >= 16 ? i : ''}`)}, '王磊', '13800000000', -1, 0, now(), now())`)}`,
    },
    {
      label: 'roles (blade_role)',
      sql: `INSERT INTO blade_role (id, tenant_id, parent_id, role_name, role_alias, sort, is_deleted, create_time, update_time) VALUES
  ${values((i) => `(${roleId(i)}, '${tenantId(i)}', 0, '项目经办', '${ROLE_ALIAS}', 1, 0, now(), now())`)}`,
    },
    {
      label: 'project menu grants (blade_role_menu)',
      sql: `INSERT INTO blade_role_menu (role_id, menu_id, tenant_id)
SELECT r.role_id, m.id, r.tenant_id
FROM (VALUES ${ids.map((i) => `(${roleId(i)}::bigint, '${tenantId(i)}')`).join(', ')}) AS r(role_id, tenant_id)
CROSS JOIN blade_menu m
WHERE m.is_deleted = 0 AND (m.code IN ('cost_master', 'project') OR m.parent_id IN (SELECT id FROM blade_menu WHERE code = 'project' AND is_deleted = 0))
ON CONFLICT DO NOTHING`,
    },
  ];
}

export const ANALYZE_SQL = 'VACUUM ANALYZE construct_party_a, construct_project';

/** Facts about the inserted data (of the bench tenants only: the app's own seed may add demo rows elsewhere), checked before any load runs. */
export function checkSql(tenants: number): string {
  const list = Array.from({ length: tenants }, (_, i) => `'${tenantId(i)}'`).join(', ');
  return `
SELECT count(*)::int AS rows, count(DISTINCT tenant_id)::int AS tenants, count(DISTINCT id)::int AS ids,
  count(*) FILTER (WHERE tenant_id = '${tenantId(0)}')::int AS tenant_rows,
  count(*) FILTER (WHERE tenant_id = '${tenantId(0)}' AND name LIKE '%${NAME_FRAGMENT}%')::int AS fragment_rows,
  count(*) FILTER (WHERE party_a_id IS NULL OR project_type IS NULL OR project_status IS NULL OR target_cost IS NULL OR code IS NULL)::int AS incomplete,
  min(create_time)::text AS first_created, max(create_time)::text AS last_created,
  (SELECT count(*)::int FROM construct_project WHERE NOT (tenant_id IN (${list}))) AS other_rows,
  pg_size_pretty(pg_total_relation_size('construct_project')) AS size
FROM construct_project WHERE is_deleted = 0 AND tenant_id IN (${list})`;
}
