// @vitest-environment happy-dom
// The dashboards under the project statistics: projects ranked by cost used with their margin (all
// projects only), the monthly cost trend in 万元 with its running total, and the material funnel per
// goods in the goods' unit, a stage the user may not read marked so; the chart options they draw.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageTestProviders } from '../../../../client/shell/notifications/testing.tsx';
import { statisticsUrls } from './api.ts';
import { funnelChartOption, quantity, trendChartOption } from './Dashboards.tsx';
import ProjectStatistics from './ProjectStatistics.tsx';
import { createFakeStatistics, sampleCostTrend, sampleFunnel } from './testing.ts';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/cost/statistics'));

function show(lang: 'zh' | 'en' = 'zh') {
  const http = createFakeStatistics();
  render(
    <MessageTestProviders http={http} lang={lang}>
      <ProjectStatistics />
    </MessageTestProviders>,
  );
  return http;
}

const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);
const rows = (table: HTMLElement) => [...table.querySelectorAll('tr.ant-table-row')].map(cells);
const t = (key: string) => key;
/** The page draws its panels one after another: a loaded machine takes seconds. */
const SLOW = { timeout: 10_000 };

describe('the dashboards of the statistics page', () => {
  it('ranks the projects by cost used, the one over its target cost first, with its loss and margin', async () => {
    show();
    const table = await screen.findByTestId('ranking-table', {}, SLOW);
    expect(rows(table)).toEqual([
      ['1', '星湖街综合管廊', '110.09%', '5,045.87', '0.00', '-55,045.87', '—'],
      ['2', '江北人才公寓二期', '8.26%', '-917,431.19', '275,229.36', '192,660.55', '70.00%'],
    ]);
  });

  it('shows the monthly trend by contract type in 万元 with totals and the running total', async () => {
    show();
    const table = await screen.findByTestId('trend-table', {}, SLOW);
    expect(rows(table)).toEqual([
      ['2026-05', '11.01', '0.00', '11.01', '11.01'],
      ['2026-06', '2.75', '0.88', '3.64', '14.65'],
    ]);
  });

  it('groups the trend by cost category, or by contract type on request', async () => {
    show();
    const card = await screen.findByTestId('dashboard-trend', {}, SLOW);
    await within(card).findByTestId('trend-table', {}, SLOW);
    const heads = () => [...card.querySelectorAll('th')].map((th) => th.textContent);
    expect(heads()).toEqual(['月份', '分包费', '材料费', '合计', '累计(开累)']);
    fireEvent.click(within(card).getByText('按合同类别'));
    expect(heads()).toEqual(['月份', '专业分包', '材料采购', '合计', '累计(开累)']);
  });

  it('shows the material funnel per goods, a stage without permission marked, and switches goods', async () => {
    const http = show('en');
    const table = await screen.findByTestId('funnel-table', {}, SLOW);
    expect(rows(table)).toEqual([
      ['中砂', 'm3', '50', '0', '0', 'no permission', '0', '0'],
      ['螺纹钢 HRB400E Φ25', 't', '1,200', '700', '650', 'no permission', '598', '350.25'],
    ]);
    // the goods that went furthest through the stages is charted first; a row click charts another
    expect(within(screen.getByTestId('funnel-goods')).getByText('螺纹钢 HRB400E Φ25')).toBeTruthy();
    fireEvent.click(within(table).getByText('中砂'));
    expect(await within(screen.getByTestId('funnel-goods')).findByText('中砂')).toBeTruthy();
    expect(http.calls.map((c) => c.url)).toEqual(expect.arrayContaining([statisticsUrls().costTrend, statisticsUrls().materialFunnel]));
  });

  it('one project: no ranking, and the dashboards ask for that project', async () => {
    window.history.replaceState(null, '', '/cost/statistics?projectId=101');
    const http = show();
    await screen.findByTestId('trend-table', {}, SLOW);
    expect(screen.queryByTestId('dashboard-ranking')).toBeNull();
    expect(http.calls).toContainEqual({ url: statisticsUrls().materialFunnel, params: { projectId: '101' } });
  });

  it('draws stacked bars per type with the running total on its own axis, and the funnel in stage order', () => {
    const trend = trendChartOption(sampleCostTrend(), t) as any;
    expect(trend.series.map((s: any) => [s.type, s.stack ?? null, s.data])).toEqual([
      ['bar', 'cost', [11.01, 2.75]],
      ['bar', 'cost', [0, 0.88]],
      ['line', null, [11.01, 14.65]],
    ]);
    const funnel = funnelChartOption(sampleFunnel().rows[1], t) as any;
    // the unreadable stage (supplied) is left out, the rest keep their order
    expect(funnel.series[0].data.map((d: any) => [d.name, d.value])).toEqual([
      ['dash.planned', 1200],
      ['dash.monthlyDemand', 700],
      ['dash.procured', 650],
      ['dash.received', 598],
      ['dash.consumed', 350.25],
    ]);
    expect(funnel.series[0].sort).toBe('none');
    expect([quantity(1200), quantity('350.2500'), quantity(null)]).toEqual(['1,200', '350.25', '—']);
  });
});
