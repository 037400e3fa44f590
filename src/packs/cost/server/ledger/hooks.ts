// The material ledger in the write pipeline of the documents that move stock (EntityHooks), all
// inside the transaction of the save or of the workflow step. Documents are known by their roles
// (LEDGER_ROLES):
//  - receipts (stock.receipt), stocktakes' gains and losses (stock.count) and the monthly report's
//    consumption and transfers out (stock.monthlyReport) post on approval and un-post when an
//    approved one leaves `approved`; submitting and approving are refused when the month is closed
//    or when stock would go below zero (R-STOCK-4), and approving a report closes its month (R-INV-2);
//  - the figures the ledger owns are refreshed from it whenever such a document is saved, submitted
//    or approved (a stocktake's book quantity and price, a report's opening, receipts, gains/losses
//    and values), so what a client sends for them is ignored;
//  - turnover exits (turnover.movement) may not return more than is on site (R-RENT-6), and a
//    turnover stocktake's (turnover.count) book quantity is what is on site (R-TURN-INV).
import { applyComputed } from '../../../../engine/compute/apply.ts';
import { Dec } from '../../../../engine/compute/decimal.ts';
import type { LedgerDocument, LedgerFields } from '../../engine/ledger/roles.ts';
import { lastDayOf } from '../../engine/ledger/stock.ts';
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { EntityStore, type Actor, type EntityHooks, type StoreContext } from '../../../../server/db/store.ts';
import { AppError } from '../../../../server/errors.ts';
import { writeFields, writeRowFields } from '../cumulative/service.ts';
import { Ledger, reportFigureFields, situationLine, type Entry } from './service.ts';

type DocEvent = { tx: Queryable; actor: Actor; id: string };
type TurnoverMovement = NonNullable<LedgerFields['turnoverMovement']>;
type TurnoverCount = NonNullable<LedgerFields['turnoverCount']>;

const monthOf = (date: unknown) => String(date).slice(0, 10).slice(0, 7);
const dateOf = (date: unknown) => String(date).slice(0, 10);
const dec = (v: unknown) => new Dec(String(v ?? 0) || '0');
/** A record's (or a line's) value of a field bound by role. */
const fieldValue = (record: Row, field: FieldModel) => record[field.name];
const text = (record: Row, field: FieldModel) => String(fieldValue(record, field));
const lines = (document: LedgerDocument, record: Row) => (record[document.lines.name] as Row[] | undefined) ?? [];
const goodsOf = (document: LedgerDocument, row: Row) => fieldValue(row, document.line['master.goods']);

/** goods → Σ of a quantity over the lines (positive values only count). */
function byGoods(document: LedgerDocument, rows: Row[], qty: (row: Row) => Dec): Map<string, Dec> {
  const out = new Map<string, Dec>();
  for (const row of rows) {
    const value = qty(row);
    if (!goodsOf(document, row) || value.lessThanOrEqualTo(0)) continue;
    const key = String(goodsOf(document, row));
    out.set(key, (out.get(key) ?? new Dec(0)).plus(value));
  }
  return out;
}

class LedgerRules {
  readonly ledger: Ledger;
  readonly fields: LedgerFields;

  constructor(private readonly ctx: StoreContext) {
    this.ledger = new Ledger(ctx);
    this.fields = this.ledger.fields;
  }

  read(tx: Queryable, actor: Actor, document: LedgerDocument, id: string): Promise<Row> {
    return new EntityStore(this.ctx, document.model, actor).detail(id, 'id', tx);
  }

  /** Writes ledger-owned line fields back with everything computed from them. */
  async rewrite(tx: Queryable, document: LedgerDocument, record: Row, lineFields: readonly FieldModel[]) {
    const { model, lines: detail } = document;
    const computed = applyComputed(model, record);
    await writeFields(
      tx,
      model.table,
      model.computeOrder.map((f) => model.fieldMap[f]),
      String(record.id),
      computed,
    );
    const columns = [...lineFields, ...detail.computeOrder.map((f) => detail.fieldMap[f])];
    await writeRowFields(tx, detail.table, columns, lines(document, computed));
  }

  /** afterWrite: a document not yet approved takes the ledger's figures again. */
  refreshOnWrite(
    document: LedgerDocument,
    refresh: (tx: Queryable, actor: Actor, doc: Row) => Promise<void>,
  ): (event: DocEvent) => Promise<void> {
    return async ({ tx, actor, id }) => {
      const doc = await this.read(tx, actor, document, id);
      if (!document.status || fieldValue(doc, document.status) !== 'approved') await refresh(tx, actor, doc);
    };
  }

  /** The journal's reference to a document. */
  ref(document: LedgerDocument, id: string, doc: Row, projectId: string) {
    const code = document.code ? (fieldValue(doc, document.code) as string) : null;
    return { entity: document.model.key, id, code, projectId };
  }

  unpost(tx: Queryable, actor: Actor, document: LedgerDocument, id: string) {
    return this.ledger.unpost(tx, actor, document.model.key, id);
  }

  // ---- stock.receipt: receipts

  receiptHooks(): EntityHooks {
    const receipt = this.fields.receipt;
    const { header, line } = receipt;
    return {
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.unpost(tx, actor, receipt, id);
        const doc = await this.read(tx, actor, receipt, id);
        const projectId = text(doc, header['master.project']);
        const warehouseId = text(doc, header['master.warehouse']);
        const date = fieldValue(doc, header.date);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, monthOf(date));
        if (status !== 'approved') return;
        const entries: Entry[] = lines(receipt, doc).map((row) => ({
          warehouseId,
          goodsId: String(goodsOf(receipt, row)),
          month: monthOf(date),
          date: dateOf(date),
          movement: 'receipt',
          source: (fieldValue(doc, header.source) as string) ?? null,
          qty: dec(fieldValue(row, line.quantity)),
          amount: dec(fieldValue(row, line.amount)),
        }));
        await this.ledger.post(tx, actor, this.ref(receipt, id, doc, projectId), entries);
      },
    };
  }

  // ---- stock.count: book quantities from the ledger, gains and losses into it

  async refreshInventory(tx: Queryable, actor: Actor, doc: Row) {
    const count = this.fields.count;
    const { header, line } = count;
    const [projectId, warehouseId, date] = [header['master.project'], header['master.warehouse'], header.date].map((f) =>
      fieldValue(doc, f),
    );
    if (!projectId || !warehouseId || !date) return;
    const book = await this.ledger.balancesAt(tx, actor.tenantId, String(projectId), String(warehouseId), dateOf(date));
    for (const row of lines(count, doc)) {
      const balance = book.get(String(goodsOf(count, row)));
      row[line.bookQuantity.name] = (balance?.qty ?? new Dec(0)).toFixed();
      // goods without book stock have no book price: their gain posts at zero value
      row[line.bookPrice.name] = balance?.price ? balance.price.toFixed() : null;
    }
    await this.rewrite(tx, count, doc, [line.bookQuantity, line.bookPrice]);
  }

  countHooks(): EntityHooks {
    const count = this.fields.count;
    const { header, line } = count;
    return {
      afterWrite: this.refreshOnWrite(count, (tx, actor, doc) => this.refreshInventory(tx, actor, doc)),
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.unpost(tx, actor, count, id);
        const before = await this.read(tx, actor, count, id);
        const projectId = text(before, header['master.project']);
        const warehouseId = text(before, header['master.warehouse']);
        const month = monthOf(fieldValue(before, header.date));
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, month);
        await this.refreshInventory(tx, actor, before);
        if (status !== 'approved') return;
        const doc = await this.read(tx, actor, count, id);
        await this.ledger.checkAvailable(
          tx,
          actor,
          projectId,
          warehouseId,
          month,
          byGoods(count, lines(count, doc), (r) => dec(fieldValue(r, line.gainLossQuantity)).negated()),
        );
        const entries: Entry[] = lines(count, doc).map((row) => ({
          warehouseId,
          goodsId: String(goodsOf(count, row)),
          month,
          date: dateOf(fieldValue(doc, header.date)),
          movement: 'gain_loss',
          qty: dec(fieldValue(row, line.gainLossQuantity)),
          amount: dec(fieldValue(row, line.gainLossAmount)),
        }));
        await this.ledger.post(tx, actor, this.ref(count, id, doc, projectId), entries);
      },
    };
  }

  // ---- stock.monthlyReport: the monthly report, its consumption, and the month's closing

  async refreshSituation(tx: Queryable, actor: Actor, doc: Row) {
    const report = this.fields.report;
    const { header } = report;
    const [projectId, warehouseId, period] = [header['master.project'], header['master.warehouse'], header.period].map((f) =>
      fieldValue(doc, f),
    );
    if (!projectId || !period) return;
    const figures = await this.ledger.monthFigures(
      tx,
      actor.tenantId,
      String(projectId),
      warehouseId ? String(warehouseId) : null,
      String(period),
    );
    doc[report.lines.name] = lines(report, doc).map((row) => situationLine(report, row, figures.get(String(goodsOf(report, row)))));
    await this.refuseCountAboveBooks(tx, actor, lines(report, doc));
    await this.rewrite(tx, report, doc, reportFigureFields(report));
  }

  /** Consumption derived from a count (R-STOCK-2) cannot be negative: a surplus is a stocktake's gain, not a report's. */
  async refuseCountAboveBooks(tx: Queryable, actor: Actor, rows: Row[]) {
    const report = this.fields.report;
    const { countedQuantity, consumedQuantity } = report.line;
    const over = rows.find((r) => fieldValue(r, countedQuantity) != null && dec(fieldValue(r, consumedQuantity)).lt(0));
    if (!over) return;
    const counted = dec(fieldValue(over, countedQuantity));
    throw new AppError(400, 'situationCountExceeds', {
      goods: await this.ledger.goodsLabel(tx, actor, String(goodsOf(report, over))),
      available: counted.plus(dec(fieldValue(over, consumedQuantity))).toString(),
      counted: counted.toString(),
    });
  }

  /** One report per warehouse and month in approval or approved. */
  async checkUnique(tx: Queryable, actor: Actor, doc: Row) {
    const { model, header, code, status } = this.fields.report;
    const col = (f: FieldModel) => q(f.column);
    const committed = status ? `AND ${col(status)} IN ('approving', 'approved')` : '';
    const [projectRef, warehouseRef, period] = [header['master.project'], header['master.warehouse'], header.period];
    const [other] = await tx.query<{ code: string }>(
      `SELECT ${code ? col(code) : 'id::text'} AS code FROM ${q(model.table)} WHERE tenant_id = $1 AND ${col(projectRef)} = $2 AND ${col(warehouseRef)} = $3
          AND ${col(period)} = $4 ${committed} AND id <> $5 ${model.softDelete ? 'AND is_deleted = 0' : ''} LIMIT 1`,
      [actor.tenantId, fieldValue(doc, projectRef), fieldValue(doc, warehouseRef), fieldValue(doc, period), doc.id],
    );
    if (other)
      throw new AppError(400, 'situationDuplicate', {
        warehouseName: await this.ledger.warehouseLabel(tx, actor, text(doc, warehouseRef)),
        period: fieldValue(doc, period),
        code: other.code,
      });
  }

  async reverseSituation(tx: Queryable, actor: Actor, id: string) {
    const closed = await this.ledger.reopen(tx, actor, id);
    if (!closed) return;
    await this.ledger.checkOpen(tx, actor, closed.projectId, closed.warehouseId, closed.month);
    await this.unpost(tx, actor, this.fields.report, id);
  }

  /** What an approved report posts: each line's consumption and transfers out, on the period's last day. */
  reportEntries(doc: Row, warehouseId: string, month: string): Entry[] {
    const report = this.fields.report;
    const { line } = report;
    const date = lastDayOf(month);
    const out = (row: Row, movement: 'consumption' | 'transfer_out', qty: FieldModel, amount: FieldModel): Entry => ({
      warehouseId,
      goodsId: String(goodsOf(report, row)),
      month,
      date,
      movement,
      qty: dec(fieldValue(row, qty)).negated(),
      amount: dec(fieldValue(row, amount)).negated(),
    });
    return lines(report, doc).flatMap((row) => [
      out(row, 'consumption', line.consumedQuantity, line.consumedAmount),
      out(row, 'transfer_out', line.transferOutQuantity, line.transferOutAmount),
    ]);
  }

  reportHooks(): EntityHooks {
    const report = this.fields.report;
    const { header, line } = report;
    return {
      afterWrite: this.refreshOnWrite(report, (tx, actor, doc) => this.refreshSituation(tx, actor, doc)),
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.reverseSituation(tx, actor, id);
        const before = await this.read(tx, actor, report, id);
        if (!fieldValue(before, header['master.warehouse'])) throw new AppError(400, 'situationWarehouse');
        const projectId = text(before, header['master.project']);
        const warehouseId = text(before, header['master.warehouse']);
        const month = text(before, header.period);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.checkUnique(tx, actor, before);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, month);
        await this.refreshSituation(tx, actor, before);
        const doc = await this.read(tx, actor, report, id);
        await this.ledger.checkAvailable(
          tx,
          actor,
          projectId,
          warehouseId,
          month,
          byGoods(report, lines(report, doc), (r) =>
            dec(fieldValue(r, line.consumedQuantity)).plus(dec(fieldValue(r, line.transferOutQuantity))),
          ),
        );
        if (status !== 'approved') return;
        const ref = this.ref(report, id, doc, projectId);
        await this.ledger.post(tx, actor, ref, this.reportEntries(doc, warehouseId, month));
        await this.ledger.close(tx, actor, ref, warehouseId, month);
      },
    };
  }

  // ---- turnover materials: on site = approved entries − approved exits

  turnoverMovementHooks(movement: TurnoverMovement): EntityHooks {
    const { header, line } = movement;
    return {
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return;
        const doc = await this.read(tx, actor, movement, id);
        if (fieldValue(doc, header.direction) !== 'exit') return;
        const projectId = text(doc, header['master.project']);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        const onSite = await this.ledger.onSite(
          tx,
          actor.tenantId,
          projectId,
          dateOf(fieldValue(doc, header.date)),
          fieldValue(doc, header['contract.expense']) as string,
          id,
        );
        for (const [goodsId, requested] of byGoods(movement, lines(movement, doc), (r) => dec(fieldValue(r, line.quantity)))) {
          const available = onSite.get(goodsId) ?? new Dec(0);
          if (requested.greaterThan(available)) {
            throw new AppError(400, 'turnoverExitExceeds', {
              goods: await this.ledger.goodsLabel(tx, actor, goodsId),
              available: Dec.max(available, 0).toFixed(),
              requested: requested.toFixed(),
            });
          }
        }
      },
    };
  }

  async refreshTurnoverInventory(tx: Queryable, actor: Actor, count: TurnoverCount, doc: Row) {
    const { header, line } = count;
    const [projectId, date] = [header['master.project'], header.date].map((f) => fieldValue(doc, f));
    if (!projectId || !date) return;
    const onSite = await this.ledger.onSite(
      tx,
      actor.tenantId,
      String(projectId),
      dateOf(date),
      fieldValue(doc, header['contract.expense']) as string,
    );
    for (const row of lines(count, doc)) row[line.bookQuantity.name] = (onSite.get(String(goodsOf(count, row))) ?? new Dec(0)).toFixed();
    await this.rewrite(tx, count, doc, [line.bookQuantity]);
  }

  turnoverCountHooks(count: TurnoverCount): EntityHooks {
    const refresh = this.refreshOnWrite(count, (tx, actor, doc) => this.refreshTurnoverInventory(tx, actor, count, doc));
    return {
      afterWrite: refresh,
      afterStatus: async (event) => {
        if (event.status === 'approving') await refresh(event);
      },
    };
  }
}

/**
 * The ledger's hooks on the stock documents. Runs when the server starts: a schema set without a
 * document type for each of the ledger's roles, or whose documents lack a field the ledger reads
 * or writes, refuses to start (ledgerFields).
 */
export function ledgerHooks(ctx: StoreContext): Record<string, EntityHooks> {
  const rules = new LedgerRules(ctx);
  const { receipt, count, report, turnoverMovement, turnoverCount } = rules.fields;
  const mine: [EntityModel, EntityHooks][] = [
    [receipt.model, rules.receiptHooks()],
    [count.model, rules.countHooks()],
    [report.model, rules.reportHooks()],
  ];
  if (turnoverMovement) mine.push([turnoverMovement.model, rules.turnoverMovementHooks(turnoverMovement)]);
  if (turnoverCount) mine.push([turnoverCount.model, rules.turnoverCountHooks(turnoverCount)]);
  return Object.fromEntries(mine.map(([model, hooks]) => [model.key, hooks]));
}
