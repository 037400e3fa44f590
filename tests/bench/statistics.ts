// Project statistics under volume (issue #9's benchmark): one tenant with 50 projects, each with an
// approved expense contract of every kind twice (16), each settled every month for 24 months
// (19,200 approved settlement headers over the eight settlement tables) with 10 lines each
// (~170,000 detail rows; the scaffold settlement has none), plus drafts that must not count. Rows
// are inserted by SQL, then statisticsData is asked sequentially in-process (app.inject: routing,
// token check, permission and data-scope look-ups, the SQL and the envelope; no socket) for every
// project at once and for one project, on PostgreSQL and on the embedded database.
// Run: npx tsx tests/bench/statistics.ts   Knobs: BENCH_PG_URL, BENCH_STATS_REQUESTS (default 200).
// Writes tests/bench/statistics-results.md.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createApp, type App } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { testConfig } from '../server/config.ts';
import { num } from './env.ts';
import { ms, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = num('BENCH_STATS_REQUESTS', 200);
const PROJECTS = 50;
const CONTRACTS_PER_KIND = 2;
const MONTHS = 24;
const LINES = 10;
/** The settlement kind of each contract type (domain §6). */
const KIND_OF: Record<string, string> = {
  labor: 'laborMonthlySettlement', subcontract: 'subcontractMonthlySettlement', material: 'materialMonthlySettlement',
  concrete: 'materialConcreteMonthlySettlement', turnover_lease: 'materialTurnoverMonthlySettlement',
  aluminum_formwork: 'materialAluminumAlloySettlement', scaffold: 'equipmentScaffoldSettlement', equipment_lease: 'equipmentLeaseMonthlySettlement',
};

const col = (app: App, entity: string, field: string) => `"${app.catalog.entities[entity].fieldMap[field].column}"`;

/** Inserts the data set by SQL; answers the number of settlement headers and lines written. */
async function fill(app: App): Promise<{ headers: number; lines: number }> {
  const db = app.db;
  const t = (e: string) => `"${app.catalog.entities[e].table}"`;
  const c = (e: string, f: string) => col(app, e, f);
  await db.query(`INSERT INTO ${t('project')} (id, tenant_id, ${c('project', 'code')}, ${c('project', 'name')}, ${c('project', 'projectType')}, ${c('project', 'targetCost')})
    SELECT 9000000 + p, '000000', 'XM-B-' || p, '基准项目 ' || p, 'building', 50000000 FROM generate_series(1, ${PROJECTS}) p`);
  const types = Object.keys(KIND_OF);
  // contract id = 9100000 + project × 100 + type index × 10 + n; every fifth one of the extra drafts stays draft
  await db.query(`INSERT INTO ${t('expenditureContract')} (id, tenant_id, ${c('expenditureContract', 'code')}, ${c('expenditureContract', 'name')}, ${c('expenditureContract', 'projectId')},
      ${c('expenditureContract', 'expenditureContractType')}, ${c('expenditureContract', 'contractAmount')}, ${c('expenditureContract', 'changeAmount')}, ${c('expenditureContract', 'currentAmount')}, ${c('expenditureContract', 'approvalStatus')})
    SELECT 9100000 + p * 100 + ti * 10 + n, '000000', 'ZCHT-B-' || p || '-' || ti || '-' || n, '基准合同', 9000000 + p, ($1::text[])[ti + 1],
      3000000, 100000, 3100000, CASE WHEN n > ${CONTRACTS_PER_KIND} THEN 'draft' ELSE 'approved' END
    FROM generate_series(1, ${PROJECTS}) p, generate_series(0, ${types.length - 1}) ti, generate_series(1, ${CONTRACTS_PER_KIND + 1}) n`, [types]);
  let headers = 0;
  let lines = 0;
  for (const [ti, type] of types.entries()) {
    const e = KIND_OF[type];
    const model = app.catalog.entities[e];
    const ids = `9200000000 + ${ti} * 100000000 + p * 100000 + n * 1000 + m`;
    const inserted = await db.query(`INSERT INTO ${t(e)} (id, tenant_id, ${c(e, 'projectId')}, ${c(e, 'expenditureContractCode')}, ${c(e, 'period')},
        ${c(e, 'thisAmountInclTax')}, ${c(e, 'thisAmountExclTax')}, ${c(e, 'thisPayableAmount')}, ${c(e, 'retentionAmount')}, ${c(e, 'approvalStatus')})
      SELECT ${ids}, '000000', 9000000 + p, 'ZCHT-B-' || p || '-' || ${ti} || '-' || n, to_char(date '2024-01-01' + (m - 1) * interval '1 month', 'YYYY-MM'),
        10900, 10000, 8400, 327, CASE WHEN m = ${MONTHS + 1} THEN 'approving' ELSE 'approved' END
      FROM generate_series(1, ${PROJECTS}) p, generate_series(1, ${CONTRACTS_PER_KIND}) n, generate_series(1, ${MONTHS + 1}) m RETURNING id`);
    headers += inserted.length;
    const detail = model.details[0];
    if (!detail) continue;
    const fk = `"${detail.foreignKeyColumn}"`;
    const rows = await db.query(`INSERT INTO "${detail.table}" (id, tenant_id, ${fk}) SELECT h.id * 100 + l, '000000', h.id
      FROM ${t(e)} h, generate_series(1, ${LINES}) l WHERE h.id >= 9200000000 + ${ti} * 100000000 AND h.id < 9200000000 + ${ti + 1} * 100000000 RETURNING id`);
    lines += rows.length;
  }
  for (const e of [...new Set(Object.values(KIND_OF))]) await db.query(`ANALYZE ${t(e)}`);
  await db.query(`ANALYZE ${t('expenditureContract')}`);
  return { headers, lines };
}

async function measure(app: App, query: Record<string, string>): Promise<{ p50: number; p99: number; max: number; check: unknown }> {
  const token = await app.tokens.sign({ tenant_id: '000000', user_id: '1123598821738675201', dept_id: '1123598813738675201', role_name: 'administrator' });
  const ask = () => app.app.inject({ method: 'GET', url: '/api/construct/project/statisticsData', query, headers: { 'blade-auth': `bearer ${token}` } });
  for (let i = 0; i < 20; i++) await ask(); // warm-up
  const times: number[] = [];
  let last: any;
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const res = await ask();
    times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`statisticsData answered ${res.statusCode}: ${res.body}`);
    last = JSON.parse(res.body).data;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))], max: times[times.length - 1], check: last.total };
}

async function run(kind: 'postgres' | 'pglite', db: Db) {
  const app = await createApp(testConfig({ demo: 'off' }), { db, logger: false });
  try {
    const filled = await fill(app);
    const all = await measure(app, {});
    const one = await measure(app, { projectId: String(9000001) });
    // every approved settlement: 50 projects × 8 kinds × 2 contracts × 24 months × 10,900
    const expected = PROJECTS * 8 * CONTRACTS_PER_KIND * MONTHS * 10900;
    const total = all.check as { settledAmountInclTax: number; contractCount: number };
    if (Number(total.settledAmountInclTax) !== expected || total.contractCount !== PROJECTS * 8 * CONTRACTS_PER_KIND) throw new Error(`wrong totals: ${JSON.stringify(total)}`);
    return { kind, ...filled, all, one };
  } finally {
    await app.close();
  }
}

async function main() {
  const results = [];
  const name = `zs_bench_stats_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const pgDb = await openPostgres(url.toString(), { max: 5 });
  try {
    results.push(await run('postgres', pgDb));
  } finally {
    await pgDb.close();
    if (process.env.BENCH_KEEP) console.log(`kept database ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  if (!process.env.BENCH_PG_ONLY) results.push(await run('pglite', await openPglite(undefined)));
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  const text = `# statisticsData under volume\n\n${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average ${load} at the end.\n` +
    `${REQUESTS} sequential requests after 20 warm-up, in-process (app.inject).\n\n` +
    table(['database', 'settlements', 'lines', 'all projects p50 / p99 / max ms', 'one project p50 / p99 / max ms'],
      results.map((r) => [r.kind, r.headers, r.lines, `${ms(r.all.p50)} / ${ms(r.all.p99)} / ${ms(r.all.max)}`, `${ms(r.one.p50)} / ${ms(r.one.p99)} / ${ms(r.one.max)}`]), ['l', 'r', 'r', 'r', 'r']) + '\n';
  writeFileSync(join(HERE, 'statistics-results.md'), text);
  console.log(text);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
