// The expense contract's line amount (R-TAX-1, R-CAP-2), run through the compiled model as the server stores it:
// a lease line (one with a lease duration) is worth quantity × duration × price, other lines quantity × price.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { applyComputed } from './apply.ts';

const { catalog } = compiledSchemaSet();
const model = catalog.entities.expenditureContract;
/** A record as applyComputed returns it: fields, and its detail rows under `details`. */
interface Row {
  details?: Row[];
  [field: string]: unknown;
}

function contract(details: Row[]) {
  const out = applyComputed(model, { taxRate: 13, details });
  return { header: out, rows: out.details as Row[] };
}

describe('expense contract line amount', () => {
  it('multiplies a lease line by its duration: the demo tube lease is 806,400, not 1,920', () => {
    // 120000 m × 420 days × 0.012 = 604,800; 80000 × 420 × 0.006 = 201,600
    const { header, rows } = contract([
      { quantity: 120000, priceInclTax: 0.012, taxRate: 13, leaseDuration: 420 },
      { quantity: 80000, priceInclTax: 0.006, taxRate: 13, leaseDuration: 420 },
    ]);
    expect(rows.map((r) => r.amountInclTax)).toEqual([604800, 201600]);
    // R-TAX-1 on the lease amount: 604800 / 1.13 = 535221.2389… → 535221.24, tax 69578.76
    expect(rows[0]).toMatchObject({ amountExclTax: 535221.24, taxAmount: 69578.76 });
    expect(header.contractAmount).toBe(806400);
  });

  it('rounds quantity × duration × price half-up to the fen', () => {
    // 3 × 7 × 0.0125 = 0.2625 → 0.26; 2.5 × 3 × 1.111 = 8.3325 → 8.33; 1 × 0.5 × 0.015 = 0.0075 → 0.01
    const { rows } = contract([
      { quantity: 3, priceInclTax: 0.0125, taxRate: 13, leaseDuration: 7 },
      { quantity: 2.5, priceInclTax: 1.111, taxRate: 13, leaseDuration: 3 },
      { quantity: 1, priceInclTax: 0.015, taxRate: 13, leaseDuration: 0.5 },
    ]);
    expect(rows.map((r) => r.amountInclTax)).toEqual([0.26, 8.33, 0.01]);
  });

  it('keeps quantity × price for lines without a lease duration', () => {
    // 186500 × 420 = 78,330,000; 12.5 × 3.333 = 41.6625 → 41.66
    const { rows } = contract([
      { quantity: 186500, priceInclTax: 420, taxRate: 3 },
      { quantity: 12.5, priceInclTax: 3.333, taxRate: 3, leaseDuration: null },
    ]);
    expect(rows.map((r) => r.amountInclTax)).toEqual([78330000, 41.66]);
  });
});
