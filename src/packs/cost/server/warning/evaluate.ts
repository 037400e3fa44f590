// Which rules each document type runs, on the figures of its project (docs/rules.md).
// A stored document (header and lines, as detail() reads it) goes in, its warnings come
// out. Document types are bound to their rules by role (x-entity.roles), never by entity key.
import { Dec } from '../../../../engine/compute/decimal.ts';
import { hasRole } from '../../../../engine/model/roles.ts';
import type { DetailModel, EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
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
import { LEASE_ROLE, OPTIONAL_WARNING_ROLES, projectRefOf, WARNING_ROLES, type BoundLines, type SettlementFields } from './documents.ts';
import { COMMITTED, Figures, type Group, type PlannedGoods, type SummedLines } from './figures.ts';

type Evaluator = (figures: Figures, doc: Row, settings: WarnSettings, model: EntityModel) => Promise<Warning[]>;
type Num = number | string;

const PROJECT = WARNING_ROLES.projectRecord;
const GOODS = WARNING_ROLES.goods;

const str = (v: unknown): string | undefined => (v === null || v === undefined || v === '' ? undefined : String(v));
/** A field's value in a header or row; undefined when the document type has no such field. */
const fieldValue = (row: Row, field: FieldModel | undefined): unknown => (field ? row[field.name] : undefined);
/** A document's rows of one detail. */
const rowsOf = (doc: Row, detail: DetailModel): Row[] => (doc[detail.name] as Row[] | undefined) ?? [];

/** How the rules see a line's goods and name (documents.ts labelFields). */
interface LineReader {
  goods?: FieldModel;
  labels: readonly FieldModel[];
}

const readerOf = (lines: Pick<BoundLines<typeof GOODS>, 'fields' | 'labels'>): LineReader => ({
  goods: lines.fields[GOODS],
  labels: lines.labels,
});

/** A line's name in messages: the first of its name fields holding a value. */
function nameOf(row: Row, labels: readonly FieldModel[]): string {
  for (const f of labels) if (row[f.name] !== null && row[f.name] !== undefined) return String(row[f.name]);
  return '';
}

/** What every rule's line carries: its id, goods and name. */
const lineOf = (row: Row, reader: LineReader) => ({
  id: str(row.id),
  goodsId: str(fieldValue(row, reader.goods)),
  name: nameOf(row, reader.labels),
});

const goodsOf = (rows: Row[], goods: FieldModel | undefined): string[] => [
  ...new Set(rows.map((r) => str(fieldValue(r, goods))).filter((g): g is string => !!g)),
];

/** T(g) and what the project's other documents already took of it. */
function planFigures(plan: Map<string, PlannedGoods>, taken: Map<string, string>, goods: string[]): Map<string, GoodsFigures> {
  return new Map(goods.map((g) => [g, { planned: plan.get(g)?.effectiveQuantity, taken: taken.get(g) ?? '0' }]));
}

async function pricedLines(figures: Figures, rows: Row[], reader: LineReader, price: FieldModel): Promise<PricedLine[]> {
  const references = await figures.referencePrices(goodsOf(rows, reader.goods));
  return rows.map((r) => ({
    ...lineOf(r, reader),
    qty: 0,
    price: r[price.name] as number,
    referencePrice: references.get(String(fieldValue(r, reader.goods))),
  }));
}

/** A plan's or a procurement's project, lines and goods, as its rules read them. */
function planned(bound: { header: Record<typeof PROJECT, FieldModel>; lines: BoundLines<typeof GOODS> }, doc: Row) {
  const reader = readerOf(bound.lines);
  const lines = rowsOf(doc, bound.lines.detail);
  return { reader, projectId: String(doc[bound.header[PROJECT].name]), lines, goods: goodsOf(lines, reader.goods) };
}

/** R-DEM-1, R-STOCK-4 (next month's estimate against the stock), R-PRICE on a monthly demand. */
const monthlyDemand: Evaluator = async (figures, doc, settings) => {
  const bound = figures.fields.monthlyDemand;
  const { fields } = bound.lines;
  const { reader, projectId, lines, goods } = planned(bound, doc);
  const plan = await figures.totalDemand(projectId, str(fieldValue(doc, bound.totalDemandRef)));
  const taken = await figures.lineSums(bound, {
    sum: fields.quantity,
    by: fields[GOODS],
    projectId,
    statuses: COMMITTED,
    excludeId: str(doc.id),
    keys: goods,
  });
  const asLines = lines.map((r) => ({ ...lineOf(r, reader), qty: r[fields.quantity.name] as number }));
  const { stock } = await figures.stock(projectId, goods);
  const nextMonth = fields.nextMonthQuantity.name;
  return [
    ...demandWarnings(asLines, planFigures(plan, taken, goods), settings),
    // R-STOCK-4 compares the stock with the coming month's estimate, where the line gives one
    ...stockWarnings(
      lines
        .filter((r) => Number(r[nextMonth]) > 0)
        .map((r) => ({
          ...lineOf(r, reader),
          qty: r[nextMonth] as number,
          stock: stock.get(String(fieldValue(r, reader.goods))) ?? '0',
        })),
    ),
    ...priceWarnings(await pricedLines(figures, lines, reader, fields.price), settings),
  ];
};

interface Link {
  /** the document drawing on the upstream lines, its line field naming the upstream line, and the quantity it draws */
  source: SummedLines & { lines: BoundLines<typeof GOODS> };
  upstreamRef: FieldModel;
  qty: FieldModel;
  /** the upstream document's lines and their quantity */
  upstream: Pick<SummedLines, 'model' | 'lines'>;
  upstreamQty: FieldModel;
}

/**
 * Lines drawn against upstream lines (a procurement's on monthly-demand lines, a batch's on
 * procurement lines, a check's on batch or contract lines): each with its upstream line's quantity
 * and what the other approved and approving documents of its type already drew on it.
 */
async function linkedLines(figures: Figures, doc: Row, link: Link): Promise<LinkedLine[]> {
  const lines = rowsOf(doc, link.source.lines.detail);
  const reader = readerOf(link.source.lines);
  const upstreamOf = (r: Row) => str(r[link.upstreamRef.name]);
  const upstreamIds = [...new Set(lines.map(upstreamOf).filter((d): d is string => !!d))];
  const limits = await figures.lines(link.upstream, upstreamIds, { limit: link.upstreamQty });
  const taken = await figures.lineSums(link.source, {
    sum: link.qty,
    by: link.upstreamRef,
    projectId: String(doc[link.source.header[PROJECT].name]),
    statuses: COMMITTED,
    excludeId: str(doc.id),
    keys: upstreamIds,
  });
  return lines
    .filter((r) => limits.has(String(r[link.upstreamRef.name])))
    .map((r) => {
      const up = String(r[link.upstreamRef.name]);
      return {
        ...lineOf(r, reader),
        qty: r[link.qty.name] as number,
        upstreamId: up,
        limit: String(limits.get(up)!.limit ?? 0),
        taken: taken.get(up) ?? '0',
      };
    });
}

/** R-PRO-1 (both halves) and R-PRICE on a procurement. */
const monthlyProcure: Evaluator = async (figures, doc, settings) => {
  const bound = figures.fields.procurement;
  const { fields } = bound.lines;
  const { reader, projectId, lines, goods } = planned(bound, doc);
  const demand = figures.fields.monthlyDemand;
  const linked = await linkedLines(figures, doc, {
    source: bound,
    upstreamRef: fields.upstreamLine,
    qty: fields.quantity,
    upstream: demand,
    upstreamQty: demand.lines.fields.quantity,
  });
  const plan = await figures.totalDemand(projectId);
  const taken = await figures.lineSums(bound, {
    sum: fields.quantity,
    by: fields[GOODS],
    projectId,
    statuses: COMMITTED,
    excludeId: str(doc.id),
    keys: goods,
  });
  const asLines = lines.map((r) => ({ ...lineOf(r, reader), qty: r[fields.quantity.name] as number }));
  return [
    ...procureWarnings(linked),
    ...procureOverTotalWarnings(asLines, planFigures(plan, taken, goods), settings),
    ...priceWarnings(await pricedLines(figures, lines, reader, fields.price), settings),
  ];
};

/** R-SUP-1 and R-PRICE on a delivery batch. */
const batchSupply: Evaluator = async (figures, doc, settings) => {
  const bound = figures.fields.batch;
  const { fields } = bound.lines;
  const procurement = figures.fields.procurement;
  const linked = await linkedLines(figures, doc, {
    source: bound,
    upstreamRef: fields.upstreamLine,
    qty: fields.quantity,
    upstream: procurement,
    upstreamQty: procurement.lines.fields.quantity,
  });
  const priced = await pricedLines(figures, rowsOf(doc, bound.lines.detail), readerOf(bound.lines), fields.price);
  return [...supplyWarnings(linked), ...priceWarnings(priced, settings)];
};

/** R-SUPP on a supplementary agreement (a contract with a parent contract). */
async function supplementary(figures: Figures, doc: Row, settings: WarnSettings): Promise<Warning[]> {
  const { header } = figures.fields.contract;
  const parentCode = str(doc[header.parentContract.name]);
  const parent = parentCode ? await figures.contract('code', parentCode) : null;
  if (!parentCode || !parent) return [];
  const others = await figures.supplementaryTotal(parentCode, str(doc.id));
  const total = new Dec(others).add(new Dec(String(doc[header.amount.name] ?? 0))).toString();
  return supplementaryWarnings(parent.amount as string, total, settings);
}

/**
 * R-BUD-1: the project's other approved and approving contracts of the type, and this one at its
 * current amount, against the project's budget for the type (no budget line: nothing to check).
 */
async function budget(figures: Figures, doc: Row, settings: WarnSettings): Promise<Warning[]> {
  const { header } = figures.fields.contract;
  const type = str(doc[header.contractType.name]);
  if (!type) return [];
  const projectId = String(doc[header[PROJECT].name]);
  const budgets = await figures.budgets(projectId);
  if (!budgets.has(type)) return [];
  const others = await figures.contractsOfType(projectId, type, str(doc.id));
  const own = new Dec(String(doc[header.currentAmount.name] ?? doc[header.amount.name] ?? 0));
  return budgetWarnings(new Dec(others).add(own).toString(), budgets.get(type), await figures.typeName(type), settings);
}

/** R-BUD-1, R-SUPP and R-PRICE on an expense contract. */
const expenseContract: Evaluator = async (figures, doc, settings) => {
  const { lines } = figures.fields.contract;
  return [
    ...(await budget(figures, doc, settings)),
    ...(await supplementary(figures, doc, settings)),
    ...priceWarnings(await pricedLines(figures, rowsOf(doc, lines.detail), readerOf(lines), lines.fields.price), settings),
  ];
};

/**
 * R-REC on a goods-received check: each line's accepted and returned quantities against what was
 * delivered and rejected (R-REC-1); Σ accepted quantities on a delivery batch line against its supply
 * quantity, and on a contract line against its quantity (the changed one when there is one).
 */
const receipt: Evaluator = async (figures, doc) => {
  const bound = figures.fields.receipt!;
  const { fields } = bound.lines;
  const reader = readerOf(bound.lines);
  const accepted = acceptanceWarnings(
    rowsOf(doc, bound.lines.detail).map((r) => ({
      ...lineOf(r, reader),
      qty: r[fields.quantity.name] as Num,
      deliveredQty: r[fields.deliveredQuantity.name] as Num,
      returnedQty: r[fields.returnedQuantity.name] as Num | null,
    })),
  );
  const { batch: supplied, contract: contracted } = figures.fields;
  const drawn = { source: bound, qty: fields.quantity };
  const batch = await linkedLines(figures, doc, {
    ...drawn,
    upstreamRef: fields.upstreamLine,
    upstream: supplied,
    upstreamQty: supplied.lines.fields.quantity,
  });
  const contract = await linkedLines(figures, doc, {
    ...drawn,
    upstreamRef: fields.contractLine,
    upstream: contracted,
    upstreamQty: contracted.lines.fields.quantity,
  });
  const changed = await figures.lines(
    contracted,
    contract.map((l) => l.upstreamId),
    { changed: contracted.lines.fields.changedQuantity },
  );
  const limited = contract.map((l) => ({ ...l, limit: String(changed.get(l.upstreamId)?.changed ?? l.limit) }));
  return [...accepted, ...receiptOverSupplyWarnings(batch), ...receiptOverContractWarnings(limited)];
};

/** R-REC-1 on a delivery ticket (a one-goods document): received against delivered, or the net weight when weighed. */
const ticket: Evaluator = async (figures, doc) => {
  const { header, labels } = figures.fields.ticket!;
  return ticketWarnings([
    {
      goodsId: str(doc[header[GOODS].name]),
      name: nameOf(doc, labels),
      qty: doc[header.quantity.name] as Num,
      deliveredQty: doc[header.deliveredQuantity.name] as Num,
      netWeight: doc[header.netWeight.name] as Num | null,
    },
  ]);
};

/** R-INV-1 on a stocktake: its lines' book quantity and price are the ledger's, written on save. */
const stocktake: Evaluator = async (figures, doc, settings) => {
  const { lines } = figures.fields.stocktake!;
  const reader = readerOf(lines);
  return inventoryLossWarnings(
    rowsOf(doc, lines.detail).map((r) => ({
      ...lineOf(r, reader),
      qty: 0,
      bookQty: r[lines.fields.bookQuantity.name] as Num,
      countQty: r[lines.fields.countedQuantity.name] as Num,
      price: r[lines.fields.price.name] as Num | null,
    })),
    settings,
  );
};

/** R-VAR on a monthly report: a line's consumption against its design quantity and loss rate, valued at its consumption's average price. */
const monthlyReport: Evaluator = async (figures, doc, settings) => {
  const { lines } = figures.fields.monthlyReport!;
  const { fields } = lines;
  const reader = readerOf(lines);
  return overuseWarnings(
    rowsOf(doc, lines.detail).map((r) => {
      const consumed = new Dec(String(r[fields.consumedQuantity.name] ?? 0));
      const price = consumed.gt(0)
        ? new Dec(String(r[fields.consumedAmount.name] ?? 0)).div(consumed).toDecimalPlaces(4).toString()
        : (r[fields.closingPrice.name] as Num | null);
      return {
        ...lineOf(r, reader),
        qty: consumed.toString(),
        designQty: r[fields.designQuantity.name] as Num | null,
        lossRate: r[fields.lossRate.name] as Num | null,
        price,
      };
    }),
    settings,
  );
};

/** The header fields a settlement's group is kept by, with this settlement's values (those it has). */
function groupOf(doc: Row, fields: SettlementFields): Group {
  const keys = [fields.header[PROJECT], fields.header[WARNING_ROLES.contract], fields.counterpartyRef];
  return keys.flatMap((f) => {
    const v = str(fieldValue(doc, f));
    return f && v ? [[f, v] as const] : [];
  });
}

/** Near-zero settlements (docs/rules.md#zero_settlement): this interim settlement and its group's last approved periods before it, against the contract. */
async function smallSettlements(
  figures: Figures,
  doc: Row,
  model: EntityModel,
  fields: SettlementFields,
  currentAmount: Num | null,
  settings: WarnSettings,
): Promise<Warning[]> {
  const period = str(doc[fields.header.period.name]);
  const type = fieldValue(doc, fields.settlementType);
  if ((type !== undefined && type !== 'interim') || !period || settings.smallSettlementCount < 1) return [];
  const earlier = await figures.lastPeriods(model, groupOf(doc, fields), settings.smallSettlementCount - 1, str(doc.id), period);
  return smallSettlementWarnings([doc[fields.header.amount.name] as Num, ...earlier.map((p) => p.amount)], currentAmount, settings);
}

/** late settlement (d) looks at an approved settlement's approval. */
async function approvalOf(figures: Figures, doc: Row, model: EntityModel) {
  const instance = model.workflow?.instanceField ? str(doc[model.workflow.instanceField]) : undefined;
  return doc[model.workflow!.statusField] === 'approved' && instance ? figures.approval(instance) : null;
}

/** R-CAP-1 on a settlement's lines: each line's cumulative quantity against its contract quantity. */
function cappedLines(rows: Row[], lines: SettlementFields['lines']) {
  const caps = lines?.caps;
  if (!lines || !caps) return [];
  return rows
    .filter((r) => r[caps.cumulativeQuantity.name] !== undefined && r[caps.cumulativeQuantity.name] !== null)
    .map((r) => ({
      ...lineOf(r, lines),
      // R-CAP-1 reads the cumulative quantity, not this period's
      qty: 0,
      cumulativeQty: r[caps.cumulativeQuantity.name] as number,
      contractQty: r[caps.contractQuantity.name] as number | null,
    }));
}

/** R-CAP-1, R-CAP-3, negative, zero and near-zero, late settlement, lease overdue, R-PRICE on a monthly settlement. */
const settlement: Evaluator = async (figures, doc, settings, model) => {
  const fields = figures.fields.settlements.get(model.key)!;
  const { header } = fields;
  const code = str(doc[header[WARNING_ROLES.contract].name]);
  const contract = code ? await figures.contract('code', code) : null;
  const currentAmount = (contract?.currentAmount as string | null) ?? (fieldValue(doc, fields.contractAmount) as number | null);
  const rows = fields.lines ? rowsOf(doc, fields.lines.detail) : [];
  const periodEnd = str(fieldValue(doc, fields.periodEnd));
  const warnings = [
    ...quantityCapWarnings(cappedLines(rows, fields.lines)),
    ...amountCapWarnings(doc[header.cumulativeAmount.name] as number, currentAmount, settings),
    ...settlementAmountWarnings(doc[header.amount.name] as number, fieldValue(doc, fields.payable) as Num | undefined),
    ...(await smallSettlements(figures, doc, model, fields, currentAmount, settings)),
    ...timelinessWarnings(
      {
        period: str(doc[header.period.name]),
        startDate: str(fieldValue(doc, fields.periodStart)),
        endDate: periodEnd,
        preparedMonth: String(doc.createTime ?? '').slice(0, 7),
      },
      settings,
      await approvalOf(figures, doc, model),
    ),
  ];
  if (hasRole(model, LEASE_ROLE)) warnings.push(...leaseOverdueWarnings(periodEnd, str(contract?.endDate)));
  const price = fields.lines?.price;
  if (fields.lines && price && rows.some((r) => price.name in r))
    warnings.push(...priceWarnings(await pricedLines(figures, rows, fields.lines, price), settings));
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
  return Object.values(catalog.entities).filter((m) => evaluatorOf(m) && projectRefOf(catalog, m));
}
