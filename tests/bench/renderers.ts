// Renderer benchmark (issue #5): in headless Chromium against the started app (embedded database,
// demo data), a material total demand plan with 500 detail rows and a project list of 200 rows.
//   form open: click on 编辑 → performance mark zs-form-ready (the form with its rows rendered)
//   keystroke: a key typed into a row's quantity → the next frame after React committed it
//   list: choosing 200 rows a page → the rows on screen; scrolling it → frames per second
// Results go to tests/bench/renderers-results.md. Timings are measured, never asserted.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { md5 } from 'js-md5';
import { freePort, spawnServer, stopAll } from './procs.ts';
import { signInAsAdmin } from './sign-in.ts';

const ROOT = join(import.meta.dirname, '../..');
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
const ROWS = 500;
const LIST_ROWS = 210;
const RUNS = 5;

const basic = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

async function api(base: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: basic, 'Blade-Auth': `bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: any; msg: string };
  if (json.code !== 200) throw new Error(`${path}: ${json.msg}`);
  return json.data;
}

async function adminToken(base: string): Promise<string> {
  const captcha = await fetch(`${base}/api/blade-auth/oauth/captcha`, { headers: { Authorization: basic } });
  const { key } = (await captcha.json()) as { key: string };
  const code = captcha.headers.get('x-test-captcha-code') ?? '';
  const params = new URLSearchParams({
    tenantId: '000000',
    username: 'admin',
    password: md5('admin'),
    grant_type: 'captcha',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${params}`, {
    method: 'POST',
    headers: { Authorization: basic, 'Tenant-Id': '000000', 'Captcha-Key': key, 'Captcha-Code': code },
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A plan of 500 rows and enough projects for a 200-row page. */
async function seed(base: string) {
  const token = await adminToken(base);
  const goods = (await api(base, token, 'GET', '/api/construct/goodsArchives/list?size=50')).records as { id: string }[];
  const projects = (await api(base, token, 'GET', '/api/construct/project/list?size=1')).records as { id: string; partyAId: string }[];
  const details = Array.from({ length: ROWS }, (_, i) => ({
    goodsId: goods[i % goods.length].id,
    workPart: `${1 + (i % 6)}#楼 第${1 + (i % 30)}层`,
    designQty: 100 + i,
    lossRate: 2,
    budgetPrice: 3.5 + (i % 7),
  }));
  await api(base, token, 'POST', '/api/construct/materialTotalDemand/save', {
    projectId: projects[0].id,
    title: `基准计划 ${ROWS} 行`,
    planDate: '2026-05-01',
    compilerName: '基准',
    details,
  });
  const template = await api(base, token, 'GET', `/api/construct/project/detail?id=${projects[0].id}`);
  for (let i = 0; i < LIST_ROWS; i++) {
    const {
      id: _id,
      createTime: _c,
      updateTime: _u,
      createUser: _cu,
      updateUser: _uu,
      createDept: _cd,
      tenantId: _t,
      isDeleted: _d,
      code: _code,
      ...rest
    } = template;
    // the copy's detail rows are new rows of the new project: without the template's row ids
    const rows = Object.fromEntries(
      Object.entries(rest)
        .filter(([, v]) => Array.isArray(v))
        .map(([k, v]) => [k, (v as Record<string, unknown>[]).map(({ id: _rowId, ...row }) => row)]),
    );
    await api(base, token, 'POST', '/api/construct/project/save', { ...rest, ...rows, name: `基准项目 ${String(i).padStart(3, '0')}` });
  }
}

// Run in the page as text: tsx would wrap named functions in a helper the page does not have.
const SCROLL_FOR_TWO_SECONDS = `(async () => {
  const el = document.querySelector('.zs-grid-scroll');
  const frames = [];
  const start = performance.now();
  let last = start;
  await new Promise((done) => {
    requestAnimationFrame(function step(now) {
      frames.push(now - last);
      last = now;
      el.scrollTop += 40;
      if (now - start < 2000 && el.scrollTop + el.clientHeight < el.scrollHeight) requestAnimationFrame(step);
      else done();
    });
  });
  const elapsed = performance.now() - start;
  return { fps: (frames.length / elapsed) * 1000, worstFrameMs: Math.max(...frames.slice(1)), domRows: document.querySelectorAll('.zs-grid-row').length };
})()`;

const KEY_TIMER = `(() => {
  window.__keys = [];
  document.addEventListener('keydown', (e) => {
    const start = e.timeStamp;
    requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - start), 0));
  }, { capture: true });
})()`;

const listReady = (page: Page) => page.waitForSelector('[data-testid="entity-list"][aria-busy="false"] .zs-grid-row');

async function measureForm(page: Page, base: string) {
  await page.goto(`${base}/cost-material/materialTotalDemand`);
  await listReady(page);
  const row = page.locator('.zs-grid-row', { hasText: `基准计划 ${ROWS} 行` });
  await page.evaluate(() => performance.clearMarks());
  const t0 = await page.evaluate(() => performance.now());
  await row.getByText('编辑', { exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('zs-form-ready').length > 0, undefined, { timeout: 30_000 });
  const openMs = (await page.evaluate(() => performance.getEntriesByName('zs-form-ready')[0].startTime)) - t0;

  // the quantity cell of the third row: every key typed, time until the frame after its commit
  const input = page.locator('#root_details_2_designQty');
  await input.click();
  await page.evaluate(KEY_TIMER);
  for (const key of '12345678') await page.keyboard.press(key);
  await page.waitForTimeout(300);
  const keys = await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
  return { openMs, keys };
}

async function measureList(page: Page, base: string) {
  await page.goto(`${base}/cost-master/project`);
  await listReady(page);
  await page.locator('.zs-list-footer .ant-select').last().click();
  const t0 = await page.evaluate(() => performance.now());
  await page.getByTitle('200 条/页').click();
  await page.waitForFunction(
    () =>
      document.querySelector('.ant-pagination-total-text') &&
      document.querySelectorAll('.zs-grid-row').length > 10 &&
      document.querySelector('[data-testid="entity-list"]')?.getAttribute('aria-busy') === 'false',
  );
  const renderMs = (await page.evaluate(() => performance.now())) - t0;
  const scroll = (await page.evaluate(SCROLL_FOR_TWO_SECONDS)) as { fps: number; worstFrameMs: number; domRows: number };
  return { renderMs, ...scroll };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number) => n.toFixed(0);

async function main() {
  for (const built of ['dist/server/server/main.js', 'dist/client/index.html']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'zs-bench-renderers-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    ZS_TEST_CAPTCHA: 'expose',
    ZS_LOGIN_LIMIT_ACCOUNT: '1000',
    ZS_LOGIN_LIMIT_ADDRESS: '1000',
    LOG_LEVEL: 'warn',
  };
  const server = spawnServer('app-renderers', process.execPath, ['dist/server/server/main.js'], env, port, ROOT);
  const base = `http://127.0.0.1:${port}`;
  const profile = mkdtempSync(join(tmpdir(), 'zs-bench-chromium-'));
  try {
    if (!(await server.waitForLine(/http:\/\//, 60_000))) throw new Error(`the app did not start:\n${server.output()}`);
    await seed(base);
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      viewport: { width: 1440, height: 900 },
      locale: 'zh-CN',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await signInAsAdmin(page, base);
    const forms = [];
    const lists = [];
    try {
      for (let i = 0; i < RUNS; i++) forms.push(await measureForm(page, base));
      for (let i = 0; i < RUNS; i++) lists.push(await measureList(page, base));
    } catch (err) {
      await page.screenshot({ path: join(tmpdir(), 'zs-bench-renderers-failed.png') });
      throw err;
    }
    await context.close();
    const keys = forms.flatMap((f) => f.keys);
    const lines = [
      '# Renderer benchmark',
      '',
      `Headless Chromium (${CHROMIUM}) and the app (\`npm start\` build, embedded database) on one machine; ${RUNS} runs each. Written by \`tsx tests/bench/renderers.ts\` on ${new Date().toISOString().slice(0, 10)}.`,
      '',
      '| measure | median | worst | target |',
      '|---|---|---|---|',
      `| open the edit form of a ${ROWS}-row plan (click → rows rendered) | ${fmt(median(forms.map((f) => f.openMs)))} ms | ${fmt(Math.max(...forms.map((f) => f.openMs)))} ms | ≤ 1000 ms |`,
      `| one keystroke in a row (keydown → next frame), ${keys.length} keys | ${fmt(median(keys))} ms | ${fmt(Math.max(...keys))} ms | ≤ 50 ms |`,
      `| project list, 200 rows a page (choose size → rows shown) | ${fmt(median(lists.map((l) => l.renderMs)))} ms | ${fmt(Math.max(...lists.map((l) => l.renderMs)))} ms | |`,
      `| scrolling the 200-row page (frames per second) | ${fmt(median(lists.map((l) => l.fps)))} fps | worst frame ${fmt(Math.max(...lists.map((l) => l.worstFrameMs)))} ms | display rate (60) |`,
      `| rows in the DOM while showing 200 | ${lists[0].domRows} | | virtualised |`,
      '',
    ];
    writeFileSync(join(ROOT, 'tests/bench/renderers-results.md'), lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    await stopAll();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
