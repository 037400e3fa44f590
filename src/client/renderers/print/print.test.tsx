// @vitest-environment happy-dom
// Printing (issue #9): contracts and settlements, found by their roles, get 打印 in their detail
// drawer, which opens the browser's print dialog over a printed form kept under <body>; master data
// gets neither. The form's this-period / cumulative pairs come from the registry (the cost rules' x-cumulative).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalog } from '../catalog.ts';
import { EntityScreen } from '../EntityPage.tsx';
import { buttonsOf } from '../gallery/permissions.ts';
import { renderWithApi } from '../testing/providers.tsx';
import { createFakeHttp } from '../testing/fake-http.ts';
import { cumulativePairs } from '../../../packs/cost/client/panels/print-pairs.ts';
import { isPrintable } from './printable.ts';

const entities = catalog().entities;
const permissions = buttonsOf('administrator');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** window.print stubbed (happy-dom has none; a browser would open its dialog). */
function stubPrint() {
  const print = vi.fn();
  vi.stubGlobal('print', print);
  return print;
}

/** Opens the first record of the model's list in the detail drawer. */
async function openFirst(key: string, values: Record<string, unknown> = {}, lang: 'zh' | 'en' = 'zh', flowSteps?: unknown[]) {
  const http = createFakeHttp(catalog(), { rows: 3 });
  if (flowSteps) {
    // the approval timeline of the document's process instance
    const get = http.get.bind(http);
    http.get = (async (url: string, params?: Record<string, unknown>) =>
      url === '/api/blade-flow/process/history-flow-list' ? structuredClone(flowSteps) : get(url, params as never)) as typeof http.get;
  }
  const record = Object.assign(http.tables.get(key)![0], values);
  // the pairs come from the cost rules' pack, as in the app (app/registry.ts)
  renderWithApi(<EntityScreen model={entities[key]} />, { http, permissions, lang, registry: { periodPairs: cumulativePairs } });
  const list = await screen.findByTestId('entity-list');
  await waitFor(() => expect(list.getAttribute('aria-busy')).toBe('false'), { timeout: 10_000 });
  const row = (await within(list).findAllByText(lang === 'zh' ? '查看' : 'View', {}, { timeout: 10_000 }))[0];
  fireEvent.click(row);
  await screen.findByTestId('entity-detail', {}, { timeout: 10_000 });
  return { http, record };
}

describe('which documents print', () => {
  it('every type with a contract or settlement role (not settlement.activity), nothing else', () => {
    const printable = Object.values(entities)
      .filter(isPrintable)
      .map((m) => m.key)
      .sort();
    const expected = Object.values(entities)
      .filter((m) => m.roles.some((r) => r.startsWith('contract.') || (r.startsWith('settlement.') && r !== 'settlement.activity')))
      .map((m) => m.key)
      .sort();
    expect(printable).toEqual(expected);
    expect(printable).toContain('expenditureContract');
    expect(printable).toContain('constructionContract');
    expect(printable).toContain('laborMonthlySettlement');
    expect(printable).toContain('subcontractSettlementFiling');
    expect(printable).not.toContain('goodsArchives');
    expect(printable).not.toContain('materialTotalDemand');
    // a receiving check calls for a settlement (settlement.activity) but is none
    expect(printable).not.toContain('materialCheck');
  });
});

describe('the print button', () => {
  it('a settlement: 打印 in the drawer calls window.print, the printed form holds the code, the pairs, capitals and signatures', async () => {
    const print = stubPrint();
    const { record } = await openFirst('laborMonthlySettlement', {
      thisAmountInclTax: '1234567.80',
      previousCumulativeAmount: '1000000.00',
      cumulativeAmount: '2234567.80',
      thisPayableAmount: '1000000.00',
      previousCumulativePayable: '800000.00',
      cumulativePayable: '1800000.00',
    });
    const button = await screen.findByTestId('print-button', {}, { timeout: 10_000 });
    expect(button.textContent?.replace(/\s/g, '')).toBe('打印');
    fireEvent.click(button);
    expect(print).toHaveBeenCalledTimes(1);

    const form = await screen.findByTestId('print-document', {}, { timeout: 10_000 });
    // kept beside the app, under <body>: print.css shows it alone
    expect(form.parentElement).toBe(document.body);
    expect(within(form).getByTestId('print-code').textContent).toBe(String(record.code));
    expect(within(form).getByRole('heading', { level: 1 }).textContent).toBe('劳务月度结算');
    const pairs = within(form).getByTestId('print-pairs');
    expect(
      within(pairs)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['项目', '本期', '至上期末累计', '开累']);
    const line = within(pairs).getByText('本期结算金额(含税)').closest('tr')!;
    expect([...line.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['1,234,567.80', '1,000,000.00', '2,234,567.80']);
    const capitals = within(form).getByTestId('print-capitals').textContent;
    expect(capitals).toContain('大写:壹佰贰拾叁万肆仟伍佰陆拾柒元捌角整');
    expect(capitals).toContain('大写:壹佰万元整');
    const signatures = within(form).getByTestId('print-signatures').textContent ?? '';
    for (const label of ['编制', '审核', '审批']) expect(signatures).toContain(label);
    expect(within(form).getByTestId('print-rows-details').querySelector('thead')).toBeTruthy();
    // every line of a header grid is filled: the last field of a section stretches over what is left
    for (const grid of form.querySelectorAll('.zs-print-grid')) {
      const columns = (grid as HTMLElement).style.gridTemplateColumns.match(/repeat\((\d+)/)![1];
      const cells = [...grid.children].map((c) => Number((c as HTMLElement).style.gridColumn.replace('span ', '') || 1));
      expect(cells.reduce((a, b) => a + b, 0) % Number(columns), grid.textContent ?? '').toBe(0);
    }
  }, 30_000);

  it('a contract prints too', async () => {
    const print = stubPrint();
    await openFirst('expenditureContract');
    fireEvent.click(await screen.findByTestId('print-button', {}, { timeout: 10_000 }));
    expect(print).toHaveBeenCalledTimes(1);
    const form = await screen.findByTestId('print-document', {}, { timeout: 10_000 });
    expect(within(form).getByRole('heading', { level: 1 }).textContent).toBe('支出合同');
    expect(within(form).queryByTestId('print-pairs')).toBeNull();
  }, 30_000);

  it('合计 adds amounts, and quantities only when every line has the same unit (m + m + 项 has no total)', async () => {
    stubPrint();
    const line = (unit: string, quantity: number, amountInclTax: number, id: string) => ({
      id,
      unit,
      quantity,
      priceInclTax: 1,
      amountInclTax,
    });
    await openFirst('expenditureContract', {
      details: [line('m', 1200, 1200, '11'), line('m', 800, 800, '12'), line('项', 136006, 136006, '13')],
    });
    fireEvent.click(await screen.findByTestId('print-button', {}, { timeout: 10_000 }));
    const rows = await screen.findByTestId('print-rows-details', {}, { timeout: 10_000 });
    const header = [...rows.querySelectorAll('thead th')].map((th) => th.textContent);
    const footer = [...rows.querySelectorAll('tfoot td')].map((td) => td.textContent);
    const at = (label: string) => footer[header.indexOf(label) - 1];
    expect(at('合同数量')).toBe('');
    expect(at('含税金额')).toBe('138,006.00');
    expect(rows.querySelector('tfoot')?.textContent).not.toContain('138,006.0000');
  }, 30_000);

  it('合计 of quantities of one unit is their sum', async () => {
    stubPrint();
    const line = (quantity: number, id: string) => ({ id, unit: 'm', quantity, priceInclTax: 1, amountInclTax: quantity });
    await openFirst('expenditureContract', { details: [line(1200, '21'), line(800, '22')] });
    fireEvent.click(await screen.findByTestId('print-button', {}, { timeout: 10_000 }));
    const rows = await screen.findByTestId('print-rows-details', {}, { timeout: 10_000 });
    const header = [...rows.querySelectorAll('thead th')].map((th) => th.textContent);
    const footer = [...rows.querySelectorAll('tfoot td')].map((td) => td.textContent);
    expect(footer[header.indexOf('合同数量') - 1]).toMatch(/^2,000(\.0+)?$/);
  }, 30_000);

  it('the signature line names who passed the approval steps: the last under 审批 once approved, the others under 审核', async () => {
    const step = (name: string, isPass = true, endTime: string | null = '2026-06-03 10:00:00') => ({
      historyActivityType: 'userTask',
      assigneeName: name,
      isPass,
      endTime,
    });
    await openFirst('laborMonthlySettlement', { approvalStatus: 'approved', processInstanceId: '880001' }, 'zh', [
      { historyActivityType: 'startEvent', assigneeName: '王晓明', endTime: '2026-06-01 09:00:00' },
      step('李建国'),
      step('赵敏'),
    ]);
    const form = await screen.findByTestId('print-document', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(form).getByTestId('print-approved').textContent).toBe('赵敏'));
    expect(within(form).getByTestId('print-reviewed').textContent).toBe('李建国');
    cleanup();
    // still in approval: who passed so far has reviewed it, nobody has approved it yet
    await openFirst('laborMonthlySettlement', { approvalStatus: 'approving', processInstanceId: '880002' }, 'zh', [
      step('李建国'),
      step('赵敏', true, null),
    ]);
    const waiting = await screen.findByTestId('print-document', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(waiting).getByTestId('print-reviewed').textContent).toBe('李建国'));
    expect(within(waiting).getByTestId('print-approved').textContent).toBe('');
  }, 40_000);

  it('in English: Print, and the form in English', async () => {
    stubPrint();
    await openFirst(
      'laborMonthlySettlement',
      { thisAmountInclTax: '100.00', previousCumulativeAmount: '50.00', cumulativeAmount: '150.00' },
      'en',
    );
    expect((await screen.findByTestId('print-button', {}, { timeout: 10_000 })).textContent?.trim()).toBe('Print');
    const form = await screen.findByTestId('print-document', {}, { timeout: 10_000 });
    expect(within(form).getByRole('heading', { level: 1 }).textContent).toBe(entities.laborMonthlySettlement.label.en);
    expect(
      within(within(form).getByTestId('print-pairs'))
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Item', 'This period', 'Up to last period', 'Cumulative']);
    const signatures = within(form).getByTestId('print-signatures').textContent ?? '';
    for (const label of ['Prepared by', 'Reviewed by', 'Approved by']) expect(signatures).toContain(label);
  }, 30_000);

  it('master data has no print button and no printed form', async () => {
    await openFirst('goodsArchives');
    await waitFor(() => expect(screen.getByTestId('entity-detail').getAttribute('aria-busy')).toBe('false'));
    expect(screen.queryByTestId('print-button')).toBeNull();
    expect(screen.queryByTestId('print-document')).toBeNull();
  }, 30_000);
});
