// Browser load benchmark (issue: the login route's first load, and the shell after login):
// headless Chromium on loopback, cache off, 5 runs each; bytes are the gzip -9 size of every JS
// and CSS file the page fetched, time is from navigation start until the page is usable.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';

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

export interface LoadRun {
  ms: number;
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

function collect(page: Page) {
  const totals = { files: 0, rawBytes: 0, gzipBytes: 0 };
  const pending: Promise<void>[] = [];
  page.on('response', (r) => {
    if (!/\.(js|css)(\?|$)/.test(r.url())) return;
    pending.push(
      r.body().then(
        (b) => {
          totals.files++;
          totals.rawBytes += b.length;
          totals.gzipBytes += gzipSync(b, { level: 9 }).length;
        },
        () => undefined,
      ),
    );
  });
  return async () => {
    await Promise.all(pending);
    return totals;
  };
}

/**
 * Every script and style the page loads has arrived: the load event, then a second without a new
 * one. (Not "network idle": the signed-in shell keeps its live message stream open.)
 */
async function settled(page: Page) {
  await page.waitForLoadState('load');
  let last = Date.now();
  page.on('response', (r) => {
    if (/\.(js|css)(\?|$)/.test(r.url())) last = Date.now();
  });
  while (Date.now() - last < 1000) await page.waitForTimeout(200);
}

async function run(base: string, login: boolean, captchaCode: (page: Page) => Promise<string>): Promise<LoadRun> {
  const dir = mkdtempSync(join(tmpdir(), 'zs-bench-chromium-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ARGS, headless: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (!login) {
      const done = collect(page);
      const t0 = Date.now();
      await page.goto(`${base}/login`);
      await page.locator('input[autocomplete="username"]').waitFor({ state: 'visible' });
      const ms = Date.now() - t0;
      await settled(page);
      return { ms, ...(await done()) };
    }
    const code = captchaCode(page);
    await page.goto(`${base}/login`);
    await page.locator('input[autocomplete="username"]').fill('admin');
    await page.locator('input[autocomplete="current-password"]').fill('admin');
    await page.locator('input[maxlength="5"]').fill(await code);
    const done = collect(page);
    const t0 = Date.now();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/wel/index');
    await page.locator('.zs-tile').first().waitFor({ state: 'visible' });
    const ms = Date.now() - t0;
    await settled(page);
    return { ms, ...(await done()) };
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Needs a server started with ZS_TEST_CAPTCHA=expose (the shell run logs in through the captcha). */
export async function measureClientLoad(base: string, runs = 5): Promise<{ login: LoadRun[]; shell: LoadRun[] } | string> {
  if (!existsSync(CHROMIUM)) return 'Chromium is not installed (/usr/bin/chromium): browser load not measured';
  const captchaCode = async (page: Page) =>
    (await page.waitForResponse((r) => r.url().includes('/oauth/captcha'))).headers()['x-test-captcha-code'];
  const login: LoadRun[] = [];
  const shell: LoadRun[] = [];
  for (let i = 0; i < runs; i++) login.push(await run(base, false, captchaCode));
  for (let i = 0; i < runs; i++) shell.push(await run(base, true, captchaCode));
  return { login, shell };
}

export function clientLoadMarkdown(result: Awaited<ReturnType<typeof measureClientLoad>>): string {
  if (typeof result === 'string') return `## Browser load\n\n${result}\n`;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = (name: string, runs: LoadRun[], target: string) =>
    `| ${name} | ${runs.map((r) => r.ms).join(' / ')} | ${median(runs.map((r) => r.ms))} | ${runs[0].files} | ${(runs[0].rawBytes / 1024).toFixed(0)} KB | ${(runs[0].gzipBytes / 1024).toFixed(1)} KB | ${target} |`;
  return [
    '## Browser load (headless Chromium, loopback, cache off)',
    '',
    '| what | ms per run | median ms | JS+CSS files | raw | gzip -9 | target |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    row('login route, until the form is usable', result.login, '≤ 200 KB gzip, ≤ 300 ms'),
    row('after login, until home shows its tiles (extra files)', result.shell, 'reported'),
    '',
  ].join('\n');
}

/** Starts the app (fresh embedded database, captcha answer exposed) and measures it. */
async function main() {
  const { spawn, execSync } = await import('node:child_process');
  const { writeFileSync } = await import('node:fs');
  const root = new URL('../../', import.meta.url).pathname;
  if (!existsSync(join(root, 'dist/client/index.html'))) execSync('npx vite build', { cwd: root, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'zs-bench-client-'));
  const port = 8000 + Math.floor(Math.random() * 900);
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ZS_TEST_CAPTCHA: 'expose' },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 600; i++) {
      if (
        await fetch(`${base}/login`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const text = [
      `# Zhusuan benchmark: browser load`,
      '',
      `Generated by \`npm run bench\` on ${new Date().toISOString()}.`,
      '',
      clientLoadMarkdown(await measureClientLoad(base)),
    ].join('\n');
    writeFileSync(join(root, 'tests/bench/client-results.md'), text);
    console.log(text);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2]) console.log(clientLoadMarkdown(await measureClientLoad(process.argv[2])));
  else await main();
}
