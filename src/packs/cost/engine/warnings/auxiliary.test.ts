import { describe, expect, it } from 'vitest';
import type { EntityModel } from '../../../../engine/model/types.ts';
import { auxiliaryKind, hasWarningRules } from './auxiliary.ts';

/** A document type with roles and header fields (a workflow when it has fields: settlements need one). */
const model = (roles: string[], fields: string[] = []) =>
  ({
    key: 'doc',
    roles,
    fieldMap: Object.fromEntries(fields.map((f) => [f, {}])),
    workflow: fields.length ? { prefix: 'doc' } : undefined,
  }) as unknown as EntityModel;

describe('the documents with early warnings, by role', () => {
  it('gives the figures query of plans, expense contracts and settlements', () => {
    expect(auxiliaryKind(model(['demand.total']))).toBe('demand');
    expect(auxiliaryKind(model(['demand.monthly']))).toBe('demand');
    expect(auxiliaryKind(model(['contract.expense']))).toBe('contract');
    // a monthly settlement by its role, once it has an approval workflow; never by its fields' names
    expect(auxiliaryKind(model(['settlement.cost'], ['period']))).toBe('settlement');
    expect(auxiliaryKind(model(['settlement.cost']))).toBeUndefined();
    expect(
      auxiliaryKind(model([], ['projectId', 'expenditureContractCode', 'period', 'thisAmountInclTax', 'cumulativeAmount'])),
    ).toBeUndefined();
    expect(auxiliaryKind(model(['stock.receipt']))).toBeUndefined();
  });

  it('shows recorded warnings on every document the rules check, not on the total plan they are checked against', () => {
    for (const role of [
      'demand.monthly',
      'contract.expense',
      'procurement.monthly',
      'supply.batch',
      'stock.receipt',
      'stock.voucher',
      'stock.count',
      'stock.monthlyReport',
    ]) {
      expect(hasWarningRules(model([role])), role).toBe(true);
    }
    expect(hasWarningRules(model(['demand.total']))).toBe(false);
    expect(hasWarningRules(model(['master.goods']))).toBe(false);
  });
});
