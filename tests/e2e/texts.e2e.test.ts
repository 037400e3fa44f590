// @vitest-environment node
// Texts and figures a user reads (issue #21): the home card names roles, not their aliases; in
// English the warning list and the bell read in English (the texts are stored as key and
// parameters), the list's ratio is the figure the text quotes; the printed contract of metres and
// 项 totals its amounts, not its quantities.
import { describe, expect, test } from 'vitest';
import { dropdownItem, listRow, login, page, poll, see, shot, sideItem, TEST_TIMEOUT, waitForList } from './harness.ts';

async function openList(group: string, name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
  await waitForList();
}

describe('texts and figures', () => {
  test(
    'home card, the warning list and the bell in English, and the printed 合计',
    async () => {
      await login('manager');
      const roles = page.getByTestId('home-roles');
      await poll(() => roles.innerText()).toMatch(/\S/);
      expect(await roles.innerText()).not.toMatch(/project_|manager$/);
      await shot('texts-home-roles.png');

      await page.getByTestId('language-switch').click();
      await (await dropdownItem('English')).click();
      await see(sideItem('Master data')).toBeVisible();
      await see(page.getByTestId('tabs').getByRole('tab', { name: 'Home', exact: true })).toBeVisible();

      // the bell: the demo's warning and approval messages, in English
      await page.getByTestId('message-bell').click();
      const popover = page.locator('.ant-popover').filter({ has: page.getByText('View all messages') });
      await see(popover).toBeVisible();
      const titles = await popover.locator('.ant-list-item').allInnerTexts();
      expect(titles.length).toBeGreaterThan(0);
      expect(titles.join('\n')).toMatch(/Warning: |\[To approve\]|\[Approved\]/);
      expect(titles.join('\n')).not.toMatch(/预警:|【待审批】|【审批通过】/);
      await shot('texts-bell-en.png');
      await page.keyboard.press('Escape');

      await openList('Master data', 'Warning');
      const rows = page.getByTestId('entity-list').locator('.zs-grid-row');
      await see(rows.first()).toBeVisible();
      const messages = await rows.allInnerTexts();
      // every message of a rule reads in English: only names (goods, documents) stay Chinese
      expect(messages.join('\n')).not.toMatch(/超过|累计|结算金额|盘亏/);
      expect(messages.join('\n')).toMatch(/exceeds|does not cover|no settlement|is not in|stocktake/);
      await shot('texts-warnings-en.png');
    },
    TEST_TIMEOUT * 4,
  );

  test(
    'the printed labour settlement of ㎡, 工日 and 项 totals its amounts, not its quantities',
    async () => {
      await login('admin');
      await openList('劳务管理', '劳务月度结算');
      await listRow('ZCHT-NJ-2026-003').first().getByText('查看', { exact: true }).click();
      const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('entity-detail') });
      await see(drawer.getByTestId('entity-detail')).toHaveAttribute('aria-busy', 'false');
      await page.evaluate(() => {
        (window as unknown as { print: () => void }).print = () => undefined;
      });
      await drawer.getByRole('button', { name: /打\s*印/ }).click();
      await page.emulateMedia({ media: 'print' });
      const table = page.locator('[data-testid^="print-rows-"]').first();
      await see(table).toBeVisible();
      const header = await table.locator('thead th').allInnerTexts();
      const footer = await table.locator('tfoot td').allInnerTexts();
      const quantities = header.map((h, i) => [h, i] as const).filter(([h]) => /数量/.test(h));
      expect(quantities.length).toBeGreaterThan(0);
      for (const [, i] of quantities) expect(footer[i - 1]).toBe('');
      expect(footer.some((f) => /^-?[\d,]+\.\d{2}$/.test(f.trim()))).toBe(true);
      await table.screenshot({ path: `${process.cwd()}/tests/e2e/screenshots/texts-print-total.png` });
      await page.emulateMedia({ media: 'screen' });
    },
    TEST_TIMEOUT * 4,
  );
});
