// @vitest-environment node
// Issue #9's scenario, clicked as a cost manager would: the home page's cost overview opens the
// project's statistics, where the subcontract type is red (100,000 contracted on a 90,000 budget for the
// type, and settled 120,000 on the 100,000 contract); its
// contract figure opens the contract ledger filtered to the project and the type (the search bar says
// so), the contract's detail lists its settlements under 相关单据, and the settlement that crossed the
// contract amount shows its open warning (超合同金额, critical).
import { describe, expect, test } from 'vitest';
import {
  base,
  entityList,
  opened,
  listRow,
  page,
  pathname,
  poll,
  see,
  shot,
  signInAs,
  squash,
  TEST_TIMEOUT,
  waitForList,
} from './harness.ts';
import { settledSubcontract } from './settled-subcontract.ts';

const STAMP = Date.now().toString(36);
const SITE = `点击测试滨江路三标段 ${STAMP}`;
const CONTRACT = `综合管廊分包合同 ${STAMP}`;
const SITE2 = `点击测试滨江路四标段 ${STAMP}`;

/** An approved subcontract of 100,000 on a project budgeting 90,000 for subcontracts (R-BUD-1), and an approved settlement past it: 120 m³ at 1,000 (R-CAP-3 critical, R-CAP-1 on the line). */
const overContract = (siteName = SITE) =>
  settledSubcontract({
    project: { name: siteName, targetCost: 1_000_000, costBudgets: [{ expenditureContractType: 'subcontract', budgetAmount: 90000 }] },
    team: `南京联建市政工程有限公司 ${siteName.slice(-14)}`,
    contract: CONTRACT,
    settledQty: 120,
  });

describe('a cost manager follows an over-contract figure to its warning', () => {
  test(
    'dashboard → red contract type → contract ledger → contract → settlement → its warning',
    async () => {
      const { site, contract, settlement } = await overContract();
      await signInAs('costmgr');

      // the home page's overview: the project's row opens its statistics
      const row = page.getByTestId('cost-project-table').locator('tr', { hasText: SITE });
      await see(row).toBeVisible();
      await row.getByText(SITE).click();
      await poll(async () => page.url()).toContain(`/cost/statistics?projectId=${site.id}`);

      // the subcontract type is red: over its budget (90,000 − 100,000 = −10,000 left), and 120,000 settled
      // on a 100,000 contract leaves −20,000
      const type = page.getByTestId('statistics-table').locator('tr', { hasText: '专业分包' });
      await see(type).toBeVisible();
      expect(squash(await type.innerText())).toContain('100,000.00 120,000.00');
      expect(squash(await type.innerText())).toContain('-20,000.00');
      expect(squash(await type.innerText())).toContain('90,000.00 -10,000.00');
      await see(type.locator('.ant-typography-danger', { hasText: '-10,000.00' })).toBeVisible();
      await see(type.locator('.ant-typography-danger', { hasText: '-20,000.00' })).toBeVisible();
      await shot('cost-scenario-1-statistics.png');

      // its contract figure opens the contract ledger of this project and type
      await type.getByTestId('statistics-link-currentAmount').click();
      await poll(async () => page.url()).toContain('expenditureContractType=subcontract');
      expect(page.url()).toContain(`projectId=${site.id}`);
      await waitForList();
      const search = entityList().getByRole('search');
      await see(search).toContainText(SITE);
      await see(search).toContainText('专业分包');
      const ledgerRow = listRow(contract.code);
      await see(ledgerRow).toHaveCount(1);
      // as many contracts as the statistics counted (1), and its amount is the figure clicked
      await poll(async () => entityList().locator('.zs-grid-row').count()).toBe(1);
      await see(ledgerRow).toContainText('100,000.00');
      await shot('cost-scenario-2-ledger.png');

      // the contract's detail shows its own warning (over the type's budget) and lists its settlements
      await ledgerRow.getByRole('button', { name: '查看' }).click();
      const related = page.getByTestId('related-documents');
      await see(related).toBeVisible();
      await see(page.locator('.zs-recorded-warnings')).toContainText('超成本预算');
      await see(related).toContainText('分包月度结算 1');
      await shot('cost-scenario-3-contract.png');
      await related.getByText(/分包月度结算/).click();
      await poll(async () => page.url()).toContain(`expenditureContractCode=${contract.code}`);
      const ledgerPath = pathname();
      await waitForList();
      const settlementRow = listRow(settlement.code);
      await see(settlementRow).toHaveCount(1);
      // the search bar names the contract (a reference kept by its code is labelled by it)
      await see(entityList().getByRole('search')).toContainText(CONTRACT);
      await shot('cost-scenario-4-settlements.png');

      // the settlement that crossed the contract amount shows its warning
      await settlementRow.getByRole('button', { name: '查看' }).click();
      const warnings = page.locator('.zs-recorded-warnings');
      await see(warnings).toBeVisible();
      await see(warnings).toContainText('超合同金额');
      await see(warnings).toContainText('超过合同金额');
      await shot('cost-scenario-5-warning.png');
      expect(ledgerPath).not.toBe('/cost/statistics');
    },
    TEST_TIMEOUT * 4,
  );

  test(
    "the type's settled figure opens the settlements on its contracts",
    async () => {
      const { site, contract, settlement } = await overContract(SITE2);
      await signInAs('costmgr');
      await page.goto(`${base}/cost/statistics?projectId=${site.id}`);
      const type = page.getByTestId('statistics-table').locator('tr', { hasText: '专业分包' });
      await see(type).toBeVisible();
      await type.getByTestId('statistics-link-settledAmountInclTax').click();
      // the menu names the settlement type holding settlements on this type's contracts, with their number
      const item = page.locator('.ant-dropdown-menu-item', { hasText: '分包月度结算 1' });
      await opened(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').filter({ has: item })); // a click during its opening animation can miss
      await shot('cost-scenario-6-settled-menu.png');
      await item.click();
      await poll(async () => page.url()).toContain(`expenditureContractCode=${contract.code}`);
      expect(page.url()).toContain(`projectId=${site.id}`);
      await waitForList();
      await see(listRow(settlement.code)).toHaveCount(1);
      await poll(async () => entityList().locator('.zs-grid-row').count()).toBe(1);
      // the list's settlement is the 120,000 the statistics summed
      await see(listRow(settlement.code)).toContainText('120,000.00');
    },
    TEST_TIMEOUT * 3,
  );
});
