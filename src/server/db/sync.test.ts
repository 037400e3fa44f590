// The link tables of multi-valued references (x-db.link) in the schema sync: what the table holds,
// and the one move of an older installation's comma-joined column into it.
import { describe, expect, it } from 'vitest';
import type { EntityModel } from '../../engine/model/types.ts';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { planSync, tableSpecs } from './sync.ts';

const { catalog } = compiledSchemaSet();

/** A model whose comma-joined `field` is kept in `table` instead of a column. */
function linked(model: EntityModel, field: string, table: string, ownerColumn: string): EntityModel {
  const link = { table, ownerColumn, maxItems: 100 };
  return { ...model, columns: model.columns.map((f) => (f.name === field ? { ...f, link } : f)) };
}

/** Live columns as planSync reads them: every table the specs name, as they would be created. */
function liveOf(specs: ReturnType<typeof tableSpecs>) {
  return new Map(
    specs.map((s) => [s.table, new Map(s.columns.map((c) => [c.column, { table_name: s.table, column_name: c.column, type: c.sqlType }]))]),
  );
}

describe('a link table (x-db.link)', () => {
  it("of a tenant entity's field: owner, reference, position and tenant; no column on the record's table", () => {
    const user = linked(catalog.entities.user, 'roleId', 'blade_user_role', 'user_id');
    const specs = tableSpecs(user);
    const header = specs.find((s) => s.table === 'blade_user')!;
    expect(header.columns.map((c) => c.column)).not.toContain('role_id');
    expect(header.indexes.some((i) => i.columns.includes('role_id'))).toBe(false);
    const link = specs.find((s) => s.table === 'blade_user_role')!;
    expect(link.columns).toEqual([
      { column: 'tenant_id', sqlType: 'varchar(12)', notNull: 'NOT NULL' },
      { column: 'user_id', sqlType: 'bigint', notNull: 'NOT NULL' },
      { column: 'role_id', sqlType: 'bigint', notNull: 'NOT NULL' },
      { column: 'sort', sqlType: 'integer', notNull: 'NOT NULL' },
    ]);
    expect(link.indexes.map((i) => [i.columns, i.unique])).toEqual([
      [['user_id', 'role_id'], true],
      [['tenant_id', 'role_id'], false],
    ]);
  });

  it('takes over the column an older installation has: its values move in, with their tenant, then the column goes, once', () => {
    const before = tableSpecs(catalog.entities.user);
    const user = linked(catalog.entities.user, 'roleId', 'blade_user_role', 'user_id');
    const plan = planSync(tableSpecs(user), liveOf(before));
    expect(plan.created).toEqual(['blade_user_role']);
    expect(plan.altered).toEqual(['blade_user.role_id → blade_user_role']);
    const move = plan.statements.findIndex((s) => s.startsWith('INSERT INTO "blade_user_role"'));
    const unique = plan.statements.findIndex((s) => s.includes('"blade_user_role_user_id_role_id_uq"'));
    expect(unique).toBeGreaterThan(-1);
    expect(move).toBeGreaterThan(unique); // ON CONFLICT DO NOTHING needs the unique index
    expect(plan.statements[move]).toContain('o.tenant_id');
    expect(plan.statements[move + 1]).toBe('ALTER TABLE "blade_user" DROP COLUMN "role_id"');
    // once moved, the table is there and the column gone: nothing more to do
    const after = planSync(
      tableSpecs(user),
      liveOf(tableSpecs(user)),
      new Set(tableSpecs(user).flatMap((s) => s.indexes.map((i) => i.name))),
    );
    expect(after.statements).toEqual([]);
  });
});
