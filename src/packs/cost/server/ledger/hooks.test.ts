// The ledger finds its documents by role when the server starts: a schema set that lacks one of the
// roles, or gives it to two document types, refuses to start with the role named, before anything
// is served. The repository's schemas are the fixture, edited in memory, and compiled without the
// linter's checks: those refuse such a set first (a receipt's warehouse reference then plays no
// role, a second monthly report has none of the report's field roles); what is tested here is the
// ledger's own refusal.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../../engine/model/compile.ts';
import type { SchemaSource } from '../../../../engine/model/source.ts';
import type { JsonSchema } from '../../../../engine/model/types.ts';
import type { StoreContext } from '../../../../server/db/store.ts';
import { readSchemaSource } from '../../../../server/schema-source.ts';
import { ledgerHooks } from './hooks.ts';

const source = readSchemaSource();

/** The schema set with each listed entity's x-entity.roles replaced. */
function withRoles(changes: Record<string, string[]>): StoreContext {
  const files: Record<string, JsonSchema> = { ...source.files };
  for (const [key, roles] of Object.entries(changes)) {
    const file = source.manifest.entities[key];
    const schema = files[file] as JsonSchema & { 'x-entity': Record<string, unknown> };
    files[file] = { ...schema, 'x-entity': { ...schema['x-entity'], roles } };
  }
  const changed: SchemaSource = { ...source, files };
  // the linter's checks left out: a role given to a document without the fields its rules read is
  // refused there first (packs/cost/engine/field-roles.ts), while these tests are about the ledger's own refusal
  return { catalog: compile(changed, { validators: 'lazy', checks: 'skip' }).catalog } as StoreContext;
}

describe('the ledger at start-up', () => {
  it('binds its rules to the documents that play its roles', () => {
    const hooks = ledgerHooks(withRoles({}));
    expect(Object.keys(hooks).sort()).toEqual([
      'materialCheck',
      'materialInventory',
      'materialSituation',
      'materialTurnoverCheck',
      'materialTurnoverInventory',
    ]);
    expect(hooks.materialCheck.afterStatus).toBeTypeOf('function');
    expect(hooks.materialSituation.afterWrite).toBeTypeOf('function');
  });

  it('refuses a schema set in which no document receives stock, naming the role', () => {
    expect(() => ledgerHooks(withRoles({ materialCheck: [] }))).toThrow(
      'exactly one entity must declare x-entity.roles "stock.receipt"; none does',
    );
  });

  it('refuses a schema set in which two documents are the monthly report, naming both', () => {
    expect(() => ledgerHooks(withRoles({ materialMonthlySettlement: ['settlement.cost', 'stock.monthlyReport'] }))).toThrow(
      'x-entity.roles "stock.monthlyReport"; 2 entities (materialMonthlySettlement, materialSituation) do',
    );
  });

  it('needs the master data too: the warehouse names the refusals', () => {
    expect(() => ledgerHooks(withRoles({ warehouse: [] }))).toThrow('"master.warehouse"; none does');
  });

  it('runs without turnover materials, but not with a turnover stocktake and no movements to count', () => {
    const hooks = ledgerHooks(withRoles({ materialTurnoverCheck: [], materialTurnoverInventory: [] }));
    expect(Object.keys(hooks)).not.toContain('materialTurnoverCheck');
    expect(() => ledgerHooks(withRoles({ materialTurnoverCheck: [] }))).toThrow('"turnover.movement"; none does');
  });
});
