// Which rules each document type runs, on the figures of its project (docs/rules.md).
// A stored document (header and lines, as detail() reads it) goes in, its warnings come
// out. Document types are bound to their rules by role (x-entity.roles), never by entity key.
import { Dec } from '../../../../engine/compute/decimal.ts';
import { hasRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, EntityModel } from '../../../../engine/model/types.ts';
import { isSettlement } from '../../engine/warnings/auxiliary.ts';
import {
  acceptanceWarnings,
  amountCapWarnings,
  budgetWarnings,
  demandWarnings,
  inventoryLossWarnings,
  leaseOverdueWarnings,
  overuseWarnings,
  priceWarnings,
  procureOverTotalWarnings,
  procureWarnings,
  quantityCapWarnings,
  receiptOverContractWarnings,
  receiptOverSupplyWarnings,
  settlementAmountWarnings,
  smallSettlementWarnings,
  stockWarnings,
  supplementaryWarnings,
  supplyWarnings,
  ticketWarnings,
  timelinessWarnings,
  type GoodsFigures,
  type LinkedLine,
  type PricedLine,
  type WarnSettings,
  type Warning,
} from '../../engine/warnings/rules.ts';
import type { Row } from '../../../../server/db/db.ts';
import { COMMITTED, Figures, LEASE_ROLE, OPTIONAL_WARNING_ROLES, WARNING_ROLES } from './figures.ts';

type Evaluator = (figures: Figures, doc: Row, settings: WarnSettings, model: EntityModel) => Promise<Warning[]>;
type Num = number | string;

const str = (v: unknown): string | undefined => (v === null || v === undefined || v === '' ? undefined : String(v));
const rows = (doc: Row): Row[] => (doc.details as Row[] | undefined) ?? [];
const nameOf = (row: Row): string => String(row.goodsName ?? row.itemName ?? row.goodsCode ?? row.itemCode ?? '');
const goodsOf = (lines: Row[]): string[] => [...new Set(lines.map((r) => str(r.goodsId)).filter((g): g is string => !!g))];

/** T(g) and what the project's other documents already took of it. */
function planFigures(plan: Map<string, { effectiveQty: string }>, taken: Map<string, string>, goods: string[]): Map<string, GoodsFigures> {
  return new Map(goods.map((g) => [g, { planned: plan.get(g)?.effectiveQty, taken: taken.get(g) ?? '0' }]));
}

async function pricedLines(figures: Figures, lines: Row[], priceField: string): Promise<PricedLine[]> {
  const references = await figures.referencePrices(goodsOf(lines));
  return lines.map((r) => ({
    id: str(r.id),
    goodsId: str(r.goodsId),
    name: nameOf(r),
    qty: 0,
    price: r[priceField] as number,
    referencePrice: references.get(String(r.goodsId)),
  }));
}

/** R-DEM-1, R-STOCK-4 (next month's estimate against the stock), R-PRICE on a monthly demand. */
const monthlyDemand: Evaluator = async (figures, doc, settings, model) => {
  const projectId = String(doc.projectId);
  const lines = rows(doc);
  const goods = goodsOf(lines);
  const plan = await figures.totalDemand(projectId, str(doc.materialTotalDemandId));
  const taken = await figures.lineSums({
    model,
    sum: 'demandQty',
    by: 'goodsId',
    projectId,
    statuses: COMMITTED,
    excludeId: str(doc.id),
    keys: goods,
  });
  const asLines = lines.map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r.demandQty as number }));
  const { stock } = await figures.stock(projectId, goods);
  return [
    ...demandWarnings(asLines, planFigures(plan, taken, goods), settings),
    // R-STOCK-4 compares the stock with the coming month's estimate, where the line gives one
    ...stockWarnings(
      lines
        .filter((r) => Number(r.nextMonthEstimateQty) > 0)
        .map((r) => ({
          id: str(r.id),
          goodsId: str(r.goodsId),
          name: nameOf(r),
          qty: r.nextMonthEstimateQty as number,
          stock: stock.get(String(r.goodsId)) ?? '0',
        })),
    ),
    ...priceWarnings(await pricedLines(figures, lines, 'price'), settings),
  ];
};

interface Link {
  /** the document type drawing on the upstream lines, and its line field naming the upstream line */
  model: EntityModel;
  field: string;
  qty: string;
  upstream: EntityModel;
  upstreamQty: string;
}

/**
 * Lines drawn against upstream lines (a procurement's on monthly-demand lines, a batch's on
 * procurement lines, a check's on batch or contract lines): each with its upstream line's quantity
 * and what the other approved and approving documents of its type already drew on it.
 */
async function linkedLines(figures: Figures, doc: Row, link: Link): Promise<LinkedLine[]> {
  const lines = rows(doc);
  const upstreamIds = [...new Set(lines.map((r) => str(r[link.field])).filter((d): d is string => !!d))];
  const limits = await figures.lines(link.upstream, upstreamIds, [link.upstreamQty]);
  const taken = await figures.lineSums({
    model: link.model,
    sum: link.qty,
    by: link.field,
    projectId: String(doc.projectId),
    statuses: COMMITTED,
    excludeId: str(doc.id),
    keys: upstreamIds,
  });
  return lines
    .filter((r) => limits.has(String(r[link.field])))
    .map((r) => {
      const up = String(r[link.field]);
      return {
        id: str(r.id),
        goodsId: str(r.goodsId),
        name: nameOf(r),
        qty: r[link.qty] as number,
        upstreamId: up,
        limit: String(limits.get(up)![link.upstreamQty] ?? 0),
        taken: taken.get(up) ?? '0',
      };
    });
}

/** R-PRO-1 (both halves) and R-PRICE on a procurement. */
const monthlyProcure: Evaluator = async (figures, doc, settings, model) => {
  const projectId = String(doc.projectId);
  const lines = rows(doc);
  const goods = goodsOf(lines);
  const linked = await linkedLines(figures, doc, {
    model,
    field: 'monthlyDemandDetailId',
    qty: 'procureQty',
    upstream: figures.documents.monthlyDemand,
    upstreamQty: 'demandQty',
  });
  const plan = await figures.totalDemand(projectId);
  const taken = await figures.lineSums({
    model,
    sum: 'procureQty',
    by: 'goodsId',
    projectId,
    statuses: COMMITTED,
    excludeId: str(doc.id),
    keys: goods,
  });
  const asLines = lines.map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r.procureQty as number }));
  return [
    ...procureWarnings(linked),
    ...procureOverTotalWarnings(asLines, planFigures(plan, taken, goods), settings),
    ...priceWarnings(await pricedLines(figures, lines, 'estimatedPrice'), settings),
  ];
};

/** R-SUP-1 and R-PRICE on a delivery batch. */
const batchSupply: Evaluator = async (figures, doc, settings, model) => {
  const linked = await linkedLines(figures, doc, {
    model,
    field: 'procureDetailId',
    qty: 'supplyQty',
    upstream: figures.documents.procurement,
    upstreamQty: 'procureQty',
  });
  return [...supplyWarnings(linked), ...priceWarnings(await pricedLines(figures, rows(doc), 'price'), settings)];
};

/** R-SUPP on a supplementary agreement (a contract with a parent contract). */
async function supplementary(figures: Figures, doc: Row, settings: WarnSettings): Promise<Warning[]> {
  const parentCode = str(doc.parentContractCode);
  const parent = parentCode ? await figures.contract('code', parentCode) : null;
  if (!parentCode || !parent) return [];
  const others = await figures.supplementaryTotal(parentCode, str(doc.id));
  const total = new Dec(others).add(new Dec(String(doc.contractAmount ?? 0))).toString();
  return supplementaryWarnings(parent.contractAmount as string, total, settings);
}

/**
 * R-BUD-1: the project's other approved and approving contracts of the type, and this one at its
 * current amount, against the project's budget for the type (no budget line: nothing to check).
 */
async function budget(figures: Figures, doc: Row, settings: WarnSettings): Promise<Warning[]> {
  const type = str(doc.expenditureContractType);
  if (!type) return [];
  const budgets = await figures.budgets(String(doc.projectId));
  if (!budgets.has(type)) return [];
  const others = await figures.contractsOfType(String(doc.projectId), type, str(doc.id));
  const own = new Dec(String(doc.currentAmount ?? doc.contractAmount ?? 0));
  return budgetWarnings(new Dec(others).add(own).toString(), budgets.get(type), await figures.typeName(type), settings);
}

/** R-BUD-1, R-SUPP and R-PRICE on an expense contract. */
const expenseContract: Evaluator = async (figures, doc, settings) => [
  ...(await budget(figures, doc, settings)),
  ...(await supplementary(figures, doc, settings)),
  ...priceWarnings(await pricedLines(figures, rows(doc), 'priceInclTax'), settings),
];

/**
 * R-REC on a goods-received check: each line's accepted and returned quantities against what was
 * delivered and rejected (R-REC-1); Σ accepted quantities on a delivery batch line against its supply
 * quantity, and on a contract line against its quantity (the changed one when there is one).
 */
const receipt: Evaluator = async (figures, doc, _settings, model) => {
  const accepted = acceptanceWarnings(
    rows(doc).map((r) => ({
      id: str(r.id),
      goodsId: str(r.goodsId),
      name: nameOf(r),
      qty: r.acceptedQty as Num,
      deliveredQty: r.deliveredQty as Num,
      returnedQty: r.returnedQty as Num | null,
    })),
  );
  const contractModel = figures.documents.contract;
  const batch = await linkedLines(figures, doc, {
    model,
    field: 'batchDetailId',
    qty: 'acceptedQty',
    upstream: figures.documents.batch,
    upstreamQty: 'supplyQty',
  });
  const contract = await linkedLines(figures, doc, {
    model,
    field: 'contractDetailId',
    qty: 'acceptedQty',
    upstream: contractModel,
    upstreamQty: 'quantity',
  });
  const changed = await figures.lines(
    contractModel,
    contract.map((l) => l.upstreamId),
    ['changedQuantity'],
  );
  const limited = contract.map((l) => ({ ...l, limit: String(changed.get(l.upstreamId)?.changedQuantity ?? l.limit) }));
  return [...accepted, ...receiptOverSupplyWarnings(batch), ...receiptOverContractWarnings(limited)];
};

/** R-REC-1 on a delivery ticket (a one-goods document): received against delivered, or the net weight when weighed. */
const ticket: Evaluator = async (_figures, doc) =>
  ticketWarnings([
    {
      goodsId: str(doc.goodsId),
      name: nameOf(doc),
      qty: doc.receivedQty as Num,
      deliveredQty: doc.deliveredQty as Num,
      netWeight: doc.netWeight as Num | null,
    },
  ]);

/** R-INV-1 on a stocktake: its lines' book quantity and price are the ledger's, written on save. */
const stocktake: Evaluator = async (_figures, doc, settings) =>
  inventoryLossWarnings(
    rows(doc).map((r) => ({
      id: str(r.id),
      goodsId: str(r.goodsId),
      name: nameOf(r),
      qty: 0,
      bookQty: r.bookQty as Num,
      countQty: r.countQty as Num,
      price: r.price as Num | null,
    })),
    settings,
  );

/** R-VAR on a monthly report: a line's consumption against its design quantity and loss rate, valued at its consumption's average price. */
const monthlyReport: Evaluator = async (_figures, doc, settings) =>
  overuseWarnings(
    rows(doc).map((r) => {
      const consumed = new Dec(String(r.consumedQty ?? 0));
      const price = consumed.gt(0)
        ? new Dec(String(r.consumedAmount ?? 0)).div(consumed).toDecimalPlaces(4).toString()
        : (r.closingPrice as Num | null);
      return {
        id: str(r.id),
        goodsId: str(r.goodsId),
        name: nameOf(r),
        qty: consumed.toString(),
        designQty: r.designQty as Num | null,
        lossRate: r.lossRate as Num | null,
        price,
      };
    }),
    settings,
  );

/** Near-zero settlements (docs/rules.md#zero_settlement): this interim settlement and its group's last approved periods before it, against the contract. */
async function smallSettlements(
  figures: Figures,
  doc: Row,
  model: EntityModel,
  currentAmount: Num | null,
  settings: WarnSettings,
): Promise<Warning[]> {
  const period = str(doc.period);
  if ((doc.settlementType !== undefined && doc.settlementType !== 'interim') || !period || settings.smallSettlementCount < 1) return [];
  const group: Record<string, string> = {};
  for (const key of ['projectId', 'expenditureContractCode', 'subcontractorId'])
    if (key in model.fieldMap && str(doc[key])) group[key] = String(doc[key]);
  const earlier = await figures.lastPeriods(model, group, settings.smallSettlementCount - 1, str(doc.id), period);
  return smallSettlementWarnings([doc.thisAmountInclTax as Num, ...earlier.map((p) => p.amount)], currentAmount, settings);
}

/** late settlement (d) looks at an approved settlement's approval. */
async function approvalOf(figures: Figures, doc: Row, model: EntityModel) {
  const instance = model.workflow?.instanceField ? str(doc[model.workflow.instanceField]) : undefined;
  return doc[model.workflow!.statusField] === 'approved' && instance ? figures.approval(instance) : null;
}

/** R-CAP-1, R-CAP-3, negative, zero and near-zero, late settlement, lease overdue, R-PRICE on a monthly settlement. */
const settlement: Evaluator = async (figures, doc, settings, model) => {
  const code = str(doc.expenditureContractCode);
  const contract = code ? await figures.contract('code', code) : null;
  const currentAmount = (contract?.currentAmount as string | null) ?? (doc.currentContractAmount as number | null);
  const lines = rows(doc);
  const capped = lines
    .filter((r) => r.cumulativeQty !== undefined && r.cumulativeQty !== null)
    .map((r) => ({
      id: str(r.id),
      goodsId: str(r.goodsId),
      name: nameOf(r),
      qty: r.thisQty as number,
      cumulativeQty: r.cumulativeQty as number,
      contractQty: r.contractQty as number | null,
    }));
  const warnings = [
    ...quantityCapWarnings(capped),
    ...amountCapWarnings(doc.cumulativeAmount as number, currentAmount, settings),
    ...settlementAmountWarnings(doc.thisAmountInclTax as number, doc.thisPayableAmount as Num | undefined),
    ...(await smallSettlements(figures, doc, model, currentAmount, settings)),
    ...timelinessWarnings(
      {
        period: str(doc.period),
        startDate: str(doc.startDate),
        endDate: str(doc.endDate),
        preparedMonth: String(doc.createTime ?? '').slice(0, 7),
      },
      settings,
      await approvalOf(figures, doc, model),
    ),
  ];
  if (hasRole(model, LEASE_ROLE)) warnings.push(...leaseOverdueWarnings(str(doc.endDate), str(contract?.endDate)));
  if (lines.some((r) => 'thisPrice' in r)) warnings.push(...priceWarnings(await pricedLines(figures, lines, 'thisPrice'), settings));
  return warnings;
};

/** The rules of each role; a document type playing none of them (and no settlement) has no warnings. */
const BY_ROLE: readonly [string, Evaluator][] = [
  [WARNING_ROLES.monthlyDemand, monthlyDemand],
  [WARNING_ROLES.procurement, monthlyProcure],
  [WARNING_ROLES.batch, batchSupply],
  [WARNING_ROLES.contract, expenseContract],
  [OPTIONAL_WARNING_ROLES.receipt, receipt],
  [OPTIONAL_WARNING_ROLES.ticket, ticket],
  [OPTIONAL_WARNING_ROLES.stocktake, stocktake],
  [OPTIONAL_WARNING_ROLES.monthlyReport, monthlyReport],
];

/** The evaluator of a document type, if it has early-warning rules. */
export function evaluatorOf(model: EntityModel): Evaluator | undefined {
  return BY_ROLE.find(([role]) => hasRole(model, role))?.[1] ?? (isSettlement(model) ? settlement : undefined);
}

/** Whether a document's warnings are evaluated again when it is approved: a settlement's approval may be late (late_settlement (d)). */
export function reevaluatedOnApproval(model: EntityModel): boolean {
  return evaluatorOf(model) === settlement;
}

/** Every document type with early-warning rules. */
export function warnedEntities(catalog: EntityCatalog): EntityModel[] {
  return Object.values(catalog.entities).filter((m) => evaluatorOf(m) && 'projectId' in m.fieldMap);
}
