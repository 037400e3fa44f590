// The material ledger reads and writes its documents' fields by role (x-entity.fieldRoles,
// x-detail.fieldRoles; references by the role of what they refer to): a field renamed in a schema is
// followed, never read by its old name, and a field role that goes missing is refused at start-up
// naming the document and the field role. The repository's schemas are the fixture, edited in memory.
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../../engine/model/compile.ts';
import type { SchemaSource } from '../../../../engine/model/source.ts';
import { compiledSchemaSet, schemaSource } from '../../../../../tests/support/schema-set.ts';
import { ledgerFields } from './roles.ts';

const CHECK = 'schemas/construct/material-check.schema.json';

type Files = Record<string, any>;

/** The set after `edit` of a copy of its files. */
function edited(edit: (files: Files) => void, options: CompileOptions = {}) {
  const source = structuredClone(schemaSource()) as SchemaSource & { files: Files };
  edit(source.files);
  return compile(source, { validators: 'lazy', ...options }).catalog;
}

/** A field renamed in a file wherever it names it: its property, required list, formulas (`details.x` too) and field roles. */
function renamed(file: string, from: string, to: string) {
  return edited((files) => {
    const text = JSON.stringify(files[file]).replaceAll(`"${from}"`, `"${to}"`).replaceAll(`.${from}"`, `.${to}"`);
    files[file] = JSON.parse(text);
  });
}

describe('the material ledger binds its fields by role', () => {
  it("reads and writes the product's documents by the fields their schemas name", () => {
    const fields = ledgerFields(compiledSchemaSet().catalog);
    const names = (bound: Record<string, { name: string }>) => Object.fromEntries(Object.entries(bound).map(([r, f]) => [r, f.name]));
    expect(names(fields.receipt.header)).toEqual({
      'master.project': 'projectId',
      'master.warehouse': 'warehouseId',
      date: 'checkDate',
      source: 'materialSource',
    });
    // what the ledger posts of a receipt's lines (the table lists the warnings' reads of them too)
    expect(names(fields.receipt.line)).toMatchObject({ 'master.goods': 'goodsId', quantity: 'acceptedQty', amount: 'amountInclTax' });
    expect(fields.receipt.lines.name).toBe('details');
    expect(names(fields.count.line)).toMatchObject({ bookQuantity: 'bookQty', bookPrice: 'price', gainLossQuantity: 'diffQty' });
    expect(names(fields.report.line)).toMatchObject({ countedQuantity: 'countedClosingQty', selfPurchaseQuantity: 'selfPurchaseQty' });
    expect(names(fields.turnoverMovement!.header)).toMatchObject({ direction: 'checkType', 'contract.expense': 'expenditureContractCode' });
    expect(names(fields.rentSettlement!.line)).toMatchObject({ quantityDays: 'qtyDays', dailyRate: 'dailyRate' });
    expect(fields.masterWarehouse['master.project'].name).toBe('projectId');
  });

  it("follows a renamed receipt's accepted quantity, column and all", () => {
    const { quantity } = ledgerFields(renamed(CHECK, 'acceptedQty', 'receivedQty')).receipt.line;
    expect([quantity.name, quantity.column]).toEqual(['receivedQty', 'received_qty']);
  });

  it('refuses a receipt whose lines name no accepted quantity, naming the document and the field role', () => {
    const dropQuantity = (files: Files) => {
      delete files[CHECK].properties.details['x-detail'].fieldRoles.quantity;
    };
    // the schema check (npm run schemas:check, the server's compile) refuses the set
    expect(() => edited(dropQuantity)).toThrow(
      'materialCheck plays "stock.receipt", whose rules read a line field playing "quantity": name it in the x-detail.fieldRoles of details',
    );
    // and so does the ledger itself when it starts
    expect(() => ledgerFields(edited(dropQuantity, { checks: 'skip' }))).toThrow(
      'materialCheck plays "stock.receipt" but its details have no field playing "quantity" (x-detail.fieldRoles)',
    );
  });
});
