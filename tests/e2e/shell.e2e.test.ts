// @vitest-environment node
// Browser tests of the shell (tests/e2e/harness.ts starts the app and Chromium).
import { describe, expect, test } from 'vitest';
import {
  TEST_TIMEOUT,
  animationsDone,
  CAPTCHA_PATH,
  expectProblem,
  ACCESS_COOKIE,
  base,
  page,
  poll,
  titleIs,
  see,
  shot,
  pathname,
  sideItem,
  tabs,
  tab,
  tabBox,
  dropdownItem,
  toast,
  openLogin,
  captchaOf,
  fillLogin,
  login,
  openFromSidebar,
  opened,
  testApp,
  toolbar,
  button,
  waitForList,
} from './harness.ts';

/**
 * Header background of each theme (src/client/app/themes.ts), and an antd default button's, as
 * computed style reports them: the button's comes from antd's stylesheet for the theme (a build's
 * static one, app/theme-stylesheet.ts), which the dark theme changes.
 */
const THEMES = [
  { name: 'default', label: '默认主题', header: 'rgb(255, 255, 255)', button: 'rgb(255, 255, 255)' },
  { name: 'smart', label: '智能主题', header: 'rgb(15, 61, 86)', button: 'rgb(255, 255, 255)' },
  { name: 'black-gold', label: '黑金主题', header: 'rgb(20, 20, 20)', button: 'rgb(20, 20, 20)' },
  { name: 'blue-white', label: '蓝白主题', header: 'rgb(31, 95, 191)', button: 'rgb(255, 255, 255)' },
  { name: 'white', label: '白色主题', header: 'rgb(255, 255, 255)', button: 'rgb(255, 255, 255)' },
] as const;

async function pickTheme(label: string, header: string) {
  await page.getByTestId('theme-picker').click();
  await (await dropdownItem(label)).click();
  await poll(() => headerBackground()).toBe(header);
  await see(page.getByRole('menuitem', { name: label, exact: true })).toBeHidden();
}

const headerBackground = () => page.locator('.zs-header').evaluate((el) => getComputedStyle(el).backgroundColor);

// ---- tests ----

/** What a reload during sign-in's menu request leaves: a session, and neither menus nor buttons stored. */
async function signInWithoutStoredMenus() {
  await login();
  await page.evaluate(() => {
    for (const key of ['zhusuan-menu', 'zhusuan-permission']) {
      localStorage.removeItem(key);
      sessionStorage.removeItem(key);
    }
  });
}

describe('shell in the browser', () => {
  test(
    'logs in through the captcha flow and lands on the home page with the menus',
    async () => {
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
    },
    TEST_TIMEOUT,
  );

  test(
    'a reload before sign-in had stored the menus shows them all the same',
    async () => {
      await signInWithoutStoredMenus();
      await page.reload();
      await see(sideItem('基础资料')).toBeVisible();
      await see(page.locator('.zs-menu-empty')).toHaveCount(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'a page address loaded before sign-in had stored the menus opens the page, not 403',
    async () => {
      await signInWithoutStoredMenus();
      const projects = testApp().catalog.entities.project.menu!.path;
      await page.goto(`${base}${projects}`);
      await waitForList();
      await titleIs('项目');
      expect(pathname()).toBe(projects);
      // with the buttons the administrator is granted
      await see(button(toolbar(), '新增')).toBeVisible();
    },
    TEST_TIMEOUT,
  );

  test(
    'a wrong captcha is refused with 验证码不正确 and the page stays on /login',
    async () => {
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
    },
    TEST_TIMEOUT,
  );

  test(
    'tabs: three screens, close others, closing the current opens its neighbour, home has no close button',
    async () => {
      await login();
      await openFromSidebar('项目');
      await see(page.locator('.zs-content [data-testid="entity-list"]:visible tr.zs-grid-row').first()).toBeVisible();
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
    },
    TEST_TIMEOUT,
  );

  test(
    'lock screen: empty password refused, /lock survives navigation, wrong password refused, right one unlocks',
    async () => {
      await login();
      await page.getByTestId('lock').click();
      const dialog = page.getByRole('dialog').filter({ hasText: '锁屏' });
      await opened(dialog); // a click during its opening animation can miss
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
    },
    TEST_TIMEOUT,
  );

  test(
    'language: English menus, tabs and title, then back to 中文',
    async () => {
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
    },
    TEST_TIMEOUT,
  );

  test(
    'theme: 黑金主题 changes the header colour and survives a reload',
    async () => {
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
    },
    TEST_TIMEOUT,
  );

  test(
    'every theme on the project list (screenshots)',
    async () => {
      await login();
      await openFromSidebar('项目');
      await see(page.locator('.zs-content [data-testid="entity-list"]:visible tr.zs-grid-row').first()).toBeVisible();
      const exportButton = page.locator('.zs-content [data-testid="entity-list"]:visible').getByRole('button', { name: /导\s*出/ });
      for (const theme of THEMES) {
        await pickTheme(theme.label, theme.header);
        await page.mouse.move(700, 600);
        await animationsDone(); // antd's colour transitions (and the hover the mouse left)
        await poll(() => exportButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(theme.button);
        await shot(`theme-${theme.name}.png`);
      }
    },
    TEST_TIMEOUT * 2,
  );

  test(
    'an invalid access token: the next data call lands on /login',
    async () => {
      await login();
      // the home page's cost overview loads its figures after the shell: let those calls finish first,
      // or one of them (not the click below) meets the garbage token
      await see(page.getByTestId('cost-overview')).toBeVisible({ timeout: 20_000 });
      for (const figure of ['cost-warnings', 'cost-approvals']) await poll(() => page.getByTestId(figure).innerText()).not.toContain('—');
      await page.evaluate((name) => {
        document.cookie = `${name}=garbage; path=/; SameSite=Strict`;
      }, ACCESS_COOKIE);
      const refused = page.waitForResponse((r) => r.url().includes('/api/construct/project/list'));
      await sideItem('项目').click();
      expect((await refused).status()).toBe(401);
      await page.waitForURL((u) => u.pathname === '/login');
      await see(page.getByText('用户登录')).toBeVisible();
      await see(page.locator('.zs-header')).toHaveCount(0);
      expect(
        await page.evaluate(
          (name) => document.cookie.split('; ').some((c) => c.startsWith(`${name}=`) && c.length > name.length + 1),
          ACCESS_COOKIE,
        ),
      ).toBe(false);
    },
    TEST_TIMEOUT,
  );

  test(
    'watermark: shows the real name and comes back when removed or restyled',
    async () => {
      await login();
      const mark = page.locator('#zs-watermark');
      await see(mark).toHaveCount(1);
      await see(mark).toHaveAttribute('data-text', '管理员');
      const style = await mark.getAttribute('style');
      expect(style).toContain('background-image:url(data:image/png');

      await page.evaluate(() => document.getElementById('zs-watermark')!.remove());
      await see(mark).toHaveCount(1);
      await see(mark).toHaveAttribute('data-text', '管理员');

      await page.evaluate(() => document.getElementById('zs-watermark')!.setAttribute('style', 'display:none'));
      await see(mark).toHaveAttribute('style', style!);
      await see(mark).toBeVisible();
    },
    TEST_TIMEOUT,
  );

  test(
    'menu search: a prefix lists the matching menus, Esc closes the overlay',
    async () => {
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
    },
    TEST_TIMEOUT,
  );

  test(
    'error log: an uncaught error raises the badge to 1 and is listed in the dialog',
    async () => {
      await login();
      const badge = page
        .locator('.ant-badge')
        .filter({ has: page.getByTestId('error-log') })
        .locator('.ant-badge-count');
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
      expectProblem('boom');
    },
    TEST_TIMEOUT,
  );
});
