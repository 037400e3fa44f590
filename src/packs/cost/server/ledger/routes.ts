// What the stock forms pre-fill from the ledger, tenant-scoped, under the view permission of the
// document they fill (docs/business-rules.md#material-ledger), at the API of the document type of each role:
//   GET <stock.monthlyReport>/generate?projectId&warehouseId&period   a month's 收发存 report
//   GET <stock.count>/book?projectId&warehouseId&date                 book quantities and prices
//   GET <turnover.movement>/onSite?projectId&date&expenditureContractCode   turnover items on site
//   GET <turnover.rentSettlement>/rentLines?projectId&expenditureContractCode&startDate&endDate   (rent-lines.ts)
import type { FastifyInstance } from 'fastify';
import { applyComputed } from '../../../../engine/compute/apply.ts';
import { decimalToJson } from '../../../../engine/compute/decimal.ts';
import { t } from '../../../../engine/i18n/messages.ts';
import type { LedgerFields } from '../../engine/ledger/roles.ts';
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import type { Row } from '../../../../server/db/db.ts';
import { EntityStore, parseId, tenantDb, type Actor } from '../../../../server/db/store.ts';
import { badRequest } from '../../../../server/errors.ts';
import { actorOf } from '../../../../server/http/auth.ts';
import type { RouteContext } from '../../../../server/http/entity-routes.ts';
import { envelope } from '../../../../server/http/envelope.ts';
import { CONTRACT_PARAM, registerRentLinesRoute } from './rent-lines.ts';
import { Ledger, situationLine, type MonthFigures } from './service.ts';

type Query = Record<string, string | undefined>;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function param(query: Query, name: string, pattern: RegExp): string {
  const value = query[name]?.trim();
  if (!value) throw badRequest('missingParam', { param: name });
  if (!pattern.test(value)) throw badRequest('badFilterValue', { field: name, value });
  return value;
}

/** Lines by the code of their goods: the line field that copies it (x-ref.copy), when one does. */
function byGoodsCode(fields: LedgerFields, goodsRef: FieldModel): (a: Row, b: Row) => number {
  const codeCopy = Object.entries(goodsRef.ref?.copy ?? {}).find(([, source]) => source === fields.masterGoods.code.name)?.[0];
  return (a, b) => (codeCopy ? String(a[codeCopy] ?? '').localeCompare(String(b[codeCopy] ?? '')) : 0);
}

/** A goods whose report line would not be all zeros. */
function hasStockOrMovement(f: MonthFigures): boolean {
  return [f.openingQty, f.openingAmount, f.receivedAmount, f.gainLossQty, f.gainLossAmount, ...Object.values(f.received)].some(
    (v) => !v.isZero(),
  );
}

export function registerLedgerRoutes(app: FastifyInstance, ctx: RouteContext) {
  const ledger = new Ledger(ctx);
  const fields = ledger.fields;

  /** The caller may read the document type, and the project (and warehouse) are theirs: else 404. */
  async function scope(actor: Actor, model: EntityModel, query: Query, needsWarehouse: boolean) {
    await ctx.access.check(actor, model, 'view');
    const projectId = parseId(query.projectId?.trim(), 'projectId');
    await new EntityStore(ctx, fields.masterProject, actor).detail(projectId);
    const raw = query.warehouseId?.trim();
    if (!raw && needsWarehouse) throw badRequest('missingParam', { param: 'warehouseId' });
    const warehouseId = raw ? parseId(raw, 'warehouseId') : null;
    if (warehouseId) {
      const found = await new EntityStore(ctx, fields.masterWarehouse.model, actor).detail(warehouseId);
      if (String(found[fields.masterWarehouse['master.project'].name]) !== projectId)
        throw badRequest('badFilterValue', { field: 'warehouseId', value: warehouseId });
    }
    return { projectId, warehouseId };
  }

  const report = fields.report;
  app.get(`${report.model.api}/generate`, async (request) => {
    const actor = actorOf(request);
    const query = request.query as Query;
    const { projectId, warehouseId } = await scope(actor, report.model, query, false);
    const period = param(query, 'period', MONTH);
    const figures = await ledger.monthFigures(tenantDb(ctx, actor.tenantId), actor.tenantId, projectId, warehouseId, period);
    const goodsRef = report.line['master.goods'];
    const goods = await ledger.goodsSnapshots(tenantDb(ctx, actor.tenantId), actor, goodsRef, [...figures.keys()]);
    // consumption and transfers out start at 0, to be entered
    const entered = { [report.line.consumedQuantity.name]: 0, [report.line.transferOutQuantity.name]: 0 };
    const details = [...figures.values()]
      .filter(hasStockOrMovement)
      .map((f) => situationLine(report, { ...goods.get(f.goodsId), ...entered }, f))
      .sort(byGoodsCode(fields, goodsRef));
    const { header } = report;
    const record: Row = applyComputed(report.model, {
      [header['master.project'].name]: projectId,
      [header['master.warehouse'].name]: warehouseId,
      [header.period.name]: period,
      [report.lines.name]: details,
    });
    return envelope(200, record, t('ok', request.lang));
  });

  const count = fields.count;
  app.get(`${count.model.api}/book`, async (request) => {
    const actor = actorOf(request);
    const query = request.query as Query;
    const { projectId, warehouseId } = await scope(actor, count.model, query, true);
    const date = param(query, 'date', DATE);
    const book = await ledger.balancesAt(tenantDb(ctx, actor.tenantId), actor.tenantId, projectId, warehouseId!, date);
    const goods = await ledger.goodsSnapshots(tenantDb(ctx, actor.tenantId), actor, count.line['master.goods'], [...book.keys()]);
    const { bookQuantity, bookPrice, bookAmount } = count.line;
    const lines = [...book.entries()]
      .filter(([, b]) => !b.qty.isZero())
      .map(([id, b]) => ({
        ...goods.get(id),
        [bookQuantity.name]: decimalToJson(b.qty),
        [bookPrice.name]: b.price ? decimalToJson(b.price) : null,
        [bookAmount.name]: decimalToJson(b.amount),
      }));
    return envelope(200, lines, t('ok', request.lang));
  });

  const turnover = fields.turnoverMovement;
  if (turnover) {
    app.get(`${turnover.model.api}/onSite`, async (request) => {
      const actor = actorOf(request);
      const query = request.query as Query;
      const { projectId } = await scope(actor, turnover.model, query, false);
      const date = param(query, 'date', DATE);
      const onSite = await ledger.onSite(
        tenantDb(ctx, actor.tenantId),
        actor.tenantId,
        projectId,
        date,
        query[CONTRACT_PARAM]?.trim() || null,
      );
      const goods = await ledger.goodsSnapshots(tenantDb(ctx, actor.tenantId), actor, turnover.line['master.goods'], [...onSite.keys()]);
      const lines = [...onSite.entries()]
        .filter(([, qty]) => !qty.isZero())
        .map(([id, qty]) => ({ ...goods.get(id), onSiteQty: decimalToJson(qty) }));
      return envelope(200, lines, t('ok', request.lang));
    });
  }
  registerRentLinesRoute(app, ctx, ledger);
}
