// The detail view of a material total demand with its lines (labels, totals, the plan amount in
// Chinese capitals, audit fields), while loading, and when the record cannot be loaded.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { catalog } from '../catalog.ts';
import { useState } from 'react';
import { FakeApi } from '../displays/FakeApi.tsx';
import { createFakeHttp, type FakeHttp, type FakeHttpOptions } from '../testing/fake-http.ts';
import { EntityDetail } from './EntityDetail.tsx';

const demand = catalog().entities.materialTotalDemand;

/** The first demand gets eight lines of different goods, quantities and amounts, and a known author. */
function withLines(http: FakeHttp) {
  const record = http.tables.get('materialTotalDemand')![0];
  const goods = http.tables.get('goodsArchives')!;
  const users = http.tables.get('user')!;
  let total = 0;
  const lines = goods.slice(0, 8).map((g, i) => {
    const designQty = 12.5 * (i + 3);
    const demandQty = Math.round(designQty * 1.02 * 10000) / 10000;
    const price = 350 + i * 215.5;
    const amount = Math.round(demandQty * price * 100) / 100;
    total += amount;
    return {
      id: `${record.id}${i}`,
      sortNo: i + 1,
      goodsId: g.id,
      goodsCode: g.code,
      goodsName: g.name,
      spec: g.spec,
      unit: g.unit,
      workPart: ['基础', '主体', '屋面', '二次结构'][i % 4],
      designQty,
      lossRate: 2,
      demandQty,
      changeQty: 0,
      effectiveQty: demandQty,
      budgetPrice: price,
      amount,
      plannedStartMonth: '2026-04',
      plannedEndMonth: '2026-09',
    };
  });
  Object.assign(record, {
    details: lines,
    totalAmount: Math.round(total * 100) / 100,
    createUser: users[0].id,
    updateUser: users[1].id,
    updateTime: '2026-03-16 10:20:00',
    basis: '施工图、预算书',
    remark: '按施工进度分批进场',
  });
}

function DetailStory({ api }: { api?: FakeHttpOptions }) {
  const [http] = useState(() => {
    const fake = createFakeHttp(catalog(), api);
    withLines(fake);
    return fake;
  });
  return (
    <FakeApi http={http}>
      <EntityDetail model={demand} id={http.tables.get('materialTotalDemand')![0].id} />
    </FakeApi>
  );
}

const meta: Meta<typeof DetailStory> = { title: 'Renderers/EntityDetail', component: DetailStory, parameters: { layout: 'padded' } };
export default meta;
type Story = StoryObj<typeof DetailStory>;

export const MaterialTotalDemandWithLines: Story = {};
export const Loading: Story = { args: { api: { hang: true } } };
export const LoadError: Story = { name: 'Error', args: { api: { failWith: '数据不存在' } } };
