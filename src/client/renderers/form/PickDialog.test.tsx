// @vitest-environment happy-dom
// Picking rows from another document's lines (x-detail.pickFrom) as a clerk does it: the monthly
// demand's "从采购合同选择" lists the selected contract's lines, ticked lines become rows with
// the mapped values, lines already added are marked and cannot be added twice, and the save sends
// each row with the id of its contract line.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalog } from '../catalog.ts';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { TestProviders } from '../testing/providers.tsx';
import { EntityForm } from './EntityForm.tsx';
import { rowFromLine } from './PickDialog.tsx';

afterEach(cleanup);

const model = catalog().entities.materialMonthlyDemand;
const byContract = model.details[0].pickFrom.find((p) => p.rowId === 'contractDetailId')!;

/** A fake API whose first expense contract has two priced material lines. */
function withContract(): { http: FakeHttp; contract: Record<string, any> } {
  const http = createFakeHttp(catalog());
  const contract = http.tables.get('expenditureContract')![0];
  const [rebar, cement] = http.tables.get('goodsArchives')!;
  contract.details = [
    {
      id: '7000001',
      goodsId: rebar.id,
      goodsCode: 'WZ-GJ-001',
      goodsName: '螺纹钢',
      spec: 'HRB400 Φ25',
      unit: 't',
      quantity: 500,
      priceInclTax: 4150,
      taxRate: 13,
      amountInclTax: 2075000,
    },
    {
      id: '7000002',
      goodsId: cement.id,
      goodsCode: 'WZ-SN-001',
      goodsName: '水泥',
      spec: 'P.O 42.5',
      unit: 't',
      quantity: 80,
      priceInclTax: 520,
      taxRate: 13,
      amountInclTax: 41600,
    },
  ];
  return { http, contract };
}

function open(http: FakeHttp, initial: Record<string, unknown>, lang?: 'zh' | 'en', form = model) {
  render(
    <TestProviders http={http} lang={lang}>
      <EntityForm model={form} mode="create" initial={initial} onDone={vi.fn()} />
    </TestProviders>,
  );
}

const pickButton = () => screen.findByRole('button', { name: /从采购合同选择/ });
const dialog = () => screen.findByRole('dialog');
const rowCount = () => screen.getByText(/共 \d+ 行/).textContent;

describe('picking rows from the selected contract', () => {
  it('maps a line to a row: the mapped fields and the line id', () => {
    expect(rowFromLine(byContract, { id: '9', goodsId: '5', goodsName: '螺纹钢', priceInclTax: 4150, quantity: 500, spec: null })).toEqual({
      contractDetailId: '9',
      goodsId: '5',
      goodsName: '螺纹钢',
      price: 4150,
    });
  });

  it('is disabled until a contract is selected, and says what to choose', async () => {
    open(createFakeHttp(catalog()), {});
    const button = await pickButton();
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('title')).toBe('请先选择采购合同');
  });

  it('lists the contract lines, adds the ticked ones as rows and marks them as added', async () => {
    const { http, contract } = withContract();
    open(http, { expenditureContractCode: contract.code });
    fireEvent.click(await pickButton());
    const box = within(await dialog());
    expect(await box.findByText('螺纹钢')).toBeTruthy();
    expect(box.getByText('水泥')).toBeTruthy();
    expect(box.getByText('HRB400 Φ25')).toBeTruthy();
    expect(box.getByRole('columnheader', { name: '合同数量' })).toBeTruthy();
    expect(
      http.calls.some((c) => c.url.endsWith('/expenditureContract/detail') && (c.params as Record<string, string>)?.code === contract.code),
    ).toBe(true);
    // nothing ticked: nothing to add
    expect(box.getByRole('button', { name: /添加所选\(0\)/ }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(box.getByRole('checkbox', { name: '选择第1条' }));
    fireEvent.click(box.getByRole('button', { name: /添加所选\(1\)/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(rowCount()).toBe('共 1 行');
    const grid = document.querySelector('.zs-detail-grid') as HTMLElement;
    expect(within(grid).getByText('HRB400 Φ25')).toBeTruthy();
    expect((document.getElementById('root_details_0_price') as HTMLInputElement).value).toBe('4,150.0000');

    // again: the added line is marked and cannot be ticked, the other one can
    fireEvent.click(await pickButton());
    const again = within(await dialog());
    expect(await again.findByText('已添加')).toBeTruthy();
    expect(again.getByRole('checkbox', { name: '选择第1条' }).hasAttribute('disabled')).toBe(true);
    expect(again.getByRole('checkbox', { name: '选择第2条' }).hasAttribute('disabled')).toBe(false);
  });

  it('saves each picked row with the id of its contract line', async () => {
    const { http, contract } = withContract();
    const [project] = http.tables.get('project')!;
    const [plan] = http.tables.get('materialTotalDemand')!;
    open(http, {
      projectId: project.id,
      materialTotalDemandId: plan.id,
      expenditureContractCode: contract.code,
      period: '2026-05',
      compilerName: '张伟',
    });
    fireEvent.click(await pickButton());
    const box = within(await dialog());
    await box.findByText('螺纹钢');
    fireEvent.click(box.getByRole('checkbox', { name: '选择第1条' }));
    fireEvent.click(box.getByRole('checkbox', { name: '选择第2条' }));
    fireEvent.click(box.getByRole('button', { name: /添加所选\(2\)/ }));
    await waitFor(() => expect(rowCount()).toBe('共 2 行'));
    fireEvent.change(document.getElementById('root_details_0_demandQty')!, { target: { value: '120' } });
    fireEvent.change(document.getElementById('root_details_1_demandQty')!, { target: { value: '8' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    // the save, not the warnings preview the form asks for as it is typed
    const isSave = (c: (typeof http.calls)[number]) => c.method === 'post' && c.url.endsWith('/save');
    await waitFor(() => expect(http.calls.some(isSave)).toBe(true));
    const body = http.calls.find(isSave)!.body as { details: Record<string, unknown>[]; totalAmount: number };
    expect(body.details).toMatchObject([
      { contractDetailId: '7000001', goodsId: contract.details[0].goodsId, price: 4150, demandQty: 120, amount: 498000 },
      { contractDetailId: '7000002', goodsId: contract.details[1].goodsId, price: 520, demandQty: 8, amount: 4160 },
    ]);
    expect(body.totalAmount).toBe(502160);
  });

  it("lets a line be picked again where rows are told apart by another field (a settlement's receiving check)", async () => {
    const { http, contract } = withContract();
    open(http, { expenditureContractCode: contract.code }, 'zh', catalog().entities.materialMonthlySettlement);
    for (const round of [1, 2]) {
      fireEvent.click(await pickButton());
      const box = within(await dialog());
      await box.findByText('螺纹钢');
      if (round === 2) expect(box.getByText('已添加')).toBeTruthy();
      const first = box.getByRole('checkbox', { name: '选择第1条' });
      expect(first.hasAttribute('disabled')).toBe(false);
      fireEvent.click(first);
      fireEvent.click(box.getByRole('button', { name: /添加所选\(1\)/ }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
    expect(rowCount()).toBe('共 2 行');
  });

  it('speaks English', async () => {
    const { http, contract } = withContract();
    open(http, { expenditureContractCode: contract.code }, 'en');
    fireEvent.click(await screen.findByRole('button', { name: /Pick from Purchase contract/ }));
    const box = within(await dialog());
    expect(await box.findByRole('columnheader', { name: 'Contract quantity' })).toBeTruthy();
    expect(box.getByRole('button', { name: /Add selected \(0\)/ })).toBeTruthy();
  });
});
