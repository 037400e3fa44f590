// Forms filled from a server route (x-layout.fill): a new monthly stock report whose 从台账生成
// answers two goods from the ledger, and a stocktake with a line already entered, whose 带出账面库存
// asks before replacing it. The in-memory API answers both routes.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { HttpProvider } from '../http-context.tsx';
import { createFakeHttp } from '../testing/fake-http.ts';
import { EntityForm } from './EntityForm.tsx';

const report = catalog().entities.materialSituation;
const stocktake = catalog().entities.materialInventory;
const goods = (goodsId: string, goodsName: string, spec: string) => ({ goodsId, goodsCode: `WZ-${goodsId}`, goodsName, spec, unit: 't' });

const generated = {
  projectId: '1001',
  warehouseId: '2001',
  period: '2026-05',
  details: [
    {
      ...goods('31', '螺纹钢', 'HRB400 Φ25'),
      openingQty: 120,
      openingAmount: 480000,
      selfPurchaseQty: 60,
      receivedAmount: 246000,
      consumedQty: 0,
      transferOutQty: 0,
    },
    { ...goods('32', '盘圆', 'HPB300 Φ8'), openingQty: 40, openingAmount: 156000, consumedQty: 0, transferOutQty: 0 },
  ],
};
const book = [
  { ...goods('31', '螺纹钢', 'HRB400 Φ25'), bookQty: 80, price: 4033.3333, bookAmount: 322666.66 },
  { ...goods('32', '盘圆', 'HPB300 Φ8'), bookQty: 40, price: 3900, bookAmount: 156000 },
];

function Filled({ model, route, reply, initial }: { model: EntityModel; route: string; reply: unknown; initial: Record<string, unknown> }) {
  const [http] = useState(() => {
    const fake = createFakeHttp(catalog());
    return {
      ...fake,
      get: (async (url: string, params?: never) => (url === `${model.api}/${route}` ? reply : fake.get(url, params))) as typeof fake.get,
    };
  });
  return (
    <HttpProvider value={http}>
      <EntityForm model={model} mode="create" initial={initial} onDone={() => undefined} />
    </HttpProvider>
  );
}

const meta: Meta = { title: 'Renderers/EntityForm/Fill from the server' };
export default meta;
type Story = StoryObj;

export const MonthlyReportFromTheLedger: Story = {
  render: () => (
    <Filled
      model={report}
      route="generate"
      reply={generated}
      initial={{ projectId: '1001', warehouseId: '2001', period: '2026-05', compilerName: '王会计' }}
    />
  ),
};
export const StocktakeReplacingItsLine: Story = {
  render: () => (
    <Filled
      model={stocktake}
      route="book"
      reply={book}
      initial={{
        projectId: '1001',
        warehouseId: '2001',
        inventoryDate: '2026-06-30',
        period: '2026-06',
        details: [{ ...goods('33', '钢板', 'Q235 δ10'), countQty: 5 }],
      }}
    />
  ),
};
