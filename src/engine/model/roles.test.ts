import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import {
  entitiesWithRole,
  entityWithRole,
  fieldsWithRoles,
  fieldWithRole,
  hasRole,
  linesWithRoles,
  optionalEntityWithRole,
} from './roles.ts';
import type { EntityCatalog, EntityModel } from './types.ts';

const model = (key: string, roles: string[]) => ({ key, roles }) as unknown as EntityModel;
const catalogOf = (...models: EntityModel[]) =>
  ({ entities: Object.fromEntries(models.map((m) => [m.key, m])), dictionaries: [], documents: {} }) as EntityCatalog;

describe('entity roles', () => {
  const receipt = model('receiving', ['stock.receipt']);
  const leaseA = model('leaseA', ['settlement.lease']);
  const leaseB = model('leaseB', ['settlement.lease', 'settlement.monthly']);
  const catalog = catalogOf(receipt, leaseA, leaseB, model('plain', []));

  it('finds the documents of a role in manifest order', () => {
    expect(entitiesWithRole(catalog, 'settlement.lease').map((m) => m.key)).toEqual(['leaseA', 'leaseB']);
    expect(entitiesWithRole(catalog, 'stock.count')).toEqual([]);
    expect(hasRole(leaseB, 'settlement.monthly')).toBe(true);
    expect(hasRole(receipt, 'settlement.monthly')).toBe(false);
  });

  it('answers the one document of a single role', () => {
    expect(entityWithRole(catalog, 'stock.receipt')).toBe(receipt);
    expect(optionalEntityWithRole(catalog, 'stock.receipt')).toBe(receipt);
    expect(optionalEntityWithRole(catalog, 'stock.count')).toBeUndefined();
  });

  it('names the role when it is missing or taken twice', () => {
    expect(() => entityWithRole(catalog, 'stock.count')).toThrow('exactly one entity must declare x-entity.roles "stock.count"; none does');
    expect(() => entityWithRole(catalog, 'settlement.lease')).toThrow('2 entities (leaseA, leaseB)');
  });
});

describe('field roles', () => {
  const { entities } = compiledSchemaSet().catalog;
  const receipt = entities.materialCheck;

  it('finds a declared field role, and a reference by the role of the document it refers to', () => {
    expect(fieldWithRole(entities, receipt, 'date')?.name).toBe('checkDate');
    expect(fieldWithRole(entities, receipt, 'master.project')?.name).toBe('projectId');
    expect(fieldWithRole(entities, receipt, 'contract.expense')?.name).toBe('expenditureContractCode');
    expect(fieldWithRole(entities, receipt, 'master.counterparty')?.name).toBe('subcontractorId');
    expect(fieldWithRole(entities, receipt, 'quantity')).toBeUndefined();
  });

  it('binds the field roles a rule needs, or refuses naming the document, its role and the field role', () => {
    expect(fieldsWithRoles(entities, receipt, 'stock.receipt', ['date', 'master.project']).date.name).toBe('checkDate');
    expect(() => fieldsWithRoles(entities, receipt, 'stock.receipt', ['date', 'discount'])).toThrow(
      'materialCheck plays "stock.receipt" but it has no field playing "discount" (x-entity.fieldRoles)',
    );
  });

  it("binds the rows of the detail that carries a rule's line roles", () => {
    const lines = linesWithRoles(entities, receipt, 'stock.receipt', ['master.goods']);
    expect([lines.detail.name, lines.fields['master.goods'].name]).toEqual(['details', 'goodsId']);
    expect(() => linesWithRoles(entities, receipt, 'stock.receipt', ['master.goods', 'discount'])).toThrow(
      'materialCheck plays "stock.receipt" but no detail of it has rows with fields playing "master.goods", "discount" (x-detail.fieldRoles)',
    );
  });
});
