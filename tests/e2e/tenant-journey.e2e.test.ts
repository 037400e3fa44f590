// @vitest-environment node
// A tenant administrator sets up a construction company alone (issue #25): the platform admin makes a
// package with every menu and a tenant on it; the tenant's admin builds departments, posts, roles with
// menu, button and data grants and three users; each user then signs in and sees exactly their grants
// and their department's data, with every label resolved and no refused call in the console.
import type { Locator, Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  button,
  content,
  dialog,
  rowWith,
  toolbar,
  TEST_TIMEOUT,
  animationsDone,
  dropdownItem,
  fillLogin,
  login,
  opened,
  openFromSidebar,
  openLogin,
  page,
  pickOption,
  poll,
  see,
  selectChoice,
  shot,
  sidebar,
  signInAs,
  squash,
  toast,
  typeInto,
  waitForList,
} from './harness.ts';

const COMPANY = '江南建工旅程公司';
const CLIENT = '江南城投集团';
const ADMIN_PASSWORD = 'Jn#2026-admin';
const PASSWORD = 'Jn#2026-start';
const ROLES = [
  ['项目经理', 'jn_pm', '1'],
  ['项目经办', 'jn_clerk', '2'],
  ['资料员', 'jn_docs', '3'],
];
/** The tenant the first step makes (its number is given by the server). */
let tenantId = '';

/** Ticks every top node of the open menu tree (a virtual list: it is scrolled to reach them all). */
async function tickEveryTopMenu(tree: Locator) {
  const list = tree.locator('.ant-select-tree-list-holder');
  const unticked = () =>
    tree
      .locator('.ant-select-tree-treenode')
      .filter({ has: page.locator('.ant-select-tree-indent:empty') })
      .filter({ has: page.locator('.ant-select-tree-checkbox:not(.ant-select-tree-checkbox-checked)') });
  const names: string[] = [];
  await list.evaluate((el) => el.scrollTo(0, 0));
  for (let step = 0; step < 100; step++) {
    const node = unticked().first();
    if (await node.count()) {
      const name = squash(await node.innerText());
      names.push(name);
      await node.locator('.ant-select-tree-checkbox').click();
      continue;
    }
    if (await list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1)) break;
    await list.evaluate((el) => el.scrollBy(0, el.clientHeight / 2));
  }
  return names;
}

/** Opens a screen from the sidebar and its 新增 dialog. */
async function startNew(menu: string) {
  await openFromSidebar(menu);
  await button(toolbar(), '新增').click();
  await opened(dialog());
}

const fill = (label: string, value: string) => dialog().getByLabel(label, { exact: true }).fill(value);

/** Saves the open 新增 dialog and waits for it to close. */
async function saveNew() {
  await button(dialog(), '保存').click();
  // (the toast of the save before may still be showing)
  await see(toast('新增成功').last()).toBeVisible();
  await see(page.locator('.ant-modal:visible')).toHaveCount(0);
}

/** Picks the node `text` of a tree select (single choice, or a checkbox of a multiple one), opening branches to reach it. */
async function pickTreeNode(inputId: string, text: string) {
  await page.locator(`#${inputId}`).click();
  const dropdown = await opened(page.locator('.ant-select-dropdown:visible'));
  const node = dropdown.locator('.ant-select-tree-treenode').filter({ hasText: text });
  for (let i = 0; i < 10 && !(await node.count()); i++) {
    await dropdown.locator('.ant-select-tree-switcher_close').first().click();
    await animationsDone();
  }
  const box = node.first().locator('.ant-select-tree-checkbox');
  if (await box.count()) await box.click();
  else await node.first().locator('.ant-select-tree-title').click();
  await page.keyboard.press('Escape');
  await see(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/** Picks the option `text` of a select. */
async function pickChoice(inputId: string, text: string) {
  await page.locator(`#${inputId}`).click();
  await (await selectChoice('.ant-select-item-option', text)).first().click();
  await page.keyboard.press('Escape');
  await see(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/**
 * Grants a role in its 权限设置 dialog a menu (`path`: a node and, optionally, one of its children to tick alone) and,
 * optionally, a data scope rule of that menu.
 */
async function grant(role: string, path: string[], dataRule?: string) {
  await button(rowWith(role), '权限设置').click();
  const box = await opened(dialog());
  let node = box
    .locator('.ant-tree-treenode')
    .filter({ has: page.getByText(path[0], { exact: true }) })
    .first();
  if (path[1]) {
    await node.locator('.ant-tree-switcher').click();
    node = box
      .locator('.ant-tree-treenode')
      .filter({ has: page.getByText(path[1], { exact: true }) })
      .first();
  }
  await node.locator('.ant-tree-checkbox').click();
  if (dataRule) {
    await box.getByRole('tab', { name: '数据权限' }).click();
    const rules = box.getByRole('tabpanel', { name: '数据权限' });
    await rules
      .locator('.ant-tree-treenode')
      .filter({ has: page.getByText(dataRule, { exact: true }) })
      .locator('.ant-tree-checkbox')
      .click();
    await shot(`journey-grant-${role}.png`);
  }
  await button(box, '确定').click();
  await see(toast('操作成功').last()).toBeVisible();
  await see(page.locator('.ant-modal:visible')).toHaveCount(0);
}

const USERS = [
  { account: 'zhangjl', name: '张经理', roles: ['项目经理'], dept: COMPANY, post: '项目经理' },
  { account: 'lijb', name: '李经办', roles: ['项目经办'], dept: '一号项目部', post: '经办员' },
  { account: 'wangzl', name: '王资料', roles: ['项目经办', '资料员'], dept: '二号项目部', post: '经办员' },
];

/** The sidebar shows exactly these pages. */
async function expectSidebar(pages: string[]) {
  await see(sidebar().getByRole('menuitem').first()).toBeVisible();
  await poll(async () => (await sidebar().locator('.ant-menu-item .ant-menu-title-content').allInnerTexts()).map(squash)).toEqual(pages);
}

/** Adds a project of the client from the project list. */
async function newProject(name: string) {
  await startNew('项目');
  await fill('项目名称', name);
  await pickChoice('root_projectType', '房屋建筑');
  await pickOption('root_partyAId', '江南', CLIENT);
  await fill('目标成本', '1000000');
  await typeInto(page.locator('#root_plannedStartDate'), '2026-12-01');
  await typeInto(page.locator('#root_plannedEndDate'), '2027-12-01');
  await fill('项目经理', '周建国');
  await saveNew();
}

async function expectProjects(names: string[]) {
  await waitForList();
  await poll(async () => (await content().locator('tbody tr.zs-grid-row td:nth-child(3)').allInnerTexts()).map(squash).sort()).toEqual(
    names,
  );
}

// the steps of one journey, in order: each builds on what the one before made
describe('a tenant administrator sets up a company alone', () => {
  test(
    'platform admin: a package with every menu, and a tenant on it',
    async () => {
      await login();
      await startNew('租户产品包');
      await fill('产品包名称', '旅程全功能包');
      await dialog().getByLabel('菜单', { exact: true }).click();
      const tree = await opened(page.locator('.ant-select-dropdown:visible'));
      const groups = await tickEveryTopMenu(tree);
      expect(groups).toEqual(expect.arrayContaining(['基础资料', '合同管理', '材料管理', '权限管理', '系统管理']));
      await page.keyboard.press('Escape');
      await button(dialog(), '保存').click();
      await see(toast('新增成功')).toBeVisible();

      await startNew('租户管理');
      await fill('租户名称', COMPANY);
      await fill('联系人', '周建国');
      await pickOption('root_packageId', '旅程', '旅程全功能包');
      await shot('journey-tenant-form.png');
      await button(dialog(), '保存').click();
      await see(toast('新增成功')).toBeVisible();
      tenantId = squash(await rowWith(COMPANY).locator('td').nth(1).innerText());
      expect(tenantId).toMatch(/^\d{6}$/);
    },
    TEST_TIMEOUT * 10,
  );

  test(
    "the tenant's admin: departments, posts, roles with their grants, three users",
    async () => {
      // the tenant's admin starts with the initial password, and must change it before anything else
      const code = await openLogin();
      await fillLogin('admin', '123456', code, tenantId);
      await page.waitForURL((u) => u.pathname === '/password');
      await see(page.getByText('修改初始密码')).toBeVisible();
      await shot('journey-initial-password.png');
      await page.getByLabel('原密码', { exact: true }).fill('123456');
      await page.getByLabel('新密码', { exact: true }).fill(ADMIN_PASSWORD);
      await page.getByLabel('确认密码', { exact: true }).fill(ADMIN_PASSWORD);
      await button(page.locator('body'), '保存').click();
      await see(page.getByText('密码已修改,请用新密码重新登录')).toBeVisible();
      await button(page.locator('body'), '重新登录').click();
      await page.waitForURL((u) => u.pathname === '/login');
      await see(page.locator('img.zs-captcha[data-captcha-key]')).toBeVisible();
      await login('admin', ADMIN_PASSWORD, tenantId);
      // the package's every group reaches the tenant's admin
      for (const group of ['合同管理', '材料管理', '权限管理', '系统管理'])
        await see(sidebar().getByText(group, { exact: true })).toBeVisible();

      for (const [name, sort] of [
        ['一号项目部', '1'],
        ['二号项目部', '2'],
      ]) {
        await startNew('机构管理');
        await pickTreeNode('root_parentId', COMPANY);
        await fill('机构名称', name);
        await fill('机构全称', `${COMPANY}${name}`);
        await fill('排序', sort);
        await saveNew();
      }
      for (const [code, name, sort] of [
        ['pm', '项目经理', '1'],
        ['clerk', '经办员', '2'],
      ]) {
        await startNew('岗位管理');
        await pickChoice('root_category', '高层');
        await fill('岗位编号', code);
        await fill('岗位名称', name);
        await fill('岗位排序', sort);
        await saveNew();
      }
      await shot('journey-posts.png');
      for (const [name, alias, sort] of ROLES) {
        await startNew('角色管理');
        await fill('角色名称', name);
        await fill('角色别名', alias);
        await fill('角色排序', sort);
        await saveNew();
      }
      await grant('项目经理', ['项目', '导出'], '本部门及以下');
      await grant('项目经办', ['项目'], '本部门');
      await grant('资料员', ['甲方单位']);

      for (const user of USERS) {
        await startNew('用户管理');
        await fill('登录账号', user.account);
        await fill('密码', PASSWORD);
        await fill('用户姓名', user.name);
        await fill('用户昵称', user.name);
        for (const role of user.roles) await pickTreeNode('root_roleId', role);
        await pickTreeNode('root_deptId', user.dept);
        await pickChoice('root_postId', user.post);
        await shot(`journey-user-${user.account}.png`);
        await saveNew();
      }
      await shot('journey-users.png');
    },
    TEST_TIMEOUT * 10,
  );

  test(
    "each user signs in and sees exactly their grants and their departments' data, labels resolved",
    async () => {
      const refused: string[] = [];
      const noteRefusals = (r: Response) => {
        if (r.status() === 401 || r.status() === 403) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
      };
      page.on('response', noteRefusals);

      // 王资料 (二号项目部; 项目经办 and 资料员): a client, then a project of that client
      await signInAs('wangzl', PASSWORD, tenantId);
      await expectSidebar(['项目', '甲方单位']);
      await startNew('甲方单位');
      await fill('单位名称', CLIENT);
      await saveNew();
      await newProject('二号项目部旅程项目');

      // 李经办 (一号项目部; 项目经办): the same client picked, his own project; he sees only his department's
      await signInAs('lijb', PASSWORD, tenantId);
      await expectSidebar(['项目']);
      await newProject('一号项目部旅程项目');
      await expectProjects(['一号项目部旅程项目']);

      await signInAs('wangzl', PASSWORD, tenantId);
      await openFromSidebar('项目');
      await expectProjects(['二号项目部旅程项目']);

      // 张经理 (the company; 项目经理, may read and export projects): both departments' projects, the client by name
      await signInAs('zhangjl', PASSWORD, tenantId);
      await see(page.getByTestId('home-roles')).toHaveText('项目经理');
      await expectSidebar(['项目']);
      await openFromSidebar('项目');
      await expectProjects(['一号项目部旅程项目', '二号项目部旅程项目']);
      await see(toolbar().getByRole('button', { name: /新\s*增/ })).toHaveCount(0);
      await see(rowWith('一号项目部旅程项目')).toContainText(CLIENT);
      await shot('journey-manager-projects.png');

      // and in English
      await page.getByTestId('language-switch').click();
      await (await dropdownItem('English')).click();
      await see(content().getByRole('columnheader', { name: /Project name/ })).toBeVisible();
      await see(rowWith('一号项目部旅程项目')).toContainText(CLIENT);
      await shot('journey-manager-projects-en.png');
      page.off('response', noteRefusals);
      expect(refused).toEqual([]);
    },
    TEST_TIMEOUT * 10,
  );
});
