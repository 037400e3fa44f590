// @vitest-environment node
// Issue #9's early warnings in the browser, as the project clerk meets them: against an approved total
// demand plan of 90 t, the clerk writes a monthly demand of 100 t; while typing, the form shows the
// warning the server will record (超总需用计划, with the numbers); after saving, the warning is in the
// warning list (预警提示) under the document's number.
import { describe, expect, test } from 'vitest';
import { approveAs, ok, tokenOf } from '../server/approval.ts';
import { client, type TestServer } from '../server/harness.ts';
import {
  entityList,
  listRow,
  login,
  page,
  pickOption,
  searchList,
  see,
  shot,
  sideItem,
  SLOW_SERVER,
  TEST_TIMEOUT,
  testApp,
  toast,
  typeInto,
  waitForList,
} from './harness.ts';

const STAMP = Date.now();
const PLAN = `总需用计划(预警测试 ${STAMP})`;
const PROJECT = '江北新区人才公寓二期EPC项目';
const TOTAL = '/api/construct/materialTotalDemand';
const MONTHLY = '/api/construct/materialMonthlyDemand';

/** The approved plan (90 t of HRB400E Φ12) and what the project's other monthly demands already take of it. */
async function approvedPlan() {
  const server = testApp() as unknown as TestServer;
  const clerk = client(server, await tokenOf(server, 'clerk'));
  const manager = client(server, await tokenOf(server, 'manager'));
  const [project] = ok(await clerk.get('/api/construct/project/options', { keyword: '江北' })).records;
  const [goods] = ok(await clerk.get('/api/construct/goodsArchives/options', { keyword: '010101' })).records;
  const plan = ok(
    await clerk.post(`${TOTAL}/save`, {
      projectId: project.value,
      title: PLAN,
      planDate: '2026-05-01',
      compilerName: '王工',
      details: [{ goodsId: goods.value, designQty: 90, lossRate: 0, budgetPrice: 3900 }],
    }),
  );
  await approveAs(clerk, manager, TOTAL, plan.id);
  const figures = ok(
    await clerk.get(`${MONTHLY}/earlyWarningAuxiliaryData`, {
      projectId: project.value,
      goodsId: goods.value,
      materialTotalDemandId: plan.id,
    }),
  );
  expect(figures).toMatchObject({ planned: true, effectiveQty: 90 });
  return Number(figures.cumulativeMonthlyDemandQty);
}

async function openList(group: string, name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
  await waitForList();
}

describe('early warnings', () => {
  test(
    'a monthly demand over its total plan shows the warning in the form, and after saving in the warning list',
    async () => {
      const taken = await approvedPlan();
      const total = taken + 100;

      await login('clerk', 'clerk');
      await openList('材料管理', '材料月度需用计划');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增材料月度需用计划')).toBeVisible();
      await pickOption('root_projectId', '江北', PROJECT);
      await pickOption('root_materialTotalDemandId', '预警测试', PLAN);
      await typeInto(page.locator('#root_period'), '2026-06');
      await typeInto(page.locator('#root_compilerName'), '张伟');
      await page.getByRole('button', { name: '新增行' }).click();
      await pickOption('root_details_0_goodsId', '010101', 'HRB400E Φ12');
      const live = page.locator('.zs-live-warnings');
      await typeInto(page.locator('#root_details_0_demandQty'), '80');
      if (taken + 80 <= 90) await see(live).toBeHidden();
      await typeInto(page.locator('#root_details_0_demandQty'), '100');
      await see(live).toBeVisible();
      await see(live).toContainText('按当前填写的数据,保存时将记录 1 条预警');
      await see(live).toContainText(`[超总需用计划]`);
      await see(live).toContainText(`累计月度需用 ${total} 超过总需用计划 90`);
      await live.scrollIntoViewIfNeeded();
      await shot('warnings-form.png');

      const answer = page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/materialMonthlyDemand/save'),
        { timeout: SLOW_SERVER },
      );
      await page.getByRole('button', { name: /保\s*存/ }).click();
      const saved = (await (await answer).json()) as { success: boolean; msg: string; data: { code: string } };
      expect(saved.success, saved.msg).toBe(true);
      await see(toast('新增成功')).toBeVisible();
      await waitForList();

      await openList('基础资料', '预警提示');
      await searchList('来源单据编号', saved.data.code);
      const row = listRow(saved.data.code);
      await see(row).toHaveCount(1);
      await see(row).toContainText('超总需用计划');
      await see(row).toContainText(`累计月度需用 ${total} 超过总需用计划 90`);
      await see(row).toContainText('未读');
      await shot('warnings-list.png');
    },
    TEST_TIMEOUT * 4,
  );
});
