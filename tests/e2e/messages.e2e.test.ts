// @vitest-environment node
// Browser tests of messages and notices (tests/e2e/harness.ts starts the app and Chromium): a
// message sent by someone else appears without a reload, the popup stays, opening it drops the
// count; the drawer (80% wide, page sizes 10/20/30/50), delete and read-all with the server's
// failure message; sending from the drawer; a failed subscription only logged; notices on home.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  ACCESS_COOKIE,
  TEST_TIMEOUT,
  WAIT,
  base,
  confirmButton,
  opened,
  expectProblem,
  login,
  openFromSidebar,
  page,
  poll,
  see,
  selectChoice,
  shot,
  toast,
} from './harness.ts';

const MESSAGE = '/api/blade-message/message';

/** Logs in through the API (the captcha's answer travels in a test header) and returns the token and user id. */
async function apiLogin(account: string, password = account): Promise<{ token: string; userId: string }> {
  const captcha = await fetch(`${base}/api/blade-auth/oauth/captcha`);
  const code = captcha.headers.get('x-test-captcha-code')!;
  const { key } = (await captcha.json()) as { key: string };
  const query = new URLSearchParams({
    tenantId: '000000',
    username: account,
    password: createHash('md5').update(password).digest('hex'),
    grant_type: 'captcha',
    scope: 'all',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${query}`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
      'Tenant-Id': '000000',
      'Captcha-Key': key,
      'Captcha-Code': code,
    },
  });
  const body = (await res.json()) as { access_token: string; user_id: string };
  expect(body.access_token, JSON.stringify(body)).toBeTruthy();
  return { token: body.access_token, userId: body.user_id };
}

async function api<T = any>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'blade-auth': `bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { code: number; data: T };
  expect(json.code, JSON.stringify(json)).toBe(200);
  return json.data;
}

const bell = () => page.getByTestId('message-bell');
const bellCount = async () => {
  const count = page.locator('.zs-header .ant-badge').filter({ has: bell() }).locator('.ant-scroll-number');
  return (await count.count()) ? Number((await count.first().getAttribute('title')) ?? '0') : 0;
};
const livePopup = (title: string) => page.locator('.ant-notification-notice').filter({ hasText: title });

describe('messages in the browser', () => {
  test(
    'a message from someone else appears without a reload; the popup stays; opening it drops the count',
    async () => {
      const admin = await apiLogin('admin');
      // the server registers a subscription before its answer's headers leave (src/server/realtime/sse.ts):
      // once the browser has them, a message sent is delivered to this page
      const subscribed = page.waitForResponse((r) => r.url().includes(`${MESSAGE}/subscribe`) && r.status() === 200, { timeout: WAIT });
      await login('clerk');
      await subscribed;
      const clerkId = await page.evaluate(() => JSON.parse(localStorage.getItem('zhusuan-userInfo')!).content.user_id as string);
      await see(bell()).toBeVisible();
      // the count before, from the server, and the bell showing it (its list may still be loading)
      const clerkToken = await page.evaluate(
        (name) =>
          decodeURIComponent(
            document.cookie
              .split('; ')
              .find((c) => c.startsWith(`${name}=`))!
              .slice(name.length + 1),
          ),
        ACCESS_COOKIE,
      );
      const before = (await api<{ unReadCount: number }>(clerkToken, 'GET', `${MESSAGE}/my/topList`)).unReadCount;
      await poll(bellCount).toBe(before);
      await page.evaluate(() => ((window as any).__sameDocument = true));

      const sentAt = Date.now();
      await api(admin.token, 'POST', `${MESSAGE}/save`, {
        type: '1',
        receiverIds: clerkId,
        title: '钢筋进场验收提醒',
        content: '请于周五前完成 1# 楼钢筋进场验收并上传照片。',
      });
      await see(livePopup('钢筋进场验收提醒')).toBeVisible();
      const shownAt = Date.now();
      const latency = shownAt - sentAt;
      console.info(`live message shown ${latency} ms after the send returned`);
      await poll(bellCount).toBe(before + 1);
      expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
      await shot('message-live-popup.png');

      // antd closes ordinary notifications 4.5 s after they open: this one stays. A bounded negative
      // check (nothing to wait for can show that a close did not happen): 5 s from when it was seen open
      await page.waitForTimeout(Math.max(0, shownAt + 5000 - Date.now()));
      await see(livePopup('钢筋进场验收提醒')).toBeVisible();

      await livePopup('钢筋进场验收提醒')
        .getByRole('button', { name: '查 看' })
        .or(livePopup('钢筋进场验收提醒').getByRole('button', { name: '查看' }))
        .click();
      await see(page.getByTestId('message-detail')).toContainText('请于周五前完成 1# 楼钢筋进场验收并上传照片。');
      await see(page.getByTestId('message-detail')).toContainText('管理员');
      await poll(bellCount).toBe(before);
      await shot('message-detail.png');
    },
    TEST_TIMEOUT,
  );

  test(
    'the bell popover lists recent messages; the drawer is 80% wide with page sizes 10/20/30/50; delete and read-all',
    async () => {
      const admin = await apiLogin('admin');
      const manager = await apiLogin('manager');
      // the manager may already hold messages (the demo's early warnings go to the project manager)
      const held = (await api<{ total: number }>(manager.token, 'GET', `${MESSAGE}/my/list?current=1&size=1`)).total;
      expect(held + 12, 'the drawer shows them on one page of 20').toBeLessThanOrEqual(20);
      for (let i = 1; i <= 12; i++)
        await api(admin.token, 'POST', `${MESSAGE}/save`, {
          type: '1',
          receiverIds: manager.userId,
          title: `周报提醒 ${i}`,
          content: `第 ${i} 周成本周报请按时提交。`,
        });
      await login('manager');
      await poll(bellCount).toBeGreaterThanOrEqual(12);

      await bell().click();
      const popover = await opened(page.getByTestId('message-popover'));
      await see(popover.getByText('周报提醒 12', { exact: true })).toBeVisible();
      await shot('message-popover.png');
      await popover.getByRole('button', { name: '查看全部消息' }).click();

      const drawer = await opened(page.locator('.ant-drawer-content-wrapper'));
      const width = await drawer.evaluate((el) => el.getBoundingClientRect().width);
      const viewport = page.viewportSize()!.width;
      expect(Math.abs(width - viewport * 0.8)).toBeLessThan(2);
      const rows = page.locator('.ant-drawer .ant-table-tbody tr.ant-table-row');
      await see(rows).toHaveCount(10);
      await page.locator('.ant-drawer .ant-pagination .ant-select').click();
      await see(page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')).toHaveText([
        '10 条/页',
        '20 条/页',
        '30 条/页',
        '50 条/页',
      ]);
      await (await selectChoice('.ant-select-item-option', '20 条/页')).click();
      await see(rows).toHaveCount(held + 12);
      await shot('message-drawer.png');

      // delete one
      await rows.filter({ hasText: '周报提醒 3' }).locator('.ant-checkbox-input').check();
      await page
        .locator('.ant-drawer')
        .getByRole('button', { name: /删\s*除/ })
        .click();
      await (await confirmButton()).click();
      await see(toast('删除成功')).toBeVisible();
      await see(rows).toHaveCount(held + 11);
      await see(rows.filter({ hasText: '周报提醒 3' })).toHaveCount(0);

      // read all
      await page.locator('.ant-drawer').getByRole('button', { name: '全部已读' }).click();
      await (await confirmButton()).click();
      await see(toast('操作成功')).toBeVisible();
      await poll(bellCount).toBe(0);
      await see(page.locator('.ant-drawer .ant-tag').filter({ hasText: '未读' })).toHaveCount(0);
    },
    TEST_TIMEOUT,
  );

  test(
    "delete and read-all failures show the server's message",
    async () => {
      const admin = await apiLogin('admin');
      const center = await apiLogin('center');
      await api(admin.token, 'POST', `${MESSAGE}/save`, {
        type: '1',
        receiverIds: center.userId,
        title: '合同交底会议',
        content: '周三下午两点。',
      });
      await login('center');
      try {
        await page.route(`**${MESSAGE}/readAll`, (route) =>
          route.fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({ code: 500, success: false, data: null, msg: '消息服务繁忙,请稍后再试' }),
          }),
        );
        await page.route(`**${MESSAGE}/remove**`, (route) =>
          route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ code: 400, success: false, data: null, msg: '该消息已被发送人撤回' }),
          }),
        );
        await bell().click();
        await (await opened(page.getByTestId('message-popover'))).getByRole('button', { name: '查看全部消息' }).click();
        const rows = page.locator('.ant-drawer .ant-table-tbody tr.ant-table-row');
        await see(rows.filter({ hasText: '合同交底会议' })).toBeVisible();

        await page.locator('.ant-drawer').getByRole('button', { name: '全部已读' }).click();
        await (await confirmButton()).click();
        await see(toast('消息服务繁忙,请稍后再试')).toBeVisible();
        // the read-all confirmation closes after the list is refreshed, which is after the toast:
        // until it is gone, the delete's 确定 below could be looked for in it
        await see(page.locator('.ant-modal-confirm')).toHaveCount(0);

        await rows.filter({ hasText: '合同交底会议' }).locator('.ant-checkbox-input').check();
        await page
          .locator('.ant-drawer')
          .getByRole('button', { name: /删\s*除/ })
          .click();
        await (await confirmButton()).click();
        await see(toast('该消息已被发送人撤回')).toBeVisible();
        await see(rows.filter({ hasText: '合同交底会议' })).toBeVisible();
        await shot('message-failure.png');
        // the browser itself reports the refused request
        expectProblem('400 (Bad Request)');
      } finally {
        await page.unrouteAll();
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'an administrator sends a department broadcast from the drawer',
    async () => {
      const clerk = await apiLogin('clerk');
      const before = (await api<{ unReadCount: number }>(clerk.token, 'GET', `${MESSAGE}/my/topList`)).unReadCount;
      await login('admin');
      await bell().click();
      await (await opened(page.getByTestId('message-popover'))).getByRole('button', { name: '查看全部消息' }).click();
      await page.locator('.ant-drawer').getByRole('button', { name: '发送消息' }).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '发送消息' });
      await opened(dialog);
      await dialog.getByLabel('消息类型').click();
      await (await selectChoice('.ant-select-item-option', '部门广播')).click();
      await dialog.getByLabel('接收部门').click();
      await (await selectChoice('.ant-select-tree-node-content-wrapper', '第一工程公司')).click();
      await see(dialog.locator('.ant-select-selection-item').filter({ hasText: '第一工程公司' })).toBeVisible();
      await page.keyboard.press('Escape');
      await dialog.getByLabel('消息标题').fill('安全检查通知');
      await dialog.getByLabel('消息内容').fill('本周四进行季度安全检查,请各项目做好准备。');
      await shot('message-send.png');
      await dialog.getByRole('button', { name: /发\s*送/ }).click();
      await see(toast('发送成功')).toBeVisible();
      await poll(async () => (await api<{ unReadCount: number }>(clerk.token, 'GET', `${MESSAGE}/my/topList`)).unReadCount).toBe(
        before + 1,
      );
      await page.locator('.ant-drawer').getByRole('tab', { name: '发出的消息' }).click();
      await see(page.locator('.ant-drawer .ant-table-tbody tr.ant-table-row').filter({ hasText: '安全检查通知' })).toBeVisible();
    },
    TEST_TIMEOUT,
  );

  test(
    'a failed subscription is only logged; the bell still works',
    async () => {
      await page.route(`**${MESSAGE}/subscribe`, (route) => route.fulfill({ status: 503, body: 'unavailable' }));
      try {
        const logged: string[] = [];
        page.on('console', (msg) => logged.push(msg.text()));
        await login('costmgr');
        await poll(async () => logged.some((l) => l.includes('live subscription failed')), 5000).toBe(true);
        await see(page.locator('.ant-message-notice')).toHaveCount(0);
        await bell().click();
        await see(page.getByTestId('message-popover')).toBeVisible();
        // the browser itself reports the refused request
        expectProblem('503');
      } finally {
        await page.unrouteAll();
      }
    },
    TEST_TIMEOUT,
  );

  test(
    "the home page shows the tenant's notices; a click shows the whole notice",
    async () => {
      await login('clerk');
      const board = page.getByTestId('notice-board');
      await see(board.getByText('关于做好年度成本结算工作的通知')).toBeVisible();
      await see(board.getByText('事务通知')).toBeVisible();
      await board.getByText('筑算成本管控平台上线运行').click();
      await see(page.locator('.ant-modal').filter({ hasText: '筑算成本管控平台上线运行' })).toContainText(
        '使用中遇到问题请联系集团成本管理中心',
      );
      await shot('home-notices.png');
    },
    TEST_TIMEOUT,
  );

  test(
    'profile: an avatar uploads through the resource API and shows; a GIF is refused before it leaves',
    async () => {
      await login('clerk');
      await page.goto(`${base}/info/index`);
      await see(page.getByLabel('姓名')).toHaveValue('王晓明'); // the form holds the stored info
      // a whole 1×1 PNG: the avatar shows the picture only if the browser can decode it
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
      await page.locator('input[type=file]').setInputFiles([{ name: '头像.png', mimeType: 'image/png', buffer: png }]);
      await poll(() =>
        page
          .locator('.zs-content .ant-avatar img')
          .getAttribute('src', { timeout: 500 })
          .catch((e: Error) => e.message),
      ).toMatch(/\/api\/blade-resource\/.+\.png$/);
      await page.locator('input[type=file]').setInputFiles([{ name: '动图.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') }]);
      await see(toast('头像只能是')).toBeVisible();
      await shot('profile-avatar.png');
    },
    TEST_TIMEOUT,
  );

  test(
    "attachments: upload from the attachment screen, a wrong type refused with the server's message, the link opens",
    async () => {
      await login('admin');
      await openFromSidebar('附件管理');
      await page
        .locator('.zs-content')
        .getByRole('button', { name: /上\s*传/ })
        .click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '上传附件' });
      await see(dialog).toBeVisible();
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
      await dialog.locator('input[type=file]').setInputFiles([{ name: '现场照片.png', mimeType: 'image/png', buffer: png }]);
      await see(toast('现场照片.png 上传成功')).toBeVisible();
      await dialog
        .locator('input[type=file]')
        .setInputFiles([{ name: '病毒.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') }]);
      await see(page.locator('.ant-message-notice').filter({ hasText: '不支持的文件类型: exe' })).toBeVisible();
      expectProblem('400 (Bad Request)');
      await shot('attach-upload.png');
      await dialog.locator('.ant-modal-close').click();
      await see(page.locator('.zs-content').getByText('现场照片.png', { exact: true })).toBeVisible();
      await shot('attach-list.png');

      // the link answers this browser's session (the cookie), and nobody without it
      const { link } = await page.evaluate(async () => {
        const res = await fetch('/api/blade-resource/attach/list?originalName=现场照片', {
          headers: {
            'Blade-Auth': `bearer ${decodeURIComponent(
              document.cookie
                .split('; ')
                .find((c) => c.startsWith('zhusuan-access-token='))!
                .split('=')[1],
            )}`,
          },
        });
        return (await res.json()).data.records[0] as { link: string };
      });
      const image = await page.evaluate(async (url) => (await fetch(url)).status, link);
      expect(image).toBe(200);
      expect((await fetch(`${base}${link}`)).status).toBe(401);
    },
    TEST_TIMEOUT,
  );
});
