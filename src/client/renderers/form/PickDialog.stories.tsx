// Picking rows from another document's lines (x-detail.pickFrom): the monthly demand page with its
// "从采购合同选择" and "从材料总需用计划选择" buttons (a contract and a plan already selected), the
// dialog itself with one line already added, and the page before a contract is chosen.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, type ReactNode } from 'react';
import { catalog } from '../catalog.ts';
import { HttpProvider } from '../http-context.tsx';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { FormPage } from './FormPage.tsx';
import { PickDialog, rowFromLine } from './PickDialog.tsx';
import { FormStore } from './store.ts';

const entities = catalog().entities;
const demand = entities.materialMonthlyDemand;
const byContract = demand.details[0].pickFrom.find((p) => p.rowId === 'contractDetailId')!;

const LINES = [
  ['WZ-GJ-001', '螺纹钢', 'HRB400 Φ25', 't', 500, 4150],
  ['WZ-GJ-002', '螺纹钢', 'HRB400 Φ18', 't', 320, 4210],
  ['WZ-GJ-010', '盘螺', 'HRB400 Φ8', 't', 96, 4380],
  ['WZ-SN-001', '水泥', 'P.O 42.5', 't', 80, 520],
] as const;

/** The fake API's first expense contract, priced like a steel purchase contract. */
function withContractLines(http: FakeHttp) {
  const contract = http.tables.get('expenditureContract')![0];
  const goods = http.tables.get('goodsArchives')!;
  contract.name = '人才公寓二期钢筋采购合同';
  contract.details = LINES.map(([code, name, spec, unit, quantity, price], i) => ({
    id: String(7_000_001 + i),
    goodsId: goods[i % goods.length].id,
    goodsCode: code,
    goodsName: name,
    spec,
    unit,
    quantity,
    priceInclTax: price,
    taxRate: 13,
    priceExclTax: Math.round((price / 1.13) * 10000) / 10000,
    amountInclTax: quantity * price,
    sortNo: i + 1,
  }));
  return contract;
}

function WithContract({ children }: { children: (http: FakeHttp, contract: Record<string, any>) => ReactNode }) {
  const [state] = useState(() => {
    const http = createFakeHttp(catalog());
    return { http, contract: withContractLines(http) };
  });
  return <HttpProvider value={state.http}>{children(state.http, state.contract)}</HttpProvider>;
}

function DemandPage({ chosen }: { chosen: boolean }) {
  return (
    <WithContract>
      {(http, contract) => {
        const initial = chosen
          ? {
              projectId: http.tables.get('project')![0].id,
              materialTotalDemandId: http.tables.get('materialTotalDemand')![0].id,
              expenditureContractCode: contract.code,
              period: '2026-05',
              compilerName: '张伟',
            }
          : {};
        return <FormPage model={demand} mode="create" initial={initial} onClose={() => undefined} />;
      }}
    </WithContract>
  );
}

function OpenDialog() {
  return (
    <WithContract>
      {(_http, contract) => {
        const store = new FormStore(demand, {
          expenditureContractCode: contract.code,
          details: [rowFromLine(byContract, contract.details[0])],
        });
        return <PickDialog store={store} detail="details" pick={byContract} open onClose={() => undefined} />;
      }}
    </WithContract>
  );
}

const meta: Meta = { title: 'Renderers/Pick rows from another document' };
export default meta;
type Story = StoryObj;

export const MonthlyDemandWithContract: Story = { render: () => <DemandPage chosen /> };
export const DialogWithOneLineAdded: Story = { render: () => <OpenDialog /> };
export const NoContractChosenYet: Story = { render: () => <DemandPage chosen={false} /> };
