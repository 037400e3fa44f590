// @vitest-environment node
// Printing (issue #9) as the cost manager does it: the demo's May labour settlement and the steel
// purchase contract opened read-only, 打印 pressed (window.print stubbed: headless Chromium has no
// dialog), and the page as the printer sees it: the shell gone, the printed form alone with its
// number, the this-period / cumulative table, the amounts in capitals and the signature line; then
// saved as an A4 PDF of a page or two. Screenshots of the print view go to the screenshot folder
// at the printable width of A4 (210 − 2 × 12 mm).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { context, listRow, login, page, poll, see, SHOTS, sideItem, squash, TEST_TIMEOUT, waitForList } from './harness.ts';

async function openList(group: string, name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
  await waitForList();
}

const amount = (text: string) => Number(text.replace(/[,\s¥]/g, ''));

/** Opens the row's detail, presses 打印 (stubbed) and switches the page to print media. */
async function printRow(rowText: string) {
  await listRow(rowText).getByText('查看', { exact: true }).click();
  const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('entity-detail') });
  await see(drawer.getByTestId('entity-detail')).toHaveAttribute('aria-busy', 'false');
  await page.evaluate(() => {
    const w = window as unknown as { printed: number; print: () => void };
    w.printed = 0;
    w.print = () => void w.printed++;
  });
  await drawer.getByRole('button', { name: /打\s*印/ }).click();
  await poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  const form = page.getByTestId('print-document');
  await see(form).toBeHidden(); // on screen the printed form stays out of sight
  await page.emulateMedia({ media: 'print' });
  await see(form).toBeVisible();
  // the shell, the list and the drawer are not printed
  for (const shell of [page.locator('.zs-sider'), page.locator('.zs-header'), page.getByTestId('tabs'), drawer])
    await see(shell).toBeHidden();
  return { form, drawer };
}

/**
 * The page as PDF on A4 and its page count; a screenshot of the printed form at the printable width
 * of its paper (portrait 186 mm, landscape 273 mm at 96 dpi), taken in a page of its own with the
 * app's style rules so the app's window keeps its size.
 */
async function pdfAndShot(name: string) {
  const pdf = await page.pdf({ format: 'A4' });
  writeFileSync(join(SHOTS, `${name}.pdf`), pdf);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
  const { html, landscape } = await page.evaluate(() => {
    const root = document.querySelector('.zs-print-root')!;
    const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n');
    const style = document.createElement('style');
    style.textContent = rules;
    return {
      html: `<!doctype html><html><head>${style.outerHTML}</head><body>${root.outerHTML}</body></html>`,
      landscape: root.querySelector('[data-orientation="landscape"]') !== null,
    };
  });
  const paper = await context!.newPage();
  await paper.setViewportSize({ width: landscape ? 1032 : 703, height: 800 });
  await paper.emulateMedia({ media: 'print' });
  await paper.setContent(html, { waitUntil: 'load' });
  await paper.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  await paper.close();
  return { pages, landscape };
}

async function backToScreen(drawer: ReturnType<typeof page.locator>) {
  await page.emulateMedia({ media: 'screen' });
  await drawer
    .getByRole('button', { name: /close|关闭/i })
    .first()
    .click();
  await see(page.getByTestId('print-document')).toHaveCount(0);
}

describe('printing contracts and settlements', () => {
  test(
    'a monthly labour settlement and an expense contract print alone on A4 with cumulatives, capitals and signatures',
    async () => {
      await login('costmgr');

      // --- the May labour settlement of the main-structure labour contract ---
      await openList('劳务管理', '劳务月度结算');
      const { form, drawer } = await printRow('ZCHT-NJ-2026-003');
      await see(form.getByRole('heading', { level: 1 })).toHaveText('劳务月度结算');
      const code = squash(await form.getByTestId('print-code').innerText());
      expect(code).toMatch(/\S{6,}/);
      expect(squash(await form.innerText())).toContain('ZCHT-NJ-2026-003');
      // this period + up to last period = cumulative, side by side
      const pairs = form.getByTestId('print-pairs');
      await see(pairs).toBeVisible();
      const settled = (await pairs.locator('tr', { hasText: '本期结算金额(含税)' }).locator('td').allInnerTexts()).map(amount);
      expect(settled).toHaveLength(3);
      expect(settled[0]).toBeGreaterThan(0);
      expect(settled[0] + settled[1]).toBeCloseTo(settled[2], 2);
      // the amounts in capitals, the detail table with its header, the signature line with the status
      const capitals = form.getByTestId('print-capitals');
      await see(capitals).toBeVisible();
      expect(await capitals.innerText()).toMatch(/大写:[零壹贰叁肆伍陆柒捌玖拾佰仟万亿元角分整]+/);
      await see(form.getByTestId('print-rows-details').locator('thead')).toBeVisible();
      await see(form.getByTestId('print-rows-details')).toContainText('主体结构劳务');
      const signatures = squash(await form.getByTestId('print-signatures').innerText());
      for (const label of ['编制', '审核', '审批', '审批状态']) expect(signatures).toContain(label);
      // its 17-column labour lines print across the page
      const settlement = await pdfAndShot('print-labour-settlement');
      expect(settlement.landscape).toBe(true);
      expect(settlement.pages).toBeGreaterThanOrEqual(1);
      expect(settlement.pages).toBeLessThanOrEqual(3);
      await backToScreen(drawer);

      // --- the steel purchase contract ---
      await openList('合同管理', '支出合同');
      const contract = await printRow('ZCHT-NJ-2026-001');
      await see(contract.form.getByRole('heading', { level: 1 })).toHaveText('支出合同');
      await see(contract.form.getByTestId('print-code')).toHaveText('ZCHT-NJ-2026-001');
      await see(contract.form).toContainText('人才公寓二期钢筋采购合同');
      await see(contract.form.getByTestId('print-rows-details')).toContainText('HRB400E');
      expect(await contract.form.getByTestId('print-capitals').innerText()).toMatch(/大写:[零壹贰叁肆伍陆柒捌玖拾佰仟万亿元角分整]+/);
      const printed = await pdfAndShot('print-expense-contract');
      expect(printed.pages).toBeGreaterThanOrEqual(1);
      expect(printed.pages).toBeLessThanOrEqual(2);
      await backToScreen(contract.drawer);
    },
    TEST_TIMEOUT * 6,
  );
});
