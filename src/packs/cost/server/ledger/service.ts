// The material ledger (docs/business-rules.md#material-ledger): what the approved stock documents posted, read
// back as balances, monthly movements and the figures of the 收发存 report; the refusals of
// R-STOCK-4 (no stock below zero) and of closed months. Every statement is scoped to the caller's
// tenant; the numbers come from the journal of ddl.ts, the arithmetic from packs/cost/engine/ledger.
// Documents and their fields are the ones bound by role when the ledger starts (ledgerFields).
import { decimalToJson, Dec } from '../../../../engine/compute/decimal.ts';
import { ledgerFields, type LedgerFields } from '../../engine/ledger/roles.ts';
import { availableFrom, bookPrice, stockMonth } from '../../engine/ledger/stock.ts';
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { EntityStore, type Actor, type StoreContext } from '../../../../server/db/store.ts';
import { AppError } from '../../../../server/errors.ts';

export type Movement = 'receipt' | 'gain_loss' | 'consumption' | 'transfer_out';

/** One line of a document as it posts: quantities out are negative. */
export interface Entry {
  warehouseId: string;
  goodsId: string;
  month: string;
  date: string;
  movement: Movement;
  source?: string | null;
  qty: Dec;
  amount: Dec;
}

export interface DocRef {
  /** the document's entity key, kept on its journal rows */
  entity: string;
  id: string;
  code?: string | null;
  projectId: string;
}

type ReportLineRole = keyof LedgerFields['report']['line'];

/** The material sources of a check (dictionary material_source) → the field roles of the report's received quantities. */
export const SOURCE_QUANTITIES = {
  self_purchase: 'selfPurchaseQuantity',
  party_a_supply: 'partyASupplyQuantity',
  party_a_control: 'partyAControlQuantity',
  transfer_in: 'transferInQuantity',
  other: 'otherInQuantity',
} as const satisfies Readonly<Record<string, ReportLineRole>>;

type ReceivedRole = (typeof SOURCE_QUANTITIES)[keyof typeof SOURCE_QUANTITIES];
/** A receipt's source, any other than those: other. */
const receivedRole = (source: string | null): ReceivedRole =>
  source && Object.hasOwn(SOURCE_QUANTITIES, source)
    ? SOURCE_QUANTITIES[source as keyof typeof SOURCE_QUANTITIES]
    : SOURCE_QUANTITIES.other;

const num = (d: Dec) => decimalToJson(d);
const dec = (v: unknown) => new Dec(String(v ?? 0));

/** A month's figures of one goods before the report's own consumption. */
export interface MonthFigures {
  goodsId: string;
  openingQty: Dec;
  openingAmount: Dec;
  /** by the field role of the report's quantity received from the source */
  received: Partial<Record<ReceivedRole, Dec>>;
  receivedAmount: Dec;
  gainLossQty: Dec;
  gainLossAmount: Dec;
}

export class Ledger {
  /** The documents and master data, with their fields, bound by role when the ledger starts. */
  readonly fields: LedgerFields;

  constructor(private readonly ctx: StoreContext) {
    this.fields = ledgerFields(ctx.catalog);
  }

  /** Serialises postings of one project's stock (a check and a report approved at once see each other). */
  async lock(tx: Queryable, tenantId: string, projectId: string) {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${tenantId}|ledger|${projectId}`]);
  }

  /** The month's opening balance, receipts by source and stocktake gains/losses, per goods. */
  async monthFigures(
    tx: Queryable,
    tenantId: string,
    projectId: string,
    warehouseId: string | null,
    month: string,
  ): Promise<Map<string, MonthFigures>> {
    const params: unknown[] = [tenantId, projectId, month];
    const where = warehouseId ? `AND warehouse_id = $${params.push(warehouseId)}` : '';
    const rows = await tx.query<{ goodsId: string; movement: string; source: string | null; before: boolean; qty: string; amount: string }>(
      `SELECT goods_id::text AS "goodsId", movement, source, month < $3 AS before, sum(qty)::text AS qty, sum(amount)::text AS amount
         FROM material_ledger WHERE tenant_id = $1 AND project_id = $2 AND month <= $3 ${where}
         GROUP BY goods_id, movement, source, month < $3`,
      params,
    );
    const out = new Map<string, MonthFigures>();
    for (const r of rows) {
      let f = out.get(r.goodsId);
      if (!f) {
        // its own `received`: the sums below add to it (the decimals are immutable)
        f = { ...NO_FIGURES, goodsId: r.goodsId, received: {} };
        out.set(r.goodsId, f);
      }
      if (r.before) {
        f.openingQty = f.openingQty.plus(r.qty);
        f.openingAmount = f.openingAmount.plus(r.amount);
      } else if (r.movement === 'receipt') {
        const role = receivedRole(r.source);
        f.received[role] = (f.received[role] ?? new Dec(0)).plus(r.qty);
        f.receivedAmount = f.receivedAmount.plus(r.amount);
      } else if (r.movement === 'gain_loss') {
        f.gainLossQty = f.gainLossQty.plus(r.qty);
        f.gainLossAmount = f.gainLossAmount.plus(r.amount);
      }
    }
    return out;
  }

  /** R-INV-2: quantity, amount and book price per goods at the end of a day. */
  async balancesAt(
    tx: Queryable,
    tenantId: string,
    projectId: string,
    warehouseId: string,
    date: string,
  ): Promise<Map<string, { qty: Dec; amount: Dec; price: Dec | null }>> {
    const rows = await tx.query<{ goodsId: string; qty: string; amount: string }>(
      `SELECT goods_id::text AS "goodsId", sum(qty)::text AS qty, sum(amount)::text AS amount FROM material_ledger
        WHERE tenant_id = $1 AND project_id = $2 AND warehouse_id = $3 AND entry_date <= $4::date GROUP BY goods_id`,
      [tenantId, projectId, warehouseId, date],
    );
    return new Map(rows.map((r) => [r.goodsId, { qty: dec(r.qty), amount: dec(r.amount), price: bookPrice(r.qty, r.amount) }]));
  }

  /** The latest closed month of a warehouse on or after `month`, with the report that closed it. */
  private async closedFrom(tx: Queryable, tenantId: string, projectId: string, warehouseId: string, month: string) {
    const [row] = await tx.query<{ month: string; code: string | null }>(
      `SELECT month, situation_code AS code FROM material_ledger_close
        WHERE tenant_id = $1 AND project_id = $2 AND warehouse_id = $3 AND month >= $4 ORDER BY month DESC LIMIT 1`,
      [tenantId, projectId, warehouseId, month],
    );
    return row;
  }

  /** R-INV-2: nothing posts into a month whose report is approved, nor before it. */
  async checkOpen(tx: Queryable, actor: Actor, projectId: string, warehouseId: string, month: string) {
    const closed = await this.closedFrom(tx, actor.tenantId, projectId, warehouseId, month);
    if (closed) {
      throw new AppError(400, 'stockMonthClosed', {
        warehouseName: await this.warehouseLabel(tx, actor, warehouseId),
        month: closed.month,
        code: closed.code ?? '',
        period: month,
      });
    }
  }

  /**
   * R-STOCK-4: the quantities a document takes out of a warehouse in a month (goods → qty > 0) fit
   * in what is there then and stays there in every later month.
   */
  async checkAvailable(tx: Queryable, actor: Actor, projectId: string, warehouseId: string, month: string, outflows: Map<string, Dec>) {
    const asked = [...outflows].filter(([, qty]) => qty.greaterThan(0));
    if (!asked.length) return;
    const history = await this.monthlyNet(
      tx,
      actor.tenantId,
      projectId,
      warehouseId,
      asked.map(([goodsId]) => goodsId),
    );
    for (const [goodsId, requested] of asked) {
      const available = availableFrom(history.get(goodsId) ?? [], month);
      if (requested.greaterThan(available)) throw await this.short(tx, actor, goodsId, warehouseId, Dec.max(available, 0), requested);
    }
  }

  /** The R-STOCK-4 refusal, naming goods, warehouse and quantities. */
  private async short(
    tx: Queryable,
    actor: Actor,
    goodsId: string,
    warehouseId: string,
    available: Dec,
    requested: Dec,
  ): Promise<AppError> {
    return new AppError(400, 'stockShort', {
      goods: await this.goodsLabel(tx, actor, goodsId),
      warehouseName: await this.warehouseLabel(tx, actor, warehouseId),
      available: available.toFixed(),
      requested: requested.toFixed(),
    });
  }

  /** Net quantity per month of some goods in a warehouse, in one query. */
  private async monthlyNet(tx: Queryable, tenantId: string, projectId: string, warehouseId: string, goodsIds: string[]) {
    const rows = await tx.query<{ goodsId: string; month: string; qty: string }>(
      `SELECT goods_id::text AS "goodsId", month, sum(qty)::text AS qty FROM material_ledger
        WHERE tenant_id = $1 AND project_id = $2 AND warehouse_id = $3 AND goods_id = ANY($4::bigint[]) GROUP BY goods_id, month`,
      [tenantId, projectId, warehouseId, goodsIds],
    );
    const out = new Map<string, { month: string; qty: string }[]>();
    for (const r of rows) out.set(r.goodsId, [...(out.get(r.goodsId) ?? []), r]);
    return out;
  }

  /** Writes a document's entries in one statement (a 200-line receipt is one round trip). */
  async post(tx: Queryable, actor: Actor, doc: DocRef, entries: readonly Entry[]) {
    const rows = entries.filter((e) => !e.qty.isZero() || !e.amount.isZero());
    if (!rows.length) return;
    const column = <T>(pick: (e: Entry) => T) => rows.map(pick);
    await tx.query(
      `INSERT INTO material_ledger (tenant_id, project_id, warehouse_id, goods_id, month, entry_date, movement, source, qty, amount, doc_entity, doc_id, doc_code)
       SELECT $1::varchar, $2::bigint, w, g, m, d::date, mv, src, qty::numeric, amt::numeric, $3::varchar, $4::bigint, $5::varchar
         FROM unnest($6::bigint[], $7::bigint[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[]) AS u(w, g, m, d, mv, src, qty, amt)`,
      [
        actor.tenantId,
        doc.projectId,
        doc.entity,
        doc.id,
        doc.code ?? null,
        column((e) => e.warehouseId),
        column((e) => e.goodsId),
        column((e) => e.month),
        column((e) => e.date),
        column((e) => e.movement),
        column((e) => e.source ?? null),
        column((e) => e.qty.toFixed()),
        column((e) => e.amount.toFixed()),
      ],
    );
  }

  /**
   * A reversal: the document's entries leave the journal, unless that would reopen a closed month or
   * take stock below zero (a receipt already consumed).
   */
  async unpost(tx: Queryable, actor: Actor, entity: string, id: string) {
    const rows = await tx.query<{ projectId: string; warehouseId: string; goodsId: string; month: string; qty: string }>(
      `SELECT project_id::text AS "projectId", warehouse_id::text AS "warehouseId", goods_id::text AS "goodsId", month, sum(qty)::text AS qty
         FROM material_ledger WHERE tenant_id = $1 AND doc_entity = $2 AND doc_id = $3 GROUP BY project_id, warehouse_id, goods_id, month`,
      [actor.tenantId, entity, id],
    );
    if (!rows.length) return;
    await this.lock(tx, actor.tenantId, rows[0].projectId);
    await tx.query('DELETE FROM material_ledger WHERE tenant_id = $1 AND doc_entity = $2 AND doc_id = $3', [actor.tenantId, entity, id]);
    for (const r of rows) await this.checkOpen(tx, actor, r.projectId, r.warehouseId, r.month);
    // what the document had brought in must still be there without it
    await this.checkNotNegative(tx, actor, rows);
  }

  /** After removing inflows: every touched goods still has a non-negative balance in every month. */
  private async checkNotNegative(
    tx: Queryable,
    actor: Actor,
    touched: ReadonlyArray<{ projectId: string; warehouseId: string; goodsId: string; month: string; qty: string }>,
  ) {
    for (const r of touched) {
      if (!dec(r.qty).greaterThan(0)) continue;
      const history = await this.monthlyNet(tx, actor.tenantId, r.projectId, r.warehouseId, [r.goodsId]);
      const available = availableFrom(history.get(r.goodsId) ?? [], r.month);
      // what was there with the document, and what its reversal takes away
      if (available.lessThan(0)) throw await this.short(tx, actor, r.goodsId, r.warehouseId, available.plus(r.qty), dec(r.qty));
    }
  }

  async close(tx: Queryable, actor: Actor, doc: DocRef, warehouseId: string, month: string) {
    await tx.query(
      `INSERT INTO material_ledger_close (tenant_id, project_id, warehouse_id, month, situation_id, situation_code) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, project_id, warehouse_id, month) DO UPDATE SET situation_id = EXCLUDED.situation_id, situation_code = EXCLUDED.situation_code`,
      [actor.tenantId, doc.projectId, warehouseId, month, doc.id, doc.code ?? null],
    );
  }

  /** Undoes a report's closing; answers what it had closed (nothing when it had not been approved). */
  async reopen(tx: Queryable, actor: Actor, situationId: string) {
    const [row] = await tx.query<{ projectId: string; warehouseId: string; month: string }>(
      `DELETE FROM material_ledger_close WHERE tenant_id = $1 AND situation_id = $2
       RETURNING project_id::text AS "projectId", warehouse_id::text AS "warehouseId", month`,
      [actor.tenantId, situationId],
    );
    return row;
  }

  /** R-RENT-6 / R-TURN-INV: turnover items on site per goods = Σ approved entries − Σ approved exits up to a day. */
  async onSite(
    tx: Queryable,
    tenantId: string,
    projectId: string,
    date: string,
    contractCode?: string | null,
    excludeId?: string,
  ): Promise<Map<string, Dec>> {
    const movement = this.fields.turnoverMovement;
    if (!movement) return new Map();
    const { model, header, lines, line, status } = movement;
    const h = (f: FieldModel) => `h.${q(f.column)}`;
    const qty = `d.${q(line.quantity.column)}`;
    const params: unknown[] = [tenantId, projectId, date];
    const byContract = contractCode ? `AND ${h(header['contract.expense'])} = $${params.push(contractCode)}` : '';
    const others = excludeId ? `AND h.id <> $${params.push(excludeId)}` : '';
    const approved = status ? `AND ${h(status)} = 'approved'` : '';
    const rows = await tx.query<{ goodsId: string; qty: string }>(
      `SELECT d.${q(line['master.goods'].column)}::text AS "goodsId",
              sum(CASE WHEN ${h(header.direction)} = 'exit' THEN -${qty} ELSE ${qty} END)::text AS qty
         FROM ${q(model.table)} h JOIN ${q(lines.table)} d ON d.${q(lines.foreignKeyColumn)} = h.id
        WHERE h.tenant_id = $1 AND ${h(header['master.project'])} = $2 AND ${h(header.date)} <= $3::date ${approved}
          ${model.softDelete ? 'AND h.is_deleted = 0' : ''} ${byContract} ${others}
        GROUP BY 1`,
      params,
    );
    return new Map(rows.map((r) => [r.goodsId, dec(r.qty)]));
  }

  /** A goods as messages name it: name and spec. */
  goodsLabel(tx: Queryable, actor: Actor, id: string): Promise<string> {
    const { model, name, spec } = this.fields.masterGoods;
    return this.label(tx, actor, model, [name, spec], id);
  }

  warehouseLabel(tx: Queryable, actor: Actor, id: string): Promise<string> {
    const { model, name } = this.fields.masterWarehouse;
    return this.label(tx, actor, model, [name], id);
  }

  /** A record's title for a message: these fields of it, joined by spaces (its id when it cannot be read). */
  private async label(tx: Queryable, actor: Actor, model: EntityModel, fields: readonly FieldModel[], id: string): Promise<string> {
    try {
      const row = await new EntityStore(this.ctx, model, actor).detail(id, 'id', tx);
      return fields
        .map((f) => row[f.name])
        .filter(Boolean)
        .join(' ');
    } catch {
      return id;
    }
  }

  /**
   * Lines for goods, as a line holding them would copy them on save (its goods reference's
   * x-ref.copy: code, name, spec, unit), keyed by the line's fields; in one query over the caller's tenant.
   */
  async goodsSnapshots(tx: Queryable, actor: Actor, goodsRef: FieldModel, ids: readonly string[]): Promise<Map<string, Row>> {
    const out = new Map<string, Row>(ids.map((id) => [id, { [goodsRef.name]: id }]));
    if (!ids.length) return out;
    const goods = this.fields.masterGoods.model;
    const copied = Object.entries(goodsRef.ref?.copy ?? {}).map(
      ([target, source]) => `, ${q(goods.fieldMap[source].column)} AS ${q(target)}`,
    );
    const rows = await tx.query<Row>(
      `SELECT id::text AS ${q(goodsRef.name)}${copied.join('')}
         FROM ${q(goods.table)} WHERE tenant_id = $1 AND id = ANY($2::bigint[]) ${goods.softDelete ? 'AND is_deleted = 0' : ''}`,
      [actor.tenantId, ids],
    );
    for (const row of rows) out.set(String(row[goodsRef.name]), row);
    return out;
  }
}

const NO_FIGURES: Omit<MonthFigures, 'goodsId'> = {
  openingQty: new Dec(0),
  openingAmount: new Dec(0),
  received: {},
  receivedAmount: new Dec(0),
  gainLossQty: new Dec(0),
  gainLossAmount: new Dec(0),
};

/** One report line filled from the ledger (R-STOCK-1..3); consumption and transfers out as entered. */
export function situationLine(report: LedgerFields['report'], line: Row, f: MonthFigures | undefined): Row {
  const fields = report.line;
  const entered = (role: 'consumedQuantity' | 'transferOutQuantity' | 'countedQuantity') => line[fields[role].name] as number;
  const figures = f ?? NO_FIGURES;
  const receivedQty = Object.values(figures.received).reduce((s, v) => s.plus(v), new Dec(0));
  const out = stockMonth({
    openingQty: figures.openingQty,
    openingAmount: figures.openingAmount,
    receivedQty,
    receivedAmount: figures.receivedAmount,
    gainLossQty: figures.gainLossQty,
    gainLossAmount: figures.gainLossAmount,
    consumedQty: entered('consumedQuantity'),
    transferOutQty: entered('transferOutQuantity'),
    countedClosingQty: entered('countedQuantity'),
  });
  const row: Row = { ...line };
  const set = (role: ReportLineRole, value: Dec) => {
    row[fields[role].name] = num(value);
  };
  set('openingQuantity', figures.openingQty);
  set('openingAmount', figures.openingAmount);
  set('receivedAmount', figures.receivedAmount);
  for (const role of Object.values(SOURCE_QUANTITIES)) set(role, figures.received[role] ?? new Dec(0));
  set('gainLossQuantity', figures.gainLossQty);
  set('gainLossAmount', figures.gainLossAmount);
  set('consumedQuantity', out.consumedQty);
  set('consumedAmount', out.consumedAmount);
  set('transferOutQuantity', dec(entered('transferOutQuantity')));
  set('transferOutAmount', out.transferOutAmount);
  return row;
}

/** The report line fields the ledger writes (situationLine): all but the goods and what the user enters. */
export function reportFigureFields(report: LedgerFields['report']): FieldModel[] {
  const { line } = report;
  return [
    line.openingQuantity,
    line.openingAmount,
    ...Object.values(SOURCE_QUANTITIES).map((role) => line[role]),
    line.receivedAmount,
    line.gainLossQuantity,
    line.gainLossAmount,
    line.consumedQuantity,
    line.consumedAmount,
    line.transferOutAmount,
  ];
}
