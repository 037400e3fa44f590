import { describe, expect, it } from 'vitest';
import { entitiesWithRole, entityWithRole, hasRole, optionalEntityWithRole } from './roles.ts';
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
