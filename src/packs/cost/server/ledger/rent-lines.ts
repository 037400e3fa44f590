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
import { LEDGER_ROLES } from '../../engine/ledger/roles.ts';
import { entityWithRole, optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityModel, PickSource } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { q } from '../../../../server/db/sql.ts';
import { EntityStore, parseId, type Actor } from '../../../../server/db/store.ts';
import { badRequest } from '../../../../server/errors.ts';
import { actorOf } from '../../../../server/http/auth.ts';
import type { RouteContext } from '../../../../server/http/entity-routes.ts';
import { envelope } from '../../../../server/http/envelope.ts';

type Query = Record<string, string | undefined>;

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
  check: EntityModel,
  tenantId: string,
  projectId: string,
  contractCode: string,
  end: string,
): Promise<CheckLine[]> {
  const detail = check.details[0];
  const h = (f: string) => `h.${q(check.fieldMap[f].column)}`;
  const d = (f: string) => (detail.fieldMap[f] ? `d.${q(detail.fieldMap[f].column)}::text` : 'NULL');
  return db.query<CheckLine>(
    `SELECT ${d('goodsId')} AS "goodsId", ${h('checkType')} AS kind, ${h('checkDate')}::text AS date, ${d('qty')} AS qty,
            ${d('lostQty')} AS "lostQty", ${d('damagedQty')} AS "damagedQty", ${d('dailyRate')} AS "dailyRate"
       FROM ${q(check.table)} h JOIN ${q(detail.table)} d ON d.${q(detail.foreignKeyColumn)} = h.id
      WHERE h.tenant_id = $1 AND ${h('projectId')} = $2 AND ${h('expenditureContractCode')} = $3
        AND ${h('checkDate')} <= $4::date AND ${h('approvalStatus')} = 'approved' ${check.softDelete ? 'AND h.is_deleted = 0' : ''}
      ORDER BY ${h('checkDate')}, h.id`,
    [tenantId, projectId, contractCode, end],
  );
}

/** One goods' figures for the period: quantities, quantity × days, and what its exits lost or damaged. */
function goodsFigures(lines: readonly CheckLine[], start: string, end: string, rule: DayRule): Row {
  const movements: Movement[] = lines.map((l) => ({ date: l.date, kind: l.kind === 'exit' ? 'exit' : 'entry', qty: l.qty }));
  const days = rentDays(movements, { start, end, rule });
  const exitsInPeriod = lines.filter((l) => l.kind === 'exit' && l.date >= start && l.date <= end);
  const total = (pick: (l: CheckLine) => string | null) => exitsInPeriod.reduce((acc, l) => acc.plus(pick(l) ?? 0), new Dec(0));
  return {
    openingQty: decimalToJson(days.openingQty),
    enteredQty: decimalToJson(days.enteredQty),
    exitedQty: decimalToJson(days.exitedQty),
    qtyDays: decimalToJson(days.qtyDays),
    lostQty: decimalToJson(total((l) => l.lostQty)),
    damagedQty: decimalToJson(total((l) => l.damagedQty)),
  };
}

/** A contract line as the settlement's pick copies it (the pick's map and row id). */
function picked(pick: PickSource, contractLine: Row): Row {
  const row: Row = { [pick.rowId]: contractLine.id };
  for (const [target, source] of Object.entries(pick.map)) row[target] = contractLine[source] ?? null;
  return row;
}

const NO_MOVEMENT: Row = { openingQty: 0, enteredQty: 0, exitedQty: 0, qtyDays: 0, lostQty: 0, damagedQty: 0 };

export function registerRentLinesRoute(
  app: FastifyInstance,
  ctx: RouteContext,
  goodsSnapshots: (db: Queryable, actor: Actor, ids: string[]) => Promise<Map<string, Row>>,
) {
  const settlement = optionalEntityWithRole(ctx.catalog, LEDGER_ROLES.rentSettlement);
  if (!settlement) return;
  const check = entityWithRole(ctx.catalog, LEDGER_ROLES.turnoverMovement);
  const projectModel = entityWithRole(ctx.catalog, LEDGER_ROLES.masterProject);
  const detail = settlement.details[0];
  const pick = detail?.pickFrom[0];
  if (!pick)
    throw new Error(
      `${settlement.file}: a ${LEDGER_ROLES.rentSettlement} document needs lines picked from its contract (x-detail.pickFrom)`,
    );
  const contract = ctx.catalog.entities[pick.entity];
  // the header holds the contract by the reference's value field (its code)
  const contractKey = settlement.fieldMap[pick.header].ref!.valueField;

  app.get(`${settlement.api}/rentLines`, async (request) => {
    const actor = actorOf(request);
    const query = request.query as Query;
    await ctx.access.check(actor, settlement, 'view');
    const projectId = parseId(query.projectId?.trim(), 'projectId');
    await new EntityStore(ctx, projectModel, actor).detail(projectId);
    const code = query[pick.header]?.trim();
    if (!code) throw badRequest('missingParam', { param: pick.header });
    const start = dateParam(query, 'startDate');
    const end = dateParam(query, 'endDate');
    if (end < start) throw badRequest('badFilterValue', { field: 'endDate', value: end });
    const lease = await new EntityStore(ctx, contract, actor).detail(code, contractKey);
    if (String(lease.projectId) !== projectId) throw badRequest('badFilterValue', { field: pick.header, value: code });
    const rule = dayRuleParam(query, lease.rentDayRule);

    const byGoods = new Map<string, CheckLine[]>();
    for (const line of await checkLines(ctx.db, check, actor.tenantId, projectId, code, end)) {
      byGoods.set(line.goodsId, [...(byGoods.get(line.goodsId) ?? []), line]);
    }
    const lines: Row[] = [];
    const billed = new Set<string>();
    for (const contractLine of (lease[pick.detail] as Row[]) ?? []) {
      const goodsId = String(contractLine.goodsId ?? '');
      // a goods on two contract lines is charged once, on the first
      const moved = byGoods.get(goodsId);
      lines.push({
        ...picked(pick, contractLine),
        ...(moved && !billed.has(goodsId) ? goodsFigures(moved, start, end, rule) : NO_MOVEMENT),
      });
      billed.add(goodsId);
    }
    const unlisted = [...byGoods.keys()].filter((id) => !billed.has(id));
    const snapshots = await goodsSnapshots(ctx.db, actor, unlisted);
    for (const goodsId of unlisted) {
      const moved = byGoods.get(goodsId)!;
      const figures = goodsFigures(moved, start, end, rule);
      // returned before the period and nothing lost since: nothing to settle
      if (Object.values(figures).every((v) => v === 0)) continue;
      const rate = [...moved].reverse().find((l) => l.dailyRate !== null)?.dailyRate ?? null;
      lines.push({ ...snapshots.get(goodsId), dailyRate: rate === null ? null : Number(rate), ...figures });
    }
    return envelope(200, lines, t('ok', request.lang));
  });
}
