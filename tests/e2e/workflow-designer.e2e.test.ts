// @vitest-environment node
// A designer change deployed and used by the next submission (issue #7), as people do it: the
// administrator opens 模型设计, starts a model from the deployed material total demand approval,
// gives its first task to the cost managers' role (cost_manager instead of project_manager) and a
// new name, saves and deploys it; then a clerk submits a plan and the task reaches the cost
// manager's 待签事务 — and no longer the project manager's.
import { describe, expect, test } from 'vitest';
import {
  confirmSubmit,
  listRow,
  login,
  openFromSidebar,
  page,
  pickOption,
  poll,
  saveOneLinePlan,
  searchList,
  see,
  shot,
  sideItem,
  signInAs,
  SLOW_SERVER,
  squash,
  TEST_TIMEOUT,
  toast,
} from './harness.ts';

const TITLE = `设计器测试计划 ${Date.now()}`;
const designer = () => page.getByTestId('model-designer');
const properties = () => page.getByTestId('designer-properties');
const workList = () => page.getByTestId('work-list');
const workRow = (text: string) => workList().locator('tbody tr', { hasText: text });

async function openMenu(group: string, name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
}

async function openClaimList() {
  await openMenu('我的事务', '待签事务');
  await see(workList()).toBeVisible();
  await see(workList()).toHaveAttribute('aria-busy', 'false');
}

describe('flow model designer', () => {
  test(
    'admin changes the first task of the material total demand approval to cost_manager, deploys it, and the next plan reaches the cost manager',
    async () => {
      // --- the administrator designs and deploys ---
      await login('admin', 'admin');
      await openMenu('流程管理', '模型设计');
      await see(page.getByTestId('model-list')).toHaveAttribute('aria-busy', 'false');
      await page.getByRole('button', { name: '新建模型' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: '新建模型' });
      await see(dialog.getByLabel('基于')).toBeVisible();
      await pickOption('basis', 'materialTotalDemand', '(materialTotalDemand v');
      await see(dialog.getByLabel('模型标识')).toHaveValue('materialTotalDemand');
      await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();

      await see(designer()).toBeVisible();
      await see(page.locator('[data-testid="designer-canvas"][aria-busy="false"]')).toBeVisible({ timeout: 20_000 });
      await page.locator('.djs-element[data-element-id="pmApprove"]').click();
      await see(properties()).toContainText('用户任务');
      await see(properties().getByLabel('名称')).toHaveValue('项目经理审批');
      await see(properties()).toContainText('project_manager');
      await properties().getByLabel('名称').fill('成本经理初审');
      const groups = properties().locator('.ant-form-item').filter({ hasText: '候选角色' });
      await groups.locator('.ant-select-selection-item-remove').first().click();
      // a task nobody handles: the engine's check names it and 部署 waits
      await see(page.getByTestId('designer-check')).toContainText('用户任务 "成本经理初审" (pmApprove) 没有处理人、候选人或候选组');
      await poll(() =>
        designer()
          .getByRole('button', { name: /部\s*署/ })
          .isDisabled(),
      ).toBe(true);
      await shot('workflow-designer-check.png');
      await pickOption('designer-candidate-groups', 'cost', '成本经理 (cost_manager)');
      await see(page.getByTestId('designer-check')).toHaveCount(0);
      await see(designer().getByText('检查通过')).toBeVisible();
      await page.keyboard.press('Escape');
      await see(groups).toContainText('成本经理 (cost_manager)');
      expect(squash(await groups.innerText())).not.toContain('project_manager');
      // the label on the drawing follows the name
      await poll(() => page.locator('.djs-element[data-element-id="pmApprove"]').textContent()).toContain('成本经理初审');
      // a condition is checked while it is typed
      await page.locator('.djs-element[data-element-id="toCost"]').click({ force: true });
      await see(properties().getByLabel('条件表达式')).toHaveValue('${amount > amountThreshold}');
      await properties().getByLabel('条件表达式').fill('${amount >');
      await see(properties()).toContainText('表达式有误');
      await properties().getByLabel('条件表达式').fill('${amount > amountThreshold}');
      await page.locator('.djs-element[data-element-id="pmApprove"]').click();
      await shot('workflow-designer.png');
      // nothing selected: the process's own properties
      await page.keyboard.press('Escape');
      await page
        .locator('[data-testid="designer-canvas"] svg[data-element-id="materialTotalDemand"]')
        .click({ position: { x: 700, y: 40 } });
      await see(page.getByTestId('process-panel')).toBeVisible();
      await see(page.getByTestId('process-panel').locator('input').nth(1)).toHaveValue('materialTotalDemand');
      await shot('workflow-designer-process.png');

      await designer()
        .getByRole('button', { name: /保\s*存/ })
        .click();
      await see(toast('保存成功')).toBeVisible();
      await designer()
        .getByRole('button', { name: /部\s*署/ })
        .click();
      await see(toast('部署成功')).toBeVisible();
      await designer().getByRole('button', { name: '返回列表' }).click();
      await see(page.getByTestId('model-list').locator('tbody tr', { hasText: 'materialTotalDemand' })).toBeVisible();

      // --- a clerk submits a plan ---
      await signInAs('clerk');
      await openFromSidebar('材料总需用计划');
      await saveOneLinePlan(TITLE, '10');
      await searchList('计划名称', TITLE);
      await listRow(TITLE).getByText('提交', { exact: true }).click();
      // the first submit after a deployment reads the new process definition: on a loaded machine
      // that took longer than the toast's wait, so wait for the server's answer first and name it
      const submitted = page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/materialTotalDemand/submit'),
        { timeout: SLOW_SERVER },
      );
      await confirmSubmit();
      const answer = (await (await submitted).json()) as { success?: boolean; msg?: string };
      expect(answer.success, `the submit was refused: ${answer.msg}`).toBe(true);
      await see(toast('提交成功')).toBeVisible();

      // --- the task reaches the cost manager, not the project manager ---
      await signInAs('costmgr');
      await openClaimList();
      await see(workRow(TITLE)).toContainText('成本经理初审');
      await signInAs('manager');
      await openClaimList();
      expect(squash(await workList().innerText())).not.toContain(TITLE);
    },
    TEST_TIMEOUT * 6,
  );
});
