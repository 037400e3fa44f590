// @vitest-environment happy-dom
// Early warnings in a form that submits (the start form of a workflow): the figures typed go to
// `${api}/earlyWarningPreview`, and what it answers shows with its level, figure and threshold beside
// the submit button; 提交 asks again, lists the warnings, and posts nothing unless the clerk goes on.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { createFakeHttp, type FakeHttp } from '../../../../client/renderers/testing/fake-http.ts';
import { TestProviders } from '../../../../client/renderers/testing/providers.tsx';
import { RULE_PANELS } from './panels.tsx';
import { EntityForm } from '../../../../client/renderers/form/EntityForm.tsx';
import type { Preview } from './warnings.tsx';

afterEach(cleanup);

const model = catalog().entities.subcontractMonthlySettlement;

const CAP: Preview = {
  hardControl: false,
  warnings: [
    {
      warnType: 'exceed_contract_amount',
      typeName: '超合同金额(累计结算)',
      warnLevel: 'critical',
      message: '累计结算金额 120,000.00 元超过合同金额 100,000.00 元(120%)',
      actualValue: 120000,
      thresholdValue: 100000,
    },
  ],
};

/** The fake server, answering the preview as the real one would for a settlement at 120 %. */
function server(preview: Preview): FakeHttp {
  const http = createFakeHttp(catalog());
  const post = http.post;
  http.post = (async (url: string, json?: unknown, options?: Parameters<FakeHttp['post']>[2]) => {
    if (url.endsWith('/earlyWarningPreview')) {
      http.calls.push({ method: 'post', url, body: json });
      return preview;
    }
    return post(url, json, options);
  }) as FakeHttp['post'];
  return http;
}

/** A June settlement filled in, as the clerk leaves it before pressing 提交. */
const JUNE = {
  projectId: '1000001',
  expenditureContractCode: 'HT-001',
  subcontractorId: '1000002',
  period: '2026-06',
  settlementType: 'interim',
  startDate: '2026-06-01',
  endDate: '2026-06-30',
  taxRate: 9,
  paymentRatio: 80,
  retentionRate: 3,
  reporterName: '王会计',
  details: [{ itemCode: '020101', itemName: '管廊主体混凝土', unit: 'm3', contractQty: 100, thisQty: 60, thisPrice: 1000, taxRate: 9 }],
};

function open(preview: Preview, lang: 'zh' | 'en' = 'zh') {
  const http = server(preview);
  const onDone = vi.fn();
  render(
    <TestProviders http={http} lang={lang} registry={RULE_PANELS}>
      <EntityForm model={model} mode="create" initial={JUNE} submitTo={{ url: `${model.api}/submit` }} onDone={onDone} />
    </TestProviders>,
  );
  return { http, onDone };
}

const submits = (http: FakeHttp) => http.calls.filter((c) => c.method === 'post' && c.url.endsWith('/submit'));

describe('warnings before submit', () => {
  it('shows the warning with level, figure and threshold, and asks before submitting', async () => {
    const { http, onDone } = open(CAP);
    const live = await waitFor(() => {
      const found = document.querySelector('.zs-live-warnings') as HTMLElement | null;
      if (!found) throw new Error('no live warnings yet');
      return found;
    });
    expect(live.textContent).toContain('按当前填写的数据,保存时将记录 1 条预警');
    expect(live.textContent).toContain('严重[超合同金额(累计结算)] 累计结算金额 120,000.00 元超过合同金额 100,000.00 元(120%)');
    expect(live.textContent).toContain('数值 120,000,阈值 100,000');
    const sent = http.calls.find((c) => c.url.endsWith('/earlyWarningPreview'))!.body as Record<string, any>;
    // the record as a save sends it: the line's amount computed
    expect(sent.details[0]).toMatchObject({ thisQty: 60, amountInclTax: 60000 });

    fireEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.textContent).toContain('本单将触发 1 条预警,其中 1 条严重:'));
    expect(dialog.textContent).toContain('仍要提交审批吗?');
    expect(submits(http)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(submits(http)).toEqual([]);

    // asked again (the closed one may still be fading out)
    fireEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    const again = await waitFor(() => {
      const dialogs = screen.getAllByRole('dialog');
      expect(dialogs).toHaveLength(2);
      return dialogs[1];
    });
    fireEvent.click(within(again).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(submits(http)).toHaveLength(1));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });

  it('in English; with hard control on, a critical warning cannot be submitted', async () => {
    const { http } = open({ ...CAP, hardControl: true }, 'en');
    fireEvent.click(await screen.findByRole('button', { name: /Submit/ }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(dialog.textContent).toContain('This document raises 1 warning, a critical one:'));
    expect(dialog.textContent).toContain('Critical');
    expect(dialog.textContent).toContain('figure 120,000, threshold 100,000');
    expect(dialog.textContent).toContain('Hard control of warnings is on');
    expect((within(dialog).getByRole('button', { name: /OK/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(submits(http)).toEqual([]);
  });

  it('without warnings, 提交 submits at once', async () => {
    const { http } = open({ warnings: [], hardControl: false });
    fireEvent.click(await screen.findByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(submits(http)).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
