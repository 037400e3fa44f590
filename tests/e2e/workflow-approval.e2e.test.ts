// @vitest-environment node
// The approval pages as the people of issue #21 met them. A plan of 510,000 (above the cost manager's
// threshold) is submitted by the clerk. The cost manager sees it in the list without 撤回 (only its
// submitter may recall). The project manager finds what waits to be claimed on the home page, in the
// bell and above 待办事务, goes to 待签事务 from there; a task someone claimed meanwhile is refused
// with one message, not two. On the cost manager's step the approval comment comes first and the
// buttons act on it; the remark this step may change sits apart under the document, as a change to it.
import { describe, expect, test } from 'vitest';
import { tokenOf } from '../server/approval.ts';
import { demand, demandRow, goods, project } from '../server/fixtures.ts';
import { client, type Api, type TestServer } from '../server/harness.ts';
import {
  animationsDone,
  listRow,
  openFromSidebar,
  opened,
  page,
  pathname,
  poll,
  searchList,
  see,
  shot,
  sideItem,
  signInAs,
  TEST_TIMEOUT,
  testApp,
  toast,
  expectProblem,
} from './harness.ts';

const FLOW = '/api/blade-flow';
const DOC = '/api/construct/materialTotalDemand';
const TITLE = `审批页测试计划 ${Date.now()}`;

const workList = () => page.getByTestId('work-list');
const workRow = (text: string) => workList().locator('tbody tr', { hasText: text });

function ok(res: { body: any }) {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
  return res.body.data;
}

async function apiOf(account: string): Promise<Api> {
  return client(testApp() as TestServer, await tokenOf(testApp(), account));
}

/** The clerk's plan of 100 × 1.02 × 5,000 = 510,000, submitted; its instance id. */
async function submittedPlan(): Promise<{ id: string; instanceId: string }> {
  const admin = await apiOf('admin');
  const clerk = await apiOf('clerk');
  const site = await project(admin);
  const rebar = await goods(admin);
  const plan = await demand(clerk, site.id, [demandRow(rebar.id, 100, 5000)], { title: TITLE });
  const submitted = ok(await clerk.post(`${DOC}/submit`, { id: plan.id }));
  return { id: plan.id, instanceId: submitted.processInstanceId };
}

async function taskOf(api: Api, list: 'claim-list' | 'todo-list', instanceId: string) {
  const rows = ok(await api.get(`${FLOW}/work/${list}`, { size: '100' })).records;
  return rows.find((r: any) => r.processInstanceId === instanceId);
}

async function openWork(name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem('我的事务').click();
  await sideItem(name).click();
  await see(workList()).toHaveAttribute('aria-busy', 'false');
}

describe('the approval pages (issue #21)', () => {
  test(
    '撤回 only for the submitter; claimable tasks counted with a way to claim; a refusal shows once; the comment comes first',
    async () => {
      const plan = await submittedPlan();
      const manager = await apiOf('manager');
      const costmgr = await apiOf('costmgr');

      // --- the cost manager sees the clerk's plan under approval, with no 撤回 to press ---
      await signInAs('costmgr');
      await openFromSidebar('材料总需用计划');
      await searchList('计划名称', TITLE);
      const row = listRow(TITLE);
      await see(row).toContainText('审批中');
      await see(row.getByText('流程图', { exact: true })).toBeVisible();
      await see(row.getByText('撤回', { exact: true })).toHaveCount(0);
      await shot('approval-no-recall-for-others.png');

      // --- the project manager: what waits to be claimed, on the home page, in the bell, above 待办 ---
      const waiting = ok(await manager.get(`${FLOW}/work/counts`)).claim as number;
      expect(waiting).toBeGreaterThanOrEqual(1);
      await signInAs('manager');
      const home = page.getByTestId('waiting-work');
      await see(home).toContainText(`${waiting} 项任务待签收`);
      await shot('approval-home-claim-waiting.png');
      await page.getByTestId('message-bell').click();
      const bell = await opened(page.getByTestId('message-popover'));
      await see(bell.getByTestId('waiting-work')).toContainText(`${waiting} 项任务待签收`);
      await shot('approval-bell-claim-waiting.png');
      await page.getByTestId('message-bell').click();
      await see(bell).toBeHidden();

      await openWork('待办事务');
      const notice = page.getByTestId('claim-waiting');
      await see(notice).toContainText(`${waiting} 项任务待签收`);
      expect(await workList().innerText()).not.toContain(TITLE);
      await shot('approval-todo-claim-waiting.png');
      await notice.getByRole('button', { name: /去签收/ }).click();
      await see(workRow(TITLE)).toContainText('项目经理审批');
      expect(pathname()).toBe('/work/claim');

      // claimed meanwhile in another session: 签收 is refused, and the refusal shows once
      const offered = await taskOf(manager, 'claim-list', plan.instanceId);
      ok(await manager.post(`${FLOW}/work/claim-task`, undefined, { taskId: offered.taskId }));
      const claimButton = workRow(TITLE).getByRole('button', { name: /签\s*收/ });
      await claimButton.click();
      await see(toast('任务已被签收或您不是候选人')).toBeVisible();
      await poll(() => claimButton.getAttribute('class')).not.toMatch(/ant-btn-loading/);
      await animationsDone();
      await see(toast('任务已被签收或您不是候选人')).toHaveCount(1);
      expectProblem('status of 400');
      ok(await manager.post(`${FLOW}/work/complete-task`, { taskId: offered.taskId, flag: 'ok', comment: '同意' }));

      // --- the cost manager's step: the comment first, the remark apart as a change to the document ---
      await signInAs('costmgr');
      await openWork('待签事务');
      await workRow(TITLE)
        .getByRole('button', { name: /签\s*收/ })
        .click();
      await page.waitForURL((u) => u.pathname.startsWith('/work/process/materialTotalDemand/handle/'));
      const actions = page.getByTestId('task-actions');
      const changes = page.getByTestId('document-changes');
      await see(actions.getByLabel('审批意见')).toBeVisible();
      await see(actions.getByLabel('备注')).toHaveCount(0);
      await see(changes).toContainText('对单据的修改');
      await see(changes.getByLabel('备注')).toBeVisible();
      const top = async (l: typeof actions) => (await l.boundingBox())!.y;
      const documentCard = page.locator('.ant-card-head-title').getByText('单据信息', { exact: true });
      expect(await top(actions)).toBeLessThan(await top(documentCard));
      expect(await top(documentCard)).toBeLessThan(await top(changes));
      await shot('approval-handle-comment-first.png');
      await changes.scrollIntoViewIfNeeded();
      await shot('approval-handle-document-changes.png');

      // the remark is a change to the document; a reject still needs the approval's own comment
      await changes.getByLabel('备注').fill('按二期价格执行');
      await actions.getByRole('button', { name: /驳\s*回/ }).click();
      await see(page.locator('.ant-message-notice').filter({ hasText: '驳回时请填写审批意见' })).toBeVisible();
      await actions.getByLabel('审批意见').fill('单价偏高,请核实');
      await actions.getByRole('button', { name: /驳\s*回/ }).click();
      await see(toast('已驳回')).toBeVisible();
      await page.waitForURL((u) => u.pathname === '/work/todo');

      const timeline = ok(await costmgr.get(`${FLOW}/process/history-flow-list`, { processInstanceId: plan.instanceId }));
      expect(timeline.find((h: any) => h.historyActivityName === '成本经理审批')).toMatchObject({
        comment: '单价偏高,请核实',
        isPass: false,
      });
      expect(ok(await costmgr.get(`${DOC}/detail`, { id: plan.id }))).toMatchObject({
        approvalStatus: 'rejected',
        remark: '按二期价格执行',
      });
    },
    TEST_TIMEOUT * 8,
  );
});
