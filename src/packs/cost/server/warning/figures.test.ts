// The early warnings find their documents by role: the product's schemas bind every role they read,
// and a schema set that lacks one, or gives it to two document types, refuses to start naming it.
import { describe, expect, it } from 'vitest';
import type { EntityCatalog, EntityModel } from '../../../../engine/model/types.ts';
import { compiledSchemaSet } from '../../../../../tests/support/schema-set.ts';
import { evaluatorOf, warnedEntities } from './evaluate.ts';
import { OPTIONAL_WARNING_ROLES, warningDocuments, WARNING_ROLES } from './documents.ts';
import { warningHooks } from './hooks.ts';
import type { StoreContext } from '../../../../server/db/store.ts';

const { catalog } = compiledSchemaSet();

/** The catalog with one role moved: taken from the types playing it and given to `to` (if any). */
function moveRole(role: string, to?: string): EntityCatalog {
  const entities = Object.fromEntries(
    Object.entries(catalog.entities).map(([key, m]) => {
      const roles = m.roles.filter((r) => r !== role);
      return [key, { ...m, roles: key === to ? [...m.roles, role] : roles } as EntityModel];
    }),
  );
  return { ...catalog, entities };
}

describe('warning roles', () => {
  it("the product's schemas play every role the warnings read, once", () => {
    const documents = warningDocuments(catalog);
    for (const name of [...Object.keys(WARNING_ROLES), ...Object.keys(OPTIONAL_WARNING_ROLES)])
      expect(documents[name as keyof typeof documents], name).toBeDefined();
    // the documents with rules: plans, procurement, batches, receipts, stocktakes, reports, contracts and the monthly settlements
    const warned = warnedEntities(catalog);
    expect(warned).toEqual(
      expect.arrayContaining([
        documents.monthlyDemand,
        documents.procurement,
        documents.batch,
        documents.contract,
        documents.receipt,
        documents.stocktake,
        documents.monthlyReport,
      ]),
    );
    expect(warned).not.toContain(documents.totalDemand);
    expect(warned.every((m) => evaluatorOf(m))).toBe(true);
  });

  it('a schema set without a required role, or with it twice, refuses to start naming the role', () => {
    const ctx = (c: EntityCatalog) => ({ catalog: c }) as StoreContext;
    expect(() => warningHooks(ctx(moveRole('demand.total')))).toThrow(
      'exactly one entity must declare x-entity.roles "demand.total"; none does',
    );
    // the procurement plays the batches' role too
    const moved = moveRole('supply.batch', warningDocuments(catalog).procurement.key);
    const batch = warningDocuments(catalog).batch;
    const twice = { ...moved, entities: { ...moved.entities, [batch.key]: batch } };
    expect(() => warningDocuments(twice)).toThrow('x-entity.roles "supply.batch"; 2 entities');
  });

  it('an optional role left out takes its rules away, nothing else', () => {
    const without = moveRole('stock.count');
    expect(warningDocuments(without).stocktake).toBeUndefined();
    expect(warnedEntities(without).map((m) => m.key)).not.toContain(warningDocuments(catalog).stocktake!.key);
  });
});
