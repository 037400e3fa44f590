// @vitest-environment node
// Issue #21: the form says what the approver would say, before submit. On a subcontract of 100,000
// whose May settlement (60,000) is approved, the clerk writes June's: at 30 m³ the form shows the
// 接近合同金额 warning (90 %), at 60 m³ the critical 超合同金额 one (120 %), each with its level, figure
// and threshold, while typing and before saving. Saved, 提交 in the list lists the warnings the
// submission will record and asks whether to submit anyway — in English, then in Chinese.
import { describe, test } from 'vitest';
import {
  dropdownItem,
  entityList,
  listRow,
  login,
  opened,
  page,
  pickOption,
  see,
  shot,
  sideItem,
  TEST_TIMEOUT,
  toast,
  typeInto,
  waitForList,
} from './harness.ts';
import { settledSubcontract } from './settled-subcontract.ts';

const STAMP = Date.now().toString(36);
const SITE = `预警提交测试项目 ${STAMP}`;
const TEAM = `南京恒泰劳务有限公司 ${STAMP}`;
const CONTRACT = `管廊主体分包合同 ${STAMP}`;

const cell = (row: number, field: string) => page.locator(`#root_details_${row}_${field}`);

async function openList(group: string, name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
  await waitForList();
}

async function switchLanguage(name: 'English' | '中文') {
  await page.getByTestId('language-switch').click();
  await (await dropdownItem(name)).click();
}

/** The list row's submit dialog, once its warnings have been asked. */
async function submitDialog(code: string, button: string, question: string) {
  await listRow(code).getByText(button, { exact: true }).click();
  return opened(page.getByRole('dialog').filter({ hasText: question }));
}

describe('the form says what the approver would say, before submit', () => {
  test(
    'a June settlement reaching 120 % of its contract warns while typed, and its submission lists the warning',
    async () => {
      await settledSubcontract({ project: { name: SITE }, team: TEAM, contract: CONTRACT, settledQty: 60 });
      await login();
      await openList('分包管理', '分包月度结算');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增分包月度结算')).toBeVisible();
      await pickOption('root_projectId', STAMP, SITE);
      await pickOption('root_expenditureContractCode', STAMP, CONTRACT);
      // the party is the contract's (x-ref.inherit), not one to choose
      await see(page.locator('.ant-select', { has: page.locator('#root_subcontractorId') })).toContainText(TEAM);
      await typeInto(page.locator('#root_period'), '2026-06');
      await typeInto(page.locator('#root_startDate'), '2026-06-01');
      await typeInto(page.locator('#root_endDate'), '2026-06-30');
      await typeInto(page.locator('#root_taxRate'), '9');
      await typeInto(page.locator('#root_reporterName'), '王会计');
      await page.getByRole('button', { name: /从分包合同选择/ }).click();
      const pick = await opened(page.getByRole('dialog').filter({ hasText: '从分包合同选择' }));
      await pick.getByRole('checkbox', { name: '选择第1条' }).check();
      await pick.getByRole('button', { name: /添加所选\(1\)/ }).click();
      await see(pick).toBeHidden();

      // 60,000 + 30,000: 90 % of the contract, a warning
      const live = page.locator('.zs-live-warnings');
      await typeInto(cell(0, 'thisQty'), '30');
      await see(live).toContainText('[接近合同金额] 累计结算金额 90,000.00 元已达合同金额 100,000.00 元的 90%(预警线 90%)');
      const near = live.locator('.zs-warning', { hasText: '接近合同金额' });
      await see(near).toContainText('预警');
      await see(near).toContainText('数值 90,000,阈值 100,000');
      // 60,000 + 60,000: 120 %, critical, with its figure and threshold
      await typeInto(cell(0, 'thisQty'), '60');
      const cap = live.locator('.zs-warning', { hasText: '超合同金额' });
      await see(cap).toContainText('[超合同金额(累计结算)] 累计结算金额 120,000.00 元超过合同金额 100,000.00 元(120%)');
      await see(cap).toContainText('严重');
      await see(cap).toContainText('数值 120,000,阈值 100,000');
      await see(live.locator('.zs-warning', { hasText: '接近合同金额' })).toHaveCount(0);
      await see(page.locator('.zs-live-warnings.ant-alert-error')).toBeVisible();
      await live.scrollIntoViewIfNeeded();
      await shot('submit-warnings-form.png');

      const answer = page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/subcontractMonthlySettlement/save'),
      );
      await page.getByRole('button', { name: /保\s*存/ }).click();
      const saved = (await (await answer).json()) as { success: boolean; msg: string; data: { code: string } };
      if (!saved.success) throw new Error(saved.msg);
      await see(toast('新增成功')).toBeVisible();
      await waitForList();
      // the newest first
      await see(listRow(saved.data.code)).toHaveCount(1);

      // in English: the submission's warnings, the critical one named, and the question
      await switchLanguage('English');
      const english = await submitDialog(saved.data.code, 'Submit', 'Submit for approval anyway?');
      await see(english).toContainText('1 of them critical');
      await see(english).toContainText(
        '[Over contract amount] Cumulative settled amount 120,000.00 exceeds the contract amount 100,000.00 (120 %)',
      );
      await see(english).toContainText('Critical');
      await see(english).toContainText('figure 120,000, threshold 100,000');
      await shot('submit-warnings-dialog-en.png');
      await english.getByRole('button', { name: 'Cancel' }).click();
      await see(english).toBeHidden();

      // in Chinese, submitted anyway
      await switchLanguage('中文');
      const chinese = await submitDialog(saved.data.code, '提交', '仍要提交审批吗?');
      await see(chinese).toContainText('其中 1 条严重');
      await see(chinese).toContainText('[超合同金额(累计结算)] 累计结算金额 120,000.00 元超过合同金额 100,000.00 元(120%)');
      await see(chinese).toContainText('数值 120,000,阈值 100,000');
      await shot('submit-warnings-dialog.png');
      await chinese.getByRole('button', { name: /确\s*定/ }).click();
      await see(toast('提交成功')).toBeVisible();
      await waitForList();
      await see(listRow(saved.data.code)).toContainText('审批中');
    },
    TEST_TIMEOUT * 5,
  );
});
