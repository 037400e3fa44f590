// @vitest-environment node
// Browser tests of the shell: the built client (dist/client) served by the real app on a copy of the
// seeded embedded database, driven in Debian's Chromium through playwright-core. The browser runs
// on a fresh profile directory; before each test its cookies and storage are cleared, and each test
// logs in through the captcha flow itself. Screenshots go to tests/e2e/screenshots/ (gitignored);
// a failing test leaves failed-<test>.png there. Build the client first: `npx vite build`.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { openTestDb } from '../server/harness.ts';
import { testConfig } from '../server/config.ts';

const CHROMIUM = '/usr/bin/chromium';
const CLIENT_INDEX = join(PROJECT_ROOT, 'dist/client/index.html');
const SHOTS = join(PROJECT_ROOT, 'tests/e2e/screenshots');
const TEST_TIMEOUT = 30_000;
const CAPTCHA_PATH = '/api/blade-auth/oauth/captcha';
const ACCESS_COOKIE = 'zhusuan-access-token';

/** Header background of each theme (src/client/app/themes.ts), as computed style reports it. */
const THEMES = [
  { name: 'default', label: '默认主题', header: 'rgb(255, 255, 255)' },
  { name: 'smart', label: '智能主题', header: 'rgb(15, 61, 86)' },
  { name: 'black-gold', label: '黑金主题', header: 'rgb(20, 20, 20)' },
  { name: 'blue-white', label: '蓝白主题', header: 'rgb(31, 95, 191)' },
  { name: 'white', label: '白色主题', header: 'rgb(255, 255, 255)' },
] as const;

let server: App | undefined;
let dropDb: (() => Promise<void>) | undefined;
let context: BrowserContext | undefined;
let profileDir = '';
let base = '';

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests.`);
  if (!existsSync(CLIENT_INDEX)) throw new Error(`${CLIENT_INDEX} is missing: build the client first with \`npx vite build\`.`);
  mkdirSync(SHOTS, { recursive: true });
  for (const f of readdirSync(SHOTS)) if (f.startsWith('failed-')) rmSync(join(SHOTS, f));

  const { db, drop } = await openTestDb('pglite');
  dropDb = drop;
  // every test logs in as admin: the per-account limit (10 a minute) would refuse the later ones
  server = await createApp(testConfig({ exposeCaptchaCode: true, loginLimits: { perAddress: 10_000, perAccount: 10_000 } }), { db, logger: false });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no TCP address');
  base = `http://127.0.0.1:${address.port}`;

  profileDir = mkdtempSync(join(tmpdir(), 'zs-e2e-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
}, 120_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  await server?.close().catch(() => undefined);
  await dropDb?.().catch(() => undefined);
});

// ---- per test: one page on a clean profile (no cookies, no storage) ----

let page: Page;
let problems: string[] = [];

beforeEach(async (ctx) => {
  // a failing test leaves a picture of the page behind
  ctx.onTestFailed(async () => {
    await page.screenshot({ path: join(SHOTS, `failed-${ctx.task.name.replace(/[^\w一-龥]+/g, '-').slice(0, 60)}.png`) }).catch(() => undefined);
  });
  if (!context) throw new Error('the browser did not start');
  await context.clearCookies();
  // storage is per origin: clear it from a document of the app's origin that does not run the
  // client (the client would act on the previous test's session, e.g. open /login and its captcha)
  page = context.pages()[0] ?? (await context.newPage());
  for (const p of context.pages()) if (p !== page) await p.close();
  await page.goto(`${base}/api/openapi.json`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  problems = [];
  page.removeAllListeners('pageerror');
  page.removeAllListeners('console');
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // (the favicon request is the JSON page's of the storage clean-up above, not the client's)
    if (msg.location().url.endsWith('/favicon.ico')) return;
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}${msg.location().url ? ` (${msg.location().url})` : ''}`);
  });
});

afterEach((ctx) => {
  if (problems.length) console.warn(`[${ctx.task.name}] browser reported:\n  ${problems.join('\n  ')}`);
});

// ---- assertions: playwright-core has no expect of its own; these wait as Playwright's would ----

const WAIT = 10_000;
const poll = <T>(fn: () => Promise<T>, timeout = WAIT) => expect.poll(fn, { timeout, interval: 100 });
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

const titleIs = (title: string) => poll(() => page.title()).toBe(title);

function see(l: Locator) {
  const attr = async (name: string) => ((await l.count()) ? l.first().getAttribute(name) : null);
  return {
    toBeVisible: (o: { timeout?: number } = {}) => l.waitFor({ state: 'visible', timeout: o.timeout ?? WAIT }),
    toBeHidden: (o: { timeout?: number } = {}) => l.waitFor({ state: 'hidden', timeout: o.timeout ?? WAIT }),
    toHaveCount: (n: number, o: { timeout?: number } = {}) => poll(() => l.count(), o.timeout).toBe(n),
    toHaveText: (text: string | string[]) =>
      Array.isArray(text) ? poll(async () => (await l.allInnerTexts()).map(squash)).toEqual(text) : poll(async () => squash(await l.innerText())).toBe(text),
    toContainText: (text: string) => poll(() => l.innerText()).toContain(text),
    toHaveAttribute: (name: string, value: string, o: { timeout?: number } = {}) => poll(() => attr(name), o.timeout).toBe(value),
    toHaveValue: (value: string) => poll(() => l.inputValue()).toBe(value),
    toBeFocused: () => poll(() => l.evaluate((el) => el === document.activeElement)).toBe(true),
  };
}

// ---- helpers ----

const shot = (name: string) => page.screenshot({ path: join(SHOTS, name), fullPage: false });
const pathname = () => new URL(page.url()).pathname;
const sidebar = () => page.locator('.zs-sider');
// by the text a person reads (a menu item's accessible name also carries its icon's label)
const sideItem = (name: string) => sidebar().locator('.ant-menu-title-content').getByText(name, { exact: true });
const tabs = () => page.getByTestId('tabs');
const tab = (name: string) => tabs().getByRole('tab', { name, exact: true });
const tabBox = (name: string) => tabs().locator('.ant-tabs-tab').filter({ has: page.getByRole('tab', { name, exact: true }) });
/** An item of the open dropdown menu, once the menu has finished its opening animation. */
async function dropdownItem(name: string) {
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').filter({ has: page.getByRole('menuitem', { name, exact: true }) });
  await see(menu).toBeVisible();
  await poll(() => menu.evaluate((el) => el.getAnimations({ subtree: true }).filter((a) => a.playState === 'running').length)).toBe(0);
  return menu.getByRole('menuitem', { name, exact: true });
}
const toast = (text: string) => page.locator('.ant-message-notice').filter({ hasText: text });

/** Opens /login and returns the answer to the captcha the page shows. */
async function openLogin(): Promise<string> {
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === CAPTCHA_PATH && r.status() === 200);
  await page.goto(`${base}/login`);
  return captchaOf(await answer);
}

async function captchaOf(response: Response): Promise<string> {
  const code = response.headers()['x-test-captcha-code'];
  expect(code, 'the captcha answer header (exposeCaptchaCode)').toBeTruthy();
  const { key } = (await response.json()) as { key: string };
  // the code must belong to the image the page shows
  await see(page.locator('img.zs-captcha')).toHaveAttribute('data-captcha-key', key);
  return code;
}

async function fillLogin(user: string, password: string, code: string) {
  const tenant = page.getByLabel('租户编号', { exact: true });
  if (await tenant.count()) await tenant.fill('000000');
  await page.getByLabel('用户名', { exact: true }).fill(user);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('验证码', { exact: true }).fill(code);
  await page.locator('.zs-login-card button[type=submit]').click();
}

/** Logs in through the login page, as a person would, and waits for the home page. */
async function login(user = 'admin', password = user) {
  const code = await openLogin();
  await fillLogin(user, password, code);
  await page.waitForURL((u) => u.pathname === '/wel/index');
  await see(page.locator('.zs-header')).toBeVisible();
  await see(sidebar().getByRole('menuitem').first()).toBeVisible();
}

/** Opens a screen from the sidebar and waits for its list to finish loading. */
async function openFromSidebar(name: string) {
  await sideItem(name).click();
  await see(tab(name)).toHaveAttribute('aria-selected', 'true');
  await waitForList();
}

async function waitForList() {
  await see(page.locator('.zs-content .ant-table')).toBeVisible();
  await see(page.locator('.zs-content .ant-table .ant-spin-spinning')).toHaveCount(0);
}

async function pickTheme(label: string, header: string) {
  await page.getByTestId('theme-picker').click();
  await (await dropdownItem(label)).click();
  await poll(() => headerBackground()).toBe(header);
  await see(page.getByRole('menuitem', { name: label, exact: true })).toBeHidden();
}

const headerBackground = () => page.locator('.zs-header').evaluate((el) => getComputedStyle(el).backgroundColor);

// ---- tests ----

describe('shell in the browser', () => {
  test('logs in through the captcha flow and lands on the home page with the menus', async () => {
    const code = await openLogin();
    await see(page.getByText('用户登录')).toBeVisible();
    await see(page.locator('img.zs-captcha')).toBeVisible();
    await shot('login.png');

    await fillLogin('admin', 'admin', code);
    await page.waitForURL((u) => u.pathname === '/wel/index');
    await see(sideItem('基础资料')).toBeVisible();
    await see(sideItem('项目')).toBeVisible();
    await see(page.locator('.zs-user-name')).toHaveText('管理员');
    await see(tab('首页')).toBeVisible();
    await titleIs('首页');
    await shot('home.png');
  }, TEST_TIMEOUT);

  test('a wrong captcha is refused with 验证码不正确 and the page stays on /login', async () => {
    const code = await openLogin();
    const wrong = code === '9999' ? '8888' : '9999';
    const fresh = page.waitForResponse((r) => new URL(r.url()).pathname === CAPTCHA_PATH && r.status() === 200);
    await fillLogin('admin', 'admin', wrong);
    // the login page shows the server's message (inline; the HTTP client may toast it as well)
    await see(page.getByText('验证码不正确', { exact: true }).first()).toBeVisible();
    expect(pathname()).toBe('/login');
    await shot('login-wrong-captcha.png');
    // a new captcha replaces the used one, and the code field is emptied
    await captchaOf(await fresh);
    await see(page.getByLabel('验证码', { exact: true })).toHaveValue('');
    await see(page.locator('.zs-header')).toHaveCount(0);
  }, TEST_TIMEOUT);

  test('tabs: three screens, close others, closing the current opens its neighbour, home has no close button', async () => {
    await login();
    await openFromSidebar('项目');
    await see(page.locator('.zs-content .ant-table-row').first()).toBeVisible();
    await shot('list.png');
    const projectPath = pathname();
    await openFromSidebar('甲方单位');
    await openFromSidebar('物资档案');
    const goodsPath = pathname();

    const labels = tabs().getByRole('tab');
    await see(labels).toHaveText(['首页', '项目', '甲方单位', '物资档案']);
    await see(tabBox('首页').locator('.ant-tabs-tab-remove')).toHaveCount(0);

    // right-click the current tab: close the others
    await tab('物资档案').click({ button: 'right' });
    await (await dropdownItem('关闭其他')).click();
    await see(labels).toHaveText(['首页', '物资档案']);
    expect(pathname()).toBe(goodsPath);

    // [首页, 物资档案, 项目]; back on 物资档案 and close it: its right-hand neighbour opens
    await openFromSidebar('项目');
    await tab('物资档案').click();
    await page.waitForURL((u) => u.pathname === goodsPath);
    await tabBox('物资档案').locator('.ant-tabs-tab-remove').click();
    await page.waitForURL((u) => u.pathname === projectPath);
    await see(labels).toHaveText(['首页', '项目']);
    await see(tab('项目')).toHaveAttribute('aria-selected', 'true');

    // closing the last screen tab opens its left neighbour, home, which cannot be closed
    await tabBox('项目').locator('.ant-tabs-tab-remove').click();
    await page.waitForURL((u) => u.pathname === '/wel/index');
    await see(labels).toHaveText(['首页']);
    await see(tabBox('首页').locator('.ant-tabs-tab-remove')).toHaveCount(0);
  }, TEST_TIMEOUT);

  test('lock screen: empty password refused, /lock survives navigation, wrong password refused, right one unlocks', async () => {
    await login();
    await page.getByTestId('lock').click();
    const dialog = page.getByRole('dialog').filter({ hasText: '锁屏' });
    await see(dialog).toBeVisible();
    await dialog.locator('.ant-btn-primary').click();
    await see(toast('锁屏密码不能为空')).toBeVisible();
    expect(pathname()).toBe('/wel/index');

    await dialog.getByLabel('锁屏密码', { exact: true }).fill('1234');
    await dialog.locator('.ant-btn-primary').click();
    await page.waitForURL((u) => u.pathname === '/lock');
    await see(page.getByText('屏幕已锁定')).toBeVisible();
    await see(page.getByText('管理员', { exact: true })).toBeVisible();
    await see(page.locator('.ant-message-notice')).toHaveCount(0); // the dialog's toast has gone
    await shot('lock.png');

    // typing the address of a page goes back to the lock screen
    await page.goto(`${base}/wel/index`);
    await page.waitForURL((u) => u.pathname === '/lock');
    await see(page.getByText('屏幕已锁定')).toBeVisible();
    await see(page.locator('.zs-header')).toHaveCount(0);

    const password = page.getByLabel('锁屏密码', { exact: true });
    await password.fill('0000');
    await page.locator('.zs-lock .ant-btn-primary').click();
    await see(toast('解锁密码错误,请重新输入')).toBeVisible();
    expect(pathname()).toBe('/lock');

    await password.fill('1234');
    await password.press('Enter');
    await page.waitForURL((u) => u.pathname === '/wel/index');
    await see(page.locator('.zs-header')).toBeVisible();
    await see(sideItem('基础资料')).toBeVisible();
  }, TEST_TIMEOUT);

  test('language: English menus, tabs and title, then back to 中文', async () => {
    await login();
    await openFromSidebar('项目');
    await titleIs('项目');

    await page.getByTestId('language-switch').click();
    await (await dropdownItem('English')).click();
    await see(sideItem('Master data')).toBeVisible();
    await see(sideItem('Project')).toBeVisible();
    await see(sideItem('基础资料')).toHaveCount(0);
    await titleIs('Project');
    await see(tab('Project')).toBeVisible();
    await see(page.getByTestId('language-switch')).toHaveText('EN');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    await page.getByTestId('language-switch').click();
    await (await dropdownItem('中文')).click();
    await see(sideItem('基础资料')).toBeVisible();
    await see(sideItem('项目')).toBeVisible();
    await titleIs('项目');
    await see(tab('项目')).toBeVisible();
  }, TEST_TIMEOUT);

  test('theme: 黑金主题 changes the header colour and survives a reload', async () => {
    await login();
    const before = await headerBackground();
    expect(before).toBe('rgb(255, 255, 255)');
    await pickTheme('黑金主题', 'rgb(20, 20, 20)');
    expect(await headerBackground()).not.toBe(before);

    await page.reload();
    await see(page.locator('.zs-header')).toBeVisible();
    expect(await headerBackground()).toBe('rgb(20, 20, 20)');
    await page.getByTestId('theme-picker').click();
    await see(page.locator('.ant-dropdown-menu-item-selected')).toHaveText('黑金主题');
    await page.keyboard.press('Escape');
  }, TEST_TIMEOUT);

  test('every theme on the project list (screenshots)', async () => {
    await login();
    await openFromSidebar('项目');
    await see(page.locator('.zs-content .ant-table-row').first()).toBeVisible();
    for (const theme of THEMES) {
      await pickTheme(theme.label, theme.header);
      await page.mouse.move(700, 600);
      await page.waitForTimeout(400); // antd's colour transitions
      await shot(`theme-${theme.name}.png`);
    }
  }, TEST_TIMEOUT * 2);

  test('an invalid access token: the next data call lands on /login', async () => {
    await login();
    await page.evaluate((name) => {
      document.cookie = `${name}=garbage; path=/; SameSite=Strict`;
    }, ACCESS_COOKIE);
    const refused = page.waitForResponse((r) => r.url().includes('/api/construct/project/list'));
    await sideItem('项目').click();
    expect((await refused).status()).toBe(401);
    await page.waitForURL((u) => u.pathname === '/login');
    await see(page.getByText('用户登录')).toBeVisible();
    await see(page.locator('.zs-header')).toHaveCount(0);
    expect(await page.evaluate((name) => document.cookie.split('; ').some((c) => c.startsWith(`${name}=`) && c.length > name.length + 1), ACCESS_COOKIE)).toBe(false);
  }, TEST_TIMEOUT);

  test('watermark: shows the real name and comes back when removed or restyled', async () => {
    await login();
    const mark = page.locator('#zs-watermark');
    await see(mark).toHaveCount(1);
    await see(mark).toHaveAttribute('data-text', '管理员');
    const style = await mark.getAttribute('style');
    expect(style).toContain('background-image:url(data:image/png');

    await page.evaluate(() => document.getElementById('zs-watermark')!.remove());
    await see(mark).toHaveCount(1, { timeout: 1000 });
    await see(mark).toHaveAttribute('data-text', '管理员', { timeout: 1000 });

    await page.evaluate(() => document.getElementById('zs-watermark')!.setAttribute('style', 'display:none'));
    await see(mark).toHaveAttribute('style', style!, { timeout: 1000 });
    await see(mark).toBeVisible();
  }, TEST_TIMEOUT);

  test('menu search: a prefix lists the matching menus, Esc closes the overlay', async () => {
    await login();
    await page.getByTestId('menu-search').click();
    const overlay = page.locator('.zs-menu-search');
    await see(overlay).toBeVisible();
    const input = overlay.getByLabel('搜索菜单', { exact: true });
    await see(input).toBeFocused();
    await input.fill('项');
    await see(overlay.locator('.ant-list-item').filter({ hasText: '项目' })).toBeVisible();
    await see(overlay.locator('.ant-list-item').filter({ hasText: '甲方单位' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await see(overlay).toBeHidden();
  }, TEST_TIMEOUT);

  test('error log: an uncaught error raises the badge to 1 and is listed in the dialog', async () => {
    await login();
    const badge = page.locator('.ant-badge').filter({ has: page.getByTestId('error-log') }).locator('.ant-badge-count');
    await see(badge).toHaveCount(0);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('boom');
      });
    });
    await see(badge).toHaveAttribute('title', '1');
    await see(badge).toBeVisible();
    await page.getByTestId('error-log').click();
    const dialog = page.getByRole('dialog').filter({ hasText: '错误日志' });
    await see(dialog).toBeVisible();
    await see(dialog.locator('.ant-table-row')).toHaveCount(1);
    await see(dialog.locator('.ant-table-row').first()).toContainText('boom');
    problems = problems.filter((p) => !p.includes('boom'));
  }, TEST_TIMEOUT);
});
