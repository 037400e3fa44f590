// Browser load benchmark (issue #24): what travels to the browser from the app's own `npm start` (no
// proxy, no dev server) and how soon each page shows its content, in headless Chromium on loopback.
// Per route, with a cold cache (browser cache emptied) and a warm one (the same page again):
// requests made, bytes over the wire (as received: compressed where the server compressed; 0 for a
// file served from the cache) and the decoded bytes, and the time from navigation to the content.
// The login route is measured signed out, the approval page and the work list 待办事务 signed in as
// the project manager who claimed the task, the others as the administrator. The set-up saves,
// through the API, a material total demand plan with 500 detail rows (the form, loaded from its
// address #edit=<id> until the rows are in it) and submits another one (the approval page of its task).
// Writes tests/bench/client-results.md, and every request of each visit (the waterfall, and the weight
// of each route by resource type) to tests/bench/client-waterfall.md; `npx tsx tests/bench/client-load.ts <base URL>` measures a
// running server (started with ZS_TEST_CAPTCHA=expose) and prints the table (the waterfall goes to a file in the temporary directory).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { md5 } from 'js-md5';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { signInAs } from './sign-in.ts';
import { waitForQuiet } from './procs.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RUNS = Number(process.env.BENCH_CLIENT_RUNS) || 3;

export interface LoadRun {
  route: string;
  cache: 'cold' | 'warm';
  /** Navigation start to the content visible. */
  ms: number;
  requests: number;
  /** As received on the wire (headers and compressed bodies). */
  wireBytes: number;
  /** The bodies as the page used them (decoded). */
  bodyBytes: number;
  /** Every request of the visit, in the order sent. */
  waterfall: Fetched[];
}

/** One request of a visit: what it was, what it weighed, when it ran (ms from the navigation). */
export interface Fetched {
  url: string;
  /** Chromium's resource type: Document, Script, Stylesheet, Fetch, EventSource, Image... */
  type: string;
  wireBytes: number;
  bodyBytes: number;
  startMs: number;
  /** Undefined while still open when the visit was read (the live message stream). */
  endMs?: number;
  fromCache: boolean;
}

/** What the routes open: made by the set-up (prepare). */
interface Ids {
  projectId: string;
  /** The plan of 500 rows the form opens. */
  planId: string;
  /** The approval page of the submitted plan's task. */
  handlePath: string;
}

interface Route {
  name: string;
  /** Who opens it (password = account): the administrator unless said. */
  account?: string;
  path: (ids: Ids) => string;
  /** What shows that the page has its content (each of them visible). */
  content: string[];
}

const ROWS = 500;
const LIST_READY = '[data-testid="entity-list"][aria-busy="false"] .zs-grid-row';

const ROUTES: Route[] = [
  { name: 'home', path: () => '/wel/index', content: ['.zs-tile'] },
  { name: 'a list (projects)', path: () => '/cost-master/project', content: [LIST_READY] },
  {
    name: `a form with ${ROWS} rows`,
    path: ({ planId }) => `/cost-material/materialTotalDemand#edit=${planId}`,
    content: ['#root_details_0_designQty'],
  },
  {
    name: 'statistics of a project',
    path: ({ projectId }) => `/cost/statistics?projectId=${projectId}`,
    content: ['[data-testid="statistics-table"] tr'],
  },
  {
    name: `the approval page (${ROWS} rows)`,
    account: 'manager',
    path: ({ handlePath }) => handlePath,
    content: ['[data-testid="task-actions"] #workflow-comment', '[data-testid="detail-rows-details"] .ant-table-row'],
  },
  {
    name: 'a work list (待办事务)',
    account: 'manager',
    path: () => '/work/todo',
    content: ['[data-testid="work-list"][aria-busy="false"] .ant-table-row'],
  },
];

/** Counts the page's requests and their bytes through the DevTools protocol until read, and keeps each one for the waterfall. */
function meter(cdp: CDPSession, t0: number) {
  const totals = { requests: 0, wireBytes: 0, bodyBytes: 0 };
  const sizes = new Map<string, number>();
  const fetched = new Map<string, Fetched>();
  // the protocol's timestamps are monotonic seconds: the first request's wall time anchors them
  let clock: { wall: number; mono: number } | undefined;
  const at = (mono: number) => Math.round((clock ? clock.wall + (mono - clock.mono) * 1000 : Date.now()) - t0);
  let last = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    if (/^(data|blob):/.test(e.request.url)) return;
    clock ??= { wall: e.wallTime * 1000, mono: e.timestamp };
    totals.requests++;
    // a redirect reuses the request id: the new leg is a request of its own
    const id = fetched.has(e.requestId) ? `${e.requestId}:${fetched.size}` : e.requestId;
    fetched.set(id, {
      url: e.request.url,
      type: e.type ?? 'Other',
      wireBytes: 0,
      bodyBytes: 0,
      startMs: at(e.timestamp),
      fromCache: false,
    });
    last = Date.now();
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const f = fetched.get(e.requestId);
    if (f) f.fromCache = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const f = fetched.get(e.requestId);
    if (f && e.response.fromDiskCache) f.fromCache = true;
  });
  cdp.on('Network.dataReceived', (e) => sizes.set(e.requestId, (sizes.get(e.requestId) ?? 0) + e.dataLength));
  cdp.on('Network.loadingFinished', (e) => {
    totals.wireBytes += e.encodedDataLength;
    totals.bodyBytes += sizes.get(e.requestId) ?? 0;
    const f = fetched.get(e.requestId);
    if (f) Object.assign(f, { wireBytes: e.encodedDataLength, bodyBytes: sizes.get(e.requestId) ?? 0, endMs: at(e.timestamp) });
    last = Date.now();
  });
  cdp.on('Network.loadingFailed', (e) => {
    const f = fetched.get(e.requestId);
    if (f) f.endMs = at(e.timestamp);
  });
  return {
    /** The totals once a second has passed without a new request (the live stream stays open: no "network idle"). */
    async settled(page: Page) {
      while (Date.now() - last < 1000) await page.waitForTimeout(200);
      return { ...totals, waterfall: [...fetched.values()].map((f) => ({ ...f })) };
    },
  };
}

async function visible(page: Page, selectors: string[]) {
  for (const selector of selectors) await page.locator(selector).first().waitFor({ state: 'visible', timeout: 120_000 });
}

async function visit(context: BrowserContext, page: Page, route: string, path: string, content: string[], cache: 'cold' | 'warm') {
  // the previous page's requests still under way (after sign-in: the shell and the schema set) end
  // here, and are neither counted for this visit nor let fill the cache it empties
  await page.goto('about:blank');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (cache === 'cold') await cdp.send('Network.clearBrowserCache');
  const t0 = Date.now();
  const counted = meter(cdp, t0);
  await page.goto(path);
  await visible(page, content);
  const ms = Date.now() - t0;
  const totals = await counted.settled(page);
  await cdp.detach();
  return { route, cache, ms, ...totals } satisfies LoadRun;
}

async function signIn(page: Page, base: string, account: string) {
  await signInAs(page, base, account);
  // the guard opens home as soon as the user is known, while the menus are still being fetched:
  // home's tiles (from the menus) say that the session is complete before the next visit leaves
  await page.locator('.zs-tile').first().waitFor({ state: 'visible', timeout: 120_000 });
}

const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** A seeded user's access token through the API (password = account). */
async function tokenOf(base: string, account: string): Promise<string> {
  const captcha = await fetch(`${base}/api/blade-auth/oauth/captcha`, { headers: { Authorization: BASIC } });
  const { key } = (await captcha.json()) as { key: string };
  const params = new URLSearchParams({
    tenantId: '000000',
    username: account,
    password: md5(account),
    grant_type: 'captcha',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${params}`, {
    method: 'POST',
    headers: {
      Authorization: BASIC,
      'Tenant-Id': '000000',
      'Captcha-Key': key,
      'Captcha-Code': captcha.headers.get('x-test-captcha-code') ?? '',
    },
  });
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`${account} could not sign in (is the server started with ZS_TEST_CAPTCHA=expose?)`);
  return token;
}

async function call(base: string, token: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: BASIC, 'Blade-Auth': `bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: any; msg: string };
  if (json.code !== 200) throw new Error(`${path}: ${json.msg}`);
  return json.data;
}

/**
 * What the routes open, made through the API as a client would: a plan of 500 rows saved (the form),
 * another submitted and its first task claimed by the project manager (the approval page).
 */
async function prepare(base: string): Promise<Ids> {
  const admin = await tokenOf(base, 'admin');
  const goods = (await call(base, admin, '/api/construct/goodsArchives/list?size=50')).records as { id: string }[];
  const projectId = ((await call(base, admin, '/api/construct/project/list?current=1&size=1')).records as { id: string }[])[0].id;
  const plan = (title: string) => ({
    projectId,
    title,
    planDate: '2026-05-01',
    compilerName: '基准',
    details: Array.from({ length: ROWS }, (_, i) => ({
      goodsId: goods[i % goods.length].id,
      workPart: `${1 + (i % 6)}#楼 第${1 + (i % 30)}层`,
      designQty: 100 + i,
      lossRate: 2,
      budgetPrice: 3.5 + (i % 7),
    })),
  });
  const saved = await call(base, admin, '/api/construct/materialTotalDemand/save', plan(`基准表单 ${ROWS} 行`));
  const submitted = await call(base, admin, '/api/construct/materialTotalDemand/submit', plan(`基准审批 ${ROWS} 行`));
  const manager = await tokenOf(base, 'manager');
  const claimable = (await call(base, manager, '/api/blade-flow/work/claim-list?current=1&size=100')).records as {
    taskId: string;
    processInstanceId: string;
    businessId: string;
  }[];
  const task = claimable.find((t) => t.businessId === submitted.id);
  if (!task) throw new Error('the submitted plan has no task the project manager can claim');
  await call(base, manager, `/api/blade-flow/work/claim-task?taskId=${task.taskId}`, {});
  return {
    projectId,
    planId: saved.id,
    handlePath: `/work/process/materialTotalDemand/handle/${task.taskId}/${task.processInstanceId}/${task.businessId}`,
  };
}

/** The routes of one account in a new browser profile, each cold then warm (the administrator's begin with the login route, signed out). */
async function runAs(base: string, account: string, routes: Route[], ids: Ids): Promise<LoadRun[]> {
  const dir = mkdtempSync(join(tmpdir(), 'zs-bench-chromium-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ARGS, headless: true, baseURL: base });
  try {
    const page = await context.newPage();
    const runs: LoadRun[] = [];
    if (account === 'admin') {
      const login = (route: string, cache: 'cold' | 'warm') =>
        visit(context, page, route, '/login', ['input[autocomplete="username"]:not([disabled])'], cache);
      // the first page of a browser just started also waits for the browser itself (its network
      // service, a renderer process for the site): measured apart from a cold cache in a running browser
      runs.push(await login("login (signed out), the browser's first page", 'cold'));
      for (const cache of ['cold', 'warm'] as const) runs.push(await login('login (signed out)', cache));
    }
    await signIn(page, base, account);
    for (const route of routes) {
      for (const cache of ['cold', 'warm'] as const)
        runs.push(await visit(context, page, route.name, route.path(ids), route.content, cache));
    }
    return runs;
  } catch (err) {
    await context.pages()[0]?.screenshot({ path: join(tmpdir(), 'zs-bench-client-failed.png') });
    throw err;
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run: the administrator's routes, then the project manager's, in the order of ROUTES. */
async function run(base: string, ids: Ids): Promise<LoadRun[]> {
  const admin = await runAs(
    base,
    'admin',
    ROUTES.filter((r) => !r.account),
    ids,
  );
  const manager = await runAs(
    base,
    'manager',
    ROUTES.filter((r) => r.account === 'manager'),
    ids,
  );
  return [...admin, ...manager];
}

/** `measuring`: told when the set-up is done and the machine quiet, just before the first visit. */
export async function measureClientLoad(base: string, runs = RUNS, measuring?: () => void): Promise<LoadRun[][] | string> {
  if (!existsSync(CHROMIUM)) return 'Chromium is not installed (/usr/bin/chromium): browser load not measured';
  const ids = await prepare(base);
  await waitForQuiet();
  measuring?.();
  const all: LoadRun[][] = [];
  for (let i = 0; i < runs; i++) all.push(await run(base, ids));
  return all;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function clientLoadMarkdown(result: LoadRun[][] | string): string {
  if (typeof result === 'string') return `## Browser load\n\n${result}\n`;
  const rows = result[0].map((first, i) => {
    const runs = result.map((r) => r[i]);
    return `| ${first.route} | ${first.cache} | ${median(runs.map((r) => r.requests))} | ${kb(median(runs.map((r) => r.wireBytes)))} | ${kb(median(runs.map((r) => r.bodyBytes)))} | ${runs.map((r) => r.ms).join(' / ')} | ${median(runs.map((r) => r.ms))} |`;
  });
  return [
    `## Browser load (headless Chromium, loopback, ${result.length} runs)`,
    '',
    '| route | cache | requests | over the wire | decoded | ms to content per run | median ms |',
    '| --- | --- | ---: | ---: | ---: | --- | ---: |',
    ...rows,
    '',
  ].join('\n');
}

/**
 * What each route loads, request by request (the first run's visit): a summary by resource type (the
 * weight of the route) and, for a cold cache, the waterfall: when each request started and ended
 * (ms from the navigation), its type, bytes and path. Scripts that start only once an earlier one has
 * ended are the router's chunks fetched one after another.
 */
export function clientWaterfallMarkdown(result: LoadRun[][] | string, base: string): string {
  if (typeof result === 'string') return `## Requests per route\n\n${result}\n`;
  const path = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url);
  const out: string[] = [];
  for (const visit of result[0]) {
    out.push(
      `## ${visit.route}, ${visit.cache} cache: ${visit.requests} requests, ${kb(visit.wireBytes)} over the wire, ${kb(visit.bodyBytes)} decoded`,
      '',
    );
    const byType = new Map<string, { n: number; wire: number; body: number }>();
    for (const f of visit.waterfall) {
      const t = byType.get(f.type) ?? { n: 0, wire: 0, body: 0 };
      byType.set(f.type, { n: t.n + 1, wire: t.wire + f.wireBytes, body: t.body + f.bodyBytes });
    }
    out.push('| type | requests | over the wire | decoded |', '| --- | ---: | ---: | ---: |');
    for (const [type, t] of [...byType].sort((a, b) => b[1].wire - a[1].wire))
      out.push(`| ${type} | ${t.n} | ${kb(t.wire)} | ${kb(t.body)} |`);
    out.push('');
    if (visit.cache === 'cold') {
      out.push('| # | start ms | end ms | type | over the wire | decoded | path |', '| ---: | ---: | ---: | --- | ---: | ---: | --- |');
      visit.waterfall.forEach((f, i) =>
        out.push(
          `| ${i + 1} | ${f.startMs} | ${f.endMs ?? 'open'} | ${f.type} | ${kb(f.wireBytes)} | ${kb(f.bodyBytes)} | \`${path(f.url).replaceAll('|', '%7C')}\` |`,
        ),
      );
      out.push('');
    }
  }
  return out.join('\n');
}

/** Builds and starts the app as `npm start` does (fresh embedded database, full demo, captcha answer exposed) and measures it. */
async function main() {
  const root = new URL('../../', import.meta.url).pathname;
  if (!existsSync(join(root, 'dist/client/index.html'))) execFileSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'zs-bench-client-'));
  const port = 8000 + Math.floor(Math.random() * 900);
  const server = spawn(process.execPath, ['dist/server/server/main.js'], {
    cwd: root,
    // its lines (the seed's progress, the ready line) go to the console
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ZS_TEST_CAPTCHA: 'expose' },
  });
  const base = `http://127.0.0.1:${port}`;
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
  try {
    // a first start seeds the full demo: minutes on a busy machine
    for (let i = 0; ; i++) {
      if (server.exitCode !== null || i > 9000) throw new Error('the server did not start');
      const up = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = new Date().toISOString().slice(0, 16).replace('T', ' ');
    let loadBefore = load();
    const result = await measureClientLoad(base, RUNS, () => {
      loadBefore = load();
    });
    const measured = clientLoadMarkdown(result);
    const text = [
      '# Zhusuan benchmark: browser load',
      '',
      `Generated by \`npm run bench\` (tests/bench/client-load.ts) on ${started} UTC, commit ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()}, against \`node dist/server/server/main.js\` (what \`npm start\` runs) on ${process.env.DATABASE_URL ? 'a PostgreSQL database seeded with the full demo (DATABASE_URL)' : 'a fresh embedded database with the full demo'}. nproc ${os.availableParallelism()}; load average ${loadBefore} before, ${load()} after (2 cores: above 2, the times are stretched by other work; requests and bytes are not).`,
      '',
      measured,
      'A cold cache is emptied before the page opens; a warm one is the same page opened again. "Over the wire" is what Chromium received (headers included; compressed bodies as sent, 0 for a file from its cache); "decoded" is the bodies after decompression. The live message stream stays open and is counted as one request.',
      '',
    ].join('\n');
    writeFileSync(join(root, 'tests/bench/client-results.md'), text);
    writeFileSync(
      join(root, 'tests/bench/client-waterfall.md'),
      [
        '# Zhusuan benchmark: browser load, request by request',
        '',
        `Generated with tests/bench/client-results.md (${started} UTC): the first of its runs, every request of each visit. Times are ms from the navigation, on a machine with load average ${loadBefore}; the order and the bytes are what to read, the times stretch with the load.`,
        '',
        clientWaterfallMarkdown(result, base),
      ].join('\n'),
    );
    console.log(text);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2]) {
    const result = await measureClientLoad(process.argv[2]);
    console.log(clientLoadMarkdown(result));
    // the requests of the first run beside it, for a look at what waits on what
    const waterfall = join(tmpdir(), 'zs-client-waterfall.md');
    writeFileSync(waterfall, clientWaterfallMarkdown(result, process.argv[2]));
    console.log(`every request of the first run: ${waterfall}`);
  } else await main();
}
