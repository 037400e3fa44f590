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
import { LEDGER_ROLES, ledgerEntities, type LedgerRole } from '../../engine/ledger/roles.ts';
import { lastDayOf } from '../../engine/ledger/stock.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { EntityStore, type Actor, type EntityHooks, type StoreContext } from '../../../../server/db/store.ts';
import { AppError } from '../../../../server/errors.ts';
import { writeFields, writeRowFields } from '../cumulative/service.ts';
import { Ledger, situationLine, type Entry } from './service.ts';

type DocEvent = { tx: Queryable; actor: Actor; id: string };

const monthOf = (date: unknown) => String(date).slice(0, 10).slice(0, 7);
const dateOf = (date: unknown) => String(date).slice(0, 10);
const dec = (v: unknown) => new Dec(String(v ?? 0) || '0');
const lines = (record: Row) => (record.details as Row[] | undefined) ?? [];

/** goods → Σ of a quantity over the lines (positive values only count). */
function byGoods(rows: Row[], qty: (row: Row) => Dec): Map<string, Dec> {
  const out = new Map<string, Dec>();
  for (const row of rows) {
    const value = qty(row);
    if (!row.goodsId || value.lessThanOrEqualTo(0)) continue;
    const key = String(row.goodsId);
    out.set(key, (out.get(key) ?? new Dec(0)).plus(value));
  }
  return out;
}

class LedgerRules {
  readonly ledger: Ledger;

  constructor(private readonly ctx: StoreContext) {
    this.ledger = new Ledger(ctx);
  }

  model(role: LedgerRole): EntityModel {
    return this.ledger.model(role);
  }

  read(tx: Queryable, actor: Actor, role: LedgerRole, id: string): Promise<Row> {
    return new EntityStore(this.ctx, this.model(role), actor).detail(id, 'id', tx);
  }

  /** Writes ledger-owned line fields back with everything computed from them. */
  async rewrite(tx: Queryable, role: LedgerRole, record: Row, lineFields: readonly string[]) {
    const model = this.model(role);
    const detail = model.details[0];
    const computed = applyComputed(model, record);
    await writeFields(
      tx,
      model.table,
      model.computeOrder.map((f) => model.fieldMap[f]),
      String(record.id),
      computed,
    );
    const columns = [...lineFields, ...detail.computeOrder].map((f) => detail.fieldMap[f]);
    await writeRowFields(tx, detail.table, columns, lines(computed));
  }

  /** afterWrite: a document not yet approved takes the ledger's figures again. */
  refreshOnWrite(role: LedgerRole, refresh: (tx: Queryable, actor: Actor, doc: Row) => Promise<void>): (event: DocEvent) => Promise<void> {
    return async ({ tx, actor, id }) => {
      const doc = await this.read(tx, actor, role, id);
      if (doc.approvalStatus !== 'approved') await refresh(tx, actor, doc);
    };
  }

  /** The journal's reference to a document of a role. */
  ref(role: LedgerRole, id: string, doc: Row, projectId: string) {
    return { entity: this.model(role).key, id, code: doc.code as string, projectId };
  }

  unpost(tx: Queryable, actor: Actor, role: LedgerRole, id: string) {
    return this.ledger.unpost(tx, actor, this.model(role).key, id);
  }

  // ---- stock.receipt: receipts

  receiptHooks(): EntityHooks {
    return {
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.unpost(tx, actor, LEDGER_ROLES.receipt, id);
        const doc = await this.read(tx, actor, LEDGER_ROLES.receipt, id);
        const projectId = String(doc.projectId);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.ledger.checkOpen(tx, actor, projectId, String(doc.warehouseId), monthOf(doc.checkDate));
        if (status !== 'approved') return;
        const entries: Entry[] = lines(doc).map((row) => ({
          warehouseId: String(doc.warehouseId),
          goodsId: String(row.goodsId),
          month: monthOf(doc.checkDate),
          date: dateOf(doc.checkDate),
          movement: 'receipt',
          source: (doc.materialSource as string) ?? null,
          qty: dec(row.acceptedQty),
          amount: dec(row.amountInclTax),
        }));
        await this.ledger.post(tx, actor, this.ref(LEDGER_ROLES.receipt, id, doc, projectId), entries);
      },
    };
  }

  // ---- stock.count: book quantities from the ledger, gains and losses into it

  async refreshInventory(tx: Queryable, actor: Actor, doc: Row) {
    if (!doc.projectId || !doc.warehouseId || !doc.inventoryDate) return;
    const book = await this.ledger.balancesAt(
      tx,
      actor.tenantId,
      String(doc.projectId),
      String(doc.warehouseId),
      dateOf(doc.inventoryDate),
    );
    for (const row of lines(doc)) {
      const balance = book.get(String(row.goodsId));
      row.bookQty = (balance?.qty ?? new Dec(0)).toFixed();
      // goods without book stock have no book price: their gain posts at zero value
      row.price = balance?.price ? balance.price.toFixed() : null;
    }
    await this.rewrite(tx, LEDGER_ROLES.count, doc, ['bookQty', 'price']);
  }

  countHooks(): EntityHooks {
    return {
      afterWrite: this.refreshOnWrite(LEDGER_ROLES.count, (tx, actor, doc) => this.refreshInventory(tx, actor, doc)),
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.unpost(tx, actor, LEDGER_ROLES.count, id);
        const before = await this.read(tx, actor, LEDGER_ROLES.count, id);
        const projectId = String(before.projectId);
        const warehouseId = String(before.warehouseId);
        const month = monthOf(before.inventoryDate);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, month);
        await this.refreshInventory(tx, actor, before);
        if (status !== 'approved') return;
        const doc = await this.read(tx, actor, LEDGER_ROLES.count, id);
        await this.ledger.checkAvailable(
          tx,
          actor,
          projectId,
          warehouseId,
          month,
          byGoods(lines(doc), (r) => dec(r.diffQty).negated()),
        );
        const entries: Entry[] = lines(doc).map((row) => ({
          warehouseId,
          goodsId: String(row.goodsId),
          month,
          date: dateOf(doc.inventoryDate),
          movement: 'gain_loss',
          qty: dec(row.diffQty),
          amount: dec(row.diffAmount),
        }));
        await this.ledger.post(tx, actor, this.ref(LEDGER_ROLES.count, id, doc, projectId), entries);
      },
    };
  }

  // ---- stock.monthlyReport: the monthly report, its consumption, and the month's closing

  async refreshSituation(tx: Queryable, actor: Actor, doc: Row) {
    if (!doc.projectId || !doc.period) return;
    const figures = await this.ledger.monthFigures(
      tx,
      actor.tenantId,
      String(doc.projectId),
      doc.warehouseId ? String(doc.warehouseId) : null,
      String(doc.period),
    );
    doc.details = lines(doc).map((row) => situationLine(row, figures.get(String(row.goodsId))));
    await this.refuseCountAboveBooks(tx, actor, lines(doc));
    await this.rewrite(tx, LEDGER_ROLES.report, doc, [
      'openingQty',
      'openingAmount',
      'selfPurchaseQty',
      'partyASupplyQty',
      'partyAControlQty',
      'transferInQty',
      'otherInQty',
      'receivedAmount',
      'gainLossQty',
      'gainLossAmount',
      'consumedQty',
      'consumedAmount',
      'transferOutAmount',
    ]);
  }

  /** Consumption derived from a count (R-STOCK-2) cannot be negative: a surplus is a stocktake's gain, not a report's. */
  async refuseCountAboveBooks(tx: Queryable, actor: Actor, rows: Row[]) {
    const over = rows.find((r) => r.countedClosingQty != null && dec(r.consumedQty).lt(0));
    if (!over) return;
    const counted = dec(over.countedClosingQty);
    throw new AppError(400, 'situationCountExceeds', {
      goods: await this.ledger.label(tx, actor, LEDGER_ROLES.masterGoods, String(over.goodsId)),
      available: counted.plus(dec(over.consumedQty)).toString(),
      counted: counted.toString(),
    });
  }

  /** One report per warehouse and month in approval or approved. */
  async checkUnique(tx: Queryable, actor: Actor, doc: Row) {
    const model = this.model(LEDGER_ROLES.report);
    const col = (f: string) => q(model.fieldMap[f].column);
    const [other] = await tx.query<{ code: string }>(
      `SELECT ${col('code')} AS code FROM ${q(model.table)} WHERE tenant_id = $1 AND ${col('projectId')} = $2 AND ${col('warehouseId')} = $3
          AND ${col('period')} = $4 AND ${col('approvalStatus')} IN ('approving', 'approved') AND id <> $5 ${model.softDelete ? 'AND is_deleted = 0' : ''} LIMIT 1`,
      [actor.tenantId, doc.projectId, doc.warehouseId, doc.period, doc.id],
    );
    if (other)
      throw new AppError(400, 'situationDuplicate', {
        warehouseName: await this.ledger.label(tx, actor, LEDGER_ROLES.masterWarehouse, String(doc.warehouseId)),
        period: doc.period,
        code: other.code,
      });
  }

  async reverseSituation(tx: Queryable, actor: Actor, id: string) {
    const closed = await this.ledger.reopen(tx, actor, id);
    if (!closed) return;
    await this.ledger.checkOpen(tx, actor, closed.projectId, closed.warehouseId, closed.month);
    await this.unpost(tx, actor, LEDGER_ROLES.report, id);
  }

  reportHooks(): EntityHooks {
    return {
      afterWrite: this.refreshOnWrite(LEDGER_ROLES.report, (tx, actor, doc) => this.refreshSituation(tx, actor, doc)),
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.reverseSituation(tx, actor, id);
        const before = await this.read(tx, actor, LEDGER_ROLES.report, id);
        if (!before.warehouseId) throw new AppError(400, 'situationWarehouse');
        const projectId = String(before.projectId);
        const warehouseId = String(before.warehouseId);
        const month = String(before.period);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.checkUnique(tx, actor, before);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, month);
        await this.refreshSituation(tx, actor, before);
        const doc = await this.read(tx, actor, LEDGER_ROLES.report, id);
        await this.ledger.checkAvailable(
          tx,
          actor,
          projectId,
          warehouseId,
          month,
          byGoods(lines(doc), (r) => dec(r.consumedQty).plus(dec(r.transferOutQty))),
        );
        if (status !== 'approved') return;
        const date = lastDayOf(month);
        const entries: Entry[] = lines(doc).flatMap((row): Entry[] => [
          {
            warehouseId,
            goodsId: String(row.goodsId),
            month,
            date,
            movement: 'consumption',
            qty: dec(row.consumedQty).negated(),
            amount: dec(row.consumedAmount).negated(),
          },
          {
            warehouseId,
            goodsId: String(row.goodsId),
            month,
            date,
            movement: 'transfer_out',
            qty: dec(row.transferOutQty).negated(),
            amount: dec(row.transferOutAmount).negated(),
          },
        ]);
        const ref = this.ref(LEDGER_ROLES.report, id, doc, projectId);
        await this.ledger.post(tx, actor, ref, entries);
        await this.ledger.close(tx, actor, ref, warehouseId, month);
      },
    };
  }

  // ---- turnover materials: on site = approved entries − approved exits

  turnoverMovementHooks(): EntityHooks {
    return {
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return;
        const doc = await this.read(tx, actor, LEDGER_ROLES.turnoverMovement, id);
        if (doc.checkType !== 'exit') return;
        await this.ledger.lock(tx, actor.tenantId, String(doc.projectId));
        const onSite = await this.ledger.onSite(
          tx,
          actor.tenantId,
          String(doc.projectId),
          dateOf(doc.checkDate),
          doc.expenditureContractCode as string,
          id,
        );
        for (const [goodsId, requested] of byGoods(lines(doc), (r) => dec(r.qty))) {
          const available = onSite.get(goodsId) ?? new Dec(0);
          if (requested.greaterThan(available)) {
            throw new AppError(400, 'turnoverExitExceeds', {
              goods: await this.ledger.label(tx, actor, LEDGER_ROLES.masterGoods, goodsId),
              available: Dec.max(available, 0).toFixed(),
              requested: requested.toFixed(),
            });
          }
        }
      },
    };
  }

  async refreshTurnoverInventory(tx: Queryable, actor: Actor, doc: Row) {
    if (!doc.projectId || !doc.inventoryDate) return;
    const onSite = await this.ledger.onSite(
      tx,
      actor.tenantId,
      String(doc.projectId),
      dateOf(doc.inventoryDate),
      doc.expenditureContractCode as string,
    );
    for (const row of lines(doc)) row.bookQty = (onSite.get(String(row.goodsId)) ?? new Dec(0)).toFixed();
    await this.rewrite(tx, LEDGER_ROLES.turnoverCount, doc, ['bookQty']);
  }

  turnoverCountHooks(): EntityHooks {
    const refresh = this.refreshOnWrite(LEDGER_ROLES.turnoverCount, (tx, actor, doc) => this.refreshTurnoverInventory(tx, actor, doc));
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
 * document type for each of the ledger's roles refuses to start (ledgerEntities).
 */
export function ledgerHooks(ctx: StoreContext): Record<string, EntityHooks> {
  const entities = ledgerEntities(ctx.catalog);
  const rules = new LedgerRules(ctx);
  const mine: [EntityModel | undefined, EntityHooks][] = [
    [entities.receipt, rules.receiptHooks()],
    [entities.count, rules.countHooks()],
    [entities.report, rules.reportHooks()],
    [entities.turnoverMovement, rules.turnoverMovementHooks()],
    [entities.turnoverCount, rules.turnoverCountHooks()],
  ];
  const out: Record<string, EntityHooks> = {};
  for (const [model, hook] of mine) if (model) out[model.key] = hook;
  return out;
}
