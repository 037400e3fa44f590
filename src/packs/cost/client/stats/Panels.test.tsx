// @vitest-environment happy-dom
// The warnings and settlement-timeliness panels of the statistics page: counts by type and level with
// the open ones' ageing, each count opening the warning list filtered to it (`?field=value`); the
// month's contracts that should have settled vs did, the ones that did not opening their contract,
// zero settlements opening the settlement, approval days; a panel the user may not read is left out.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entitiesWithRole, entityWithRole } from '../../../../engine/model/roles.ts';
import { STATISTICS_ROLES } from '../../engine/statistics/roles.ts';
import { ApiError } from '../../../../client/api/http.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { MessageTestProviders } from '../../../../client/shell/notifications/testing.tsx';
import { appStore, menusAtom, type MenuNode } from '../../../../client/state/session.ts';
import { statisticsUrls } from './api.ts';
import { ageRange, timelinessChartOption, warningsChartOption } from './Panels.tsx';
import ProjectStatistics from './ProjectStatistics.tsx';
import { createFakeStatistics, sampleTimeliness, sampleWarningStatistics } from './testing.ts';

const warnings = () => entityWithRole(catalog(), STATISTICS_ROLES.warnings);
const contracts = () => entityWithRole(catalog(), STATISTICS_ROLES.expenseContract);
const settlementKind = () => entitiesWithRole(catalog(), STATISTICS_ROLES.settlement)[0];

/** The user's menus: the lists the links may open. */
function menusFor(paths: string[]): MenuNode[] {
  return paths.map((path, i) => ({ id: String(i + 1), parentId: '0', code: `m${i}`, name: path, path, sort: i, category: 1 }));
}

afterEach(cleanup);
beforeEach(() => {
  window.history.replaceState(null, '', '/cost/statistics');
  appStore.set(menusAtom, menusFor([warnings().menu!.path, contracts().menu!.path, settlementKind().menu!.path]));
});

function show(lang: 'zh' | 'en' = 'zh', refuse?: string) {
  const http = createFakeStatistics();
  if (refuse) {
    const get = http.get.bind(http);
    http.get = async <T,>(url: string, params?: Record<string, string | number | boolean | undefined | null>) => {
      if (url === refuse) throw new ApiError(403, '没有查看的权限', { code: 403, msg: '没有查看的权限' });
      return get<T>(url, params);
    };
  }
  render(
    <MessageTestProviders http={http} lang={lang}>
      <ProjectStatistics />
    </MessageTestProviders>,
  );
  return http;
}

const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);
const rows = (table: HTMLElement) => [...table.querySelectorAll('tr.ant-table-row')].map(cells);
const hrefOf = (testId: string) => screen.getByTestId(testId).getAttribute('href');

describe('the warnings panel', () => {
  it('counts by type and level, unread and open with their ageing, and a totals row', async () => {
    show();
    const table = await screen.findByTestId('warnings-table', {}, { timeout: 15_000 });
    // type, critical, warning, info, total, unread, open, ≤7, 8–30, >30
    expect(rows(table)).toEqual([
      ['结算不及时', '0', '3', '0', '3', '1', '2', '1', '0', '1'],
      ['超成本预算', '1', '0', '0', '1', '1', '1', '0', '1', '0'],
    ]);
    expect(cells(screen.getByTestId('warnings-total'))).toEqual(['合计', '1', '3', '0', '4', '2', '3', '1', '1', '1']);
    expect(screen.getByText('未处理时长计至 2026-11-24')).toBeTruthy();
  });

  it('each count opens the warning list filtered to it', async () => {
    window.history.replaceState(null, '', '/cost/statistics?projectId=101');
    show();
    await screen.findByTestId('warnings-table', {}, { timeout: 15_000 });
    const list = warnings().menu!.path;
    expect(hrefOf('warn-late_settlement-warning')).toBe(`${list}?projectId=101&warnType=late_settlement&warnLevel=warning`);
    expect(hrefOf('warn-late_settlement-total')).toBe(`${list}?projectId=101&warnType=late_settlement`);
    expect(hrefOf('warn-exceed_budget-unread')).toBe(`${list}?projectId=101&warnType=exceed_budget&warnStatus=unread`);
    expect(hrefOf('warn-total-critical')).toBe(`${list}?projectId=101&warnLevel=critical`);
    // a zero is no link
    expect(screen.queryByTestId('warn-late_settlement-critical')).toBeNull();
    // open = unread + read: a menu of the two lists
    fireEvent.click(screen.getByTestId('warn-late_settlement-over30'));
    const read = await screen.findByText('已读未处理的');
    expect(read.getAttribute('data-href')).toBe(`${list}?projectId=101&warnType=late_settlement&warnStatus=read&createTime=%2C2026-10-24`);
    expect(screen.getByText('未读的').getAttribute('data-href')).toBe(
      `${list}?projectId=101&warnType=late_settlement&warnStatus=unread&createTime=%2C2026-10-24`,
    );
  });

  it('age ranges on the day counted to', () => {
    expect(ageRange('upTo7', '2026-11-24')).toBe('2026-11-17,2026-11-24');
    expect(ageRange('upTo30', '2026-11-24')).toBe('2026-10-25,2026-11-16');
    expect(ageRange('over30', '2026-03-01')).toBe(',2026-01-29');
  });

  it('stacks the levels per type, the type with most warnings on top', () => {
    const option = warningsChartOption(sampleWarningStatistics(), (l) => l) as any;
    expect(option.yAxis.data).toEqual(['超成本预算', '结算不及时']);
    expect(option.series.map((s: any) => [s.name, s.stack, s.data])).toEqual([
      ['critical', 'warnings', [1, 0]],
      ['warning', 'warnings', [0, 3]],
      ['info', 'warnings', [0, 0]],
    ]);
  });

  it('is left out for a user who may not read warnings, the other panels stay', async () => {
    show('zh', statisticsUrls().warningStatistics);
    await screen.findByTestId('timeliness-missing', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('dashboard-warnings')).toBeNull();
  });
});

describe('the settlement timeliness panel', () => {
  it('the last complete month by default: expected vs settled, the contracts that did not settle, zero settlements, approval days', async () => {
    const http = show();
    const figures = await screen.findByTestId('timeliness-figures', {}, { timeout: 15_000 });
    expect(figures.textContent).toContain('应结算合同3已结算合同1月度执行率33.33%零结算1负结算0');
    expect(rows(screen.getByTestId('timeliness-missing'))).toEqual([
      ['ZCHT-0003', '基坑支护分包', '江北人才公寓二期', '专业分包', '南京恒通建筑劳务有限公司', '从未结算'],
      ['ZCHT-0002', '主体劳务分包', '江北人才公寓二期', '劳务分包', '南京恒通建筑劳务有限公司', '2026-08'],
    ]);
    expect(rows(screen.getByTestId('timeliness-flagged'))[0]).toEqual([
      '零结算',
      settlementKind().label.zh,
      'LWJS-0009',
      '装饰劳务分包',
      '0.00',
      '0.00',
      '审批中',
    ]);
    expect(rows(screen.getByTestId('timeliness-durations'))).toEqual([[settlementKind().label.zh, '2', '2.4', '3.3']]);
    // no month asked: the server's default
    expect(http.calls).toContainEqual({ url: statisticsUrls().settlementTimeliness, params: {} });
  });

  it('a contract that did not settle opens its contract, a zero settlement its settlement', async () => {
    show();
    await screen.findByTestId('timeliness-missing', {}, { timeout: 15_000 });
    expect(hrefOf('timeliness-contract-ZCHT-0003')).toBe(`${contracts().menu!.path}?projectId=101&code=ZCHT-0003`);
    expect(hrefOf('timeliness-settlement-LWJS-0009')).toBe(`${settlementKind().menu!.path}?code=LWJS-0009`);
  });

  it('in English, one project: no project column', async () => {
    window.history.replaceState(null, '', '/cost/statistics?projectId=101');
    const http = show('en');
    const table = await screen.findByTestId('timeliness-missing', {}, { timeout: 15_000 });
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual([
      'Contract no.',
      'Contract',
      'Contract type',
      'Counterparty',
      'Last settled period',
    ]);
    expect(screen.getByText('Settlement timeliness')).toBeTruthy();
    expect(http.calls).toContainEqual({ url: statisticsUrls().settlementTimeliness, params: { projectId: '101' } });
  });

  it('bars per contract type: expected and settled', () => {
    const option = timelinessChartOption(sampleTimeliness(), (k) => k) as any;
    expect(option.xAxis.data).toEqual(['劳务分包', '专业分包']);
    expect(option.series.map((s: any) => [s.name, s.data])).toEqual([
      ['time.expected', [2, 1]],
      ['time.settled', [1, 0]],
    ]);
  });
});
