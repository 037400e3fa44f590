// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { createFakeHttp } from '../testing/fake-http.ts';
import { FieldDisplay } from './FieldDisplay.tsx';
import { renderWithApi } from '../testing/providers.tsx';

const entities = catalog().entities;
const demand = entities.materialTotalDemand;
const line = demand.details[0].fieldMap;

afterEach(cleanup);

function show(
  field: (typeof demand.fields)[number],
  value: unknown,
  options: { lang?: 'zh' | 'en'; compact?: boolean; empty?: string } = {},
) {
  const http = createFakeHttp(catalog(), { rows: 3 });
  const view = renderWithApi(
    <div data-testid="value">
      <FieldDisplay field={field} value={value} compact={options.compact} empty={options.empty} />
    </div>,
    { http, lang: options.lang },
  );
  return { http, text: () => view.container.querySelector('[data-testid=value]')!.textContent };
}

describe('values as a person reads them', () => {
  it('code: a stack keeps its lines in the detail, and shows its first line in a list cell', () => {
    const stack = entities.logError.fieldMap.stackTrace;
    const text = 'TypeError: boom\n    at Grid (grid.tsx:42:7)';
    show(stack, text);
    expect(document.querySelector('pre.zs-display-code')!.textContent).toBe(text);
    cleanup();
    expect(show(stack, text, { compact: true }).text()).toBe('TypeError: boom');
  });

  it('money: thousands separators and the field scale (prices keep 4 places)', () => {
    expect(show(line.amount, 1234567.5).text()).toBe('1,234,567.50');
    expect(show(line.budgetPrice, '12.3').text()).toBe('12.3000');
  });

  it('quantities without trailing zeros, percentages with at least two places', () => {
    expect(show(line.designQty, '1200.5000').text()).toBe('1,200.5');
    expect(show(line.lossRate, 3).text()).toBe('3.00%');
    expect(show(line.lossRate, '2.125').text()).toBe('2.125%');
  });

  it('dates, times and months in the user locale', () => {
    expect(show(demand.fieldMap.planDate, '2026-03-15').text()).toBe('2026/03/15');
    expect(show(demand.fieldMap.planDate, '2026-03-15', { lang: 'en' }).text()).toBe('15 Mar 2026');
    expect(show(demand.fieldMap.createTime, '2026-03-15 09:30:00').text()).toBe('2026/03/15 09:30:00');
    expect(show(line.plannedStartMonth, '2026-03').text()).toBe('2026年3月');
    expect(show(line.plannedStartMonth, '2026-03', { lang: 'en' }).text()).toBe('Mar 2026');
  });

  it('yes / no, option labels and tags', () => {
    const goods = entities.goodsArchives.fieldMap;
    expect(show(goods.isTurnover, true).text()).toBe('是');
    expect(show(goods.isTurnover, false, { lang: 'en' }).text()).toBe('No');
    expect(show(entities.user.fieldMap.status, 2).text()).toBe('待审核');
    expect(show(goods.status, 'disabled', { lang: 'en' }).text()).toBe('Disabled');
  });

  it('the amount marked for it shows its Chinese capitals under it, not in a list cell', () => {
    expect(show(demand.fieldMap.totalAmount, 1234.5).text()).toBe('1,234.50大写:壹仟贰佰叁拾肆元伍角整');
    expect(show(demand.fieldMap.totalAmount, 1234.5, { compact: true }).text()).toBe('1,234.50');
    expect(show(line.amount, 1234.5).text()).toBe('1,234.50');
  });

  it('empty values: a dash, or blank in list cells', () => {
    expect(show(demand.fieldMap.title, null).text()).toBe('—');
    expect(show(demand.fieldMap.title, '', { empty: '' }).text()).toBe('');
  });

  it('dictionary values show their label in the user language', async () => {
    const { text } = show(entities.project.fieldMap.projectType, 'municipal');
    await waitFor(() => expect(text()).toBe('市政'));
  });

  it('references show the referenced record title, several of them joined', async () => {
    const http = createFakeHttp(catalog(), { rows: 3 });
    const [a, b] = http.tables.get('role')!;
    renderWithApi(
      <div data-testid="roles">
        <FieldDisplay field={entities.user.fieldMap.roleId} value={`${a.id},${b.id}`} />
      </div>,
      { http },
    );
    await waitFor(() => expect(screen.getByTestId('roles').textContent).toBe(`${a.roleName}、${b.roleName}`));
    expect(http.calls.filter((c) => c.url.endsWith('/options'))).toHaveLength(1);
  });

  it('labels handed in are used without a request; an unknown reference shows its id', async () => {
    const { http, text } = show(demand.fieldMap.projectId, '42');
    await waitFor(() => expect(text()).toBe('42'));
    const requests = http.calls.length;
    const view = renderWithApi(
      <div data-testid="given">
        <FieldDisplay field={demand.fieldMap.projectId} value="42" labels={{ 42: '一号楼' }} />
      </div>,
      { http },
    );
    expect(view.getByTestId('given').textContent).toBe('一号楼');
    expect(http.calls).toHaveLength(requests);
  });
});
