// Project statistics under volume (issue #9's benchmark): one tenant with 50 projects, each with an
// approved expense contract of every kind twice (16), each settled every month for 24 months
// (19,200 approved settlement headers over the eight settlement tables) with 10 lines each
// (~170,000 detail rows; the scaffold settlement has none), plus drafts that must not count. Rows
// are inserted by SQL, then statisticsData is asked sequentially in-process (app.inject: routing,
// token check, permission and data-scope look-ups, the SQL and the envelope; no socket) for every
// project at once and for one project, on PostgreSQL and on the embedded database; then a
// settlement's `cumulative` (24 approved periods before it) the same way; then, on PostgreSQL, the
// dashboard's first render in headless Chromium (navigation to /cost/statistics until the
// statistics table, its chart and the dashboards' charts are drawn), signed in as the administrator.
// Run: npx tsx tests/bench/statistics.ts   Knobs: BENCH_PG_URL, BENCH_STATS_REQUESTS (default 200),
// BENCH_RENDER_RUNS (default 5), BENCH_TRACE=1 (print each API call of the page with its time).
// Writes tests/bench/statistics-results.md.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { signInAsAdmin } from './sign-in.ts';
import { createApp, type App } from '../../src/server/app.ts';
import type { Db } from '../../src/server/db/db.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { testConfig } from '../server/config.ts';
import { num } from './env.ts';
import { median, ms, table } from './report.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = num('BENCH_STATS_REQUESTS', 200);
const RENDER_RUNS = num('BENCH_RENDER_RUNS', 5);
const CHROMIUM = '/usr/bin/chromium';
/** The charts a first render must have drawn (the other panels' charts too, when they are there). */
const DRAWN_CHARTS = ['statistics-chart', 'trend-chart'];
const PROJECTS = 50;
const CONTRACTS_PER_KIND = 2;
const MONTHS = 24;
const LINES = 10;
/** Every settlement's counterparty (a cumulative is asked per project, contract and counterparty). */
const SUBCONTRACTOR = 9300001;
/** The settlement kind of each contract type (the settlement.cost role's documents). */
const KIND_OF: Record<string, string> = {
  labor: 'laborMonthlySettlement',
  subcontract: 'subcontractMonthlySettlement',
  material: 'materialMonthlySettlement',
  concrete: 'materialConcreteMonthlySettlement',
  turnover_lease: 'materialTurnoverMonthlySettlement',
  aluminum_formwork: 'materialAluminumAlloySettlement',
  scaffold: 'equipmentScaffoldSettlement',
  equipment_lease: 'equipmentLeaseMonthlySettlement',
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
  await db.query(
    `INSERT INTO ${t('expenditureContract')} (id, tenant_id, ${c('expenditureContract', 'code')}, ${c('expenditureContract', 'name')}, ${c('expenditureContract', 'projectId')},
      ${c('expenditureContract', 'expenditureContractType')}, ${c('expenditureContract', 'contractAmount')}, ${c('expenditureContract', 'changeAmount')}, ${c('expenditureContract', 'currentAmount')}, ${c('expenditureContract', 'approvalStatus')})
    SELECT 9100000 + p * 100 + ti * 10 + n, '000000', 'ZCHT-B-' || p || '-' || ti || '-' || n, '基准合同', 9000000 + p, ($1::text[])[ti + 1],
      3000000, 100000, 3100000, CASE WHEN n > ${CONTRACTS_PER_KIND} THEN 'draft' ELSE 'approved' END
    FROM generate_series(1, ${PROJECTS}) p, generate_series(0, ${types.length - 1}) ti, generate_series(1, ${CONTRACTS_PER_KIND + 1}) n`,
    [types],
  );
  let headers = 0;
  let lines = 0;
  for (const [ti, type] of types.entries()) {
    const e = KIND_OF[type];
    const model = app.catalog.entities[e];
    const ids = `9200000000 + ${ti} * 100000000 + p * 100000 + n * 1000 + m`;
    const inserted =
      await db.query(`INSERT INTO ${t(e)} (id, tenant_id, ${c(e, 'projectId')}, ${c(e, 'subcontractorId')}, ${c(e, 'expenditureContractCode')}, ${c(e, 'period')},
        ${c(e, 'thisAmountInclTax')}, ${c(e, 'thisAmountExclTax')}, ${c(e, 'thisPayableAmount')}, ${c(e, 'retentionAmount')}, ${c(e, 'approvalStatus')})
      SELECT ${ids}, '000000', 9000000 + p, ${SUBCONTRACTOR}, 'ZCHT-B-' || p || '-' || ${ti} || '-' || n, to_char(date '2024-01-01' + (m - 1) * interval '1 month', 'YYYY-MM'),
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

interface Timing {
  p50: number;
  p99: number;
  max: number;
}

const timing = (times: number[]): Timing => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: sorted[Math.floor(sorted.length / 2)],
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))],
    max: sorted[sorted.length - 1],
  };
};

/** `REQUESTS` sequential GETs of `url` after 20 warm-up ones; answers the timing and the last answer's data. */
async function measure(app: App, url: string, query: Record<string, string>): Promise<Timing & { data: any }> {
  const token = await app.tokens.sign({
    tenant_id: '000000',
    user_id: '1123598821738675201',
    dept_id: '1123598813738675201',
    role_name: 'administrator',
  });
  const ask = () => app.app.inject({ method: 'GET', url, query, headers: { 'blade-auth': `bearer ${token}` } });
  for (let i = 0; i < 20; i++) await ask(); // warm-up
  const times: number[] = [];
  let last: any;
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const res = await ask();
    times.push(performance.now() - start);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    last = JSON.parse(res.body).data;
  }
  return { ...timing(times), data: last };
}

const STATISTICS = '/api/construct/project/statisticsData';

/** A subcontract settlement's cumulative for one contract: 24 approved periods summed by header and line. */
async function measureCumulative(app: App) {
  const kind = app.catalog.entities[KIND_OF.subcontract];
  const result = await measure(app, `${kind.api}/cumulative`, {
    projectId: '9000001',
    expenditureContractCode: 'ZCHT-B-1-1-1',
    subcontractorId: String(SUBCONTRACTOR),
  });
  const previous = JSON.stringify(result.data);
  if (!previous.includes(String(MONTHS * 10900))) throw new Error(`wrong cumulative: ${previous.slice(0, 400)}`);
  return result;
}

/** How the page is reached: a fresh page load (address bar, the whole app boots) or the app's own navigation (a menu click). */
type Arrival = 'load' | 'inApp';

/**
 * Milliseconds from navigating to /cost/statistics until the statistics table has its rows and
 * every chart on the page is drawn (at least the statistics by type and the cost trend), per run;
 * the first run is the cold one (chunks and ECharts fetched), the rest reuse the browser's cache.
 * A page load boots the whole app first (schema catalog, menus); an in-app navigation starts from
 * the signed-in home page, as a menu click does.
 */
async function measureRender(base: string, query: string, arrival: Arrival): Promise<number[] | string> {
  if (!existsSync(CHROMIUM)) return 'Chromium is not installed (/usr/bin/chromium)';
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    page.setDefaultTimeout(60_000);
    await signInAsAdmin(page, base);
    const runs: number[] = [];
    if (process.env.BENCH_TRACE) {
      page.on('requestfinished', (r) => {
        const t = r.timing();
        if (r.url().includes('/api/')) console.log(`${t.responseEnd.toFixed(0).padStart(6)} ms  ${r.url().replace(base, '')}`);
      });
    }
    for (let i = 0; i < RENDER_RUNS; i++) {
      await page.goto(`${base}/wel/index`);
      await page.locator('.zs-header').waitFor({ state: 'visible' });
      // let the home page's own requests finish (its live message stream stays open: no "network idle")
      await page.waitForTimeout(1000);
      const start = Date.now();
      if (arrival === 'load') await page.goto(`${base}/cost/statistics${query}`);
      else
        await page.evaluate((to) => {
          history.pushState(null, '', to);
          dispatchEvent(new PopStateEvent('popstate'));
        }, `/cost/statistics${query}`);
      await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ state: 'visible' });
      // ECharts draws SVG: a chart is drawn once its box holds paths
      await page.waitForFunction((needed) => {
        const charts = [...document.querySelectorAll<HTMLElement>('.zs-chart')];
        const ids = charts.map((c) => c.dataset.testid);
        return needed.every((id) => ids.includes(id)) && charts.every((c) => c.querySelector('svg path'));
      }, DRAWN_CHARTS);
      runs.push(Date.now() - start);
    }
    return runs;
  } finally {
    await browser.close();
  }
}

/** The dashboard's first render for every project and for one, through the app listening on loopback. */
async function measureRenders(app: App) {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  const base = `http://127.0.0.1:${address.port}`;
  return {
    all: await measureRender(base, '', 'load'),
    one: await measureRender(base, '?projectId=9000001', 'load'),
    allInApp: await measureRender(base, '', 'inApp'),
    oneInApp: await measureRender(base, '?projectId=9000001', 'inApp'),
  };
}

async function run(kind: 'postgres' | 'pglite', db: Db) {
  const app = await createApp(testConfig({ demo: 'off', exposeCaptchaCode: true }), { db, logger: false });
  try {
    const filled = await fill(app);
    const all = await measure(app, STATISTICS, {});
    const one = await measure(app, STATISTICS, { projectId: String(9000001) });
    const cumulative = await measureCumulative(app);
    // every approved settlement: 50 projects × 8 kinds × 2 contracts × 24 months × 10,900
    const expected = PROJECTS * 8 * CONTRACTS_PER_KIND * MONTHS * 10900;
    const total = all.data.total as { settledAmountInclTax: number; contractCount: number };
    if (Number(total.settledAmountInclTax) !== expected || total.contractCount !== PROJECTS * 8 * CONTRACTS_PER_KIND)
      throw new Error(`wrong totals: ${JSON.stringify(total)}`);
    const render = kind === 'postgres' ? await measureRenders(app) : undefined;
    return { kind, ...filled, all, one, cumulative, render };
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
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const t3 = (x: Timing) => `${ms(x.p50)} / ${ms(x.p99)} / ${ms(x.max)}`;
  const renders = results.flatMap((r) =>
    r.render
      ? ([
          ['all projects, page load', r.render.all],
          ['one project, page load', r.render.one],
          ['all projects, in-app navigation', r.render.allInApp],
          ['one project, in-app navigation', r.render.oneInApp],
        ] as const)
      : [],
  );
  const renderRow = ([what, runs]: readonly [string, number[] | string]) =>
    typeof runs === 'string' ? [what, runs, '', ''] : [what, runs.join(' / '), runs[0], ms(median(runs.slice(1)), 0)];
  const text =
    `# statisticsData, cumulative and the dashboard under volume\n\n${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average ${load} at the end.\n` +
    `${REQUESTS} sequential requests after 20 warm-up, in-process (app.inject).\n\n` +
    table(
      [
        'database',
        'settlements',
        'lines',
        'statisticsData all projects p50 / p99 / max ms',
        'one project p50 / p99 / max ms',
        'cumulative p50 / p99 / max ms',
      ],
      results.map((r) => [r.kind, r.headers, r.lines, t3(r.all), t3(r.one), t3(r.cumulative)]),
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ) +
    '\n\n' +
    `Dashboard first render on PostgreSQL (headless Chromium, /cost/statistics until the table's rows and every chart are drawn; a page load boots the whole app, an in-app navigation starts from the signed-in home page as a menu click does), ${RENDER_RUNS} runs:\n\n` +
    table(['page', 'ms per run', 'cold (first) ms', 'warm median ms'], renders.map(renderRow), ['l', 'r', 'r', 'r']) +
    '\n';
  writeFileSync(join(HERE, 'statistics-results.md'), text);
  console.log(text);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
