// @vitest-environment happy-dom
// Each figure of the statistics opens its documents (issue #9): a contract type's contract figures the
// contract ledger filtered to the project, the type and approved contracts; settled figures a menu of
// the settlement types; income the income contracts; a trend month that period's settlements; a funnel
// stage its documents. Without the list's menu the figure is plain text.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entitiesWithRole, entityWithRole } from '../../../../engine/model/roles.ts';
import { STATISTICS_ROLES as R } from '../../engine/statistics/roles.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { MessageTestProviders } from '../../../../client/shell/notifications/testing.tsx';
import { appStore, menusAtom, type MenuNode } from '../../../../client/state/session.ts';
import { CostOverview } from './CostOverview.tsx';
import ProjectStatistics from './ProjectStatistics.tsx';
import { createFakeStatistics } from './testing.ts';

const SLOW = { timeout: 10_000 };
const menuOf = (key: string): MenuNode => {
  const m = catalog().entities[key].menu!;
  return { id: key, parentId: '0', code: m.code, name: key, path: m.path, sort: 0, category: 1 };
};
const every = () =>
  Object.values(catalog().entities)
    .filter((m) => m.menu)
    .map((m) => menuOf(m.key));
const pathOf = (role: string) => entityWithRole(catalog(), role).menu!.path;

afterEach(() => {
  cleanup();
  appStore.set(menusAtom, []);
});
beforeEach(() => window.history.replaceState(null, '', '/cost/statistics?projectId=102'));

function show(menus: MenuNode[]) {
  appStore.set(menusAtom, menus);
  render(
    <MessageTestProviders http={createFakeStatistics()} lang="zh">
      <ProjectStatistics />
    </MessageTestProviders>,
  );
}

const href = (el: Element | null) => el?.closest('a')?.getAttribute('href');

describe('figures open their documents', () => {
  it("a type's contract figures open the contract ledger of the project and type; the totals row every type", async () => {
    show(every());
    const table = await screen.findByTestId('statistics-table', {}, SLOW);
    const subcontract = within(table).getByText('专业分包').closest('tr')!;
    const ledger = `${pathOf(R.expenseContract)}?projectId=102&approvalStatus=approved&expenditureContractType=subcontract`;
    expect(href(within(subcontract).getByText('420,000.00'))).toBe(ledger);
    expect(href(within(subcontract).getByText('专业分包'))).toBe(ledger);
    expect(href(within(screen.getByTestId('statistics-total')).getByText('520,000.00'))).toBe(
      `${pathOf(R.expenseContract)}?projectId=102&approvalStatus=approved`,
    );
    expect(href(within(screen.getByTestId('statistics-income')).getByText('1,250,000.00'))).toBe(
      `${pathOf(R.incomeContract)}?projectId=102&approvalStatus=approved`,
    );
  });

  it('settled figures offer the settlement types; a trend month its period; a funnel stage its documents', async () => {
    show(every());
    await screen.findByTestId('statistics-table', {}, SLOW);
    fireEvent.click(within(screen.getByTestId('statistics-total')).getByText('150,000.00'));
    const settlements = entitiesWithRole(catalog(), R.settlement);
    const menu = await screen.findByRole('menu', {}, SLOW);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(settlements.map((m) => m.label.zh));
    fireEvent.click(within(menu).getAllByRole('menuitem')[0]);
    expect(window.location.pathname + window.location.search).toBe(`${settlements[0].menu!.path}?projectId=102&approvalStatus=approved`);

    window.history.replaceState(null, '', '/cost/statistics?projectId=102');
    const trend = await screen.findByTestId('trend-table', {}, SLOW);
    fireEvent.click(within(trend).getAllByTestId('trend-link-month')[0]);
    const months = await screen.findAllByRole('menu', {}, SLOW);
    fireEvent.click(within(months.at(-1)!).getAllByRole('menuitem')[0]);
    expect(window.location.search).toBe('?projectId=102&approvalStatus=approved&period=2026-05');
    const funnel = await screen.findByTestId('funnel-table', {}, SLOW);
    expect(within(funnel).getAllByTestId('funnel-link-planned')[0].getAttribute('href')).toBe(
      `${pathOf(R.totalDemand)}?projectId=102&approvalStatus=approved`,
    );
  });

  it("a type's settled figure finds the settlement types holding settlements on that type's contracts", async () => {
    const { subcontractMonthlySettlement: subcontracts, laborMonthlySettlement: labour } = catalog().entities;
    const lists: Record<string, Record<string, unknown>[]> = {
      [entityWithRole(catalog(), R.expenseContract).api]: [{ code: 'ZCHT-1' }],
      // two settlements on the subcontract, one on another type's contract; labour settlements only on other contracts
      [subcontracts.api]: [
        { expenditureContractCode: 'ZCHT-1' },
        { expenditureContractCode: 'ZCHT-1' },
        { expenditureContractCode: 'ZCHT-9' },
      ],
      [labour.api]: [{ expenditureContractCode: 'ZCHT-8' }],
    };
    const fake = createFakeStatistics();
    const asked: Record<string, unknown>[] = [];
    const http = {
      ...fake,
      get: async <T,>(url: string, params?: Record<string, unknown>): Promise<T> => {
        const api = url.replace(/\/list$/, '');
        if (url.endsWith('/list')) {
          asked.push({ url, ...params });
          return { records: lists[api] ?? [], total: (lists[api] ?? []).length } as T;
        }
        return fake.get<T>(url, params as never);
      },
    };
    appStore.set(menusAtom, every());
    render(
      <MessageTestProviders http={http} lang="zh">
        <ProjectStatistics />
      </MessageTestProviders>,
    );
    const table = await screen.findByTestId('statistics-table', {}, SLOW);
    fireEvent.click(within(within(table).getByText('专业分包').closest('tr')!).getByText('150,000.00'));
    const menu = await screen.findByRole('menu', {}, SLOW);
    await waitFor(
      () =>
        expect(
          within(menu)
            .getAllByRole('menuitem')
            .map((i) => i.textContent),
        ).toEqual([`${subcontracts.label.zh} 2`]),
      SLOW,
    );
    expect(asked[0]).toMatchObject({
      projectId_equal: '102',
      expenditureContractType_equal: 'subcontract',
      approvalStatus_equal: 'approved',
    });
    fireEvent.click(within(menu).getByRole('menuitem'));
    expect(window.location.pathname + window.location.search).toBe(
      `${subcontracts.menu!.path}?projectId=102&approvalStatus=approved&expenditureContractCode=ZCHT-1`,
    );
  });

  it("without the list's menu a figure is plain text", async () => {
    show([menuOf(entityWithRole(catalog(), R.incomeContract).key)]);
    const table = await screen.findByTestId('statistics-table', {}, SLOW);
    expect(href(within(table).getByText('420,000.00'))).toBeUndefined();
    expect(href(within(screen.getByTestId('statistics-income')).getByText('1,250,000.00'))).toBe(
      `${pathOf(R.incomeContract)}?projectId=102&approvalStatus=approved`,
    );
  });

  it("on the home overview the contracted and income tiles open their ledgers, a project's contracted amount its own", async () => {
    window.history.replaceState(null, '', '/wel/index');
    appStore.set(menusAtom, every());
    render(
      <MessageTestProviders http={createFakeStatistics()} lang="zh">
        <CostOverview />
      </MessageTestProviders>,
    );
    await screen.findByTestId('cost-overview', {}, SLOW);
    fireEvent.click(screen.getByTestId('cost-contracted'));
    expect(window.location.pathname + window.location.search).toBe(`${pathOf(R.expenseContract)}?approvalStatus=approved`);
    fireEvent.click(screen.getByTestId('cost-income'));
    expect(window.location.pathname + window.location.search).toBe(`${pathOf(R.incomeContract)}?approvalStatus=approved`);
    const row = within(screen.getByTestId('cost-project-table')).getByText('星湖街综合管廊').closest('tr')!;
    const contracts = within(row).getByTestId('cost-project-contracts');
    expect(contracts.getAttribute('href')).toBe(`${pathOf(R.expenseContract)}?projectId=102&approvalStatus=approved`);
    // the link, not the row's way to the statistics
    fireEvent.click(contracts);
    expect(window.location.pathname).toBe(pathOf(R.expenseContract));
  });
});
