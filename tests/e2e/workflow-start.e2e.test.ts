// @vitest-environment node
// Starting an approval from 发起事务, as the clerk does it in the browser: the search finds the
// process by name, 发起 opens the start form route (/work/process/<prefix>/form/<definition>) built
// from the document's schema, 提交 saves and submits it in one step, and the clerk lands in 已发事务
// with the plan under approval. In the plan's list the row now offers 撤回 and 流程图, not 提交.
import { describe, test } from 'vitest';
import { listRow, login, openFromSidebar, page, see, shot, sideItem, TEST_TIMEOUT, fillOneLinePlan, searchList } from './harness.ts';

const TITLE = `发起测试计划 ${Date.now()}`;

const workList = () => page.getByTestId('work-list');
const workRow = (text: string) => workList().locator('tbody tr', { hasText: text });

async function openWork(name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem('我的事务').click();
  await sideItem(name).click();
  await see(workList()).toHaveAttribute('aria-busy', 'false');
}

describe('starting an approval from 发起事务', () => {
  test(
    'search, 发起, fill the start form, 提交: the plan is in 已发事务 and its list row offers only what applies',
    async () => {
      await login('clerk', 'clerk');
      await openWork('发起事务');
      const search = page.getByRole('form', { name: '搜索' });
      await search.getByPlaceholder('请输入流程名称').fill('总需用');
      await search.getByRole('button', { name: /搜\s*索/ }).click();
      await see(workList()).toHaveAttribute('aria-busy', 'false');
      await see(workList().locator('tbody tr')).toHaveCount(1);
      await see(workRow('材料总需用计划审批')).toBeVisible();
      await shot('workflow-start-search.png');

      await workRow('材料总需用计划审批')
        .getByRole('button', { name: /发\s*起/ })
        .click();
      await page.waitForURL((u) => u.pathname.startsWith('/work/process/materialTotalDemand/form/materialTotalDemand'));
      await see(page.getByText('发起流程:材料总需用计划')).toBeVisible();
      await fillOneLinePlan(TITLE, '20');
      await shot('workflow-start-form.png');
      await page.getByRole('button', { name: /提\s*交/ }).click();

      await page.waitForURL((u) => u.pathname === '/work/send');
      await see(workList()).toHaveAttribute('aria-busy', 'false');
      await see(workRow(TITLE)).toContainText('进行中');

      await openFromSidebar('材料总需用计划');
      await searchList('计划名称', TITLE);
      const row = listRow(TITLE);
      await see(row).toContainText('审批中');
      await see(row.getByText('撤回', { exact: true })).toBeVisible();
      await see(row.getByText('流程图', { exact: true })).toBeVisible();
      await see(row.getByText('提交', { exact: true })).toHaveCount(0);
      await shot('workflow-row-actions.png');
    },
    TEST_TIMEOUT * 4,
  );
});
