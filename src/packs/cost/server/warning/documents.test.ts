// The early warnings read their documents' fields by role (x-entity.fieldRoles, x-detail.fieldRoles,
// references by the role of what they refer to): a field renamed in the schemas is followed, and a
// field role left out refuses the schema set, naming the document, its role and the field role.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../../engine/model/compile.ts';
import type { SchemaSource } from '../../../../engine/model/source.ts';
import type { EntityCatalog } from '../../../../engine/model/types.ts';
import { compiledSchemaSet, schemaSource } from '../../../../../tests/support/schema-set.ts';
import { FIELD_ROLE_NEEDS, type FieldRoleNeeds } from '../../engine/field-roles.ts';
import { DEFAULT_WARN_SETTINGS } from '../../engine/warnings/rules.ts';
import type { Queryable } from '../../../../server/db/db.ts';
import { OPTIONAL_WARNING_ROLES, WARNING_READS, WARNING_ROLES, warningFields } from './documents.ts';
import { evaluatorOf } from './evaluate.ts';
import { Figures } from './figures.ts';

const MONTHLY_DEMAND = 'schemas/construct/material-monthly-demand.schema.json';
// the procurement copies the monthly demand's quantity onto its lines (x-detail.pickFrom)
const PROCUREMENT = 'schemas/construct/material-monthly-procure.schema.json';

type Files = SchemaSource & { files: Record<string, unknown> };

/** The source with some files changed (a copy: the shared one is frozen). */
function changed(edit: (files: Record<string, unknown>) => void): Files {
  const source = structuredClone(schemaSource()) as Files;
  edit(source.files);
  return source;
}

/** The set with a field renamed wherever the files name it (properties, layout, list, field roles, copies). */
const renamed = (files: readonly string[], from: string, to: string) =>
  changed((all) => {
    for (const file of files) all[file] = JSON.parse(JSON.stringify(all[file]).replaceAll(`"${from}"`, `"${to}"`));
  });

/** The set with the monthly demand's lines no longer naming their quantity's field role. */
const withoutQuantityRole = () =>
  changed((all) => {
    const lines = (all[MONTHLY_DEMAND] as { properties: { details: { 'x-detail': { fieldRoles: Record<string, string> } } } }).properties
      .details['x-detail'];
    const { quantity: _dropped, ...kept } = lines.fieldRoles;
    lines.fieldRoles = kept;
  });

/** A database that answers nothing and keeps the SQL it was asked. */
function emptyDb(asked: string[]): Queryable {
  return {
    query: async (sql: string) => {
      asked.push(sql);
      return [];
    },
  } as unknown as Queryable;
}

describe('the early warnings bind their fields by role', () => {
  const fields = warningFields(compiledSchemaSet().catalog);
  const names = (list: readonly { name: string }[]) => list.map((f) => f.name);

  it("reads the product's documents by the fields their schemas name", () => {
    expect(fields.monthlyDemand.lines.fields.quantity.name).toBe('demandQty');
    expect(fields.monthlyDemand.totalDemandRef?.name).toBe('materialTotalDemandId');
    expect(fields.procurement.lines.fields.upstreamLine.name).toBe('monthlyDemandDetailId');
    expect([fields.receipt!.lines.fields.upstreamLine.name, fields.receipt!.lines.fields.contractLine.name]).toEqual([
      'batchDetailId',
      'contractDetailId',
    ]);
    expect(fields.contract.header.parentContract.name).toBe('parentContractCode');
    expect(fields.budgets && [fields.budgets.contractType.name, fields.budgets.budget.name]).toEqual([
      'expenditureContractType',
      'budgetAmount',
    ]);
    // a line is named by the goods' name and code its goods reference copies, else by its work item's
    expect(names(fields.monthlyDemand.lines.labels)).toEqual(['goodsName', 'goodsCode']);
    expect(names(fields.contract.lines.labels)).toEqual(['goodsName', 'itemName', 'goodsCode', 'itemCode']);
    const labour = [...fields.settlements.values()].find((s) => s.lines?.caps && !s.lines.goods)!;
    expect(names(labour.lines!.labels)).toEqual(['itemName']);
  });

  it('the table the linter checks asks for every field role the warnings bind', () => {
    const roles = { ...WARNING_ROLES, ...OPTIONAL_WARNING_ROLES, settlement: 'settlement.cost' } as Record<string, string>;
    for (const [name, reads] of Object.entries(WARNING_READS) as [string, { header?: readonly string[]; lines?: readonly string[] }][]) {
      const needs = (FIELD_ROLE_NEEDS as Readonly<Record<string, FieldRoleNeeds>>)[roles[name]];
      expect(needs?.header?.flat() ?? [], name).toEqual(expect.arrayContaining([...(reads.header ?? [])]));
      expect(needs?.lines ?? [], name).toEqual(expect.arrayContaining([...(reads.lines ?? [])]));
    }
  });

  it("follows the monthly demand's quantity renamed, into the SQL and the rules", async () => {
    const catalog = compile(renamed([MONTHLY_DEMAND, PROCUREMENT], 'demandQty', 'plannedQty'), { validators: 'lazy' }).catalog;
    const demand = warningFields(catalog).monthlyDemand;
    expect(demand.lines.fields.quantity.name).toBe('plannedQty');
    const asked: string[] = [];
    const figures = new Figures(emptyDb(asked), { catalog, dictionaryEntities: { system: '', biz: '' }, timeZone: 'Asia/Shanghai' }, '1');
    const doc = { id: '7', projectId: '1', details: [{ id: '70', goodsId: '5', goodsName: '钢筋', plannedQty: 12 }] };
    const warnings = await evaluatorOf(demand.model)!(figures, doc, DEFAULT_WARN_SETTINGS, demand.model);
    // no plan: the goods is unplanned, at the quantity the renamed field holds
    expect(warnings.find((w) => w.warnType === 'unplanned_goods')).toMatchObject({ actualValue: 12, sourceDetailId: '70' });
    // the other monthly demands' quantities are summed from the renamed column
    expect(asked.some((sql) => sql.includes('sum(l."planned_qty")'))).toBe(true);
  });

  it('refuses a set whose monthly demand lines no longer name their quantity, naming the document and the field role', () => {
    expect(() => compile(withoutQuantityRole(), { validators: 'lazy' }).catalog).toThrow(
      'materialMonthlyDemand plays "demand.monthly", whose rules read a line field playing "quantity": name it in the x-detail.fieldRoles of details',
    );
    // past the linter (a set compiled without its checks), the warnings refuse to start themselves
    const unchecked: EntityCatalog = compile(withoutQuantityRole(), { validators: 'lazy', checks: 'skip' }).catalog;
    expect(() => warningFields(unchecked)).toThrow(
      'materialMonthlyDemand plays "demand.monthly" but no detail of it has rows with fields playing "master.goods", "quantity"',
    );
  });
});
