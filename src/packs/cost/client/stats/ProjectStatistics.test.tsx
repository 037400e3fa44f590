// @vitest-environment happy-dom
// The project statistics page: by contract type in 元 with the totals row against the target cost,
// the income side, one project through ?projectId= and the project picker, the export of the same
// scope, and a failure shown with the server's message.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageTestProviders } from '../../../../client/shell/notifications/testing.tsx';
import ProjectStatistics from './ProjectStatistics.tsx';
import { statisticsUrls } from './api.ts';
import { createFakeStatistics, type FakeStatisticsOptions } from './testing.ts';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/cost/statistics'));

function show(options: FakeStatisticsOptions = {}, lang: 'zh' | 'en' = 'zh') {
  const http = createFakeStatistics(options);
  render(
    <MessageTestProviders http={http} lang={lang}>
      <ProjectStatistics />
    </MessageTestProviders>,
  );
  return http;
}

const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);

describe('the project statistics page', () => {
  it('shows every contract type in 元 with the totals row, the income side and the target cost', async () => {
    show();
    const table = await screen.findByTestId('statistics-table');
    const subcontract = within(table).getByText('专业分包').closest('tr')!;
    expect(cells(subcontract)).toEqual([
      '专业分包',
      '2',
      '400,000.00',
      '20,000.00',
      '420,000.00',
      '150,000.00',
      '137,614.68',
      '115,500.00',
      '50,000.00',
      '4,500.00',
      '270,000.00',
      '35.71%',
      '—',
      '—',
      '—',
    ]);
    expect(cells(within(table).getByText('材料采购').closest('tr')!)).toContain('0.00%');
    expect(cells(screen.getByTestId('statistics-total'))).toEqual([
      '合计',
      '3',
      '500,000.00',
      '20,000.00',
      '520,000.00',
      '150,000.00',
      '137,614.68',
      '115,500.00',
      '50,000.00',
      '4,500.00',
      '370,000.00',
      '28.85%',
      '1,050,000.00',
      '530,000.00',
      '13.11%',
    ]);
    expect(screen.getByTestId('statistics-income').textContent).toContain('1,250,000.00');
    expect(screen.getByTestId('statistics-income').textContent).toContain('240,000.00');
    expect(screen.getByTestId('statistics-plan').textContent).toContain('13.11%');
  });

  it('opens one project from the address, and the picker switches project', async () => {
    window.history.replaceState(null, '', '/cost/statistics?projectId=102');
    const http = show();
    await screen.findByTestId('statistics-table');
    expect(http.calls).toContainEqual({ url: statisticsUrls().statistics, params: { projectId: '102' } });
    fireEvent.mouseDown(
      screen.getByTestId('statistics-project').querySelector('.ant-select-content, .ant-select-selector') ??
        screen.getByTestId('statistics-project'),
    );
    fireEvent.click(await screen.findByTitle('全部项目'));
    expect(window.location.pathname + window.location.search).toBe('/cost/statistics');
  });

  it('exports the scope on screen', async () => {
    window.history.replaceState(null, '', '/cost/statistics?projectId=101');
    const http = show();
    await screen.findByTestId('statistics-table');
    fireEvent.click(screen.getByRole('button', { name: /导\s?出/ }));
    await waitFor(() => expect(http.calls).toContainEqual({ url: statisticsUrls().export, params: { projectId: '101' } }));
  });

  it("shows the server's message when the statistics fail, in English too", async () => {
    show({ fail: { status: 403, message: 'No permission to view Expense contract' } }, 'en');
    expect(await screen.findByText('The statistics could not be loaded: No permission to view Expense contract')).toBeTruthy();
    expect(screen.getByText('Project statistics')).toBeTruthy();
  });
});
