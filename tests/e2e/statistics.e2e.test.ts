// @vitest-environment node
// The cost dashboards as a cost manager meets them: a project whose approved subcontract settlement
// (60,000 incl. tax, 55,045.87 excl.) ran past its 50,000 target cost shows in red on the home page's
// overview, with the numbers of its documents; a click on it opens its statistics by contract type
// with the totals row, and the export downloads the same scope as .xlsx.
import { describe, expect, test } from 'vitest';
import { TEST_TIMEOUT, page, pathname, poll, reported, see, shot, signInAs, squash } from './harness.ts';
import { settledSubcontract } from './settled-subcontract.ts';

/** A project whose approved settlement (60 m³ at 1,000) runs past its 50,000 target cost. */
async function overrunProject() {
  const { site } = await settledSubcontract({
    project: { name: '看板测试星湖街二标段', targetCost: 50_000 },
    team: '苏州恒远市政劳务有限公司',
    contract: '管廊主体分包合同',
    settledQty: 60,
  });
  return site;
}

describe('cost dashboards in the browser', () => {
  test(
    'the home overview shows the project over its target cost; its statistics and export follow',
    async () => {
      const site = await overrunProject();
      await signInAs('costmgr');
      const overview = page.getByTestId('cost-overview');
      await see(overview).toBeVisible();
      const row = page.getByTestId('cost-project-table').locator('tr', { hasText: site.name });
      await see(row).toBeVisible();
      // 100,000 contracted, 55,045.87 settled excl. tax, nothing paid recorded, 5,045.87 over 50,000: 110.09 %
      await poll(async () => squash(await row.innerText())).toContain('50,000.00');
      const text = squash(await row.innerText());
      for (const figure of ['100,000.00', '55,045.87', '未记录', '5,045.87', '110.09%']) expect(text).toContain(figure);
      await poll(() => row.getByText('110.09%').getAttribute('class')).toContain('danger');
      expect(Number(squash(await page.getByTestId('cost-over-plan').locator('.ant-statistic-content').innerText()))).toBeGreaterThanOrEqual(
        1,
      );
      // the chart is drawn (ECharts loaded on this page only) with a bar per project
      await see(page.getByTestId('cost-chart').locator('svg')).toBeVisible();
      await page.getByTestId('cost-chart').scrollIntoViewIfNeeded();
      await shot('statistics-home.png');

      await row.getByText(site.name).click();
      await poll(async () => page.url()).toContain(`/cost/statistics?projectId=${site.id}`);
      expect(pathname()).toBe('/cost/statistics');
      const total = page.getByTestId('statistics-total');
      await see(total).toBeVisible();
      const subcontract = page.getByTestId('statistics-table').locator('tr', { hasText: '专业分包' });
      // 100,000 current; 60,000 settled; 46,200 payable (80 % − 1,800 retention); 40,000 left; 60 %
      expect(squash(await subcontract.innerText())).toBe(
        squash('专业分包 1 100,000.00 0.00 100,000.00 60,000.00 55,045.87 46,200.00 — 1,800.00 40,000.00 60.00% — — —'),
      );
      // totals against the 50,000 target cost: −50,000 left to contract, 110.09 % used, in red
      expect(squash(await total.innerText())).toContain('50,000.00 -50,000.00 110.09%');
      await see(total.locator('.ant-typography-danger', { hasText: '110.09%' })).toBeVisible();
      await see(page.getByTestId('statistics-chart').locator('svg')).toBeVisible();
      // the monthly trend draws its cumulative line: line charts come in ECharts' second chunk
      // (charts-more.ts), which a chart without one never loads, and which must be registered
      // before the chart is made (a line registered later failed in its layout: 'points')
      const trend = page.getByTestId('trend-chart');
      await trend.scrollIntoViewIfNeeded();
      await poll(() => trend.locator('svg path').count()).toBeGreaterThan(3);
      expect(reported('chart not drawn')).toEqual([]);
      await shot('statistics-project.png');

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: /导\s*出/ }).click();
      expect((await download).suggestedFilename()).toBe(`项目统计-${site.name}.xlsx`);
    },
    TEST_TIMEOUT * 3,
  );
});
