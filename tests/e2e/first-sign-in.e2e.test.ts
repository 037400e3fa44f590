// @vitest-environment node
// Browser tests of what a user may open right after signing in: an account reset to the initial
// password opens only the password change, and works normally once it is changed; a page the user
// is not granted says so (403), a path that is no page says that (404).
import { describe, test } from 'vitest';
import {
  CAPTCHA_PATH,
  TEST_TIMEOUT,
  base,
  captchaOf,
  fillLogin,
  login,
  openLogin,
  page,
  see,
  sidebar,
  testApp,
  adminApi,
} from './harness.ts';

/** A platform account with the tenant's initial password (123456), as after a reset. */
async function accountWithInitialPassword(account: string) {
  const app = testApp();
  const admin = await adminApi();
  const [clerk] = await app.db.query(`SELECT role_id AS "roleId", dept_id AS "deptId" FROM blade_user WHERE account = 'clerk'`);
  const created = await admin.post('/api/blade-system/user/submit', {
    ...clerk,
    account,
    password: 'made-by-admin',
    name: account,
    realName: '新同事',
    userType: '1',
    status: 1,
  });
  await admin.post('/api/blade-system/user/reset-password', undefined, { userIds: created.body.data.id });
}

describe('the first screens after signing in', () => {
  test(
    'an account on the initial password changes it before anything else, then works normally',
    async () => {
      await accountWithInitialPassword('first_wu');
      await fillLogin('first_wu', '123456', await openLogin());
      await page.waitForURL((u) => u.pathname === '/password');
      await see(page.getByText('账号 first_wu 正在使用初始密码或被重置的密码', { exact: false })).toBeVisible();
      // no other page opens meanwhile
      await page.goto(`${base}/wel/index`);
      await page.waitForURL((u) => u.pathname === '/password');

      await page.getByLabel('原密码', { exact: true }).fill('123456');
      await page.getByLabel('新密码', { exact: true }).fill('Wu#2026-site');
      await page.getByLabel('确认密码', { exact: true }).fill('Wu#2026-site');
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(page.getByText('密码已修改,请用新密码重新登录')).toBeVisible();
      const captcha = page.waitForResponse((r) => new URL(r.url()).pathname === CAPTCHA_PATH && r.status() === 200);
      await page.getByRole('button', { name: '重新登录' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      await fillLogin('first_wu', 'Wu#2026-site', await captchaOf(await captcha));
      await page.waitForURL((u) => u.pathname === '/wel/index');
      await see(sidebar().getByRole('menuitem').first()).toBeVisible();
    },
    TEST_TIMEOUT,
  );

  test(
    'a page the user is not granted answers 403, a path that is no page 404',
    async () => {
      await login('clerk', 'clerk');
      await page.goto(`${base}/system/user`);
      await page.waitForURL((u) => u.pathname === '/403');
      await see(page.getByText('抱歉,你无权访问该页面')).toBeVisible();
      await page.goto(`${base}/system/no-such-page`);
      await page.waitForURL((u) => u.pathname === '/404');
      await see(page.getByText('抱歉,你访问的页面不存在')).toBeVisible();
    },
    TEST_TIMEOUT,
  );
});
