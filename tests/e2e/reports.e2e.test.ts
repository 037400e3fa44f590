// @vitest-environment node
// Reports as an administrator builds one (报表管理 → 报表): a report on the demo projects grouped by
// project type with the target cost summed, previewed, saved, found by its name, run (the group
// subtotals and the total the database computes), exported.
import { describe, expect, test } from 'vitest';
import {
  ACCESS_COOKIE,
  TEST_TIMEOUT,
  base,
  opened,
  context,
  entityList,
  listRow,
  login,
  openFromSidebar,
  page,
  see,
  shot,
  sideItem,
  toast,
} from './harness.ts';

const builder = () => page.getByRole('dialog').filter({ hasText: '新建报表' });
const runner = () => page.getByRole('dialog').filter({ hasText: '运行报表' });
const amount = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 4 });

/** Picks options of an antd select (by its input id) whose text is exactly each of `labels`. */
async function choose(id: string, ...labels: string[]) {
  const input = page.locator(`#${id}`);
  for (const label of labels) {
    await input.click();
    await input.fill(label);
    // this select's own dropdown (the one it owns through #<id>_list): the previous select's may still be closing
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ has: page.locator(`#${id}_list`) });
    const option = dropdown
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .first();
    await see(option).toBeVisible();
    await opened(dropdown); // a click during its opening animation can miss
    await option.click();
  }
  await page.keyboard.press('Escape');
}

describe('reports in the browser', () => {
  test(
    'builds a grouped report on the demo projects, previews, saves, runs it and sees the sums',
    async () => {
      await login();
      // what the sums must be: the projects as the project list gives them, added up here
      const token = (await context!.cookies()).find((c) => c.name === ACCESS_COOKIE)?.value;
      const list = await page.request.get(`${base}/api/construct/project/list?size=500`, { headers: { 'blade-auth': `bearer ${token}` } });
      const projects = ((await list.json()) as { data: { records: { projectType: string; targetCost: number }[] } }).data.records;
      const byType = new Map<string, { n: number; cents: number }>();
      for (const p of projects) {
        const g = byType.get(p.projectType) ?? { n: 0, cents: 0 };
        byType.set(p.projectType, { n: g.n + 1, cents: g.cents + Math.round(p.targetCost * 100) });
      }
      const groups = [...byType.values()].map((g) => ({ n: g.n, total: g.cents / 100 }));
      expect(groups.length).toBeGreaterThan(0);
      const grandTotal = groups.reduce((s, g) => s + g.total, 0);

      if (!(await sideItem('报表').isVisible())) await sideItem('报表管理').click();
      await openFromSidebar('报表');
      await entityList().getByRole('button', { name: '新建报表' }).click();
      await builder().getByPlaceholder('请输入报表名称').fill('项目目标成本汇总');
      await choose('report-entity', '项目');
      await choose('report-columns', '项目名称', '工程类别');
      await choose('report-group', '工程类别');
      await choose('report-sums', '目标成本');
      await builder()
        .getByRole('button', { name: /预\s*览/ })
        .click();
      const previewTotal = builder().locator('.ant-table-summary');
      await see(previewTotal).toContainText(`合计 (${groups.reduce((s, g) => s + g.n, 0)} 条)`);
      await see(previewTotal).toContainText(amount(grandTotal));
      await shot('reports-builder.png');
      await builder()
        .getByRole('button', { name: /保\s*存/ })
        .click();
      await see(toast('操作成功')).toBeVisible();

      await see(listRow('项目目标成本汇总')).toBeVisible();
      await listRow('项目目标成本汇总').getByRole('button', { name: '运行报表' }).click();
      for (const g of groups)
        await see(
          runner()
            .locator('tr', { hasText: `(${g.n} 条)` })
            .filter({ hasText: amount(g.total) })
            .first(),
        ).toBeVisible();
      await see(runner().locator('.ant-table-summary')).toContainText(amount(grandTotal));
      await shot('reports-runner.png');
      const download = page.waitForEvent('download');
      await runner()
        .getByRole('button', { name: /导出 Excel/ })
        .click();
      expect((await download).suggestedFilename()).toBe('项目目标成本汇总.xlsx');
    },
    TEST_TIMEOUT * 3,
  );
});
