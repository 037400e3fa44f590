// Which documents print, and what their printed form puts together, from the schema alone.
// A document type prints when it plays a contract or settlement role (x-entity.roles contract.* or
// settlement.*, but not settlement.activity): those are the papers signed and filed on paper. Its
// this-period / cumulative lines come from the registry (periodPairs), given by the pack that knows them.
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
