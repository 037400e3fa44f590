import { describe, expect, it } from 'vitest';
import { readSchemaSource } from '../../server/schema-source.ts';
import { compile } from '../model/compile.ts';
import { fixedTerms, sameTerm, termsOnPick, termsOnSave } from './inherit.ts';

const { catalog } = compile(readSchemaSource(), { validators: 'lazy' });
const settlement = catalog.entities.subcontractMonthlySettlement;
const contractRef = settlement.fieldMap.expenditureContractCode;
const contract = { code: 'ZCHT-1', subcontractorId: '11', taxRate: 9, paymentRatio: 80, retentionRate: 3 };

describe('terms a settlement takes from its contract (x-ref.inherit)', () => {
  it('a pick brings the contract’s party, tax rate, payment ratio and retention rate', () => {
    expect(termsOnPick(contractRef, contract)).toEqual({ subcontractorId: '11', taxRate: 9, paymentRatio: 80, retentionRate: 3 });
  });

  it('a contract without a retention rate empties a fixed term, but leaves an overridable one the document holds', () => {
    const terms = termsOnPick(contractRef, { ...contract, retentionRate: null, paymentRatio: null });
    expect(terms).toMatchObject({ retentionRate: undefined });
    expect(terms).not.toHaveProperty('paymentRatio');
  });

  it('saving fills what the document leaves empty and refuses another party or retention rate', () => {
    const { fill, conflicts } = termsOnSave(
      contractRef,
      contract,
      { subcontractorId: '12', taxRate: 13, retentionRate: '3.00' },
      settlement.fieldMap,
    );
    expect(fill).toEqual({ paymentRatio: 80 });
    // the tax rate may differ (overridable), "3.00" is the contract's 3
    expect(conflicts).toEqual([{ field: 'subcontractorId', ref: 'expenditureContractCode', expected: '11' }]);
  });

  it('a fixed term the contract leaves empty must stay empty', () => {
    const { conflicts } = termsOnSave(contractRef, { ...contract, retentionRate: null }, { retentionRate: 5 }, settlement.fieldMap);
    expect(conflicts).toEqual([{ field: 'retentionRate', ref: 'expenditureContractCode', expected: null }]);
  });

  it('the fixed terms are read-only while a contract is named', () => {
    expect([...fixedTerms(settlement.fields, { expenditureContractCode: 'ZCHT-1' })].sort()).toEqual(['retentionRate', 'subcontractorId']);
    expect(fixedTerms(settlement.fields, { expenditureContractCode: '' }).size).toBe(0);
  });

  it('numbers compare by value, other values by text', () => {
    expect(sameTerm('decimal', '80.00', 80)).toBe(true);
    expect(sameTerm('id', 11, '11')).toBe(true);
    expect(sameTerm('decimal', null, 0)).toBe(true);
    expect(sameTerm('decimal', null, 3)).toBe(false);
    expect(sameTerm('id', null, 0)).toBe(false);
    expect(sameTerm('string', '', undefined)).toBe(true);
  });
});
