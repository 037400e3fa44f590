// GET <api>/earlyWarningAuxiliaryData (docs/business-rules.md#early-warnings): the figures a form needs to show its
// early warnings live, for a material plan line, an expense contract, or a monthly settlement's group;
// <api>/earlyWarningPreview: the warnings a document would raise, evaluated as its save would (preview.ts).
// Tenant-scoped (another tenant's ids answer zeros and nulls) and behind the document's view permission.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { decimalToJson, Dec } from '../../../../engine/compute/decimal.ts';
import { t } from '../../../../engine/i18n/messages.ts';
import type { EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import { auxiliaryKind, hasPreview, SETTLEMENT_ROLE } from '../../engine/warnings/auxiliary.ts';
import { percent } from '../../engine/warnings/rules.ts';
import type { Db, Row } from '../../../../server/db/db.ts';
import { parseId, tenantDb, type EntityStore } from '../../../../server/db/store.ts';
import { badRequest, notFound } from '../../../../server/errors.ts';
import { actorOf } from '../../../../server/http/auth.ts';
import { storeFor, type RouteContext } from '../../../../server/http/entity-routes.ts';
import { envelope } from '../../../../server/http/envelope.ts';
import { COUNTERPARTY_ROLE, WARNING_ROLES, warningFields } from './documents.ts';
import { COMMITTED, Figures, num, type Group, type SummedLines } from './figures.ts';
import { WarningPreview } from './preview.ts';
import { readSettings } from './service.ts';

type Query = Record<string, string | undefined>;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const CODE = /^[\w.-]{1,32}$/;

function required(query: Query, name: string): string {
  const value = query[name]?.trim();
  if (!value) throw badRequest('missingParam', { param: name });
  return value;
}

function optionalId(query: Query, name: string): string | undefined {
  const value = query[name]?.trim();
  return value ? parseId(value, name) : undefined;
}

const sub = (a: unknown, b: unknown) => decimalToJson(new Dec(String(a ?? 0)).sub(new Dec(String(b ?? 0))));

const GOODS = WARNING_ROLES.goods;

/** Lines with a quantity, of one goods each. */
type QuantityLines = SummedLines & { lines: { fields: Record<'quantity' | typeof GOODS, FieldModel> } };

/** Material total demand figures of one goods in a project (the query's parameters are the API's, not field names). */
async function demandFigures(figures: Figures, query: Query) {
  const projectId = parseId(required(query, 'projectId'), 'projectId');
  const goodsId = parseId(required(query, 'goodsId'), 'goodsId');
  const planId = optionalId(query, 'materialTotalDemandId');
  const excludeId = optionalId(query, 'excludeId');
  const keys = [goodsId];
  const plan = (await figures.totalDemand(projectId, planId)).get(goodsId);
  /** Σ quantities of a document type's lines of the goods in the project */
  const cumulative = (source: QuantityLines) => {
    const { fields } = source.lines;
    const spec = { sum: fields.quantity, by: fields[GOODS], projectId, statuses: COMMITTED, keys, excludeId };
    return figures.lineSums(source, spec).then((m) => num(m.get(goodsId)));
  };
  const { monthlyDemand, procurement, batch } = figures.fields;
  const monthly = await cumulative(monthlyDemand);
  const { received, consumed, stock } = await figures.stock(projectId, keys);
  const effective = plan ? num(plan.effectiveQuantity) : null;
  return {
    planned: !!plan,
    totalDemandQty: plan ? num(plan.quantity) : null,
    changeQty: plan ? num(plan.changeQuantity) : null,
    effectiveQty: effective,
    cumulativeMonthlyDemandQty: monthly,
    cumulativeProcureQty: await cumulative(procurement),
    cumulativeSupplyQty: await cumulative(batch),
    cumulativeReceivedQty: num(received.get(goodsId)),
    cumulativeConsumedQty: num(consumed.get(goodsId)),
    stockQty: num(stock.get(goodsId)),
    remainingQty: effective === null ? null : sub(effective, monthly),
    usedRatio: effective === null ? null : percent(monthly, effective),
  };
}

/** Expense contract figures; without a budget line of the project for the contract's type, the budget figures are null. */
async function contractFigures(figures: Figures, query: Query) {
  const id = parseId(required(query, 'primaryId'), 'primaryId');
  const contract = await figures.contract('id', id);
  if (!contract) return null;
  const parentCode = contract.parentContract as string | null;
  const parent = parentCode ? await figures.contract('code', parentCode) : null;
  // an original contract: its agreements; a supplementary one: all of its parent's, itself included
  const base = parent ?? contract;
  const supplementaryAmount = num(await figures.supplementaryTotal(String(base.code)));
  const withSelf =
    parent && !COMMITTED.includes(String(contract.status))
      ? decimalToJson(new Dec(String(supplementaryAmount)).add(new Dec(String(contract.amount ?? 0))))
      : supplementaryAmount;
  const type = contract.contractType ? String(contract.contractType) : undefined;
  const others = type ? num(await figures.contractsOfType(String(contract.projectId), type, id)) : 0;
  const budget = type ? (await figures.budgets(String(contract.projectId))).get(type) : undefined;
  const withThis = decimalToJson(new Dec(String(others)).add(new Dec(String(contract.currentAmount ?? 0))));
  return {
    contractAmount: num(contract.amount),
    currentAmount: num(contract.currentAmount),
    projectBudgetForType: budget === undefined ? null : num(budget),
    otherContractsAmountForType: others,
    budgetUsedRatio: budget === undefined ? null : percent(withThis, budget),
    originalContractCode: base.code,
    originalContractAmount: num(base.amount),
    supplementaryAmount: withSelf,
    supplementaryRatio: percent(withSelf, num(base.amount)),
    cumulativeSettledAmount: num(contract.settledAmount),
    cumulativePayableAmount: num(contract.payableAmount),
    remainingAmount: num(contract.remainingAmount),
  };
}

/**
 * A settlement group from the query: the project, the contract's code and (when given) the
 * counterparty, each matched against the settlement's field playing its role.
 */
function groupOf(figures: Figures, model: EntityModel, values: { projectId: string; code: string; counterpartyId?: string }): Group {
  const fields = figures.fields.settlements.get(model.key)!;
  const group: [FieldModel, string][] = [
    [fields.header[WARNING_ROLES.projectRecord], values.projectId],
    [fields.header[WARNING_ROLES.contract], values.code],
  ];
  if (values.counterpartyId) {
    if (!fields.counterpartyRef) throw new Error(`${model.key} plays "${SETTLEMENT_ROLE}" but has no field playing "${COUNTERPARTY_ROLE}"`);
    group.push([fields.counterpartyRef, values.counterpartyId]);
  }
  return group;
}

/** A monthly settlement group's figures, for R-CAP and the settlement quality checks in the form. */
async function settlementFigures(figures: Figures, model: EntityModel, query: Query) {
  const projectId = parseId(required(query, 'projectId'), 'projectId');
  const code = required(query, 'expenditureContractCode');
  if (!CODE.test(code)) throw badRequest('badFilterValue', { field: 'expenditureContractCode', value: code });
  const counterpartyId = optionalId(query, 'subcontractorId');
  const period = query.period?.trim() || undefined;
  if (period !== undefined && !MONTH.test(period)) throw badRequest('badFilterValue', { field: 'period', value: period });
  const excludeId = optionalId(query, 'excludeId');
  const group = groupOf(figures, model, { projectId, code, counterpartyId });
  const contract = await figures.contract('code', code);
  const mine = contract && String(contract.projectId) === projectId ? contract : null;
  const settled = await figures.settledBefore(model, group, period, excludeId);
  const current = mine ? num(mine.currentAmount) : null;
  return {
    currentContractAmount: current,
    contractEndDate: mine?.endDate ?? null,
    previousCumulativeAmount: num(settled.amount),
    lastApprovedPeriod: settled.last,
    approvingExists: settled.approving,
    cumulativeRatioBeforeThis: current === null ? null : percent(settled.amount, current),
    lastThreePeriodAmounts: (await figures.lastPeriods(model, group, 3, excludeId)).map((p) => ({
      period: p.period,
      amount: num(p.amount),
    })),
    retentionRate: mine ? num(mine.retentionRate) : null,
    paymentRatio: mine ? num(mine.paymentRatio) : null,
  };
}

/**
 * GET <api>/earlyWarningPreview?id= (a stored document) and POST <api>/earlyWarningPreview (the document as a form
 * holds it, with its id when editing): the warnings a save or submission would record, in the caller's language.
 */
function registerPreviewRoutes(app: FastifyInstance, ctx: RouteContext) {
  const preview = new WarningPreview(ctx);
  for (const model of Object.values(ctx.catalog.entities)) {
    if (!hasPreview(model, ctx.catalog.entities)) continue;
    const answer = async (request: FastifyRequest, doc: (db: Db, store: EntityStore) => Promise<Row>) => {
      const actor = actorOf(request);
      const store = await storeFor(ctx, model, request, 'view');
      const db = tenantDb(ctx, actor.tenantId);
      const settings = await readSettings(ctx.db, ctx, actor.tenantId);
      const data = await preview.evaluate(db, actor, model, await doc(db, store), settings, request.lang);
      return envelope(200, data, t('ok', request.lang));
    };
    app.get(`${model.api}/earlyWarningPreview`, (request) =>
      answer(request, (_db, store) => store.detail(parseId((request.query as Query).id?.trim(), 'id'))),
    );
    app.post(`${model.api}/earlyWarningPreview`, (request) =>
      answer(request, async (db, store) => {
        const body = request.body;
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('previewNotDocument');
        const input = body as Row;
        const stored =
          input.id === undefined || input.id === null || input.id === '' ? undefined : await store.detail(parseId(String(input.id)));
        return preview.asSaved(db, actorOf(request), model, input, stored);
      }),
    );
  }
}

export function registerWarningRoutes(app: FastifyInstance, ctx: RouteContext) {
  warningFields(ctx.catalog); // a schema set lacking a role or field role the figures read refuses to start, naming it
  registerPreviewRoutes(app, ctx);
  for (const model of Object.values(ctx.catalog.entities)) {
    const kind = auxiliaryKind(model);
    if (!kind) continue;
    app.get(`${model.api}/earlyWarningAuxiliaryData`, async (request) => {
      const actor = actorOf(request);
      await ctx.access.check(actor, model, 'view');
      const query = request.query as Query;
      const figures = new Figures(tenantDb(ctx, actor.tenantId), ctx, actor.tenantId);
      const settings = await readSettings(ctx.db, ctx, actor.tenantId);
      const data =
        kind === 'demand'
          ? await demandFigures(figures, query)
          : kind === 'contract'
            ? await contractFigures(figures, query)
            : await settlementFigures(figures, model, query);
      if (data === null) throw notFound(model.label);
      return envelope(200, { ...data, thresholds: settings }, t('ok', request.lang));
    });
  }
}
