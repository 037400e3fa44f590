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
  // late settlement (c): the contract's project; each activity's contract and month; each settlement's contract.
  // Statistics (server/statistics/models.ts): the contracts' figures, and for the timeliness panel the
  // counterparty, dates, states and the main contract a supplementary agreement refers to (contract.expense).
  // Early warnings (server/warning/documents.ts WARNING_READS): a contract's type, parent and amounts,
  // its lines' quantities and price; each settlement's project, period, amount and cumulative amount.
  'contract.expense': {
    header: [
      ...['master.project', 'master.counterparty', 'contract.expense', 'parentContract', 'name', 'contractType'],
      ...['amount', 'changeAmount', 'currentAmount', 'signDate', 'startDate', 'endDate', 'performance', 'settlementState'],
      ...['settledAmount', 'payableAmount', 'remainingAmount', 'retentionRate', 'paymentRatio'],
    ],
    lines: ['master.goods', 'quantity', 'changedQuantity', 'price'],
  },
  'settlement.activity': { header: ['contract.expense', ['period', 'date']] },
  'settlement.cost': {
    header: ['contract.expense', 'master.project', 'period', 'amount', 'amountExclTax', 'payable', 'retention', 'cumulativeAmount'],
  },
  // a warning's recipients: the project's managers, by name; the statistics' project name and target cost
  'master.project': { header: ['manager', 'costManager', 'name', 'targetCost'] },
  'warning.record': { header: ['master.project'] },
  // statistics: income, and what was paid on a closed contract
  'contract.income': {
    header: ['master.project', 'amount', 'changeAmount', 'currentAmount', 'measuredAmount', 'taxRate', 'receivedAmount'],
  },
  'settlement.final': { header: ['master.project', 'contract.expense', 'paidAmount'] },
  // the statistics' material funnel and the early warnings: plans, procurement, batches and receipts by
  // their lines' goods, quantities, upstream lines and prices; stocktakes and monthly reports by their
  // lines' figures; the goods' names and reference price
  'master.goods': { header: ['name', 'spec', 'unit', 'referencePrice'] },
  'demand.total': { header: ['master.project'], lines: ['master.goods', 'quantity', 'changeQuantity', 'effectiveQuantity'] },
  'demand.monthly': { header: ['master.project'], lines: ['master.goods', 'quantity', 'nextMonthQuantity', 'price'] },
  'procurement.monthly': { header: ['master.project'], lines: ['master.goods', 'upstreamLine', 'quantity', 'price'] },
  'supply.batch': { header: ['master.project'], lines: ['master.goods', 'upstreamLine', 'quantity', 'price'] },
  'stock.receipt': {
    header: ['master.project'],
    lines: ['master.goods', 'quantity', 'deliveredQuantity', 'returnedQuantity', 'upstreamLine', 'contractLine'],
  },
  'stock.voucher': { header: ['master.goods', 'quantity', 'deliveredQuantity', 'netWeight'] },
  'stock.count': { lines: ['master.goods', 'bookQuantity', 'countedQuantity', 'price'] },
  'stock.monthlyReport': {
    lines: ['master.goods', 'consumedQuantity', 'consumedAmount', 'closingPrice', 'designQuantity', 'lossRate'],
  },
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
