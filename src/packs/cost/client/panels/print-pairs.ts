// The printed form's this-period / cumulative lines of a settlement (the renderers' registry,
// periodPairs), from x-cumulative: each header entry "previous cumulative ← this-period field" of a
// document summing its own type, with the header field computed as their sum as the cumulative.
import type { Expr } from '../../../../engine/compute/expr.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import type { PeriodPair } from '../../../../client/renderers/print/printable.ts';
import { cumulativeOf } from '../../engine/cumulative/model.ts';

/** Whether an expression is the sum of exactly these two fields (either order). */
function isSumOf(expr: Expr | undefined, a: string, b: string): boolean {
  if (!expr || typeof expr !== 'object' || Array.isArray(expr)) return false;
  const add = (expr as { add?: unknown }).add;
  return Array.isArray(add) && add.length === 2 && add.includes(a) && add.includes(b);
}

export function cumulativePairs(model: EntityModel): PeriodPair[] {
  const cumulative = cumulativeOf(model);
  if (!cumulative || cumulative.source !== model.key) return [];
  const pairs: PeriodPair[] = [];
  for (const [previousName, currentName] of Object.entries(cumulative.header)) {
    const previous = model.fieldMap[previousName];
    const current = model.fieldMap[currentName];
    if (!previous || !current) continue;
    const total = model.fields.find((f) => isSumOf(f.compute?.expr, previousName, currentName));
    pairs.push({ current, previous, cumulative: total });
  }
  return pairs;
}
