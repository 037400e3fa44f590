// The printed form's this-period / cumulative lines of a settlement, from its x-cumulative.
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../../client/renderers/catalog.ts';
import { cumulativePairs } from './print-pairs.ts';

const entities = catalog().entities;

describe('period pairs', () => {
  it('a monthly settlement pairs this period with the previous and the cumulative figure', () => {
    const pairs = cumulativePairs(entities.laborMonthlySettlement).map((p) => [p.current.name, p.previous.name, p.cumulative?.name]);
    expect(pairs).toEqual([
      ['thisAmountInclTax', 'previousCumulativeAmount', 'cumulativeAmount'],
      ['thisPayableAmount', 'previousCumulativePayable', 'cumulativePayable'],
    ]);
    // a final settlement sums other documents: no pairs of its own; a contract has none
    expect(cumulativePairs(entities.subcontractSettlementFiling)).toEqual([]);
    expect(cumulativePairs(entities.expenditureContract)).toEqual([]);
  });
});
