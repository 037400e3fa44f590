// Which rules each document type runs, on the figures of its project (domain.md §4.3, §4.5, §4.6,
// §4.15). A stored document (header and lines, as detail() reads it) goes in, its warnings come out.
import { Dec } from '../../../engine/compute/decimal.ts';
import type { EntityCatalog, EntityModel } from '../../../engine/model/types.ts';
import { isSettlement } from '../../../engine/warnings/auxiliary.ts';
import {
  amountCapWarnings, demandWarnings, leaseOverdueWarnings, priceWarnings, procureOverTotalWarnings, procureWarnings, quantityCapWarnings,
  settlementAmountWarnings, stockWarnings, supplementaryWarnings, supplyWarnings, timelinessWarnings,
  type GoodsFigures, type LinkedLine, type PricedLine, type WarnSettings, type Warning,
} from '../../../engine/warnings/rules.ts';
import type { Row } from '../../db/db.ts';
import { COMMITTED, Figures } from './figures.ts';

type Evaluator = (figures: Figures, doc: Row, settings: WarnSettings, model: EntityModel) => Promise<Warning[]>;

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
  return lines.map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: 0, price: r[priceField] as number, referencePrice: references.get(String(r.goodsId)) }));
}

/** R-DEM-1, R-STOCK-4 (next month's estimate against the stock), R-PRICE on a monthly demand. */
const monthlyDemand: Evaluator = async (figures, doc, settings) => {
  const projectId = String(doc.projectId);
  const lines = rows(doc);
  const goods = goodsOf(lines);
  const plan = await figures.totalDemand(projectId, str(doc.materialTotalDemandId));
  const taken = await figures.lineSums({ entity: 'materialMonthlyDemand', sum: 'demandQty', by: 'goodsId', projectId, statuses: COMMITTED, excludeId: String(doc.id), keys: goods });
  const asLines = lines.map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r.demandQty as number }));
  const { stock } = await figures.stock(projectId, goods);
  return [
    ...demandWarnings(asLines, planFigures(plan, taken, goods), settings),
    // R-STOCK-4 compares the stock with the coming month's estimate, where the line gives one
    ...stockWarnings(lines.filter((r) => Number(r.nextMonthEstimateQty) > 0).map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r.nextMonthEstimateQty as number, stock: stock.get(String(r.goodsId)) ?? '0' }))),
    ...priceWarnings(await pricedLines(figures, lines, 'price'), settings),
  ];
};

/**
 * Lines drawn against upstream lines (a procurement's on monthly-demand lines, a batch's on
 * procurement lines): each with its upstream line's quantity and what the other approved and
 * approving documents of its type already drew on it.
 */
async function linkedLines(figures: Figures, doc: Row, link: { entity: string; field: string; qty: string; upstream: string; upstreamQty: string }): Promise<LinkedLine[]> {
  const lines = rows(doc);
  const upstreamIds = [...new Set(lines.map((r) => str(r[link.field])).filter((d): d is string => !!d))];
  const limits = await figures.lines(link.upstream, upstreamIds, [link.upstreamQty]);
  const taken = await figures.lineSums({ entity: link.entity, sum: link.qty, by: link.field, projectId: String(doc.projectId), statuses: COMMITTED, excludeId: String(doc.id), keys: upstreamIds });
  return lines
    .filter((r) => limits.has(String(r[link.field])))
    .map((r) => {
      const up = String(r[link.field]);
      return { id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r[link.qty] as number, upstreamId: up, limit: String(limits.get(up)![link.upstreamQty] ?? 0), taken: taken.get(up) ?? '0' };
    });
}

/** R-PRO-1 (both halves) and R-PRICE on a procurement. */
const monthlyProcure: Evaluator = async (figures, doc, settings) => {
  const projectId = String(doc.projectId);
  const lines = rows(doc);
  const goods = goodsOf(lines);
  const linked = await linkedLines(figures, doc, { entity: 'materialMonthlyProcure', field: 'monthlyDemandDetailId', qty: 'procureQty', upstream: 'materialMonthlyDemand', upstreamQty: 'demandQty' });
  const plan = await figures.totalDemand(projectId);
  const taken = await figures.lineSums({ entity: 'materialMonthlyProcure', sum: 'procureQty', by: 'goodsId', projectId, statuses: COMMITTED, excludeId: String(doc.id), keys: goods });
  const asLines = lines.map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r.procureQty as number }));
  return [
    ...procureWarnings(linked),
    ...procureOverTotalWarnings(asLines, planFigures(plan, taken, goods), settings),
    ...priceWarnings(await pricedLines(figures, lines, 'estimatedPrice'), settings),
  ];
};

/** R-SUP-1 and R-PRICE on a delivery batch. */
const batchSupply: Evaluator = async (figures, doc, settings) => {
  const linked = await linkedLines(figures, doc, { entity: 'materialBatchSupply', field: 'procureDetailId', qty: 'supplyQty', upstream: 'materialMonthlyProcure', upstreamQty: 'procureQty' });
  return [...supplyWarnings(linked), ...priceWarnings(await pricedLines(figures, rows(doc), 'price'), settings)];
};

/** R-SUPP on a supplementary agreement (a contract with a parent contract), R-PRICE on its lines. */
const expenditureContract: Evaluator = async (figures, doc, settings) => {
  const warnings = priceWarnings(await pricedLines(figures, rows(doc), 'priceInclTax'), settings);
  const parentCode = str(doc.parentContractCode);
  if (!parentCode) return warnings;
  const parent = await figures.contract('code', parentCode);
  if (!parent) return warnings;
  const others = await figures.supplementaryTotal(parentCode, String(doc.id));
  const total = new Dec(others).add(new Dec(String(doc.contractAmount ?? 0))).toString();
  return [...warnings, ...supplementaryWarnings(parent.contractAmount as string, total, settings)];
};

/** Settlements that bill rent: their period may not run past the lease contract. */
const LEASES = new Set(['materialTurnoverMonthlySettlement', 'equipmentLeaseMonthlySettlement', 'materialAluminumAlloySettlement', 'equipmentScaffoldSettlement']);

/** R-CAP-1, R-CAP-3, negative/zero, late settlement, lease overdue, R-PRICE on a monthly settlement. */
const settlement: Evaluator = async (figures, doc, settings, model) => {
  const code = str(doc.expenditureContractCode);
  const contract = code ? await figures.contract('code', code) : null;
  const lines = rows(doc);
  const capped = lines
    .filter((r) => r.cumulativeQty !== undefined && r.cumulativeQty !== null)
    .map((r) => ({ id: str(r.id), goodsId: str(r.goodsId), name: nameOf(r), qty: r.thisQty as number, cumulativeQty: r.cumulativeQty as number, contractQty: r.contractQty as number | null }));
  const warnings = [
    ...quantityCapWarnings(capped),
    ...amountCapWarnings(doc.cumulativeAmount as number, (contract?.currentAmount as string | null) ?? (doc.currentContractAmount as number | null), settings),
    ...settlementAmountWarnings(doc.thisAmountInclTax as number),
    ...timelinessWarnings({ period: str(doc.period), startDate: str(doc.startDate), endDate: str(doc.endDate), preparedMonth: String(doc.createTime ?? '').slice(0, 7) }, settings),
  ];
  if (LEASES.has(model.key)) warnings.push(...leaseOverdueWarnings(str(doc.endDate), str(contract?.endDate)));
  if (lines.some((r) => 'thisPrice' in r)) warnings.push(...priceWarnings(await pricedLines(figures, lines, 'thisPrice'), settings));
  return warnings;
};

const BY_ENTITY: Record<string, Evaluator> = { materialMonthlyDemand: monthlyDemand, materialMonthlyProcure: monthlyProcure, materialBatchSupply: batchSupply, expenditureContract };

/** The evaluator of a document type, if it has early-warning rules. */
export function evaluatorOf(model: EntityModel): Evaluator | undefined {
  return BY_ENTITY[model.key] ?? (isSettlement(model) ? settlement : undefined);
}

/** Every document type with early-warning rules. */
export function warnedEntities(catalog: EntityCatalog): EntityModel[] {
  return Object.values(catalog.entities).filter((m) => evaluatorOf(m) && 'projectId' in m.fieldMap);
}
