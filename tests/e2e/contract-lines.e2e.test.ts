// @vitest-environment node
// Issue #8's browser test, as people do it: the project clerk writes an expense contract with two
// priced material lines and submits it; the default process hands it to the project manager and,
// the amount being over the threshold, to the cost manager, who both approve it in 待签事务; the
// clerk then writes the next month's demand plan against the contract, opens 从采购合同选择, sees
// the contract's lines, picks them, types the quantities and saves the plan.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  base,
  confirmSubmit,
  entityList,
  listRow,
  login,
  page,
  pickOption,
  searchList,
  see,
  selectChoice,
  shot,
  sideItem,
  signInAs,
  squash,
  TEST_TIMEOUT,
  testApp,
  toast,
  typeInto,
  waitForList,
} from './harness.ts';

const STAMP = Date.now();
const CONTRACT = `钢筋采购合同(浏览器测试 ${STAMP})`;
const PLAN = `总需用计划(浏览器测试 ${STAMP})`;
const PROJECT = '江北新区人才公寓二期EPC项目';

const cell = (row: number, field: string) => page.locator(`#root_details_${row}_${field}`);
const grid = () => page.locator('.zs-detail-grid');
const workList = () => page.getByTestId('work-list');
const workRow = (text: string) => workList().locator('tbody tr', { hasText: text });

/** Logs in through the API (the captcha's answer travels in a test header): the setup a test needs, not what it tests. */
async function apiLogin(account: string): Promise<string> {
  const captcha = await fetch(`${base}/api/blade-auth/oauth/captcha`);
  const code = captcha.headers.get('x-test-captcha-code')!;
  const { key } = (await captcha.json()) as { key: string };
  const query = new URLSearchParams({
    tenantId: '000000',
    username: account,
    password: createHash('md5').update(account).digest('hex'),
    grant_type: 'captcha',
    scope: 'all',
  });
  const res = await fetch(`${base}/api/blade-auth/oauth/token?${query}`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`,
      'Tenant-Id': '000000',
      'Captcha-Key': key,
      'Captcha-Code': code,
    },
  });
  const body = (await res.json()) as { access_token: string };
  expect(body.access_token, JSON.stringify(body)).toBeTruthy();
  return body.access_token;
}

async function api<T = any>(token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'blade-auth': `bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { code: number; data: T };
  expect(json.code, JSON.stringify(json)).toBe(200);
  return json.data;
}

/**
 * The approved total demand plan a monthly plan is written against, made through the API: the clerk
 * submits it, the project manager claims and approves it (under the 500,000 threshold: one step).
 */
async function approvedTotalPlan() {
  const clerk = await apiLogin('clerk');
  const [project] = (await api(clerk, 'GET', `/api/construct/project/options?keyword=${encodeURIComponent('江北')}`)).records;
  const [goods] = (await api(clerk, 'GET', '/api/construct/goodsArchives/options?keyword=010101')).records;
  const plan = await api(clerk, 'POST', '/api/construct/materialTotalDemand/submit', {
    projectId: project.value,
    title: PLAN,
    planDate: '2026-05-01',
    compilerName: '王工',
    details: [{ goodsId: goods.value, designQty: 90, lossRate: 2, budgetPrice: 3900 }],
  });
  const manager = await apiLogin('manager');
  const claim = await api(manager, 'GET', '/api/blade-flow/work/claim-list?size=100');
  const task = claim.records.find((r: { businessId: string }) => String(r.businessId) === String(plan.id));
  expect(task, "the plan waits in the manager's 待签事务").toBeTruthy();
  await api(manager, 'POST', `/api/blade-flow/work/claim-task?taskId=${task.taskId}`);
  await api(manager, 'POST', '/api/blade-flow/work/complete-task', { taskId: task.taskId, flag: 'ok', comment: '同意' });
}

/** Opens a sidebar entry, unfolding its group first when it is folded. */
async function openScreen(group: string, name: string) {
  if (!(await sideItem(name).isVisible())) await sideItem(group).click();
  await sideItem(name).click();
}

async function openList(group: string, name: string) {
  await openScreen(group, name);
  await waitForList();
}

/** The manager or the cost manager: claims the contract in 待签事务 and approves it on the handle page. */
async function approveAs(user: string, step: string) {
  await signInAs(user);
  await openScreen('我的事务', '待签事务');
  await see(workList()).toHaveAttribute('aria-busy', 'false');
  await see(workRow(CONTRACT)).toContainText(step);
  await workRow(CONTRACT)
    .getByRole('button', { name: /签\s*收/ })
    .click();
  await see(toast('签收成功')).toBeVisible();
  await page.waitForURL((u) => u.pathname.startsWith('/work/process/expenditure/handle/'));
  await see(page.getByText(CONTRACT).first()).toBeVisible();
  await page.getByLabel('审批意见').fill('同意');
  await page
    .getByTestId('task-actions')
    .getByRole('button', { name: /同\s*意/ })
    .click();
  await see(toast('审批成功')).toBeVisible();
}

/**
 * Opens 从<source>选择, sees one line per entry of `lines` holding its texts, takes a picture, ticks
 * every line and adds them as rows.
 */
async function pickEveryLine(source: string, lines: string[][], picture: string) {
  await page.getByRole('button', { name: new RegExp(`从${source}选择`) }).click();
  const dialog = pickDialog(source);
  await see(dialog).toBeVisible();
  const lineRows = dialog.locator('.ant-table-tbody tr.ant-table-row');
  await see(lineRows).toHaveCount(lines.length);
  const texts = (await lineRows.allInnerTexts()).map(squash);
  lines.forEach((expected, i) => {
    for (const text of expected) expect(texts[i]).toContain(text);
  });
  await shot(picture);
  for (const i of lines.keys()) await dialog.getByRole('checkbox', { name: `选择第${i + 1}条` }).check();
  await dialog.getByRole('button', { name: new RegExp(`添加所选\\(${lines.length}\\)`) }).click();
  await see(dialog).toBeHidden();
}

/** Opened again, the picker marks every line as added and does not let it be ticked twice. */
async function seeEveryLineTaken(source: string, count: number) {
  await page.getByRole('button', { name: new RegExp(`从${source}选择`) }).click();
  const dialog = pickDialog(source);
  await see(dialog).toBeVisible();
  await see(dialog.getByText('已添加')).toHaveCount(count);
  expect(await dialog.getByRole('checkbox', { name: `选择第${count}条` }).isDisabled()).toBe(true);
  await dialog.getByRole('button', { name: /取\s*消|Cancel/ }).click();
  await see(dialog).toBeHidden();
}

const pickDialog = (source: string) => page.getByRole('dialog').filter({ hasText: `从${source}选择` });

async function findContract() {
  await searchList('合同名称', CONTRACT);
  await see(entityList().locator('.zs-grid-row')).toHaveCount(1);
}

describe('a monthly demand picks the lines of an approved expense contract', () => {
  test(
    'clerk writes and submits a contract, manager and cost manager approve, clerk picks its lines into a monthly demand',
    async () => {
      await approvedTotalPlan();

      // --- the clerk writes the expense contract with two priced lines and submits it ---
      await login('clerk', 'clerk');
      await openList('合同管理', '支出合同');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增支出合同')).toBeVisible();
      await typeInto(page.locator('#root_name'), CONTRACT);
      await pickOption('root_projectId', '江北', PROJECT);
      await pickOption('root_subcontractorId', '沙钢', '江苏沙钢物资贸易有限公司');
      await pickOption('root_expenditureContractType', '材料', '材料采购');
      await pickOption('root_pricingMode', '固定', '固定单价');
      await typeInto(page.locator('#root_signDate'), '2026-05-06');
      await typeInto(page.locator('#root_startDate'), '2026-05-10');
      await typeInto(page.locator('#root_taxRate'), '13');
      const lines = [
        { search: '010101', goods: 'HRB400E Φ12', qty: '120', price: '3950', amount: '474,000.00' },
        { search: '010102', goods: 'HRB400E Φ25', qty: '80', price: '3830', amount: '306,400.00' },
      ];
      // the goods of both lines first (their codes are copied in), then the figures
      for (const [i, line] of lines.entries()) {
        await page.getByRole('button', { name: '新增行' }).click();
        await pickOption(`root_details_${i}_goodsId`, line.search, line.goods);
        await see(grid()).toContainText(line.search);
      }
      for (const [i, line] of lines.entries()) {
        await typeInto(cell(i, 'quantity'), line.qty);
        await typeInto(cell(i, 'priceInclTax'), line.price);
        await typeInto(cell(i, 'taxRate'), '13');
      }
      for (const line of lines) await see(grid()).toContainText(line.amount);
      await see(grid().locator('.zs-grid-totals')).toContainText('780,400.00');
      await see(page.locator('#root_remainingAmount')).toHaveValue('780,400.00');
      await shot('contract-lines-form.png');
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('新增成功')).toBeVisible();
      await waitForList();
      await findContract();
      await see(listRow(CONTRACT)).toContainText('草稿');
      await listRow(CONTRACT).getByText('提交', { exact: true }).click();
      await confirmSubmit();
      await see(toast('提交成功')).toBeVisible();
      await waitForList();
      await see(listRow(CONTRACT)).toContainText('审批中');

      // --- the default process: the project manager, then (over 500,000) the cost manager ---
      await approveAs('manager', '项目经理审批');
      await approveAs('costmgr', '成本经理审批');

      // --- the clerk sees it approved and writes June's demand plan against it ---
      await signInAs('clerk');
      await openList('合同管理', '支出合同');
      await findContract();
      await see(listRow(CONTRACT)).toContainText('已通过');

      await openList('材料管理', '材料月度需用计划');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增材料月度需用计划')).toBeVisible();
      const pick = page.getByRole('button', { name: /从采购合同选择/ });
      await see(pick).toBeVisible();
      expect(await pick.isDisabled(), 'no contract chosen yet').toBe(true);
      await pickOption('root_projectId', '江北', PROJECT);
      await pickOption('root_materialTotalDemandId', '浏览器测试', PLAN);
      await pickOption('root_expenditureContractCode', '浏览器测试', CONTRACT);
      await typeInto(page.locator('#root_period'), '2026-06');
      await typeInto(page.locator('#root_compilerName'), '张伟');

      await pickEveryLine(
        '采购合同',
        [
          ['HRB400E Φ12', '120', '3,950'],
          ['HRB400E Φ25', '3,830'],
        ],
        'contract-lines-pick-dialog.png',
      );

      await see(page.getByText('共 2 行')).toBeVisible();
      await see(grid()).toContainText('HRB400E Φ12');
      await see(grid()).toContainText('HRB400E Φ25');
      await see(cell(0, 'price')).toHaveValue('3,950.0000');
      await typeInto(cell(0, 'demandQty'), '40');
      await typeInto(cell(1, 'demandQty'), '25');
      await see(grid()).toContainText('158,000.00'); // 40 × 3,950
      await see(grid()).toContainText('95,750.00'); // 25 × 3,830

      // picked again: both lines are marked as added and cannot be added twice
      await seeEveryLineTaken('采购合同', 2);
      await shot('contract-lines-demand-form.png');

      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('新增成功')).toBeVisible();
      await waitForList();
      await see(listRow(PLAN)).toHaveCount(1);
      await see(listRow(PLAN)).toContainText('2026年6月');
      await see(listRow(PLAN)).toContainText('253,750.00');
      await shot('contract-lines-demand-list.png');

      // opened read-only: the rows carry the contract's goods and prices
      await listRow(PLAN).getByText('查看', { exact: true }).click();
      const drawer = page.getByRole('dialog').filter({ hasText: '物资明细' });
      await see(drawer).toBeVisible();
      for (const text of ['HRB400E Φ12', 'HRB400E Φ25', '3,950.0000', '3,830.0000', '158,000.00', '95,750.00'])
        await see(drawer).toContainText(text);
      await shot('contract-lines-demand-detail.png');
    },
    TEST_TIMEOUT * 8,
  );
});

const SUBCONTRACT = `土建分包合同(浏览器测试 ${STAMP})`;
const TEAM = `南京恒通建筑劳务有限公司(浏览器测试 ${STAMP})`;

/**
 * An approved subcontract with two bill-of-quantities lines, made through the API (clerk submits,
 * manager approves: under 500,000, one step); `terms` adds contract values (its type, ratios, status).
 */
async function approvedSubcontract(name = SUBCONTRACT, teamName = TEAM, terms: Record<string, unknown> = {}) {
  const clerk = await apiLogin('clerk');
  const [project] = (await api(clerk, 'GET', `/api/construct/project/options?keyword=${encodeURIComponent('江北')}`)).records;
  const team = await api(clerk, 'POST', '/api/construct/subcontractor/save', {
    name: teamName,
    subcontractorTypes: ['subcontract', 'material_supplier'],
    blacklisted: false,
    status: 'enabled',
  });
  const contract = await api(clerk, 'POST', '/api/construct/expenditureContract/submit', {
    name,
    projectId: project.value,
    subcontractorId: team.id,
    expenditureContractType: 'subcontract',
    pricingMode: 'fixed_unit_price',
    signDate: '2026-05-06',
    startDate: '2026-05-10',
    contractAmount: 0,
    taxRate: 9,
    performanceStatus: 'not_started',
    settlementStatus: 'none',
    details: [
      { itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 30, taxRate: 9 },
      { itemCode: '010502', itemName: 'C30混凝土浇筑', unit: 'm3', quantity: 500, priceInclTax: 600, taxRate: 9 },
    ],
    ...terms,
  });
  const manager = await apiLogin('manager');
  const claim = await api(manager, 'GET', '/api/blade-flow/work/claim-list?size=100');
  const task = claim.records.find((r: { businessId: string }) => String(r.businessId) === String(contract.id));
  expect(task, "the subcontract waits in the manager's 待签事务").toBeTruthy();
  await api(manager, 'POST', `/api/blade-flow/work/claim-task?taskId=${task.taskId}`);
  await api(manager, 'POST', '/api/blade-flow/work/complete-task', { taskId: task.taskId, flag: 'ok', comment: '同意' });
  return contract as { id: string };
}

describe('a monthly settlement picks the lines of its expense contract', () => {
  test(
    "clerk fills a subcontract settlement from the contract's lines, and finds them under 支出合同清单",
    async () => {
      await approvedSubcontract();
      await login('clerk', 'clerk');
      await openList('分包管理', '分包月度结算');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增分包月度结算')).toBeVisible();
      const pick = page.getByRole('button', { name: /从分包合同选择/ });
      await see(pick).toBeVisible();
      expect(await pick.isDisabled(), 'no contract chosen yet').toBe(true);
      await pickOption('root_projectId', '江北', PROJECT);
      await pickOption('root_expenditureContractCode', '浏览器测试', SUBCONTRACT);
      // the party is the contract's (x-ref.inherit), not one to choose
      await see(page.locator('.ant-select', { has: page.locator('#root_subcontractorId') })).toContainText(TEAM);
      await typeInto(page.locator('#root_period'), '2026-06');
      await typeInto(page.locator('#root_startDate'), '2026-06-01');
      await typeInto(page.locator('#root_endDate'), '2026-06-30');
      await typeInto(page.locator('#root_taxRate'), '9');
      await typeInto(page.locator('#root_reporterName'), '王会计');

      await pickEveryLine(
        '分包合同',
        [
          ['土方开挖', '1,000'],
          ['C30混凝土浇筑', '600'],
        ],
        'settlement-pick-dialog.png',
      );

      // the contract's item, unit, quantity and price are copied; the clerk types this period's quantities
      await see(page.getByText('共 2 行')).toBeVisible();
      await see(cell(0, 'itemName')).toHaveValue('土方开挖');
      await see(cell(1, 'itemName')).toHaveValue('C30混凝土浇筑');
      await see(cell(1, 'thisPrice')).toHaveValue('600.0000');
      await typeInto(cell(0, 'thisQty'), '200');
      await typeInto(cell(1, 'thisQty'), '100');
      await see(grid()).toContainText('6,000.00'); // 200 × 30
      await see(grid()).toContainText('60,000.00'); // 100 × 600

      // one row per contract line: both lines are marked as added and cannot be picked again
      await seeEveryLineTaken('分包合同', 2);
      await shot('settlement-pick-form.png');
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('新增成功')).toBeVisible();
      await waitForList();

      // the contract's lines as a list of their own, with the contract's name beside each line
      await openList('合同管理', '支出合同清单');
      await searchList('合同名称', SUBCONTRACT);
      await see(entityList().locator('.zs-grid-row')).toHaveCount(2);
      await see(listRow('土方开挖')).toContainText(SUBCONTRACT);
      await see(listRow('C30混凝土浇筑')).toContainText('300,000.00');
      await shot('settlement-contract-lines-list.png');
    },
    TEST_TIMEOUT * 6,
  );
});

describe('a settlement takes its terms from the contract it names (issue #21)', () => {
  const TERMS = `幕墙专业分包合同(条款测试 ${STAMP})`;
  const CURTAIN = `南京金螳螂幕墙有限公司(条款测试 ${STAMP})`;
  const PURCHASE = `钢筋采购合同(条款测试 ${STAMP})`;
  const SETTLED = `已定案分包合同(条款测试 ${STAMP})`;

  test(
    "the clerk is offered only the project's open subcontracts; the picked one brings its party, tax rate, payment ratio and retention rate",
    async () => {
      await approvedSubcontract(TERMS, CURTAIN, { paymentRatio: 80, retentionRate: 3 });
      await approvedSubcontract(PURCHASE, `江苏沙钢物资(条款测试 ${STAMP})`, { expenditureContractType: 'material' });
      const settled = await approvedSubcontract(SETTLED, `南京恒通劳务(条款测试 ${STAMP})`);
      // finally settled, as an approved filing leaves it
      const app = testApp();
      await app.db.query(`UPDATE ${app.catalog.entities.expenditureContract.table} SET settlement_status = 'final' WHERE id = $1`, [
        settled.id,
      ]);
      await login('clerk', 'clerk');
      await openList('分包管理', '分包月度结算');
      await entityList()
        .getByRole('button', { name: /新\s*增/ })
        .click();
      await see(page.getByText('新增分包月度结算')).toBeVisible();
      await pickOption('root_projectId', '江北', PROJECT);

      // the picker: approved subcontracts of the project, none finally settled, no purchase contract
      const picker = page.locator('#root_expenditureContractCode');
      await picker.click();
      await picker.fill('条款测试');
      const offered = await selectChoice('.ant-select-item-option', TERMS);
      await see(offered).toHaveCount(1);
      const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      await see(dropdown.locator('.ant-select-item-option')).toHaveCount(1);
      await shot('settlement-terms-picker.png');
      await offered.click();

      // the contract's terms, the party fixed to the contract's
      const party = page.locator('.ant-select', { has: page.locator('#root_subcontractorId') });
      await see(party).toContainText(CURTAIN);
      expect(await page.locator('#root_subcontractorId').isDisabled(), 'the party is the contract’s').toBe(true);
      await see(page.locator('#root_taxRate')).toHaveValue('9');
      await see(page.locator('#root_paymentRatio')).toHaveValue('80');
      await see(page.locator('#root_retentionRate')).toHaveValue('3');
      expect(await page.locator('#root_retentionRate').isEditable(), 'the retention rate is the contract’s').toBe(false);
      expect(await page.locator('#root_paymentRatio').isEditable(), 'the payment ratio may be changed').toBe(true);
      await page.locator('#root_taxRate').scrollIntoViewIfNeeded();
      await shot('settlement-terms-filled.png');

      await typeInto(page.locator('#root_period'), '2026-06');
      await typeInto(page.locator('#root_startDate'), '2026-06-01');
      await typeInto(page.locator('#root_endDate'), '2026-06-30');
      await typeInto(page.locator('#root_reporterName'), '王会计');
      await pickEveryLine(
        '分包合同',
        [
          ['土方开挖', '1,000'],
          ['C30混凝土浇筑', '600'],
        ],
        'settlement-terms-lines.png',
      );
      await typeInto(cell(0, 'thisQty'), '100');
      await typeInto(cell(1, 'thisQty'), '10');
      // 3,000 + 6,000 = 9,000: 80 % payable less 3 % retention (270) = 6,930
      await see(page.locator('#root_retentionAmount')).toHaveValue('270.00');
      await see(page.locator('#root_thisPayableAmount')).toHaveValue('6,930.00');
      await shot('settlement-terms-form.png');
      await page.getByRole('button', { name: /保\s*存/ }).click();
      await see(toast('新增成功')).toBeVisible();
      await waitForList();
      await see(listRow(TERMS)).toContainText('6,930.00');
    },
    TEST_TIMEOUT * 6,
  );
});
