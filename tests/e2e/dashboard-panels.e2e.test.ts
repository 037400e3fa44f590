// @vitest-environment node
// The warnings and settlement-timeliness panels as a cost manager meets them on /cost/statistics: a
// project with two open warnings of one type, and a performing subcontract that settled nothing for
// the last complete month. The warnings table counts them and its unread count opens the warning list
// filtered to that type and status; the timeliness panel lists the contract, which opens the contract list.
import { describe, expect, test } from 'vitest';
import { project } from '../server/fixtures.ts';
import { TEST_TIMEOUT, page, pathname, poll, see, shot, signInAs, squash, testApp, adminApi } from './harness.ts';

async function siteWithWarningsAndAContract() {
  const app = testApp();
  const admin = await adminApi();
  const ok = (res: { body: any }) => {
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
    return res.body.data;
  };
  const site = await project(admin, { name: '看板面板测试项目', targetCost: 80_000 });
  for (const status of ['unread', 'read']) {
    ok(
      await admin.post('/api/construct/warnTip/save', {
        projectId: site.id,
        warnType: 'exceed_budget',
        warnLevel: 'critical',
        warnStatus: status,
        sourceEntity: 'test',
        sourceId: '1',
        sourceCode: 'TEST-1',
        message: `超预算(${status})`,
      }),
    );
  }
  const team = ok(
    await admin.post('/api/construct/subcontractor/save', {
      name: '苏州恒远市政劳务有限公司',
      subcontractorTypes: ['subcontract'],
      blacklisted: false,
      status: 'enabled',
    }),
  );
  const contract = ok(
    await admin.post('/api/construct/expenditureContract/save', {
      name: '面板测试分包合同',
      projectId: site.id,
      subcontractorId: team.id,
      expenditureContractType: 'subcontract',
      pricingMode: 'fixed_unit_price',
      signDate: '2026-01-05',
      startDate: '2026-01-10',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      performanceStatus: 'performing',
      settlementStatus: 'none',
      details: [{ itemCode: '020101', itemName: '管廊主体混凝土', unit: 'm3', quantity: 10, priceInclTax: 1000, taxRate: 9 }],
    }),
  );
  await app.db.query(
    `UPDATE ${app.catalog.entities.expenditureContract.table} SET approval_status = 'approved', performance_status = 'performing' WHERE id = $1`,
    [contract.id],
  );
  return { site: site as { id: string }, contract: contract as { code: string } };
}

describe('warnings and settlement timeliness in the browser', () => {
  test(
    'counts the open warnings and opens their list; lists the contract that did not settle and opens it',
    async () => {
      const { site, contract } = await siteWithWarningsAndAContract();
      await signInAs('admin');
      await page.goto(`${new URL(page.url()).origin}/cost/statistics?projectId=${site.id}`);
      const row = page.getByTestId('warnings-table').locator('tr', { hasText: '超成本预算' });
      await see(row).toBeVisible({ timeout: 30_000 });
      // critical 2, warning 0, info 0, total 2, unread 1, open 2, ≤ 7 days 2
      await poll(async () => squash(await row.innerText())).toBe('超成本预算 2 0 0 2 1 2 2 0 0');
      await see(page.getByTestId('warnings-chart').locator('svg')).toBeVisible();
      const missing = page.getByTestId('timeliness-missing').locator('tr', { hasText: contract.code });
      await see(missing).toBeVisible({ timeout: 30_000 });
      expect(squash(await missing.innerText())).toContain('面板测试分包合同');
      await page.getByTestId('dashboard-warnings').scrollIntoViewIfNeeded();
      await shot('statistics-warnings.png');
      await page.getByTestId('dashboard-timeliness').scrollIntoViewIfNeeded();
      await shot('statistics-timeliness.png');

      await page.getByTestId('timeliness-contract-' + contract.code).click();
      await poll(async () => page.url()).toContain(`code=${contract.code}`);
      expect(pathname()).not.toBe('/cost/statistics');
      await page.goBack();
      await page.getByTestId('warn-exceed_budget-unread').click();
      await poll(async () => page.url()).toContain('warnType=exceed_budget');
      expect(page.url()).toContain('warnStatus=unread');
      expect(page.url()).toContain(`projectId=${site.id}`);
    },
    TEST_TIMEOUT * 3,
  );
});
