// The fields the cost rules read of each document role, by field role (x-entity.fieldRoles; a dotted
// one is a reference to a document of that role, found by its x-ref). The rules bind them by these
// roles when the server starts, and the linter checks a schema set against this table, so that a
// renamed field, or a document given a role without the fields it needs, is refused naming both.
// A list of alternatives is met by any one of them (an activity's month: its period, else its date).
import type { Report } from '../../../engine/packs.ts';
import { fieldWithRole, hasRole } from '../../../engine/model/roles.ts';
import type { EntityModel } from '../../../engine/model/types.ts';

export type FieldRoleNeed = string | readonly string[];

/** Header field roles each document role needs (the families not listed still read fields by name: docs/architecture.md). */
export const FIELD_ROLE_NEEDS: Readonly<Record<string, readonly FieldRoleNeed[]>> = {
  // late settlement (c): the contract's project; each activity's contract and month; each settlement's contract
  'contract.expense': ['master.project'],
  'settlement.activity': ['contract.expense', ['period', 'date']],
  'settlement.cost': ['contract.expense'],
  // a warning's recipients: the project's managers, by name
  'master.project': ['manager', 'costManager'],
  'warning.record': ['master.project'],
};

const describe = (need: FieldRoleNeed) => (typeof need === 'string' ? `"${need}"` : need.map((n) => `"${n}"`).join(' or '));

/** The linter's check of one document type against the table. */
export function lintFieldRoleNeeds(model: EntityModel, entities: Readonly<Record<string, EntityModel>>, report: Report) {
  for (const [role, needs] of Object.entries(FIELD_ROLE_NEEDS)) {
    if (!hasRole(model, role)) continue;
    for (const need of needs) {
      const options = typeof need === 'string' ? [need] : need;
      let found = false;
      for (const option of options)
        try {
          found ||= fieldWithRole(entities, model, option) !== undefined;
        } catch {
          found = true; // two references: reported by the engine's own check
        }
      if (!found)
        report(
          '/x-entity/fieldRoles',
          `${model.key} plays "${role}", whose rules read a field playing ${describe(need)}: name it in x-entity.fieldRoles`,
        );
    }
  }
}
