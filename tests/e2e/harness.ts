// The browser-test harness: the built client (dist/client) served by the real app on a copy of the
// seeded embedded database, driven in Debian's Chromium through playwright-core. The browser runs
// on a fresh profile directory; before each test its cookies and storage are cleared, and each test
// logs in through the captcha flow itself. Screenshots go to tests/e2e/screenshots/ (gitignored);
// a failing test leaves failed-<test>.png there (until the next run's global setup). Build the client first: `npx vite build`.
// Importing it registers the suite's hooks; the helpers act on the current test's page.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page, type Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createApp, type App } from '../../src/server/app.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { client, openTestDb, type Api, type TestServer } from '../server/harness.ts';
import { testConfig } from '../server/config.ts';
import type { Config } from '../../src/server/config.ts';

const CHROMIUM = '/usr/bin/chromium';
const CLIENT_INDEX = join(PROJECT_ROOT, 'dist/client/index.html');
export const SHOTS = join(PROJECT_ROOT, 'tests/e2e/screenshots');
/**
 * The bound on one browser step's worth of a test (tests multiply it by their steps): a stall, not a
 * speed. 30 s was passed by tests that were only slow, on a machine at load 10–17 (issue #19).
 */
export const TEST_TIMEOUT = 60_000;
export const CAPTCHA_PATH = '/api/blade-auth/oauth/captcha';
export const ACCESS_COOKIE = 'zhusuan-access-token';

let server: App | undefined;

/**
 * Settings of this file's server beyond the harness's (a schema folder install may write to): set
 * them at the test file's top level, which runs before the suite starts the server.
 */
export const serverSettings: Partial<Config> = {};
let dropDb: (() => Promise<void>) | undefined;
export let context: BrowserContext | undefined;
let profileDir = '';
export let base = '';

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests.`);
  if (!existsSync(CLIENT_INDEX)) throw new Error(`${CLIENT_INDEX} is missing: build the client first with \`npx vite build\`.`);
  mkdirSync(SHOTS, { recursive: true });

  const { db, drop } = await openTestDb('pglite');
  dropDb = drop;
  // every test logs in as admin: the per-account limit (10 a minute) would refuse the later ones
  server = await createApp(
    testConfig({ exposeCaptchaCode: true, loginLimits: { perAddress: 10_000, perAccount: 10_000 }, ...serverSettings }),
    { db, logger: false },
  );
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no TCP address');
  base = `http://127.0.0.1:${address.port}`;

  profileDir = mkdtempSync(join(tmpdir(), 'zs-e2e-chromium-'));
  context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
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

/** The running app, for a test that sets up data the way the server's own suites do (its database, its tokens). */
export function testApp(): App {
  if (!server) throw new Error('the app did not start');
  return server;
}

/** The platform administrator's API client on the running app, for a test's set-up through the API. */
export async function adminApi(): Promise<Api> {
  const app = testApp();
  const token = await app.tokens.sign({
    tenant_id: '000000',
    user_id: '1123598821738675201',
    dept_id: '1123598813738675201',
    role_name: 'administrator',
  });
  return client(app as TestServer, token);
}

// ---- per test: one page on a clean profile (no cookies, no storage) ----

export let page: Page;
let problems: string[] = [];

beforeEach(async (ctx) => {
  // a failing test leaves a picture of the page behind
  ctx.onTestFailed(async () => {
    await page
      .screenshot({ path: join(SHOTS, `failed-${ctx.task.name.replace(/[^\w一-龥]+/g, '-').slice(0, 60)}.png`) })
      .catch(() => undefined);
  });
  if (!context) throw new Error('the browser did not start');
  await context.clearCookies();
  // storage is per origin: clear it from a document of the app's origin that does not run the
  // client (the client would act on the previous test's session, e.g. open /login and its captcha)
  page = context.pages()[0] ?? (await context.newPage());
  for (const p of context.pages()) if (p !== page) await p.close();
  await clearStorage();
  problems = [];
  page.removeAllListeners('pageerror');
  page.removeAllListeners('console');
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // (the favicon request is the JSON page's of the storage clean-up above, not the client's)
    if (msg.location().url.endsWith('/favicon.ico')) return;
    if (msg.type() === 'error' || msg.type() === 'warning')
      problems.push(`console.${msg.type()}: ${msg.text()}${msg.location().url ? ` (${msg.location().url})` : ''}`);
  });
});

/** Forgets browser reports a test caused on purpose. */
/** Storage is per origin: clears it from a small document of the app's origin that does not run the client. */
async function clearStorage() {
  await page.goto(`${base}/api/health`);
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
}

/** Signs out the way a new person at the same browser would start (no cookies, no storage), then signs in. */
export async function signInAs(user: string, password = user, tenantId = '000000') {
  await context!.clearCookies();
  await clearStorage();
  await login(user, password, tenantId);
}

/** What the browser reported (errors, warnings) so far in this test that contains `text`. */
export function reported(text: string): string[] {
  return problems.filter((p) => p.includes(text));
}

export function expectProblem(text: string) {
  problems = problems.filter((p) => !p.includes(text));
}

afterEach((ctx) => {
  if (problems.length) console.warn(`[${ctx.task.name}] browser reported:\n  ${problems.join('\n  ')}`);
  // the server's Content-Security-Policy must not break the client: any refusal fails the test
  expect(
    problems.filter((p) => /Refused to|Content Security Policy/i.test(p)),
    'CSP violations',
  ).toEqual([]);
});

// ---- assertions: playwright-core has no expect of its own; these wait as Playwright's would ----

export const WAIT = 10_000;
/** How long a server step may take on a loaded machine (the first save compiles validators). */
export const SLOW_SERVER = 30_000;
export const poll = <T>(fn: () => Promise<T>, timeout = WAIT) => expect.poll(fn, { timeout, interval: 100 });
export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export const titleIs = (title: string) => poll(() => page.title()).toBe(title);

export function see(l: Locator) {
  const attr = async (name: string) => ((await l.count()) ? l.first().getAttribute(name) : null);
  return {
    toBeVisible: (o: { timeout?: number } = {}) => l.waitFor({ state: 'visible', timeout: o.timeout ?? WAIT }),
    toBeHidden: (o: { timeout?: number } = {}) => l.waitFor({ state: 'hidden', timeout: o.timeout ?? WAIT }),
    toHaveCount: (n: number, o: { timeout?: number } = {}) => poll(() => l.count(), o.timeout).toBe(n),
    toHaveText: (text: string | string[]) =>
      Array.isArray(text)
        ? poll(async () => (await l.allInnerTexts()).map(squash)).toEqual(text)
        : poll(async () => squash(await l.innerText())).toBe(text),
    toContainText: (text: string) => poll(() => l.innerText()).toContain(text),
    toHaveAttribute: (name: string, value: string, o: { timeout?: number } = {}) => poll(() => attr(name), o.timeout).toBe(value),
    toHaveValue: (value: string) => poll(() => l.inputValue()).toBe(value),
    toBeFocused: () => poll(() => l.evaluate((el) => el === document.activeElement)).toBe(true),
  };
}

// ---- helpers ----

/** The open screen, its list's toolbar, a row of its table by the text it shows, and the topmost open dialog. */
export const content = () => page.locator('.zs-content');
export const toolbar = () => content().locator('.zs-list-toolbar');
export const rowWith = (text: string) => content().locator('tbody tr').filter({ hasText: text });
export const dialog = () => page.locator('.ant-modal:visible').last();
/** A button of `scope` by its text; an icon's label may come first in the accessible name ("plus 新增"), antd may space two characters. */
export const button = (scope: Locator, text: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${[...text].join('\\s*')}\\s*$`) });

export const shot = (name: string) => page.screenshot({ path: join(SHOTS, name), fullPage: false });
export const pathname = () => new URL(page.url()).pathname;
export const sidebar = () => page.locator('.zs-sider');
// by the text a person reads (a menu item's accessible name also carries its icon's label)
export const sideItem = (name: string) => sidebar().locator('.ant-menu-title-content').getByText(name, { exact: true });
export const tabs = () => page.getByTestId('tabs');
export const tab = (name: string) => tabs().getByRole('tab', { name, exact: true });
export const tabBox = (name: string) =>
  tabs()
    .locator('.ant-tabs-tab')
    .filter({ has: page.getByRole('tab', { name, exact: true }) });
/** Waits until `popup` is visible and has finished its opening animation (a click during it can miss). */
async function settled(popup: Locator) {
  await see(popup).toBeVisible();
  // finite ones only: a loading spinner or a pulsing dot inside never ends
  await poll(() =>
    popup.evaluate(
      (el) =>
        el
          .getAnimations({ subtree: true })
          .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity).length,
    ),
  ).toBe(0);
}

/** The button `name` of the open confirmation (Modal.confirm), once it has finished its opening animation. */
export async function confirmButton(name: RegExp = /确\s*定/) {
  const box = page.locator('.ant-modal-confirm:visible');
  await settled(box);
  return box.getByRole('button', { name });
}

/**
 * Presses 确定 in the open 确定提交审批? dialog once it has finished opening (a click during its animation can miss);
 * a document raising warnings asks 仍要提交审批吗? under them instead.
 */
export async function confirmSubmit() {
  const dialog = await opened(page.getByRole('dialog').filter({ hasText: /确定提交审批?|仍要提交审批吗?/ }));
  await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
}

/** `popup` (a popover, drawer or modal), once it is visible and has finished its opening animation. */
export async function opened(popup: Locator) {
  await settled(popup);
  return popup;
}

/** An item of the open dropdown menu, once the menu has finished its opening animation. */
export async function dropdownItem(name: string) {
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').filter({ has: page.getByRole('menuitem', { name, exact: true }) });
  await settled(menu);
  return menu.getByRole('menuitem', { name, exact: true });
}

/**
 * The choice `text` (`choice`: its CSS selector) of the open select or tree select, once the dropdown has finished opening
 * and shows the choices of the text typed into it (a reference picker is aria-busy until its search has been answered:
 * a click on an earlier choice can land while the list is replaced).
 */
export async function selectChoice(choice: string, text: string) {
  const dropdown = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .filter({ hasNot: page.locator('[aria-busy="true"]') })
    .filter({ has: page.locator(choice).filter({ hasText: text }) });
  await settled(dropdown);
  return dropdown.locator(choice).filter({ hasText: text });
}
/** Waits until no finite animation or CSS transition of the page is running (antd's colour transitions, a popup's motion). */
export async function animationsDone() {
  await poll(() =>
    page.evaluate(
      () =>
        document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity).length,
    ),
  ).toBe(0);
}
export const toast = (text: string) => page.locator('.ant-message-notice').filter({ hasText: text });

/** Opens /login and returns the answer to the captcha the page shows. */
export async function openLogin(): Promise<string> {
  // the page before (a redirect to /login of its own) may still be fetching a captcha: its answer
  // would be taken for this page's, and its body is gone once this navigation starts
  await page.goto('about:blank');
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === CAPTCHA_PATH && r.status() === 200);
  await page.goto(`${base}/login`);
  return captchaOf(await answer);
}

export async function captchaOf(response: Response): Promise<string> {
  const code = response.headers()['x-test-captcha-code'];
  expect(code, 'the captcha answer header (exposeCaptchaCode)').toBeTruthy();
  const { key } = (await response.json()) as { key: string };
  // the code must belong to the image the page shows
  await see(page.locator('img.zs-captcha')).toHaveAttribute('data-captcha-key', key);
  return code;
}

export async function fillLogin(user: string, password: string, code: string, tenantId = '000000') {
  const tenant = page.getByLabel('租户编号', { exact: true });
  if (await tenant.count()) await tenant.fill(tenantId);
  await page.getByLabel('用户名', { exact: true }).fill(user);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('验证码', { exact: true }).fill(code);
  await page.locator('.zs-login-card button[type=submit]').click();
}

/** Logs in through the login page, as a person would, and waits for the home page. */
export async function login(user = 'admin', password = user, tenantId = '000000') {
  const code = await openLogin();
  await fillLogin(user, password, code, tenantId);
  await page.waitForURL((u) => u.pathname === '/wel/index');
  await see(page.locator('.zs-header')).toBeVisible();
  await see(sidebar().getByRole('menuitem').first()).toBeVisible();
}

/** Opens a screen from the sidebar and waits for its list to finish loading. */
export async function openFromSidebar(name: string) {
  await sideItem(name).click();
  await see(tab(name)).toHaveAttribute('aria-selected', 'true');
  await waitForList();
}

/** Waits for the open screen's list (EntityList: data-testid="entity-list") to finish loading (aria-busy="false"). */
/** The entity list of the current screen, and one of its rows by the text it shows. */
export const entityList = () => page.getByTestId('entity-list');
export const listRow = (text: string) => entityList().locator('.zs-grid-row', { hasText: text });

/** Opens an antd select by its input id, types to search, and picks the option with that text. */
export async function pickOption(inputId: string, search: string, option: string) {
  const input = page.locator(`#${inputId}`);
  await input.click();
  await input.fill(search);
  // once the dropdown has finished opening: a click during its animation can miss
  await (await selectChoice('.ant-select-item-option', option)).first().click();
}

/** Types a value into a field as a person would, and leaves it (Tab). */
export async function typeInto(locator: Locator, value: string) {
  await locator.click();
  await locator.fill(value);
  await locator.press('Tab');
}

/**
 * From the material total demand list: a new plan on the Nanjing project with one steel line,
 * saved (新增成功) and the list back.
 */
export async function saveOneLinePlan(title: string, quantity: string) {
  await entityList()
    .getByRole('button', { name: /新\s*增/ })
    .click();
  await fillOneLinePlan(title, quantity);
  // the first save of a fresh server compiles the document's validators: on a loaded CI machine
  // that took longer than the toast's wait, so wait for the server's answer first and name it
  const answer = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/materialTotalDemand/save'),
    { timeout: SLOW_SERVER },
  );
  await page.getByRole('button', { name: /保\s*存/ }).click();
  const saved = (await (await answer).json()) as { success?: boolean; msg?: string };
  expect(saved.success, `the save was refused: ${saved.msg}`).toBe(true);
  await see(toast('新增成功')).toBeVisible();
  await waitForList();
}

/** Fills the open plan form (the list's, or a workflow start form) with one line of rebar at 3.5. */
export async function fillOneLinePlan(title: string, quantity: string) {
  await pickOption('root_projectId', '江北', '江北新区人才公寓二期EPC项目');
  await typeInto(page.locator('#root_title'), title);
  await typeInto(page.locator('#root_planDate'), '2026-05-01');
  await typeInto(page.locator('#root_compilerName'), '王工');
  await page.getByRole('button', { name: '新增行' }).click();
  await pickOption('root_details_0_goodsId', '010101', 'HRB400E Φ12');
  await typeInto(page.locator('#root_details_0_designQty'), quantity);
  await typeInto(page.locator('#root_details_0_budgetPrice'), '3.5');
}

/** Searches the open list by the text field with this placeholder and waits for the answer. */
export async function searchList(placeholder: string, text: string) {
  await entityList().getByPlaceholder(placeholder).fill(text);
  await entityList()
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  await waitForList();
}

export async function waitForList() {
  const list = page.locator('.zs-content [data-testid="entity-list"]:visible').first();
  await see(list).toBeVisible();
  await see(list).toHaveAttribute('aria-busy', 'false');
}
