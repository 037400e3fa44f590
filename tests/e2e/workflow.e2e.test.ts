// @vitest-environment node
// An approval as people do it in the browser (issue #7): the clerk writes a material total demand
// plan and submits it; the project manager finds it in 待签事务, claims it, sees the document and
// the diagram with the step waiting highlighted on the handle page, and approves it; the clerk
// then sees the plan approved in its list and the process finished in 已发事务.
import { describe, expect, test } from 'vitest';
import {
  confirmSubmit,
  entityList,
  listRow,
  login,
  openFromSidebar,
  page,
  saveOneLinePlan,
  searchList,
  see,
  shot,
  sideItem,
  signInAs,
  squash,
  TEST_TIMEOUT,
  toast,
  waitForList,
} from './harness.ts';

const TITLE = `审批测试计划 ${Date.now()}`;

const workList = () => page.getByTestId('work-list');
const workRow = (text: string) => workList().locator('tbody tr', { hasText: text });

/** Opens a 我的事务 page from the sidebar (unfolding 我的事务 first) and waits for its table. */
async function openWork(name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem('我的事务').click();
  await sideItem(name).click();
  await see(workList()).toBeVisible();
  await see(workList()).toHaveAttribute('aria-busy', 'false');
}

async function findPlan() {
  await searchList('计划名称', TITLE);
  await see(entityList().locator('.zs-grid-row')).toHaveCount(1);
}

describe('approval of a material total demand plan', () => {
  test(
    'clerk submits, manager claims and approves on the handle page with the diagram, clerk sees it approved',
    async () => {
      // --- the clerk writes the plan and submits it ---
      await login('clerk', 'clerk');
      await openFromSidebar('材料总需用计划');
      await saveOneLinePlan(TITLE, '100');
      await findPlan();
      await see(listRow(TITLE)).toContainText('草稿');

      await listRow(TITLE).getByText('提交', { exact: true }).click();
      await confirmSubmit();
      await see(toast('提交成功')).toBeVisible();
      await waitForList();
      await see(listRow(TITLE)).toContainText('审批中');

      // --- the project manager claims it and approves it ---
      await signInAs('manager');
      await openWork('待签事务');
      await see(workRow(TITLE)).toContainText('项目经理审批');
      await workRow(TITLE)
        .getByRole('button', { name: /签\s*收/ })
        .click();
      await see(toast('签收成功')).toBeVisible();
      await page.waitForURL((u) => u.pathname.startsWith('/work/process/materialTotalDemand/handle/'));
      await see(page.getByText(TITLE).first()).toBeVisible();
      // the diagram: the start event finished, the manager's step waiting, the first line taken
      await see(page.locator('[data-testid="flow-canvas"][aria-busy="false"]')).toBeVisible({ timeout: 20_000 });
      await see(page.locator('.djs-element.zs-flow-active[data-element-id="pmApprove"]')).toBeVisible();
      await see(page.locator('.djs-element.zs-flow-done[data-element-id="start"]')).toBeVisible();
      await see(page.locator('[data-testid="history-entry"]')).toHaveCount(2);
      await page.getByTestId('task-actions').scrollIntoViewIfNeeded();
      await shot('workflow-handle.png');
      await page.locator('[data-testid="flow-diagram"]').scrollIntoViewIfNeeded();
      await shot('workflow-handle-diagram.png');

      await page.getByLabel('审批意见').fill('同意,按计划采购');
      await page
        .getByTestId('task-actions')
        .getByRole('button', { name: /同\s*意/ })
        .click();
      await see(toast('审批成功')).toBeVisible();
      await page.waitForURL((u) => u.pathname === '/work/todo');
      await see(workList()).toHaveAttribute('aria-busy', 'false');
      expect(squash(await workList().innerText())).not.toContain(TITLE);
      await openWork('办结事务');
      await see(workRow(TITLE)).toContainText('已办结');

      // --- the clerk sees it approved ---
      await signInAs('clerk');
      await openFromSidebar('材料总需用计划');
      await findPlan();
      await see(listRow(TITLE)).toContainText('已通过');
      await shot('workflow-approved-list.png');
      await openWork('已发事务');
      await see(workRow(TITLE)).toContainText('已办结');
      await workRow(TITLE)
        .getByRole('button', { name: /详\s*情/ })
        .click();
      await page.waitForURL((u) => u.pathname.startsWith('/work/process/materialTotalDemand/detail/'));
      await see(page.locator('.djs-element.zs-flow-done[data-element-id="pmApprove"]')).toBeVisible({ timeout: 20_000 });
      await see(page.locator('[data-testid="history-entry"]').filter({ hasText: '同意,按计划采购' })).toBeVisible();
      await shot('workflow-detail.png');
    },
    TEST_TIMEOUT * 6,
  );
});
