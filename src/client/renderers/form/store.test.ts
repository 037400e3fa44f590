// The form's record outside React: a picked reference's snapshot fields are in place before the
// formulas run, so what the form shows is what the server will store.
import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { FormStore } from './store.ts';

const settlement = catalog().entities.equipmentLeaseMonthlySettlement;

describe('FormStore: snapshot copies before formulas', () => {
  it('a picked contract’s current amount feeds the cumulative share at once; clearing the pick empties it', () => {
    const store = new FormStore(settlement, {
      previousCumulativeAmount: 30000,
      details: [{ equipmentName: 'QTZ80 塔吊', leaseMode: 'month', quantity: 1, billedQty: 1, unitPrice: 20000, taxRate: 9 }],
    });
    expect(store.totals().cumulativeRatio).toBe(0);
    store.pickHeader('expenditureContractCode', { code: 'ZCHT-202603-0001', contractAmount: 200000, currentAmount: 250000 });
    expect(store.header).toMatchObject({ contractAmount: 200000, currentContractAmount: 250000 });
    expect(store.totals()).toMatchObject({ thisAmountInclTax: 20000, cumulativeAmount: 50000, cumulativeRatio: 20 });
    expect(store.record()).toMatchObject({ currentContractAmount: 250000, cumulativeRatio: 20 });
    store.pickHeader('expenditureContractCode', null);
    expect(store.header.currentContractAmount).toBeUndefined();
    expect(store.totals().cumulativeRatio).toBe(0);
  });

  it('a field without snapshot copies changes nothing when picked', () => {
    const store = new FormStore(settlement, { projectId: '1' });
    store.pickHeader('projectId', { id: '2', name: '另一个项目' });
    expect(store.header).toEqual({ projectId: '1' });
  });
});
