// The fields the cost rules read of each document role, by field role (x-entity.fieldRoles; a dotted
// one is a reference to a document of that role, found by its x-ref). The rules bind them by these
// roles when the server starts, and the linter checks a schema set against this table, so that a
// renamed field, or a document given a role without the fields it needs, is refused naming both.
// A list of alternatives is met by any one of them (an activity's month: its period, else its date).
import type { Report } from '../../../engine/packs.ts';
import { fieldWithRole, hasRole, type FieldRoleOwner } from '../../../engine/model/roles.ts';
import type { EntityModel } from '../../../engine/model/types.ts';

export type FieldRoleNeed = string | readonly string[];

/** What the rules of a document role read: header field roles, and field roles of the rows of one detail. */
export interface FieldRoleNeeds {
  header?: readonly FieldRoleNeed[];
  /** met by one detail whose rows play them all (x-detail.fieldRoles; references by x-ref) */
  lines?: readonly string[];
}

/** Field roles each document role needs (the families not listed still read fields by name: docs/architecture.md). */
export const FIELD_ROLE_NEEDS: Readonly<Record<string, FieldRoleNeeds>> = {
  // late settlement (c): the contract's project; each activity's contract and month; each settlement's contract
  // statistics (server/statistics/models.ts): the contract's figures, and for the timeliness panel its
  // counterparty, dates, states and the main contract a supplementary agreement refers to (contract.expense)
  'contract.expense': {
    header: [
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
  },
  'settlement.activity': { header: ['contract.expense', ['period', 'date']] },
  // statistics: a settlement's project, period and amounts
  'settlement.cost': { header: ['contract.expense', 'master.project', 'period', 'amount', 'amountExclTax', 'payable', 'retention'] },
  // a warning's recipients: the project's managers, by name; the statistics' project name and target cost
  'master.project': { header: ['manager', 'costManager', 'name', 'targetCost'] },
  'warning.record': { header: ['master.project'] },
  // statistics: income, what was paid on a closed contract, the funnel's documents (quantities per goods) and goods
  'contract.income': {
    header: ['master.project', 'amount', 'changeAmount', 'currentAmount', 'measuredAmount', 'taxRate', 'receivedAmount'],
  },
  'settlement.final': { header: ['master.project', 'contract.expense', 'paidAmount'] },
  'demand.total': { header: ['master.project'], lines: ['master.goods', 'quantity'] },
  'demand.monthly': { header: ['master.project'], lines: ['master.goods', 'quantity'] },
  'procurement.monthly': { header: ['master.project'], lines: ['master.goods', 'quantity'] },
  'supply.batch': { header: ['master.project'], lines: ['master.goods', 'quantity'] },
  'master.goods': { header: ['name', 'spec', 'unit'] },
};

const describe = (need: FieldRoleNeed) => (typeof need === 'string' ? `"${need}"` : need.map((n) => `"${n}"`).join(' or '));

/** Whether a header or detail has a field playing the role (two candidates are the engine's own report). */
function plays(entities: Readonly<Record<string, EntityModel>>, owner: FieldRoleOwner, role: string): boolean {
  try {
    return fieldWithRole(entities, owner, role) !== undefined;
  } catch {
    return true;
  }
}

/** The linter's check of one document type against the table. */
export function lintFieldRoleNeeds(model: EntityModel, entities: Readonly<Record<string, EntityModel>>, report: Report) {
  for (const [role, needs] of Object.entries(FIELD_ROLE_NEEDS)) {
    if (!hasRole(model, role)) continue;
    for (const need of needs.header ?? []) {
      const options = typeof need === 'string' ? [need] : need;
      if (!options.some((option) => plays(entities, model, option)))
        report(
          '/x-entity/fieldRoles',
          `${model.key} plays "${role}", whose rules read a field playing ${describe(need)}: name it in x-entity.fieldRoles`,
        );
    }
    const lines = needs.lines ?? [];
    if (lines.length && !model.details.some((d) => lines.every((r) => plays(entities, d, r))))
      report(
        '/x-entity/roles',
        `${model.key} plays "${role}", whose rules read rows with fields playing ${lines.map(describe).join(', ')}: name them in a detail's x-detail.fieldRoles`,
      );
  }
}
