// The statistics read their documents' fields by role (x-entity.fieldRoles, x-detail.fieldRoles,
// references by the role of what they refer to): a field renamed in a schema is followed, never read
// by its old name, and a document missing a field role is refused naming the document and the role.
import { describe, expect, it } from 'vitest';
import { compile } from '../../../../engine/model/compile.ts';
import { SchemaSetError, type SchemaSource } from '../../../../engine/model/source.ts';
import { compiledSchemaSet, schemaSource } from '../../../../../tests/support/schema-set.ts';
import { statisticsModels } from './models.ts';

const LABOUR = 'schemas/construct/labor-monthly-settlement.schema.json';
// its x-cumulative totals name the labour settlement's fields
const LABOUR_FINAL = 'schemas/construct/labor-settlement-finalization.schema.json';
const TOTAL_DEMAND = 'schemas/construct/material-total-demand.schema.json';
// its rows are picked from the plan's, copying the planned quantity
const MONTHLY_DEMAND = 'schemas/construct/material-monthly-demand.schema.json';

type Files = SchemaSource & { files: Record<string, any> };

/** A copy of the set, changed. */
function changed(change: (source: Files) => void): Files {
  const source = structuredClone(schemaSource()) as Files;
  change(source);
  return source;
}

/** The set with a field renamed wherever some files name it (properties, layout, list, roles, totals). */
const renamed = (files: readonly string[], from: string, to: string) =>
  changed((source) => {
    for (const file of files) source.files[file] = JSON.parse(JSON.stringify(source.files[file]).replaceAll(`"${from}"`, `"${to}"`));
  });

const labour = (source: SchemaSource) =>
  statisticsModels(compile(source, { validators: 'lazy' }).catalog).settlements.find((s) => s.model.key === 'laborMonthlySettlement')!;

describe('the statistics bind their fields by role', () => {
  it("reads the product's documents by the fields their schemas name", () => {
    const models = statisticsModels(compiledSchemaSet().catalog);
    const settlement = models.settlements.find((s) => s.model.key === 'laborMonthlySettlement')!;
    expect([settlement.amount, settlement.amountExclTax, settlement.contractRef, settlement.projectRef].map((f) => f.name)).toEqual([
      'thisAmountInclTax',
      'thisAmountExclTax',
      'expenditureContractCode',
      'projectId',
    ]);
    const contract = models.expenseContract;
    expect([contract.contractType, contract.parentRef, contract.counterpartyRef].map((f) => f.name)).toEqual([
      'expenditureContractType',
      'parentContractCode',
      'subcontractorId',
    ]);
    expect(models.projects.budgets?.budget.name).toBe('budgetAmount');
    const [plan] = models.funnel.totalDemand;
    expect([plan.goodsRef.name, plan.quantity.name]).toEqual(['goodsId', 'effectiveQty']);
  });

  it('follows a renamed settlement amount and a renamed funnel quantity', () => {
    expect(labour(renamed([LABOUR, LABOUR_FINAL], 'thisAmountExclTax', 'amountBeforeTax')).amountExclTax.name).toBe('amountBeforeTax');
    const source = renamed([TOTAL_DEMAND, MONTHLY_DEMAND], 'effectiveQty', 'plannedQty');
    const [plan] = statisticsModels(compile(source, { validators: 'lazy' }).catalog).funnel.totalDemand;
    expect(plan.quantity.name).toBe('plannedQty');
  });

  it('refuses a settlement whose fieldRoles lack one, naming the document and the field role', () => {
    const source = changed((s) => {
      delete s.files[LABOUR]['x-entity'].fieldRoles.amountExclTax;
    });
    // the linter, as the server compiles the set at start-up
    expect(() => compile(source, { validators: 'lazy' })).toThrow(SchemaSetError);
    expect(() => compile(source, { validators: 'lazy' })).toThrow(
      `${LABOUR}#/x-entity/fieldRoles: laborMonthlySettlement plays "settlement.cost", whose rules read a field playing "amountExclTax"`,
    );
    // and the binding itself, on a set compiled without the checks
    expect(() => statisticsModels(compile(source, { validators: 'lazy', checks: 'skip' }).catalog)).toThrow(
      'laborMonthlySettlement plays "settlement.cost" but it has no field playing "amountExclTax" (x-entity.fieldRoles)',
    );
  });

  it("refuses a funnel document whose rows' quantity has no role", () => {
    const source = changed((s) => {
      delete s.files[TOTAL_DEMAND].properties.details['x-detail'].fieldRoles;
    });
    expect(() => compile(source, { validators: 'lazy' })).toThrow(
      `${TOTAL_DEMAND}#/properties/details/x-detail/fieldRoles: materialTotalDemand plays "demand.total", whose rules read a line field playing "effectiveQuantity": name it in the x-detail.fieldRoles of details`,
    );
    expect(() => statisticsModels(compile(source, { validators: 'lazy', checks: 'skip' }).catalog)).toThrow(
      'materialTotalDemand plays "demand.total" but no detail of it has rows with fields playing "master.goods", "effectiveQuantity" (x-detail.fieldRoles)',
    );
  });
});
