// @vitest-environment happy-dom
// The home page's cost overview: the figures a cost manager reads (in 万元), the project table in
// 元 with the project over its target cost in red, unread warnings by level and approvals waiting,
// each opening its page; loading, empty and failing statistics; nothing shown, and nothing asked,
// for a user who may not read what the statistics sum; English.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MessageTestProviders } from '../../../../client/shell/notifications/testing.tsx';
import { appStore, menusAtom } from '../../../../client/state/session.ts';
import { CostOverview } from './CostOverview.tsx';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { READABLE_URL } from '../../../../client/renderers/data.ts';
import { statisticsEntities, statisticsUrls, warningsEntity } from './api.ts';
import { createFakeStatistics, sampleStatistics, type FakeStatisticsOptions } from './testing.ts';

afterEach(cleanup);
beforeEach(() => {
  window.history.replaceState(null, '', '/wel/index');
  appStore.set(menusAtom, [
    { id: '9', parentId: '0', code: 'warn_tip', name: '预警提示', path: '/construct/warnTip', sort: 1, category: 1 },
  ]);
});

function show(options: FakeStatisticsOptions = {}, lang: 'zh' | 'en' = 'zh') {
  const http = createFakeStatistics(options);
  render(
    <MessageTestProviders http={http} lang={lang}>
      <CostOverview />
    </MessageTestProviders>,
  );
  return http;
}

const figure = (testId: string) => screen.getByTestId(testId);

describe('the cost overview', () => {
  it('shows the figures in 万元 and every project in 元, the one over its target cost in red', async () => {
    show();
    await screen.findByTestId('cost-overview');
    expect(figure('cost-projects').textContent).toContain('2');
    // 1,250,000 income, 520,000 contracted, 137,614.68 settled excl. tax → 125.00 / 52.00 / 13.76 万元
    expect(figure('cost-income').textContent).toContain('125.00万元');
    expect(figure('cost-contracted').textContent).toContain('52.00万元');
    expect(figure('cost-settled').textContent).toContain('13.76万元');
    expect(figure('cost-over-plan').textContent).toContain('1');
    const table = screen.getByTestId('cost-project-table');
    const starHill = within(table).getByText('星湖街综合管廊').closest('tr')!;
    expect(starHill.textContent).toContain('55,045.87');
    expect(starHill.textContent).toContain('5,045.87');
    expect(starHill.textContent).toContain('110.09%');
    expect(within(starHill).getByText('110.09%').className).toContain('danger');
    // nothing paid is recorded on 星湖街: it says so instead of showing 0
    expect(starHill.textContent).toContain('未记录');
    const jiangbei = within(table).getByText('江北人才公寓二期').closest('tr')!;
    expect(jiangbei.textContent).toContain('-917,431.19');
    expect(within(jiangbei).getByText('8.26%').className).not.toContain('danger');
  });

  it('counts unread warnings by level and waiting approvals, and opens their pages', async () => {
    show({ warnings: { critical: 1, warning: 2, info: 4 }, approvals: { todo: 0, claim: 3 } });
    await waitFor(() => expect(figure('cost-warnings').textContent).toContain('7'), { timeout: 5000 });
    expect(figure('cost-warnings').textContent).toContain('严重 1');
    expect(figure('cost-warnings').textContent).toContain('预警 2');
    await waitFor(() => expect(figure('cost-approvals').textContent).toContain('待办 0 · 待签收 3'));
    fireEvent.click(figure('cost-warnings'));
    expect(window.location.pathname).toBe('/construct/warnTip');
    fireEvent.click(figure('cost-approvals'));
    expect(window.location.pathname).toBe('/work/claim');
  });

  it('a project row opens its statistics', async () => {
    show();
    fireEvent.click(await screen.findByText('星湖街综合管廊'));
    expect(window.location.pathname + window.location.search).toBe('/cost/statistics?projectId=102');
  });

  it('loading, no project, and a failure with its message and a retry', async () => {
    show({ pending: true });
    // (once the server has said the user may read the statistics: until then the home shows no card)
    await waitFor(() => expect(document.querySelector('.ant-skeleton')).toBeTruthy());
    cleanup();
    show({ statistics: { ...sampleStatistics(), projects: [] } });
    expect(await screen.findByText('暂无可查看的项目')).toBeTruthy();
    cleanup();
    const http = show({ fail: { status: 500, message: '服务器异常,请将错误编号 42 告知管理员' } });
    expect(await screen.findByText('统计数据加载失败:服务器异常,请将错误编号 42 告知管理员')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s?试/ }));
    await waitFor(() => expect(http.calls.filter((c) => c.url.endsWith('statisticsData')).length).toBe(2));
  });

  it('asks nothing of the statistics for a user who may not read expense contracts, and shows nothing', async () => {
    const everything = Object.keys(catalog().entities);
    const http = show({ readable: everything.filter((key) => key !== statisticsEntities()[1]) });
    await waitFor(() => expect(http.calls.some((c) => c.url === READABLE_URL)).toBe(true));
    await waitFor(() => expect(screen.queryByText('成本概览')).toBeNull());
    expect(http.calls.map((c) => c.url)).toEqual([READABLE_URL]);
  });

  it('counts no warnings for a user who may not read them: the tile stays, without a count', async () => {
    const http = show({ readable: Object.keys(catalog().entities).filter((key) => key !== warningsEntity()) });
    await screen.findByTestId('cost-overview');
    await waitFor(() => expect(figure('cost-approvals').textContent).toContain('待办 2'));
    expect(figure('cost-warnings').textContent).toContain('—');
    expect(http.calls.some((c) => c.url === statisticsUrls().warnings)).toBe(false);
  });

  it('stays away when the server refuses the statistics all the same', async () => {
    const http = show({ fail: { status: 403, message: '没有查看支出合同的权限' } });
    await waitFor(() => expect(http.calls.length).toBeGreaterThan(0));
    // the card (shown while loading) goes once the refusal is in
    await waitFor(() => expect(screen.queryByText('成本概览')).toBeNull());
    expect(screen.queryByText('没有查看支出合同的权限')).toBeNull();
  });

  it('speaks English', async () => {
    show({}, 'en');
    await screen.findByTestId('cost-overview');
    expect(screen.getByText('Cost overview')).toBeTruthy();
    expect(figure('cost-contracted').textContent).toContain('52.00');
    expect(figure('cost-contracted').textContent).toContain('10k CNY');
    expect(screen.getAllByText('Over target cost').length).toBeGreaterThan(0);
    await waitFor(() => expect(figure('cost-approvals').textContent).toContain('To do 2 · to claim 1'));
  });
});
