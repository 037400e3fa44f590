// The fields the cost rules read of each document role, by field role (x-entity.fieldRoles; a dotted
// one is a reference to a document of that role, found by its x-ref). The rules bind them by these
// roles when the server starts, and the linter checks a schema set against this table, so that a
// renamed field, or a document given a role without the fields it needs, is refused naming both.
// A list of alternatives is met by any one of them (an activity's month: its period, else its date).
import type { Report } from '../../../engine/packs.ts';
import { pointer } from '../../../engine/model/source.ts';
import { fieldWithRole, hasRole, type FieldRoleOwner } from '../../../engine/model/roles.ts';
import type { DetailModel, EntityModel, FieldModel } from '../../../engine/model/types.ts';

export type FieldRoleNeed = string | readonly string[];

/** What a document role's rules read: of its header, and of its lines (the detail whose rows hold the goods). */
export interface FieldRoleNeeds {
  header?: readonly FieldRoleNeed[];
  lines?: readonly FieldRoleNeed[];
}

/** Field roles each document role needs (the families not listed still read fields by name: docs/architecture.md). */
export const FIELD_ROLE_NEEDS = {
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
  // the statistics' material funnel and the early warnings: plans, procurement and batches by their
  // lines' goods, quantities, upstream lines and prices
  'demand.total': { header: ['master.project'], lines: ['master.goods', 'quantity', 'changeQuantity', 'effectiveQuantity'] },
  'demand.monthly': { header: ['master.project'], lines: ['master.goods', 'quantity', 'nextMonthQuantity', 'price'] },
  'procurement.monthly': { header: ['master.project'], lines: ['master.goods', 'upstreamLine', 'quantity', 'price'] },
  'supply.batch': { header: ['master.project'], lines: ['master.goods', 'upstreamLine', 'quantity', 'price'] },
  'stock.voucher': { header: ['master.goods', 'quantity', 'deliveredQuantity', 'netWeight'] },
  // the material ledger (packs/cost/engine/ledger/roles.ts): what each document posts, is given from the
  // ledger or is checked against it, and the master data its refusals name; the early warnings check
  // receipts against their batch and contract lines, stocktakes' counts and the monthly reports' consumption
  'stock.receipt': {
    header: ['master.project', 'master.warehouse', 'date', 'source'],
    lines: ['master.goods', 'quantity', 'amount', 'deliveredQuantity', 'returnedQuantity', 'upstreamLine', 'contractLine'],
  },
  'stock.count': {
    header: ['master.project', 'master.warehouse', 'date'],
    lines: ['master.goods', 'bookQuantity', 'bookPrice', 'bookAmount', 'gainLossQuantity', 'gainLossAmount', 'countedQuantity', 'price'],
  },
  'stock.monthlyReport': {
    header: ['master.project', 'master.warehouse', 'period'],
    lines: [
      'master.goods',
      'openingQuantity',
      'openingAmount',
      // received by material source (SOURCE_QUANTITIES)
      'selfPurchaseQuantity',
      'partyASupplyQuantity',
      'partyAControlQuantity',
      'transferInQuantity',
      'otherInQuantity',
      'receivedAmount',
      'gainLossQuantity',
      'gainLossAmount',
      'consumedQuantity',
      'consumedAmount',
      'transferOutQuantity',
      'transferOutAmount',
      'countedQuantity',
      'closingPrice',
      'designQuantity',
      'lossRate',
    ],
  },
  'turnover.movement': {
    header: ['master.project', 'contract.expense', 'date', 'direction'],
    lines: ['master.goods', 'quantity', 'lostQuantity', 'damagedQuantity', 'dailyRate'],
  },
  'turnover.count': {
    header: ['master.project', 'contract.expense', 'date'],
    lines: ['master.goods', 'bookQuantity'],
  },
  'turnover.rentSettlement': {
    lines: [
      'master.goods',
      'openingQuantity',
      'enteredQuantity',
      'exitedQuantity',
      'quantityDays',
      'lostQuantity',
      'damagedQuantity',
      'dailyRate',
    ],
  },
  'master.goods': { header: ['code', 'name', 'spec', 'unit', 'referencePrice'] },
  'master.warehouse': { header: ['master.project', 'name'] },
} as const satisfies Readonly<Record<string, FieldRoleNeeds>>;

/** The document role of the goods: a document's lines are the rows that refer to them. */
export const GOODS_ROLE = 'master.goods';

/** A document's lines: the detail whose rows refer to the goods. Undefined when none does; an error when two do. */
export function goodsLines(entities: Readonly<Record<string, EntityModel>>, model: EntityModel): DetailModel | undefined {
  const holding = model.details.filter((d) => fieldWithRole(entities, d, GOODS_ROLE) !== undefined);
  if (holding.length > 1)
    throw new Error(`${model.key} has goods in ${holding.map((d) => d.name).join(' and ')}: a rule could not tell which lines to read`);
  return holding[0];
}

const describe = (need: FieldRoleNeed) => (typeof need === 'string' ? `"${need}"` : need.map((n) => `"${n}"`).join(' or '));

/** Whether a header or detail meets a need: one of its options is named in its fieldRoles (the engine checks the name) or found. */
function meets(entities: Readonly<Record<string, EntityModel>>, owner: FieldRoleOwner, need: FieldRoleNeed): boolean {
  for (const option of typeof need === 'string' ? [need] : need) {
    if (option in owner.fieldRoles) return true;
    try {
      if (fieldWithRole(entities, owner, option)) return true;
    } catch {
      return true; // two references: reported by the engine's own check
    }
  }
  return false;
}

/** The linter's check of one document type against the table. */
export function lintFieldRoleNeeds(model: EntityModel, entities: Readonly<Record<string, EntityModel>>, report: Report) {
  for (const [role, needs] of Object.entries(FIELD_ROLE_NEEDS) as [string, FieldRoleNeeds][]) {
    if (!hasRole(model, role)) continue;
    for (const need of needs.header ?? [])
      if (!meets(entities, model, need))
        report(
          '/x-entity/fieldRoles',
          `${model.key} plays "${role}", whose rules read a field playing ${describe(need)}: name it in x-entity.fieldRoles`,
        );
    if (needs.lines) lintLines(model, entities, role, needs.lines, report);
  }
}

/** The lines' part of a document role's needs, checked against the detail holding the goods. */
function lintLines(
  model: EntityModel,
  entities: Readonly<Record<string, EntityModel>>,
  role: string,
  needs: readonly FieldRoleNeed[],
  report: Report,
) {
  let lines: DetailModel | undefined;
  try {
    lines = goodsLines(entities, model);
  } catch (err) {
    return report('/properties', (err as Error).message);
  }
  if (!lines)
    return report('/x-entity/roles', `${model.key} plays "${role}", whose rules read its lines: no detail's rows refer to "${GOODS_ROLE}"`);
  for (const need of needs)
    if (!meets(entities, lines, need))
      report(
        pointer('properties', lines.name, 'x-detail', 'fieldRoles'),
        `${model.key} plays "${role}", whose rules read a line field playing ${describe(need)}: name it in the x-detail.fieldRoles of ${lines.name}`,
      );
}

/** The project's cost budget lines by expense-contract type (R-BUD): absent when the project has no such detail. */
export interface BudgetLines {
  detail: DetailModel;
  contractType: FieldModel;
  budget: FieldModel;
}

/** The project's detail whose rows play `contractType` and `budget`, with those fields (the warnings and the statistics read it). */
export function budgetLines(entities: Readonly<Record<string, EntityModel>>, projectModel: EntityModel): BudgetLines | undefined {
  for (const detail of projectModel.details) {
    const contractType = fieldWithRole(entities, detail, 'contractType');
    const budget = fieldWithRole(entities, detail, 'budget');
    if (contractType && budget) return { detail, contractType, budget };
  }
  return undefined;
}

/** A document's number (x-entity.code): the rules name contracts and settlements by it; refused when it has none. */
export function codeField(model: EntityModel, role: string): FieldModel {
  const code = model.code && model.fieldMap[model.code.field];
  if (!code) throw new Error(`${model.key} plays "${role}" but has no code field (x-entity.code)`);
  return code;
}
