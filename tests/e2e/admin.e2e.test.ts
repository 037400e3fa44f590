// @vitest-environment node
// Browser tests of the admin screens with their exact texts: the parameter page and
// the tenant package page (messages, add, search, batch delete, the disabled view button), the
// dictionary page, and the user, tenant and role actions on the real server (tests/e2e/harness.ts
// starts the app and Chromium).
import { describe, test } from 'vitest';
import {
  button,
  content,
  dialog,
  rowWith,
  toolbar,
  TEST_TIMEOUT,
  base,
  login,
  opened,
  openFromSidebar,
  page,
  poll,
  searchList,
  see,
  shot,
  tab,
  tabs,
  toast,
  waitForList,
} from './harness.ts';

/** A field's message under it (not the placeholder that may say the same). */
const fieldMessage = (text: string) => dialog().locator('.ant-form-item-explain').getByText(text, { exact: true });

/** Presses 确定 in the confirmation that asks `question`. */
async function confirm(question: string) {
  const box = await opened(page.locator('.ant-modal-confirm').filter({ hasText: question }));
  await button(box, '确定').click();
}

async function search(label: string, text: string) {
  await content().getByLabel(label, { exact: true }).fill(text);
  await button(content(), '搜索').click();
}

describe('admin screens in the browser', () => {
  test(
    'parameters: prompts, add, search by name, batch delete',
    async () => {
      await login();
      await openFromSidebar('参数管理');
      await button(toolbar(), '新增').click();
      await opened(dialog());
      await button(dialog(), '保存').click();
      for (const message of ['请输入参数名称', '请输入参数键名', '请输入参数键值']) await see(fieldMessage(message)).toBeVisible();

      await dialog().getByLabel('参数名称', { exact: true }).fill('浏览器测试参数');
      await dialog().getByLabel('参数键名', { exact: true }).fill('e2e.browser.key');
      await dialog().getByLabel('参数键值', { exact: true }).fill('四十二');
      await button(dialog(), '保存').click();
      await see(toast('新增成功')).toBeVisible();
      await see(page.locator('.ant-modal:visible')).toHaveCount(0);

      await search('参数名称', '浏览器测试');
      await see(content().locator('tbody tr')).toHaveCount(1);
      await see(rowWith('e2e.browser.key')).toContainText('四十二');

      await button(toolbar(), '删除').click();
      await see(toast('请选择至少一条数据')).toBeVisible();
      await rowWith('e2e.browser.key').getByLabel('选择此行').check();
      await button(toolbar(), '删除').click();
      await confirm('确定将选择数据删除?');
      await see(toast('删除成功')).toBeVisible();
      await see(rowWith('e2e.browser.key')).toHaveCount(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'tenant packages: prompts, menus picked in a tree, the view button disabled',
    async () => {
      await login();
      await openFromSidebar('租户产品包');
      await button(toolbar(), '新增').click();
      await opened(dialog());
      await button(dialog(), '保存').click();
      await see(fieldMessage('请输入产品包名称')).toBeVisible();
      await see(fieldMessage('请选择菜单')).toBeVisible();

      await dialog().getByLabel('产品包名称', { exact: true }).fill('浏览器测试包');
      await dialog().getByLabel('菜单', { exact: true }).click();
      const tree = await opened(page.locator('.ant-select-dropdown:visible')); // a click during its opening animation can miss
      await tree.locator('.ant-select-tree-treenode').filter({ hasText: '基础资料' }).first().locator('.ant-select-tree-checkbox').click();
      await page.keyboard.press('Escape');
      await see(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
      await shot('admin-tenant-package-form.png');
      await button(dialog(), '保存').click();
      await see(toast('新增成功')).toBeVisible();

      const row = rowWith('浏览器测试包');
      await see(row).toHaveCount(1);
      await poll(() => button(row, '查看').isDisabled()).toBe(true);
      await poll(() => button(row, '编辑').isDisabled()).toBe(false);
      await shot('admin-tenant-package.png');
    },
    TEST_TIMEOUT,
  );

  test(
    'users: toolbar actions need a selection; 账号解封 and 角色配置 of a chosen user say 操作成功',
    async () => {
      await login();
      await openFromSidebar('用户管理');
      await button(toolbar(), '账号解封').click();
      await see(toast('请选择至少一条数据')).toBeVisible();
      await rowWith('王晓明').getByLabel('选择此行').check();
      await button(toolbar(), '账号解封').click();
      await see((await opened(dialog())).getByText('确定将选择账号解封?')).toBeVisible();
      await button(dialog(), '确定').click();
      await see(toast('操作成功')).toBeVisible();
      await see(page.locator('.ant-modal:visible')).toHaveCount(0);
      await see(toast('操作成功')).toBeHidden();

      await button(toolbar(), '角色配置').click();
      await opened(dialog());
      const clerkRole = dialog().locator('.ant-tree-treenode').filter({ hasText: '项目经办' });
      await see(clerkRole.locator('.ant-tree-checkbox-checked')).toHaveCount(1);
      await button(dialog(), '确定').click();
      await see(toast('操作成功')).toBeVisible();
    },
    TEST_TIMEOUT,
  );

  test(
    "tenants: 授权配置 and 产品包配置 save; 数据源配置 shows where the tenant's data lives",
    async () => {
      await login();
      await openFromSidebar('租户管理');
      await content().locator('tbody tr').first().getByLabel('选择此行').check();
      await button(toolbar(), '授权配置').click();
      await see((await opened(dialog())).getByLabel('账号额度')).toBeVisible();
      await button(dialog(), '确定').click();
      await see(toast('操作成功')).toBeVisible();
      await see(page.locator('.ant-modal:visible')).toHaveCount(0);
      await see(toast('操作成功')).toBeHidden();

      await button(content().locator('tbody tr').first(), '产品包配置').click();
      await opened(dialog());
      await see(dialog().getByText('不设置产品包时,租户可使用全部菜单')).toBeVisible();
      await shot('admin-tenant-package-setting.png');
      await button(dialog(), '确定').click();
      await see(toast('操作成功')).toBeVisible();
      await see(page.locator('.ant-modal:visible')).toHaveCount(0);

      await button(content().locator('tbody tr').first(), '数据源配置').click();
      await opened(dialog());
      await see(dialog().getByText('系统数据库(与平台共用)')).toBeVisible();
      // the first row is the platform's own tenant, whose data stays on the system database
      await see(dialog().getByText('平台租户的数据只能保存在系统数据库,不能迁移。')).toBeVisible();
      await see(dialog().getByRole('button', { name: /迁\s*移/ })).toHaveAttribute('disabled', '');
      await shot('admin-tenant-datasource.png');
      await button(dialog(), '取消').click();
      await see(page.locator('.ant-modal:visible')).toHaveCount(0);
    },
    TEST_TIMEOUT,
  );

  test(
    "the platform's view paths: /system/topmenu opens 顶部菜单, and our earlier spelling /system/topMenu is taken there",
    async () => {
      await login();
      for (const path of ['/system/topmenu', '/system/topMenu']) {
        await page.goto(`${base}${path}`);
        await page.waitForURL((u) => u.pathname === '/system/topmenu');
        await see(tab('顶部菜单')).toHaveAttribute('aria-selected', 'true');
        await waitForList();
        await see(tabs().getByRole('tab', { name: '顶部菜单', exact: true })).toHaveCount(1);
      }
      await page.goto(`${base}/report/reportlist`);
      await see(tab('报表')).toHaveAttribute('aria-selected', 'true');
    },
    TEST_TIMEOUT,
  );

  test(
    '机构管理: a search shows the departments it found as their tree, with the count',
    async () => {
      await login();
      await openFromSidebar('机构管理');
      // the group and its two companies carry the group's name in their full names; the cost centre does not
      await searchList('机构全称', '筑算建设集团');
      const rows = content().locator('tbody tr.zs-grid-row');
      await see(rows).toHaveCount(3);
      await see(rows.nth(0)).toContainText('筑算建设集团');
      await see(rows.nth(0).getByRole('button', { name: '收起' })).toBeVisible();
      await see(content().locator('.zs-list-footer')).toContainText('共 3 条');
      await see(content().locator('.ant-pagination')).toHaveCount(0);
      await rows.nth(0).getByRole('button', { name: '收起' }).click();
      await see(rows).toHaveCount(1);
      await rows.nth(0).getByRole('button', { name: '展开' }).click();
      await see(rows).toHaveCount(3);
      await shot('admin-dept-search-forest.png');
    },
    TEST_TIMEOUT,
  );

  test(
    'dictionaries: an entry added under the chosen dictionary, with its prompts',
    async () => {
      await login();
      await page.goto(`${base}/dict-horizontal/index`);
      await content().locator('tbody tr').filter({ hasText: '性别' }).first().click();
      await see(content().getByText('字典项:性别 (sex)')).toBeVisible();
      await button(content(), '新增字典项').click();
      await opened(dialog());
      await see(dialog().getByLabel('字典编号', { exact: true })).toHaveValue('sex');
      await button(dialog(), '保存').click();
      await see(fieldMessage('请输入字典键值')).toBeVisible();
      await see(fieldMessage('请输入字典名称')).toBeVisible();
      await dialog().getByLabel('字典键值', { exact: true }).fill('3');
      await dialog().getByLabel('字典名称', { exact: true }).fill('未知');
      await dialog().getByLabel('字典排序', { exact: true }).fill('3');
      await button(dialog(), '保存').click();
      await see(toast('新增成功')).toBeVisible();
      await see(rowWith('未知')).toHaveCount(1);
      await shot('admin-dict-horizontal.png');
    },
    TEST_TIMEOUT,
  );

  test(
    "role grant: three trees with the role's grants checked, saved unchanged with 操作成功",
    async () => {
      await login();
      await openFromSidebar('角色管理');
      await rowWith('业务人员').getByRole('button', { name: '展开' }).click();
      await button(rowWith('项目经办'), '权限设置').click();
      await opened(dialog());
      await see(dialog().getByRole('tab', { name: '菜单权限' })).toBeVisible();
      await see(dialog().getByRole('tab', { name: '数据权限' })).toBeVisible();
      await see(dialog().getByRole('tab', { name: '接口权限' })).toBeVisible();
      const masterData = dialog().locator('.ant-tree-treenode').filter({ hasText: '基础资料' }).first();
      await see(masterData.locator('.ant-tree-checkbox-checked')).toHaveCount(1);
      await shot('admin-role-grant.png');
      await button(dialog(), '确定').click();
      await see(toast('操作成功')).toBeVisible();
    },
    TEST_TIMEOUT,
  );
});
