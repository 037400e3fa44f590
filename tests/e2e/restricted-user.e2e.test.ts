// @vitest-environment node
// A user granted little, as a tenant's administrator sets one up (issue #25, parts 4 and 6): 江北经办员
// (alias jb_clerk) holds the project list and the total demand plans only. Their home names the role,
// not its alias, and asks for nothing they may not see; the project list names each project's 建设单位
// and a demand's rows their 物资, though the role has neither the 甲方单位 nor the 物资档案 menu. No
// request of the session is refused (403) and the browser reports no error.
import type { Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { demand, demandRow, goods, partyA, project } from '../server/fixtures.ts';
import { client, type TestServer } from '../server/harness.ts';
import { base, listRow, login, page, poll, see, shot, TEST_TIMEOUT, testApp, waitForList } from './harness.ts';

const STAMP = Date.now().toString(36);
/** The waiting work's counts (src/client/workflow/WaitingWork.tsx). */
const COUNTS_URL = '/api/blade-flow/work/counts';
const OWNER = `江北新区城建集团(标签 ${STAMP})`;
const SITE = `江北人才公寓(标签 ${STAMP})`;
const PLAN = `主体结构材料计划(标签 ${STAMP})`;

/** The demand's goods, a role granted the two lists only, and a user of it (password as account). */
async function restrictedClerk() {
  const app = testApp();
  // the platform's administrator as signed in (创建人 of what is set up here)
  const [me] = await app.db.query<{ id: string; deptId: string; realName: string }>(
    `SELECT id::text AS id, dept_id AS "deptId", real_name AS "realName" FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`,
  );
  const admin = client(
    app as TestServer,
    await app.tokens.sign({ tenant_id: '000000', user_id: me.id, dept_id: me.deptId, role_name: 'administrator' }),
  );
  const ok = (res: { body: any }) => {
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
    return res.body.data;
  };
  const owner = await partyA(admin, { name: OWNER });
  const site = await project(admin, { name: SITE, partyAId: owner.id });
  const steel = await goods(admin, { name: `螺纹钢${STAMP}`, spec: 'HRB400E Φ25' });
  await demand(admin, site.id, [demandRow(steel.id, 120, 4150)], { title: PLAN });
  const role = ok(
    await admin.post('/api/blade-system/role/save', { parentId: '0', roleName: '江北经办员', roleAlias: 'jb_clerk', sort: 9 }),
  );
  const menus = await app.db.query<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = ANY($1::text[])`, [
    ['project', 'material_total_demand'],
  ]);
  ok(
    await admin.post('/api/blade-system/role/grant', {
      roleIds: [role.id],
      menuIds: menus.map((m) => m.id),
      dataScopeIds: [],
      apiScopeIds: [],
    }),
  );
  const account = `jb${STAMP}`;
  ok(
    await admin.post('/api/blade-system/user/save', {
      account,
      password: account,
      name: '小江',
      realName: '江小北',
      roleId: role.id,
      status: 1,
    }),
  );
  return { account, steel, creator: me, catalog: app.catalog };
}

describe('a restricted user', () => {
  test(
    'sees role names on the home, labels of what they read, and no refusal',
    async () => {
      const { account, steel, creator, catalog } = await restrictedClerk();
      const refused: string[] = [];
      const consoleErrors: string[] = [];
      const onResponse = (r: Response) => {
        if (r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
      };
      page.on('response', onResponse);
      page.on('console', (msg) => {
        if (msg.type() === 'error') consoleErrors.push(msg.text());
      });
      try {
        // the home: the role by its name, once its calls have answered (what the user may read,
        // the waiting work, the notices)
        const answered = (path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === path);
        const calls = [answered('/api/blade-system/menu/readable'), answered(COUNTS_URL), answered('/api/blade-desk/notice/top')];
        await login(account, account);
        for (const call of calls) expect((await call).status()).toBe(200);
        const roles = page.getByTestId('home-roles');
        await poll(() => roles.innerText()).toBe('江北经办员');
        // no cost overview for a user who may not read expense contracts
        expect(await page.getByText('成本概览').count()).toBe(0);
        await shot('restricted-home.png');

        // the project list: 建设单位 by name (a reference to 甲方单位, whose menu the role lacks)
        await page.goto(`${base}${catalog.entities.project.menu!.path}?name=${encodeURIComponent(SITE)}`);
        await waitForList();
        await see(listRow(SITE)).toBeVisible();
        await poll(() => listRow(SITE).innerText()).toContain(OWNER);
        await shot('restricted-project-list.png');

        // a demand's rows: 物资 by name (a reference to 物资档案, whose menu the role lacks)
        await page.goto(`${base}${catalog.entities.materialTotalDemand.menu!.path}?title=${encodeURIComponent(PLAN)}`);
        await waitForList();
        await listRow(PLAN).getByText('查看', { exact: true }).click();
        const rows = page.getByTestId('detail-rows-details');
        await see(rows).toBeVisible();
        await poll(() => rows.innerText()).toContain(`螺纹钢${STAMP}`);
        expect(await rows.innerText()).not.toContain(steel.id);
        // who created it: by name, though the role may not read users
        const audit = page.getByTestId('detail-audit');
        await poll(() => audit.innerText()).toContain(creator.realName);
        expect(await audit.innerText()).not.toContain(creator.id);
        await shot('restricted-demand-detail.png');
      } finally {
        page.off('response', onResponse);
      }
      expect(refused, 'requests refused with 403').toEqual([]);
      expect(
        consoleErrors.filter((e) => /403|Forbidden|没有.*权限/.test(e)),
        'console errors of refusals',
      ).toEqual([]);
    },
    TEST_TIMEOUT * 3,
  );
});
