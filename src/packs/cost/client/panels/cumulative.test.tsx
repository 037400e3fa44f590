// @vitest-environment happy-dom
// A new settlement pre-filled with what was settled before (x-cumulative): once project, contract,
// counterparty and period are there, the form asks the cumulative query and shows the previous and
// cumulative pairs of the header and of each matching line; rows added later follow.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CumulativeAnswer } from '../../engine/cumulative/cumulative.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { createFakeHttp } from '../../../../client/renderers/testing/fake-http.ts';
import { TestProviders } from '../../../../client/renderers/testing/providers.tsx';
import { RULE_PANELS } from './panels.tsx';
import { EntityForm } from '../../../../client/renderers/form/EntityForm.tsx';

afterEach(cleanup);

const model = catalog().entities.subcontractMonthlySettlement;
const keys = { projectId: '1001', expenditureContractCode: 'ZCHT-202604-0001', subcontractorId: '1002' };

const answer: CumulativeAnswer = {
  keys,
  period: '2026-07',
  lastApprovedPeriod: '2026-06',
  approving: null,
  contract: { code: keys.expenditureContractCode, currentAmount: 330000 },
  header: { previousCumulativeAmount: 105000, previousCumulativePayable: 80850 },
  totals: { thisAmountInclTax: 105000 },
  lines: [
    {
      key: { itemCode: '010101' },
      previous: { previousCumulativeQty: 500, previousCumulativeAmount: 15000 },
      contractQty: 1000,
      remainingQty: 500,
    },
    {
      key: { itemCode: '010502' },
      previous: { previousCumulativeQty: 150, previousCumulativeAmount: 90000 },
      contractQty: 500,
      remainingQty: 350,
    },
  ],
};

function open(initial: Record<string, unknown>, reply: CumulativeAnswer = answer, lang: 'zh' | 'en' = 'zh') {
  const fake = createFakeHttp(catalog());
  const asked: Record<string, unknown>[] = [];
  const http = {
    ...fake,
    get: (async (url: string, params?: Record<string, unknown>) => {
      if (url === `${model.api}/cumulative`) {
        asked.push(params ?? {});
        return reply;
      }
      return fake.get(url, params as never);
    }) as typeof fake.get,
  };
  const onDone = vi.fn();
  render(
    <TestProviders http={http} lang={lang} registry={RULE_PANELS}>
      <EntityForm model={model} mode="create" initial={initial} onDone={onDone} />
    </TestProviders>,
  );
  return { asked, fake };
}

const row = (itemCode: string, thisQty: number, thisPrice: number) => ({
  itemCode,
  itemName: itemCode,
  unit: 'm3',
  thisQty,
  thisPrice,
  taxRate: 9,
  contractQty: 1000,
});
/** The text of a grid cell: row `index` (0-based), column titled `title` (after the select and number cells). */
function cell(index: number, title: string): string {
  const headers = [...document.querySelectorAll('[role="columnheader"]')].map((h) => (h.textContent ?? '').replace(/^\* /, ''));
  const column = headers.indexOf(title);
  if (column < 0) throw new Error(`no column ${title}`);
  const row = document.querySelectorAll('.zs-grid-row')[index];
  return row?.querySelectorAll('[role="cell"]')[column + 2]?.textContent ?? '';
}

describe('a new settlement pre-filled from the cumulative query', () => {
  it('asks once the group and period are chosen, and shows previous and cumulative by line and in total', async () => {
    const { asked } = open({
      ...keys,
      period: '2026-07',
      taxRate: 9,
      paymentRatio: 80,
      details: [row('010101', 100, 30), row('010502', 20, 600)],
    });
    await waitFor(() => expect(asked).toEqual([{ ...keys, period: '2026-07' }]));
    expect(await screen.findByText('上期末累计按已审批至 2026-06 的单据计算,保存时由系统重新核算')).toBeTruthy();
    await waitFor(() => expect(cell(0, '上期末累计数量')).toContain('500'));
    expect(cell(0, '本期末累计数量')).toContain('600');
    expect(cell(1, '上期末累计金额')).toMatch(/90,?000/);
    expect(cell(1, '本期末累计金额')).toMatch(/102,?000/);
    // header: 105,000 before, 3,000 + 12,000 this period → 120,000
    await waitFor(() => expect(document.body.textContent).toMatch(/120,?000\.00/));
    const previous = document.getElementById('root_previousCumulativeAmount') as HTMLInputElement | null;
    expect(previous?.value ?? previous?.textContent ?? document.body.textContent).toMatch(/105,?000(\.00)?/);
  });

  it('asks nothing while the contract is missing, and fills the matching line once it is there', async () => {
    const { asked } = open({ projectId: keys.projectId, subcontractorId: keys.subcontractorId, period: '2026-07', details: [] });
    await screen.findAllByText('清单结算明细');
    expect(asked).toEqual([]);
    cleanup();
    const second = open({ ...keys, period: '2026-07', details: [row('010502', 1, 600)] });
    await waitFor(() => expect(second.asked).toHaveLength(1));
    await waitFor(() => expect(cell(0, '上期末累计数量')).toContain('150'));
  });

  it('warns of the one in approval, in English', async () => {
    open({ ...keys, period: '2026-07', details: [] }, { ...answer, approving: { id: '9', code: 'FBJS-202607-0001' } }, 'en');
    expect(
      await screen.findByText('FBJS-202607-0001 of the same group is under approval: this one cannot be submitted until it is finished'),
    ).toBeTruthy();
  });
});
