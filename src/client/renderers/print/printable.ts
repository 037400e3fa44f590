// Which documents print, and what their printed form puts together, from the schema alone.
// A document type prints when it plays a contract or settlement role (x-entity.roles contract.* or
// settlement.*, but not settlement.activity): those are the papers signed and filed on paper. Its this-period / cumulative pairs
// come from x-cumulative: each header entry "previous cumulative ← this-period field" of a document
// summing its own type, with the header field computed as their sum as the cumulative.
import type { Expr } from '../../../engine/compute/expr.ts';
import type { EntityModel, FieldModel } from '../../../engine/model/types.ts';

/** The role families whose documents get a print button and a printed form. */
export const PRINTED_ROLE_FAMILIES = ['contract', 'settlement'] as const;
/** Roles of those families that are not contracts or settlements: settlement.activity marks what calls for a settlement (checks, usage, examinations). */
const NOT_PRINTED_ROLES = new Set(['settlement.activity']);

export function isPrintable(model: EntityModel): boolean {
  return model.roles.some((role) => !NOT_PRINTED_ROLES.has(role) && PRINTED_ROLE_FAMILIES.some((family) => role.startsWith(`${family}.`)));
}

/** One line of the this-period / cumulative table: 本期, 至上期末累计, 开累. */
export interface PeriodPair {
  current: FieldModel;
  previous: FieldModel;
  cumulative?: FieldModel;
}

/** Whether an expression is the sum of exactly these two fields (either order). */
function isSumOf(expr: Expr | undefined, a: string, b: string): boolean {
  if (!expr || typeof expr !== 'object' || Array.isArray(expr)) return false;
  const add = (expr as { add?: unknown }).add;
  return Array.isArray(add) && add.length === 2 && add.includes(a) && add.includes(b);
}

export function cumulativePairs(model: EntityModel): PeriodPair[] {
  const cumulative = model.cumulative;
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
