// The fields the cost rules read of each document role, by field role (x-entity.fieldRoles; a dotted
// one is a reference to a document of that role, found by its x-ref). The rules bind them by these
// roles when the server starts, and the linter checks a schema set against this table, so that a
// renamed field, or a document given a role without the fields it needs, is refused naming both.
// A list of alternatives is met by any one of them (an activity's month: its period, else its date).
import type { Report } from '../../../engine/packs.ts';
import { fieldWithRole, hasRole } from '../../../engine/model/roles.ts';
import type { DetailModel, EntityModel } from '../../../engine/model/types.ts';

export type FieldRoleNeed = string | readonly string[];

/** Header field roles each document role needs (the families not listed still read fields by name: docs/architecture.md). */
export const FIELD_ROLE_NEEDS: Readonly<Record<string, readonly FieldRoleNeed[]>> = {
  // late settlement (c): the contract's project; each activity's contract and month; each settlement's contract
  // statistics (server/statistics/models.ts): the contract's figures, and for the timeliness panel its
  // counterparty, dates, states and the main contract a supplementary agreement refers to (contract.expense)
  'contract.expense': [
    'master.project',
    'contractType',
    'amount',
    'changeAmount',
    'currentAmount',
    'name',
    'master.counterparty',
    'contract.expense',
    'signDate',
    'startDate',
    'performance',
    'settlementState',
  ],
  'settlement.activity': ['contract.expense', ['period', 'date']],
  // statistics: a settlement's project, period and amounts
  'settlement.cost': ['contract.expense', 'master.project', 'period', 'amount', 'amountExclTax', 'payable', 'retention'],
  // a warning's recipients: the project's managers, by name; the statistics' project name and target cost
  'master.project': ['manager', 'costManager', 'name', 'targetCost'],
  'warning.record': ['master.project'],
  // statistics: income, what was paid on a closed contract, the funnel's documents and goods
  'contract.income': ['master.project', 'amount', 'changeAmount', 'currentAmount', 'measuredAmount', 'taxRate', 'receivedAmount'],
  'settlement.final': ['master.project', 'contract.expense', 'paidAmount'],
  'demand.total': ['master.project'],
  'demand.monthly': ['master.project'],
  'procurement.monthly': ['master.project'],
  'supply.batch': ['master.project'],
  'master.goods': ['name', 'spec', 'unit'],
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

/**
 * Row field roles each document role needs of one of its details (x-detail.fieldRoles): the material
 * funnel sums each stage's quantity per goods (server/statistics/models.ts).
 */
export const LINE_ROLE_NEEDS: Readonly<Record<string, readonly string[]>> = {
  'demand.total': ['master.goods', 'quantity'],
  'demand.monthly': ['master.goods', 'quantity'],
  'procurement.monthly': ['master.goods', 'quantity'],
  'supply.batch': ['master.goods', 'quantity'],
};

/** The first detail of a document whose rows have a field playing each role, if one has. */
export function detailWithRoles(
  entities: Readonly<Record<string, EntityModel>>,
  model: EntityModel,
  roles: readonly string[],
): DetailModel | undefined {
  return model.details.find((detail) => roles.every((role) => fieldWithRole(entities, detail, role) !== undefined));
}

/** The linter's check of one document type against LINE_ROLE_NEEDS. */
export function lintLineRoleNeeds(model: EntityModel, entities: Readonly<Record<string, EntityModel>>, report: Report) {
  for (const [role, needs] of Object.entries(LINE_ROLE_NEEDS)) {
    if (!hasRole(model, role)) continue;
    let found: DetailModel | undefined;
    try {
      found = detailWithRoles(entities, model, needs);
    } catch {
      continue; // two references in a detail: reported by the engine's own check
    }
    if (!found)
      report(
        '/x-entity/roles',
        `${model.key} plays "${role}", whose rules read rows with fields playing ${needs.map((n) => `"${n}"`).join(' and ')}: name them in a detail's x-detail.fieldRoles`,
      );
  }
}
