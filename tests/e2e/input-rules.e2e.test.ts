// @vitest-environment node
// Issue #21's input rules in the browser, as a clerk meets them on a new expense contract: a completion
// date before the start is named with both fields; a minus typed into 税率 stays in the box and the
// message says what is wrong with it (不能小于0), in a grid cell too; a field that may be negative
// says so and takes the minus without complaint; calculated values are marked as calculated and the
// statuses the workflow keeps are marked and cannot be typed into. Nothing is saved while wrong.
import { describe, expect, test } from 'vitest';
import {
  dropdownItem,
  entityList,
  login,
  page,
  pickOption,
  poll,
  see,
  shot,
  sideItem,
  SLOW_SERVER,
  TEST_TIMEOUT,
  toast,
  typeInto,
  waitForList,
} from './harness.ts';

const CONTRACT = `脚手架分包合同(输入规则 ${Date.now()})`;
const form = () => page.locator('.zs-entity-form');
/** The messages under a field of the form, by the field's id (its own form item, not the form's around it). */
const messageOf = (field: string) => form().locator(`.ant-form-item:has(#root_${field}):not(:has(.ant-form-item)) .ant-form-item-explain`);
const cell = (row: number, field: string) => page.locator(`#root_details_${row}_${field}`);

async function newContract(group = '合同管理', name = '支出合同', add = '新增') {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
  await waitForList();
  await entityList()
    .getByRole('button', { name: new RegExp(`${[...add].join('\\s*')}$`) })
    .click();
  await see(form()).toBeVisible();
}

describe('input rules on a new expense contract', () => {
  test(
    'dates out of order and negative values are named, stay visible, and block the save until corrected',
    async () => {
      await login('clerk', 'clerk');
      await newContract();
      await typeInto(page.locator('#root_name'), CONTRACT);
      await pickOption('root_projectId', '江北', '江北新区人才公寓二期EPC项目');
      await pickOption('root_subcontractorId', '沙钢', '江苏沙钢物资贸易有限公司');
      await pickOption('root_expenditureContractType', '材料', '材料采购');
      await pickOption('root_pricingMode', '固定', '固定单价');

      // signed 20 December, on site 1 December, "completed" 31 January of the same year
      await typeInto(page.locator('#root_signDate'), '2026-12-20');
      await typeInto(page.locator('#root_startDate'), '2026-12-01');
      await typeInto(page.locator('#root_endDate'), '2026-01-31');
      await see(messageOf('endDate')).toHaveText('完工日期不能早于进场日期');

      // a minus in 税率: kept in the box, and the message says what is wrong
      await typeInto(page.locator('#root_taxRate'), '-9');
      await see(page.locator('#root_taxRate')).toHaveValue('-9');
      await see(messageOf('taxRate')).toHaveText('税率(%)不能小于0');

      // 变更金额 may be negative (a reduction): it says so and takes the minus
      await see(page.locator('#root_changeAmount')).toHaveAttribute('placeholder', '请输入变更金额(可为负数)');
      await typeInto(page.locator('#root_changeAmount'), '-500');
      await see(messageOf('changeAmount')).toHaveCount(0);

      // a contract line with a negative quantity: the cell keeps it and names the rule
      await page.getByRole('button', { name: '新增行' }).click();
      await pickOption('root_details_0_goodsId', '010101', 'HRB400E Φ12');
      await typeInto(cell(0, 'quantity'), '-5');
      await typeInto(cell(0, 'priceInclTax'), '3950');
      await see(cell(0, 'quantity')).toHaveValue('-5');

      // calculated values and the statuses the workflow keeps are marked, and cannot be typed into
      const derived = (field: string) => form().locator(`.zs-derived:has(#root_${field})`);
      await see(derived('amountExclTax')).toHaveAttribute('data-derived', 'computed');
      await see(derived('amountExclTax')).toContainText('计算');
      await see(page.locator('#root_amountExclTax')).toHaveAttribute('readonly', '');
      await see(derived('currentAmount')).toContainText('计算');
      await see(derived('performanceStatus')).toHaveAttribute('data-derived', 'kept');
      await see(derived('performanceStatus')).toContainText('系统');
      await see(derived('performanceStatus')).toContainText('未开始');
      await see(derived('settlementStatus')).toContainText('未结算');
      await page.locator('#root_endDate').scrollIntoViewIfNeeded();
      await shot('input-rules-wrong.png');

      // saving is refused in the form: nothing reaches the server, the messages stay in sight
      let posted = 0;
      const count = (r: { method(): string; url(): string }) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/expenditureContract/save')) posted++;
      };
      page.on('request', count);
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(page.locator('.zs-grid-error').first()).toHaveText('合同数量不能小于0');
      await see(messageOf('endDate')).toHaveText('完工日期不能早于进场日期');
      await see(messageOf('taxRate')).toHaveText('税率(%)不能小于0');
      await see(page.locator('#root_taxRate')).toHaveValue('-9');
      await shot('input-rules-refused.png');

      // corrected, the messages go and the contract saves
      await typeInto(page.locator('#root_endDate'), '2027-01-31');
      await typeInto(page.locator('#root_taxRate'), '13');
      await typeInto(cell(0, 'quantity'), '120');
      await typeInto(cell(0, 'taxRate'), '13');
      await see(messageOf('endDate')).toHaveCount(0);
      await see(messageOf('taxRate')).toHaveCount(0);
      await poll(async () => posted).toBe(0);
      page.off('request', count);
      const answer = page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/expenditureContract/save'),
        { timeout: SLOW_SERVER },
      );
      await page.getByRole('button', { name: /保\s*存/ }).click();
      const saved = (await (await answer).json()) as { success?: boolean; msg?: string };
      expect(saved.success, `the save was refused: ${saved.msg}`).toBe(true);
      await see(toast('新增成功')).toBeVisible();
    },
    TEST_TIMEOUT * 4,
  );

  test(
    'in English the message names both fields and says what is wrong',
    async () => {
      await login('clerk', 'clerk');
      await page.getByTestId('language-switch').click();
      await (await dropdownItem('English')).click();
      // the page changes language once the English texts are fetched
      await see(page.getByTestId('language-switch')).toHaveText('EN');
      await newContract('Contracts', 'Expense contract', 'Add');
      await typeInto(page.locator('#root_startDate'), '2026-12-01');
      await typeInto(page.locator('#root_endDate'), '2026-11-30');
      await typeInto(page.locator('#root_taxRate'), '-9');
      await see(messageOf('endDate')).toHaveText('Completion date cannot be earlier than Start date');
      await see(messageOf('taxRate')).toHaveText('Tax rate (%) must be at least 0');
      await see(page.locator('#root_taxRate')).toHaveValue('-9');
      await see(form().locator('.zs-derived:has(#root_amountExclTax)')).toContainText('calc.');
      await shot('input-rules-en.png');
    },
    TEST_TIMEOUT * 4,
  );
});
