// @vitest-environment node
// The log screens (系统监控 → 日志管理) as an administrator uses them: the audit log shows the
// login just made, the API log a refused login with its password masked in the detail drawer, the
// error log an error the browser uploaded, with its stack; none offers adding or deleting.
import { describe, expect, test } from 'vitest';
import { ACCESS_COOKIE, TEST_TIMEOUT, base, context, entityList, login, page, see, shot, sideItem, waitForList } from './harness.ts';

const drawer = () => page.getByRole('dialog').filter({ hasText: '记录信息' });
const toolbar = () => page.locator('.zs-content .zs-list-toolbar:visible').first();

/** Opens a log screen from the sidebar: 系统监控 → 日志管理 → the log (groups opened as needed). */
async function openLog(name: string) {
  if (!(await sideItem('日志管理').isVisible())) await sideItem('系统监控').click();
  await see(sideItem('日志管理')).toBeVisible();
  if (!(await sideItem(name).isVisible())) await sideItem('日志管理').click();
  await see(sideItem(name)).toBeVisible();
  await sideItem(name).click();
  await waitForList();
}

describe('log screens in the browser', () => {
  test(
    'audit, API and error logs: lists, a detail drawer with masked parameters and a stack, no add or delete',
    async () => {
      // a refused login first (its password must not show anywhere), then the real one
      await page.goto(base);
      await page.request.post(
        `${base}/api/blade-auth/oauth/token?tenantId=000000&username=admin&password=0123456789abcdef0123456789abcdef&grant_type=password`,
        {
          headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}` },
        },
      );
      await login();
      const token = (await context!.cookies()).find((c) => c.name === ACCESS_COOKIE)?.value;
      await page.request.post(`${base}/api/blade-auth/oauth/client-logs`, {
        headers: { 'blade-auth': `bearer ${token}` },
        data: [
          {
            type: 'error',
            message: "TypeError: Cannot read properties of undefined (reading 'qty')",
            stack: 'TypeError: Cannot read properties of undefined\n    at Grid (grid.tsx:42:7)\n    at Form (form.tsx:10:3)',
            url: '/cost-material/materialTotalDemand',
            time: '2026-11-23 09:00:00',
            info: 'render',
          },
        ],
      });

      await openLog('通用日志');
      await see(entityList().locator('.zs-grid-row', { hasText: '登录失败' }).first()).toBeVisible();
      await see(entityList().locator('.zs-grid-row', { hasText: '登录' }).first()).toBeVisible();
      await see(toolbar().getByRole('button', { name: /新\s*增/ })).toHaveCount(0);
      await see(toolbar().getByRole('button', { name: /删\s*除/ })).toHaveCount(0);
      await shot('logs-usual.png');

      await openLog('接口日志');
      const refused = entityList().locator('.zs-grid-row', { hasText: '/api/blade-auth/oauth/token' }).filter({ hasText: '400' }).first();
      await see(refused).toBeVisible();
      await shot('logs-api.png');
      await refused.getByRole('button', { name: /查\s*看/ }).click();
      await see(drawer().locator('.zs-display-code').first()).toContainText('"password":"******"');
      expect(await drawer().innerText()).not.toContain('0123456789abcdef');
      await shot('logs-api-detail.png');
      await page.keyboard.press('Escape');

      await openLog('错误日志');
      const uploaded = entityList().locator('.zs-grid-row', { hasText: "reading 'qty'" }).first();
      await see(uploaded).toContainText('浏览器');
      await uploaded.getByRole('button', { name: /查\s*看/ }).click();
      await see(drawer().locator('.zs-display-code').first()).toContainText('at Grid (grid.tsx:42:7)');
      await shot('logs-error-detail.png');
    },
    TEST_TIMEOUT * 2,
  );
});
