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

  it('a picked contract brings its party and terms, and its payment ratio and retention rate drive the payable at once', () => {
    const store = new FormStore(settlement, {
      paymentRatio: 100,
      details: [{ equipmentName: 'QTZ80 塔吊', leaseMode: 'month', quantity: 1, billedQty: 1, unitPrice: 20000, taxRate: 9 }],
    });
    expect(store.totals().thisPayableAmount).toBe(20000);
    store.pickHeader('expenditureContractCode', { code: 'ZCHT-1', subcontractorId: '7', taxRate: 9, paymentRatio: 80, retentionRate: 3 });
    expect(store.header).toMatchObject({ subcontractorId: '7', taxRate: 9, paymentRatio: 80, retentionRate: 3 });
    // 20,000 × 80 % − 3 % of the lines (600)
    expect(store.totals()).toMatchObject({ retentionAmount: 600, thisPayableAmount: 15400 });
  });

  it('a field without snapshot copies changes nothing when picked', () => {
    const store = new FormStore(settlement, { projectId: '1' });
    store.pickHeader('projectId', { id: '2', name: '另一个项目' });
    expect(store.header).toEqual({ projectId: '1' });
  });
});

describe('FormStore: rows reading the header and their sibling rows', () => {
  const turnover = catalog().entities.materialTurnoverMonthlySettlement;
  const material = catalog().entities.materialMonthlySettlement;

  it('a changed settlement period or header tax rate recomputes the rows at once; a typed value stays', () => {
    const store = new FormStore(turnover, { startDate: '2026-06-01', endDate: '2026-06-30', rentDayRule: 'both', taxRate: 9, details: [] });
    const auto = store.addRow('details');
    store.setCell('details', auto, 'openingQty', 100);
    store.setCell('details', auto, 'dailyRate', 0.02);
    const typed = store.addRow('details');
    store.setCell('details', typed, 'openingQty', 100);
    store.setCell('details', typed, 'qtyDays', 1500);
    let notified = 0;
    store.subscribe(`row:details:${auto}`, () => notified++);
    expect(store.row('details', auto)).toMatchObject({ qtyDays: 3000, rentAmount: 60, taxRate: 9 });

    store.setHeader({ ...store.header, endDate: '2026-06-15', taxRate: 13 });
    expect(notified).toBeGreaterThan(0);
    expect(store.row('details', auto)).toMatchObject({ qtyDays: 1500, rentAmount: 30, taxRate: 13 });
    expect(store.row('details', typed).qtyDays).toBe(1500);
    expect(store.record()).toMatchObject({ periodDays: 15, rentAmount: 30 });
  });

  it('a typed quantity on one row of a goods moves the cumulative on every row of that goods', () => {
    const row = (check: string, goodsId: string, thisQty: number) => ({
      materialCheckId: check,
      goodsId,
      thisQty,
      thisPrice: 10,
      previousCumulativeQty: 5,
      previousCumulativeAmount: 50,
    });
    const store = new FormStore(material, { details: [row('1', 'g1', 1), row('2', 'g2', 2), row('3', 'g1', 3)] });
    const [first, other, third] = store.keys('details');
    expect([first, other, third].map((k) => store.row('details', k).cumulativeQty)).toEqual([9, 7, 9]);
    let notified = 0;
    store.subscribe(`row:details:${third}`, () => notified++);
    store.setCell('details', first, 'thisQty', 4);
    expect(notified).toBeGreaterThan(0);
    expect([first, other, third].map((k) => store.row('details', k).cumulativeAmount)).toEqual([120, 70, 120]);
    store.removeRows('details', [first]);
    expect(store.row('details', third).cumulativeQty).toBe(8);
  });
});
