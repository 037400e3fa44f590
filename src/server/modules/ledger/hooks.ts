// The material ledger in the write pipeline of the documents that move stock (EntityHooks), all
// inside the transaction of the save or of the workflow step:
//  - materialCheck (receipts), materialInventory (gains and losses) and materialSituation
//    (consumption and transfers out) post on approval and un-post when an approved one leaves
//    `approved`; submitting and approving are refused when the month is closed or when stock would
//    go below zero (R-STOCK-4), and approving a report closes its month (R-INV-2);
//  - the figures the ledger owns are refreshed from it whenever such a document is saved, submitted
//    or approved (a stocktake's book quantity and price, a report's opening, receipts, gains/losses
//    and values), so what a client sends for them is ignored;
//  - materialTurnoverCheck exits may not return more than is on site (R-RENT-6), and a turnover
//    stocktake's book quantity is what is on site (R-TURN-INV).
import { applyComputed } from '../../../engine/compute/apply.ts';
import { Dec } from '../../../engine/compute/decimal.ts';
import { lastDayOf } from '../../../engine/ledger/stock.ts';
import type { EntityModel } from '../../../engine/model/types.ts';
import type { Queryable, Row } from '../../db/db.ts';
import { q } from '../../db/sql.ts';
import { EntityStore, type Actor, type EntityHooks, type StoreContext } from '../../db/store.ts';
import { AppError } from '../../errors.ts';
import { writeFields } from '../cumulative/service.ts';
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

  model(key: string): EntityModel {
    return this.ctx.catalog.entities[key];
  }

  read(tx: Queryable, actor: Actor, key: string, id: string): Promise<Row> {
    return new EntityStore(this.ctx, this.model(key), actor).detail(id, 'id', tx);
  }

  /** Writes ledger-owned line fields back with everything computed from them. */
  async rewrite(tx: Queryable, key: string, record: Row, lineFields: readonly string[]) {
    const model = this.model(key);
    const detail = model.details[0];
    const computed = applyComputed(model, record);
    await writeFields(tx, model.table, model.computeOrder.map((f) => model.fieldMap[f]), String(record.id), computed);
    const columns = [...lineFields, ...detail.computeOrder].map((f) => detail.fieldMap[f]);
    for (const row of lines(computed)) await writeFields(tx, detail.table, columns, String(row.id), row);
  }

  /** afterWrite: a document not yet approved takes the ledger's figures again. */
  refreshOnWrite(key: string, refresh: (tx: Queryable, actor: Actor, doc: Row) => Promise<void>): (event: DocEvent) => Promise<void> {
    return async ({ tx, actor, id }) => {
      const doc = await this.read(tx, actor, key, id);
      if (doc.approvalStatus !== 'approved') await refresh(tx, actor, doc);
    };
  }

  // ---- materialCheck: receipts

  checkHooks(): EntityHooks {
    return {
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.ledger.unpost(tx, actor, 'materialCheck', id);
        const doc = await this.read(tx, actor, 'materialCheck', id);
        const projectId = String(doc.projectId);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.ledger.checkOpen(tx, actor, projectId, String(doc.warehouseId), monthOf(doc.checkDate));
        if (status !== 'approved') return;
        const entries: Entry[] = lines(doc).map((row) => ({
          warehouseId: String(doc.warehouseId), goodsId: String(row.goodsId), month: monthOf(doc.checkDate), date: dateOf(doc.checkDate),
          movement: 'receipt', source: (doc.materialSource as string) ?? null, qty: dec(row.acceptedQty), amount: dec(row.amountInclTax),
        }));
        await this.ledger.post(tx, actor, { entity: 'materialCheck', id, code: doc.code as string, projectId }, entries);
      },
    };
  }

  // ---- materialInventory: book quantities from the ledger, gains and losses into it

  async refreshInventory(tx: Queryable, actor: Actor, doc: Row) {
    if (!doc.projectId || !doc.warehouseId || !doc.inventoryDate) return;
    const book = await this.ledger.balancesAt(tx, actor.tenantId, String(doc.projectId), String(doc.warehouseId), dateOf(doc.inventoryDate));
    for (const row of lines(doc)) {
      const balance = book.get(String(row.goodsId));
      row.bookQty = (balance?.qty ?? new Dec(0)).toFixed();
      // goods without book stock have no book price: their gain posts at zero value
      row.price = balance?.price ? balance.price.toFixed() : null;
    }
    await this.rewrite(tx, 'materialInventory', doc, ['bookQty', 'price']);
  }

  inventoryHooks(): EntityHooks {
    return {
      afterWrite: this.refreshOnWrite('materialInventory', (tx, actor, doc) => this.refreshInventory(tx, actor, doc)),
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.ledger.unpost(tx, actor, 'materialInventory', id);
        const before = await this.read(tx, actor, 'materialInventory', id);
        const projectId = String(before.projectId);
        const warehouseId = String(before.warehouseId);
        const month = monthOf(before.inventoryDate);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, month);
        await this.refreshInventory(tx, actor, before);
        if (status !== 'approved') return;
        const doc = await this.read(tx, actor, 'materialInventory', id);
        await this.ledger.checkAvailable(tx, actor, projectId, warehouseId, month, byGoods(lines(doc), (r) => dec(r.diffQty).negated()));
        const entries: Entry[] = lines(doc).map((row) => ({
          warehouseId, goodsId: String(row.goodsId), month, date: dateOf(doc.inventoryDate), movement: 'gain_loss', qty: dec(row.diffQty), amount: dec(row.diffAmount),
        }));
        await this.ledger.post(tx, actor, { entity: 'materialInventory', id, code: doc.code as string, projectId }, entries);
      },
    };
  }

  // ---- materialSituation: the monthly report, its consumption, and the month's closing

  async refreshSituation(tx: Queryable, actor: Actor, doc: Row) {
    if (!doc.projectId || !doc.period) return;
    const figures = await this.ledger.monthFigures(tx, actor.tenantId, String(doc.projectId), doc.warehouseId ? String(doc.warehouseId) : null, String(doc.period));
    doc.details = lines(doc).map((row) => situationLine(row, figures.get(String(row.goodsId))));
    await this.refuseCountAboveBooks(tx, actor, lines(doc));
    await this.rewrite(tx, 'materialSituation', doc, [
      'openingQty', 'openingAmount', 'selfPurchaseQty', 'partyASupplyQty', 'partyAControlQty', 'transferInQty', 'otherInQty', 'receivedAmount',
      'gainLossQty', 'gainLossAmount', 'consumedQty', 'consumedAmount', 'transferOutAmount',
    ]);
  }

  /** Consumption derived from a count (R-STOCK-2) cannot be negative: a surplus is a stocktake's gain, not a report's. */
  async refuseCountAboveBooks(tx: Queryable, actor: Actor, rows: Row[]) {
    const over = rows.find((r) => r.countedClosingQty != null && dec(r.consumedQty).lt(0));
    if (!over) return;
    const counted = dec(over.countedClosingQty);
    throw new AppError(400, 'situationCountExceeds', {
      goods: await this.ledger.label(tx, actor, 'goodsArchives', String(over.goodsId)), available: counted.plus(dec(over.consumedQty)).toString(), counted: counted.toString(),
    });
  }

  /** One report per warehouse and month in approval or approved. */
  async checkUnique(tx: Queryable, actor: Actor, doc: Row) {
    const model = this.model('materialSituation');
    const col = (f: string) => q(model.fieldMap[f].column);
    const [other] = await tx.query<{ code: string }>(
      `SELECT ${col('code')} AS code FROM ${q(model.table)} WHERE tenant_id = $1 AND ${col('projectId')} = $2 AND ${col('warehouseId')} = $3
          AND ${col('period')} = $4 AND ${col('approvalStatus')} IN ('approving', 'approved') AND id <> $5 ${model.softDelete ? 'AND is_deleted = 0' : ''} LIMIT 1`,
      [actor.tenantId, doc.projectId, doc.warehouseId, doc.period, doc.id],
    );
    if (other) throw new AppError(400, 'situationDuplicate', { warehouse: await this.ledger.label(tx, actor, 'warehouse', String(doc.warehouseId)), period: doc.period, code: other.code });
  }

  async reverseSituation(tx: Queryable, actor: Actor, id: string) {
    const closed = await this.ledger.reopen(tx, actor, id);
    if (!closed) return;
    await this.ledger.checkOpen(tx, actor, closed.projectId, closed.warehouseId, closed.month);
    await this.ledger.unpost(tx, actor, 'materialSituation', id);
  }

  situationHooks(): EntityHooks {
    return {
      afterWrite: this.refreshOnWrite('materialSituation', (tx, actor, doc) => this.refreshSituation(tx, actor, doc)),
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return this.reverseSituation(tx, actor, id);
        const before = await this.read(tx, actor, 'materialSituation', id);
        if (!before.warehouseId) throw new AppError(400, 'situationWarehouse');
        const projectId = String(before.projectId);
        const warehouseId = String(before.warehouseId);
        const month = String(before.period);
        await this.ledger.lock(tx, actor.tenantId, projectId);
        await this.checkUnique(tx, actor, before);
        await this.ledger.checkOpen(tx, actor, projectId, warehouseId, month);
        await this.refreshSituation(tx, actor, before);
        const doc = await this.read(tx, actor, 'materialSituation', id);
        await this.ledger.checkAvailable(tx, actor, projectId, warehouseId, month, byGoods(lines(doc), (r) => dec(r.consumedQty).plus(dec(r.transferOutQty))));
        if (status !== 'approved') return;
        const date = lastDayOf(month);
        const entries: Entry[] = lines(doc).flatMap((row): Entry[] => [
          { warehouseId, goodsId: String(row.goodsId), month, date, movement: 'consumption', qty: dec(row.consumedQty).negated(), amount: dec(row.consumedAmount).negated() },
          { warehouseId, goodsId: String(row.goodsId), month, date, movement: 'transfer_out', qty: dec(row.transferOutQty).negated(), amount: dec(row.transferOutAmount).negated() },
        ]);
        const ref = { entity: 'materialSituation', id, code: doc.code as string, projectId };
        await this.ledger.post(tx, actor, ref, entries);
        await this.ledger.close(tx, actor, ref, warehouseId, month);
      },
    };
  }

  // ---- turnover materials: on site = approved entries − approved exits

  turnoverCheckHooks(): EntityHooks {
    return {
      afterStatus: async ({ tx, actor, id, status }) => {
        if (status !== 'approving' && status !== 'approved') return;
        const doc = await this.read(tx, actor, 'materialTurnoverCheck', id);
        if (doc.checkType !== 'exit') return;
        await this.ledger.lock(tx, actor.tenantId, String(doc.projectId));
        const onSite = await this.ledger.onSite(tx, actor.tenantId, String(doc.projectId), dateOf(doc.checkDate), doc.expenditureContractCode as string, id);
        for (const [goodsId, requested] of byGoods(lines(doc), (r) => dec(r.qty))) {
          const available = onSite.get(goodsId) ?? new Dec(0);
          if (requested.greaterThan(available)) {
            throw new AppError(400, 'turnoverExitExceeds', { goods: await this.ledger.label(tx, actor, 'goodsArchives', goodsId), available: Dec.max(available, 0).toFixed(), requested: requested.toFixed() });
          }
        }
      },
    };
  }

  async refreshTurnoverInventory(tx: Queryable, actor: Actor, doc: Row) {
    if (!doc.projectId || !doc.inventoryDate) return;
    const onSite = await this.ledger.onSite(tx, actor.tenantId, String(doc.projectId), dateOf(doc.inventoryDate), doc.expenditureContractCode as string);
    for (const row of lines(doc)) row.bookQty = (onSite.get(String(row.goodsId)) ?? new Dec(0)).toFixed();
    await this.rewrite(tx, 'materialTurnoverInventory', doc, ['bookQty']);
  }

  turnoverInventoryHooks(): EntityHooks {
    const refresh = this.refreshOnWrite('materialTurnoverInventory', (tx, actor, doc) => this.refreshTurnoverInventory(tx, actor, doc));
    return {
      afterWrite: refresh,
      afterStatus: async (event) => {
        if (event.status === 'approving') await refresh(event);
      },
    };
  }
}

/** The ledger's hook first (so that warnings evaluate the ledger's figures), then `own`. */
function compose(own: EntityHooks, mine: EntityHooks): EntityHooks {
  return {
    ...own,
    afterWrite: mine.afterWrite
      ? async (event) => {
        await mine.afterWrite!(event);
        await own.afterWrite?.(event);
      }
      : own.afterWrite,
    afterStatus: async (event) => {
      await mine.afterStatus?.(event);
      await own.afterStatus?.(event);
    },
  };
}

/** The ledger's hooks on the stock documents, composed with the hooks they already have. */
export function withLedger(hooks: Record<string, EntityHooks>, ctx: StoreContext): Record<string, EntityHooks> {
  const rules = new LedgerRules(ctx);
  const mine: Record<string, EntityHooks> = {
    materialCheck: rules.checkHooks(),
    materialInventory: rules.inventoryHooks(),
    materialSituation: rules.situationHooks(),
    materialTurnoverCheck: rules.turnoverCheckHooks(),
    materialTurnoverInventory: rules.turnoverInventoryHooks(),
  };
  const out = { ...hooks };
  for (const [key, hook] of Object.entries(mine)) if (ctx.catalog.entities[key]) out[key] = compose(hooks[key] ?? {}, hook);
  return out;
}
