// @vitest-environment happy-dom
// Filling a form from a server route (x-layout.fill): the monthly stock report generated from the
// ledger (a record) and a stocktake's book lines (rows of one detail). The button waits for the
// header values it sends, and asks before it replaces rows already there.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntityModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { createFakeHttp } from '../testing/fake-http.ts';
import { TestProviders } from '../testing/providers.tsx';
import { EntityForm } from './EntityForm.tsx';

afterEach(cleanup);

const report = catalog().entities.materialSituation;
const stocktake = catalog().entities.materialInventory;

function open(model: EntityModel, initial: Record<string, unknown>, route: string, reply: unknown, lang: 'zh' | 'en' = 'zh') {
  const fake = createFakeHttp(catalog());
  const asked: Record<string, unknown>[] = [];
  const http = {
    ...fake,
    get: (async (url: string, params?: Record<string, unknown>) => {
      if (url === `${model.api}/${route}`) {
        asked.push(params ?? {});
        return reply;
      }
      return fake.get(url, params as never);
    }) as typeof fake.get,
  };
  render(
    <TestProviders http={http} lang={lang}>
      <EntityForm model={model} mode="create" initial={initial} onDone={vi.fn()} />
    </TestProviders>,
  );
  return { asked };
}

const rows = () => document.querySelectorAll('.zs-grid-row').length;
const line = (goodsId: string, goodsName: string, openingQty: number) => ({
  goodsId,
  goodsCode: `G${goodsId}`,
  goodsName,
  spec: 'Φ25',
  unit: 't',
  openingQty,
  openingAmount: openingQty * 4000,
  consumedQty: 0,
  transferOutQty: 0,
});

describe('a form filled from a server route', () => {
  it('generates a monthly report from the ledger once project, warehouse and period are there', async () => {
    const generated = {
      projectId: '11',
      warehouseId: '21',
      period: '2026-05',
      openingAmount: 600000,
      details: [line('31', '螺纹钢', 100), line('32', '盘圆', 50)],
    };
    const { asked } = open(report, { projectId: '11', warehouseId: '21', period: '2026-05' }, 'generate', generated);
    fireEvent.click(await screen.findByRole('button', { name: '从台账生成' }));
    await waitFor(() => expect(rows()).toBe(2));
    expect(asked).toEqual([{ projectId: '11', warehouseId: '21', period: '2026-05' }]);
    expect(await screen.findByText('已填入 2 行,请核对后保存')).toBeTruthy();
    expect(document.body.textContent).toContain('螺纹钢');
  });

  it('stays disabled and says what is missing while the period is empty, in English', async () => {
    const { asked } = open(report, { projectId: '11', warehouseId: '21' }, 'generate', {}, 'en');
    const button = (await screen.findByRole('button', { name: 'Generate from the ledger' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('Fill in first: Period');
    fireEvent.click(button);
    expect(asked).toEqual([]);
  });

  it("asks before a stocktake's book lines replace the rows already entered, and sends the date as `date`", async () => {
    const book = [
      { goodsId: '31', goodsCode: 'G31', goodsName: '螺纹钢', spec: 'Φ25', unit: 't', bookQty: 80, price: 4000, bookAmount: 320000 },
    ];
    const entered = { goodsId: '32', goodsName: '盘圆', countQty: 5 };
    const { asked } = open(
      stocktake,
      { projectId: '11', warehouseId: '21', inventoryDate: '2026-06-30', details: [entered, entered] },
      'book',
      book,
    );
    await waitFor(() => expect(rows()).toBe(2));
    fireEvent.click(await screen.findByRole('button', { name: '带出账面库存' }));
    expect(await screen.findByText('将替换现有的 2 行明细,继续?')).toBeTruthy();
    expect(asked).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(rows()).toBe(1));
    expect(asked).toEqual([{ projectId: '11', warehouseId: '21', date: '2026-06-30' }]);
    expect(document.body.textContent).toContain('螺纹钢');
    expect(document.body.textContent).not.toContain('盘圆');
  });

  it('drops the grid\'s "no rows" message once a fill brings rows (it came back stale until the next save)', async () => {
    const book = [
      { goodsId: '31', goodsCode: 'G31', goodsName: '螺纹钢', spec: 'Φ25', unit: 't', bookQty: 80, price: 4000, bookAmount: 320000 },
    ];
    open(stocktake, { projectId: '11', warehouseId: '21', inventoryDate: '2026-06-30' }, 'book', book);
    fireEvent.click(await screen.findByRole('button', { name: /保\s*存/ }));
    const noRows = await screen.findByText(/至少需要1行/);
    fireEvent.click(screen.getByRole('button', { name: '带出账面库存' }));
    await waitFor(() => expect(rows()).toBe(1));
    expect(noRows.isConnected && document.body.textContent?.includes('至少需要1行')).toBe(false);
  });
});
