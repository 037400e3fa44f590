// The dialect's refusals of the x-compute operators that reach beyond a row's own fields: a date
// plus days, a detail row reading its header, sums over a row's siblings. Each names file and pointer.
import { describe, expect, it } from 'vitest';
import { issuesAfter } from './issues-after.ts';

const TURNOVER = 'schemas/construct/material-turnover-monthly-settlement.schema.json';
const rowField = (s: { files: Record<string, any> }, name: string) => s.files[TURNOVER].properties.details.items.properties[name];
const at = (name: string) => `/properties/details/items/properties/${name}/x-compute/expr`;

describe('x-compute in the dialect: addDays, header, sumBy', () => {
  it('a header read of an unknown header field, and of a header total that sums the rows', () => {
    const issues = issuesAfter((s) => {
      rowField(s, 'qtyDays')['x-compute'].expr = { mul: ['openingQty', { header: 'periodDayz' }] };
      rowField(s, 'taxRate')['x-compute'].expr = { header: 'lineAmountInclTax' };
    });
    expect(issues).toEqual([
      { file: TURNOVER, pointer: at('qtyDays'), message: 'expression reads unknown header field "periodDayz"' },
      { file: TURNOVER, pointer: at('taxRate'), message: 'header field "lineAmountInclTax" sums the rows, which cannot read it back' },
    ]);
  });

  it('a header formula reading "the header" or summing sibling rows', () => {
    const issues = issuesAfter((s) => {
      s.files[TURNOVER].properties.periodDays['x-compute'].expr = { header: 'taxRate' };
      s.files[TURNOVER].properties.rentAmount['x-compute'].expr = { sumBy: { field: 'transportFee', by: ['period'] } };
    });
    expect(issues).toEqual([
      {
        file: TURNOVER,
        pointer: '/properties/periodDays/x-compute/expr',
        message: '{"header": "taxRate"} reads the document\'s header: only a detail row\'s formula can',
      },
      {
        file: TURNOVER,
        pointer: '/properties/rentAmount/x-compute/expr',
        message: "sumBy sums over a detail's rows: only a detail row's formula can use it",
      },
    ]);
  });

  it('a sum over siblings of a text or by an unknown field, and addDays of a number', () => {
    const issues = issuesAfter((s) => {
      rowField(s, 'cumulativeQtyDays')['x-compute'].expr = {
        add: ['previousCumulativeQtyDays', { sumBy: { field: 'goodsName', by: ['goodsIdd'] } }],
      };
      s.files[TURNOVER].properties.startDate['x-compute'] = { expr: { addDays: ['transportFee', 'period'] } };
    });
    expect(issues).toEqual([
      {
        file: TURNOVER,
        pointer: '/properties/startDate/x-compute/expr',
        message: 'addDays (its date) needs a date, "transportFee" is a number',
      },
      { file: TURNOVER, pointer: '/properties/startDate/x-compute/expr', message: 'addDays (its days) needs a number, "period" is a text' },
      { file: TURNOVER, pointer: at('cumulativeQtyDays'), message: 'expression reads unknown field "goodsIdd"' },
      { file: TURNOVER, pointer: at('cumulativeQtyDays'), message: 'sumBy over "goodsName", which is not a number' },
    ]);
  });

  it('an addDays filling a number', () => {
    const issues = issuesAfter((s) => {
      rowField(s, 'qtyDays')['x-compute'].expr = { addDays: [{ header: 'startDate' }, 3] };
    });
    expect(issues).toEqual([{ file: TURNOVER, pointer: at('qtyDays'), message: 'the expression yields a date, "qtyDays" holds a number' }]);
  });

  it('an operator spelled wrong or without its keys (meta-schema)', () => {
    const issues = issuesAfter((s) => {
      rowField(s, 'rentAmount')['x-compute'].expr = { sumby: { field: 'qtyDays', by: ['goodsId'] } };
      rowField(s, 'qtyDays')['x-compute'].expr = { sumBy: { field: 'qtyDays' } };
    });
    expect(issues).toContainEqual({ file: TURNOVER, pointer: at('rentAmount'), message: 'must NOT have additional properties ("sumby")' });
    expect(issues).toContainEqual({ file: TURNOVER, pointer: at('qtyDays') + '/sumBy', message: "must have required property 'by'" });
  });
});
