import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { refFilters } from './ref-filters.ts';

describe('refFilters: an x-ref filter as the options route’s filters', () => {
  it('a settlement’s contract picker asks for its project’s approved contracts of its kind, not finally settled', () => {
    const field = catalog().entities.subcontractMonthlySettlement.fieldMap.expenditureContractCode;
    expect(refFilters(field, { projectId: '42' })).toEqual({
      projectId_equal: '42',
      expenditureContractType_in: 'subcontract',
      approvalStatus_equal: 'approved',
      settlementStatus_notequal: 'final',
    });
  });

  it('a receipt may take a purchase or a concrete contract', () => {
    const field = catalog().entities.materialReceiveVoucher.fieldMap.expenditureContractCode;
    expect(refFilters(field, { projectId: '42' })).toMatchObject({ expenditureContractType_in: 'material,concrete' });
  });
});
