// A new subcontract settlement pre-filled by the cumulative query (x-cumulative): two months
// approved before, the third one being filled in; and the same with another settlement of the
// contract still in approval. The in-memory API answers the cumulative call.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import type { CumulativeAnswer } from '../../engine/cumulative/cumulative.ts';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { HttpProvider } from '../../../../client/renderers/http-context.tsx';
import { createFakeHttp } from '../../../../client/renderers/testing/fake-http.ts';
import { EntityForm } from '../../../../client/renderers/form/EntityForm.tsx';

const model = catalog().entities.subcontractMonthlySettlement;
const keys = { projectId: '1001', expenditureContractCode: 'ZCHT-202604-0001', subcontractorId: '1002' };
const answer: CumulativeAnswer = {
  keys,
  period: '2026-07',
  lastApprovedPeriod: '2026-06',
  approving: null,
  contract: { code: keys.expenditureContractCode, currentAmount: 330000 },
  header: { previousCumulativeAmount: 105000, previousCumulativePayable: 80850 },
  totals: { thisAmountInclTax: 105000, retentionAmount: 3150 },
  lines: [
    {
      key: { itemCode: '010101' },
      previous: { previousCumulativeQty: 500, previousCumulativeAmount: 15000 },
      contractQty: 1000,
      remainingQty: 500,
    },
    {
      key: { itemCode: '010502' },
      previous: { previousCumulativeQty: 150, previousCumulativeAmount: 90000 },
      contractQty: 500,
      remainingQty: 350,
    },
  ],
};
const rows = [
  { itemCode: '010101', itemName: '土方开挖', unit: 'm3', contractQty: 1000, thisQty: 100, thisPrice: 30, taxRate: 9 },
  { itemCode: '010502', itemName: 'C30混凝土浇筑', unit: 'm3', contractQty: 500, thisQty: 20, thisPrice: 600, taxRate: 9 },
];

function Settlement({ reply }: { reply: CumulativeAnswer }) {
  const [http] = useState(() => {
    const fake = createFakeHttp(catalog());
    return {
      ...fake,
      get: (async (url: string, params?: never) => (url === `${model.api}/cumulative` ? reply : fake.get(url, params))) as typeof fake.get,
    };
  });
  return (
    <HttpProvider value={http}>
      <EntityForm
        model={model}
        mode="create"
        initial={{ ...keys, period: '2026-07', taxRate: 9, paymentRatio: 80, retentionRate: 3, details: rows }}
        onDone={() => undefined}
      />
    </HttpProvider>
  );
}

const meta: Meta = { title: 'Renderers/EntityForm/Cumulatives' };
export default meta;
type Story = StoryObj;

export const ThirdMonthPrefilled: Story = { render: () => <Settlement reply={answer} /> };
export const AnotherInApproval: Story = {
  render: () => <Settlement reply={{ ...answer, approving: { id: '9', code: 'FBJS-202607-0001' } }} />,
};
