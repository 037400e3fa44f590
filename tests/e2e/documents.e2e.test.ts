// @vitest-environment node
// A document with detail rows, as a person handles it in the browser (issue #5): a material total
// demand plan created through the form with three rows, its totals seen while typing, saved, found
// by search, opened read-only, one row edited (its form reloaded from its address on the way), and
// deleted with the batch delete.
import { describe, expect, test } from 'vitest';
import {
  confirmButton,
  login,
  openFromSidebar,
  page,
  see,
  shot,
  squash,
  TEST_TIMEOUT,
  toast,
  waitForList,
  entityList,
  listRow,
  pickOption,
  typeInto,
  searchList,
} from './harness.ts';

const TITLE = `浏览器测试计划 ${Date.now()}`;

/** Opens an antd select by its input id, types to search, and picks the option with that text. */

const cell = (row: number, field: string) => page.locator(`#root_details_${row}_${field}`);
const footer = () => page.locator('.zs-detail-grid .zs-grid-totals');

describe('material total demand in the browser', () => {
  test(
    'create with three rows and live totals, find by search, view, edit a row, batch delete',
    async () => {
      await login();
      await openFromSidebar('材料总需用计划');

      // --- create ---
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增材料总需用计划')).toBeVisible();
      await pickOption('root_projectId', '江北', '江北新区人才公寓二期EPC项目');
      await typeInto(page.locator('#root_title'), TITLE);
      await typeInto(page.locator('#root_planDate'), '2026-05-01');
      await typeInto(page.locator('#root_compilerName'), '王工');

      const rows = [
        { goods: 'HRB400E Φ12', search: '010101', qty: '100', loss: '2', price: '3.5', amount: '357.00' }, // 100 × 1.02 × 3.5
        { goods: 'HRB400E Φ25', search: '010102', qty: '200', loss: '1.5', price: '10', amount: '2,030.00' }, // 200 × 1.015 × 10
        { goods: 'C35 P6', search: '混凝土', qty: '50', loss: '1', price: '485', amount: '24,492.50' }, // 50 × 1.01 × 485
      ];
      for (const [i, row] of rows.entries()) {
        await page.getByRole('button', { name: '新增行' }).click();
        await pickOption(`root_details_${i}_goodsId`, row.search, row.goods);
        await typeInto(cell(i, 'designQty'), row.qty);
        await typeInto(cell(i, 'lossRate'), row.loss);
        await typeInto(cell(i, 'budgetPrice'), row.price);
      }
      // the copied goods fields, the line amounts and the totals follow the typing
      await see(page.locator('.zs-detail-grid')).toContainText('010101');
      for (const row of rows) await see(page.locator('.zs-detail-grid')).toContainText(row.amount);
      await see(footer()).toContainText('26,879.50');
      await see(page.locator('#root_totalAmount')).toHaveValue('26,879.50');
      await shot('document-form-rows.png');

      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('新增成功')).toBeVisible();
      await waitForList();

      // --- find it by search ---
      await searchList('计划名称', TITLE);
      await see(entityList().locator('.zs-grid-row')).toHaveCount(1);
      await see(listRow(TITLE)).toContainText('26,879.50');
      await see(listRow(TITLE)).toContainText('江北新区人才公寓二期EPC项目');
      await shot('document-list.png');

      // --- view ---
      await listRow(TITLE).getByText('查看', { exact: true }).click();
      const drawer = page.getByRole('dialog').filter({ hasText: '记录信息' });
      await see(drawer).toContainText(TITLE);
      await see(drawer).toContainText('C35 P6');
      await see(drawer).toContainText('贰万陆仟捌佰柒拾玖元伍角'); // the plan amount in Chinese capitals
      await shot('document-detail.png');
      expect(new URL(page.url()).hash).toMatch(/^#view=\d+$/);
      await drawer
        .getByRole('button', { name: /close|关闭/i })
        .first()
        .click();
      await see(drawer).toBeHidden();
      expect(new URL(page.url()).hash).toBe('');

      // --- edit a row: the first row's quantity 100 → 120 ---
      await listRow(TITLE).getByText('编辑', { exact: true }).click();
      await see(page.getByText('编辑材料总需用计划')).toBeVisible();
      await see(cell(0, 'designQty')).toHaveValue('100');
      // the open form is in the address: a reload (or the link) brings it back with its rows
      expect(new URL(page.url()).hash).toMatch(/^#edit=\d+$/);
      await page.reload();
      await see(page.getByText('编辑材料总需用计划')).toBeVisible();
      await see(cell(0, 'designQty')).toHaveValue('100');
      await see(page.locator('.zs-detail-grid')).toContainText('C35 P6');
      await typeInto(cell(0, 'designQty'), '120'); // 120 × 1.02 × 3.5 = 428.40
      await see(footer()).toContainText('26,950.90');
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('更新成功')).toBeVisible();
      await waitForList();
      expect(new URL(page.url()).hash).toBe('');
      await searchList('计划名称', TITLE);
      await see(listRow(TITLE)).toContainText('26,950.90');

      // --- batch delete: nothing selected, then the plan ---
      await entityList()
        .getByRole('button', { name: /删\s*除/ })
        .first()
        .click();
      await see(toast('请选择至少一条数据')).toBeVisible();
      await listRow(TITLE).locator('input[type="checkbox"]').check();
      await entityList()
        .getByRole('button', { name: /删\s*除/ })
        .first()
        .click();
      const confirm = page.locator('.ant-modal-confirm');
      await see(confirm).toContainText('确定将选择数据删除?');
      await (await confirmButton()).click();
      await see(toast('删除成功')).toBeVisible();
      await waitForList();
      expect(squash(await entityList().innerText())).not.toContain(TITLE);
    },
    TEST_TIMEOUT * 4,
  );
});
