// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { renderWithApi } from '../testing/providers.tsx';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { EntityDetail } from './EntityDetail.tsx';

const demand = catalog().entities.materialTotalDemand;

afterEach(cleanup);

/** A demand with three lines of known quantities and amounts, compiled by a known user. */
function demandWithLines(): { http: FakeHttp; id: string } {
  const http = createFakeHttp(catalog(), { rows: 4 });
  const record = http.tables.get('materialTotalDemand')![0];
  const [goodsA, goodsB] = http.tables.get('goodsArchives')!;
  const [user, editor] = http.tables.get('user')!;
  const project = http.tables.get('project')![2];
  const line = (n: number, goods: typeof goodsA, designQty: number, amount: string) => ({
    id: `77${n}`,
    sortNo: n,
    goodsId: goods.id,
    goodsName: goods.name,
    unit: 't',
    designQty,
    demandQty: designQty,
    effectiveQty: designQty,
    budgetPrice: 4000,
    amount,
    lossRate: 2,
  });
  Object.assign(record, {
    projectId: project.id,
    totalAmount: '1234567.80',
    createUser: user.id,
    updateUser: editor.id,
    createTime: '2026-03-15 09:30:00',
    updateTime: '2026-03-16 10:00:00',
    details: [line(1, goodsA, 100.5, '402000.10'), line(2, goodsB, 20.25, '81000.20'), line(3, goodsA, 0.25, '751567.50')],
  });
  return { http, id: record.id };
}

const idle = () => waitFor(() => expect(screen.getByTestId('entity-detail').getAttribute('aria-busy')).toBe('false'));

describe('the detail view of a document', () => {
  it('shows the layout read-only: labels of references, formatted money, the amount in capitals', async () => {
    const { http, id } = demandWithLines();
    renderWithApi(<EntityDetail model={demand} id={id} />, { http });
    await idle();
    expect(http.calls[0]).toMatchObject({ url: '/api/construct/materialTotalDemand/detail', params: { id } });
    expect(screen.getByText('基本信息')).toBeTruthy();
    const cell = (label: string) => screen.getByText(label, { selector: 'th, th *' }).closest('th')!.nextElementSibling as HTMLElement;
    const project = http.tables.get('project')![2];
    await waitFor(() => expect(cell('项目').textContent).toBe(project.name));
    expect(cell('计划金额').textContent).toBe('1,234,567.80大写:壹佰贰拾叁万肆仟伍佰陆拾柒元捌角整');
    expect(cell('编制日期').textContent).toBe('2026/03/15');
  });

  it('lists the detail rows with goods names and a footer of exact totals for quantities and amounts', async () => {
    const { http, id } = demandWithLines();
    renderWithApi(<EntityDetail model={demand} id={id} />, { http });
    await idle();
    const table = screen.getByTestId('detail-rows-details');
    const [goodsA, goodsB] = http.tables.get('goodsArchives')!;
    await waitFor(() => expect(within(table).getAllByText(goodsA.name).length).toBeGreaterThan(0));
    expect(within(table).getAllByText(goodsB.name).length).toBeGreaterThan(0);
    expect(within(table).getByText('合计')).toBeTruthy();
    expect(within(table).getByTestId('total-amount').textContent).toBe('1,234,567.80');
    expect(within(table).getByTestId('total-designQty').textContent).toBe('121');
    expect(within(table).queryByTestId('total-budgetPrice')).toBeNull();
    expect(within(table).queryByTestId('total-lossRate')).toBeNull();
    expect(within(table).getByText('402,000.10')).toBeTruthy();
    expect(http.calls.filter((c) => c.url === '/api/construct/goodsArchives/options')).toHaveLength(1);
  });

  it('shows who created and changed the record, by name', async () => {
    const { http, id } = demandWithLines();
    renderWithApi(<EntityDetail model={demand} id={id} />, { http });
    await idle();
    const audit = screen.getByTestId('detail-audit');
    const [user, editor] = http.tables.get('user')!;
    await waitFor(() => expect(audit.textContent).toContain(labelOfUser(user)));
    expect(audit.textContent).toContain(labelOfUser(editor));
    expect(audit.textContent).toContain('创建时间2026/03/15 09:30:00');
  });

  it('in English, with an error state that retries', async () => {
    const { http, id } = demandWithLines();
    renderWithApi(<EntityDetail model={demand} id={id} />, { http, lang: 'en' });
    await idle();
    expect(screen.getByText('Basic information')).toBeTruthy();
    expect(screen.getByText('Total')).toBeTruthy();
    cleanup();
    const failing = createFakeHttp(catalog(), { rows: 1, failWith: '数据不存在' });
    renderWithApi(<EntityDetail model={demand} id="1" />, { http: failing });
    expect(await screen.findByText('详情加载失败:数据不存在')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(failing.calls.filter((c) => c.url.endsWith('/detail'))).toHaveLength(2));
  });
});

function labelOfUser(user: Record<string, any>): string {
  const titleField = catalog().entities.user.titleField ?? 'id';
  return String(user[titleField]);
}
