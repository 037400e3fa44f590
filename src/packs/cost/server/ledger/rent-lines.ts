// GET <turnover.rentSettlement>/rentLines?projectId&expenditureContractCode&startDate&endDate[&rentDayRule]
// The lines of a turnover lease settlement worked out from the approved entry and exit checks of
// its lease contract (docs/rules.md#r-rent-2): each contract line as the settlement picks it (x-detail
// pickFrom), with the period's opening, entered, exited quantities and quantity × days (R-RENT-2,
// packs/cost/engine/ledger/rent.ts), and the lost and damaged quantities the period's exits reported (billed
// once: periods move forward). Goods that moved without a contract line follow, at their checks'
// daily rate. The form's 按进退场计算 button (x-layout.fill) puts them in place of its lines.
import type { FastifyInstance } from 'fastify';
import { decimalToJson, Dec } from '../../../../engine/compute/decimal.ts';
import { DAY_RULES, dayNumber, type DayRule } from '../../../../engine/compute/dates.ts';
import { t } from '../../../../engine/i18n/messages.ts';
import { rentDays, type Movement } from '../../engine/ledger/rent.ts';
import { LEDGER_ROLES, type LedgerFields } from '../../engine/ledger/roles.ts';
import { fieldWithRole, type FieldRoleOwner } from '../../../../engine/model/roles.ts';
import type { FieldModel, PickSource } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { EntityStore, parseId } from '../../../../server/db/store.ts';
import { badRequest } from '../../../../server/errors.ts';
import { actorOf } from '../../../../server/http/auth.ts';
import type { RouteContext } from '../../../../server/http/entity-routes.ts';
import { envelope } from '../../../../server/http/envelope.ts';
import type { Ledger } from './service.ts';

type Query = Record<string, string | undefined>;
type TurnoverMovement = NonNullable<LedgerFields['turnoverMovement']>;
type RentSettlement = NonNullable<LedgerFields['rentSettlement']>;

/** The query parameter naming the lease contract, by its code. */
export const CONTRACT_PARAM = 'expenditureContractCode';

/** A line of an approved turnover check of the contract, up to the period's end. */
interface CheckLine {
  goodsId: string;
  kind: 'entry' | 'exit';
  date: string;
  qty: string;
  lostQty: string | null;
  damagedQty: string | null;
  dailyRate: string | null;
}

/** A settlement line's figures for one goods: by the field roles of the settlement's lines. */
type Figures = Record<'openingQuantity' | 'enteredQuantity' | 'exitedQuantity' | 'quantityDays' | 'lostQuantity' | 'damagedQuantity', Dec>;

function dateParam(query: Query, name: string): string {
  const value = query[name]?.trim();
  if (!value) throw badRequest('missingParam', { param: name });
  if (dayNumber(value) === null || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw badRequest('badFilterValue', { field: name, value });
  return value;
}

function dayRuleParam(query: Query, fallback: unknown): DayRule {
  const value = query.rentDayRule?.trim() || (typeof fallback === 'string' && fallback) || 'both';
  if (!(DAY_RULES as readonly string[]).includes(value)) throw badRequest('badFilterValue', { field: 'rentDayRule', value });
  return value as DayRule;
}

/** The approved check lines of a project's lease contract dated up to `end`, oldest first. */
async function checkLines(
  db: Queryable,
  { model, header, lines, line, status }: TurnoverMovement,
  tenantId: string,
  projectId: string,
  contractCode: string,
  end: string,
): Promise<CheckLine[]> {
  const h = (f: FieldModel) => `h.${q(f.column)}`;
  const d = (f: FieldModel) => `d.${q(f.column)}::text`;
  return db.query<CheckLine>(
    `SELECT ${d(line['master.goods'])} AS "goodsId", ${h(header.direction)} AS kind, ${h(header.date)}::text AS date, ${d(line.quantity)} AS qty,
            ${d(line.lostQuantity)} AS "lostQty", ${d(line.damagedQuantity)} AS "damagedQty", ${d(line.dailyRate)} AS "dailyRate"
       FROM ${q(model.table)} h JOIN ${q(lines.table)} d ON d.${q(lines.foreignKeyColumn)} = h.id
      WHERE h.tenant_id = $1 AND ${h(header['master.project'])} = $2 AND ${h(header['contract.expense'])} = $3
        AND ${h(header.date)} <= $4::date ${status ? `AND ${h(status)} = 'approved'` : ''} ${model.softDelete ? 'AND h.is_deleted = 0' : ''}
      ORDER BY ${h(header.date)}, h.id`,
    [tenantId, projectId, contractCode, end],
  );
}

/** One goods' figures for the period: quantities, quantity × days, and what its exits lost or damaged. */
function goodsFigures(lines: readonly CheckLine[], start: string, end: string, rule: DayRule): Figures {
  const movements: Movement[] = lines.map((l) => ({ date: l.date, kind: l.kind === 'exit' ? 'exit' : 'entry', qty: l.qty }));
  const days = rentDays(movements, { start, end, rule });
  const exitsInPeriod = lines.filter((l) => l.kind === 'exit' && l.date >= start && l.date <= end);
  const total = (pick: (l: CheckLine) => string | null) => exitsInPeriod.reduce((acc, l) => acc.plus(pick(l) ?? 0), new Dec(0));
  return {
    openingQuantity: days.openingQty,
    enteredQuantity: days.enteredQty,
    exitedQuantity: days.exitedQty,
    quantityDays: days.qtyDays,
    lostQuantity: total((l) => l.lostQty),
    damagedQuantity: total((l) => l.damagedQty),
  };
}

const NO_MOVEMENT: Figures = {
  openingQuantity: new Dec(0),
  enteredQuantity: new Dec(0),
  exitedQuantity: new Dec(0),
  quantityDays: new Dec(0),
  lostQuantity: new Dec(0),
  damagedQuantity: new Dec(0),
};

/** The figures as a settlement line's fields. */
function asLine(settlement: RentSettlement, figures: Figures): Row {
  return Object.fromEntries(
    (Object.keys(figures) as (keyof Figures)[]).map((role) => [settlement.line[role].name, decimalToJson(figures[role])]),
  );
}

/** A contract line as the settlement's pick copies it (the pick's map and row id). */
function picked(pick: PickSource, contractLine: Row): Row {
  const row: Row = { [pick.rowId]: contractLine.id };
  for (const [target, source] of Object.entries(pick.map)) row[target] = contractLine[source] ?? null;
  return row;
}

/** The lease a settlement picks its lines from (x-detail.pickFrom): its project, its lines' goods, and its day rule when it has one. */
function leaseOf(ctx: RouteContext, settlement: RentSettlement) {
  const pick = settlement.lines.pickFrom[0];
  if (!pick)
    throw new Error(
      `${settlement.model.file}: a ${LEDGER_ROLES.rentSettlement} document needs lines picked from its contract (x-detail.pickFrom)`,
    );
  const { entities } = ctx.catalog;
  const model = entities[pick.entity];
  const needed = (owner: FieldRoleOwner, role: string, part: string) => {
    const field = fieldWithRole(entities, owner, role);
    if (!field)
      throw new Error(
        `${model.key}, the lease ${settlement.model.key} picks its lines from, has no field playing "${role}" in its ${part}`,
      );
    return field;
  };
  const lines = model.details.find((d) => d.name === pick.detail)!;
  return {
    model,
    pick,
    // the header holds the contract by the reference's value field (its code)
    key: settlement.model.fieldMap[pick.header].ref!.valueField,
    projectRef: needed(model, LEDGER_ROLES.masterProject, 'header'),
    goodsRef: needed(lines, LEDGER_ROLES.masterGoods, pick.detail),
    /** the rule a settlement charges by unless it says otherwise */
    dayRule: fieldWithRole(entities, model, 'dayRule'),
  };
}

export function registerRentLinesRoute(app: FastifyInstance, ctx: RouteContext, ledger: Ledger) {
  const { rentSettlement: settlement, turnoverMovement: movement } = ledger.fields;
  if (!settlement) return;
  if (!movement)
    throw new Error(
      `${settlement.model.key} plays "${LEDGER_ROLES.rentSettlement}", whose lines are worked out from the documents playing "${LEDGER_ROLES.turnoverMovement}"; none does`,
    );
  const lease = leaseOf(ctx, settlement);
  const settlementGoods = settlement.line['master.goods'];

  app.get(`${settlement.model.api}/rentLines`, async (request) => {
    const actor = actorOf(request);
    const query = request.query as Query;
    await ctx.access.check(actor, settlement.model, 'view');
    const projectId = parseId(query.projectId?.trim(), 'projectId');
    await new EntityStore(ctx, ledger.fields.masterProject, actor).detail(projectId);
    const code = query[CONTRACT_PARAM]?.trim();
    if (!code) throw badRequest('missingParam', { param: CONTRACT_PARAM });
    const start = dateParam(query, 'startDate');
    const end = dateParam(query, 'endDate');
    if (end < start) throw badRequest('badFilterValue', { field: 'endDate', value: end });
    const contract = await new EntityStore(ctx, lease.model, actor).detail(code, lease.key);
    if (String(contract[lease.projectRef.name]) !== projectId) throw badRequest('badFilterValue', { field: CONTRACT_PARAM, value: code });
    const rule = dayRuleParam(query, lease.dayRule && contract[lease.dayRule.name]);

    const byGoods = new Map<string, CheckLine[]>();
    for (const line of await checkLines(ctx.db, movement, actor.tenantId, projectId, code, end)) {
      byGoods.set(line.goodsId, [...(byGoods.get(line.goodsId) ?? []), line]);
    }
    const lines: Row[] = [];
    const billed = new Set<string>();
    for (const contractLine of (contract[lease.pick.detail] as Row[]) ?? []) {
      const goodsId = String(contractLine[lease.goodsRef.name] ?? '');
      // a goods on two contract lines is charged once, on the first
      const moved = byGoods.get(goodsId);
      lines.push({
        ...picked(lease.pick, contractLine),
        ...asLine(settlement, moved && !billed.has(goodsId) ? goodsFigures(moved, start, end, rule) : NO_MOVEMENT),
      });
      billed.add(goodsId);
    }
    const unlisted = [...byGoods.keys()].filter((id) => !billed.has(id));
    const snapshots = await ledger.goodsSnapshots(ctx.db, actor, settlementGoods, unlisted);
    for (const goodsId of unlisted) {
      const moved = byGoods.get(goodsId)!;
      const figures = goodsFigures(moved, start, end, rule);
      // returned before the period and nothing lost since: nothing to settle
      if (Object.values(figures).every((v) => v.isZero())) continue;
      const rate = [...moved].reverse().find((l) => l.dailyRate !== null)?.dailyRate ?? null;
      lines.push({
        ...snapshots.get(goodsId),
        [settlement.line.dailyRate.name]: rate === null ? null : Number(rate),
        ...asLine(settlement, figures),
      });
    }
    return envelope(200, lines, t('ok', request.lang));
  });
}
