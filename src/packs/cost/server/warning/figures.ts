// The project's figures the warning rules and the early-warning queries read: sums over the live
// documents of one tenant and project, by goods or by upstream line, straight from the tables.
// Documents are found by their roles (x-entity.roles), never by entity key.
import { decimalToJson, Dec } from '../../../../engine/compute/decimal.ts';
import { entityWithRole, optionalEntityWithRole } from '../../../../engine/model/roles.ts';
import type { EntityCatalog, EntityModel, Label } from '../../../../engine/model/types.ts';
import type { ApprovalTimeline } from '../../engine/warnings/rules.ts';
import { nowText } from '../../../../server/clock.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { Params, q } from '../../../../server/db/sql.ts';
import type { StoreContext } from '../../../../server/db/store.ts';

/** Documents that count as taken: approved, and in approval (M and C of docs/rules.md#material-plans-supply-and-receiving). */
export const COMMITTED = ['approved', 'approving'];

export type Sums = Map<string, string>;

export const num = (v: unknown) => decimalToJson(new Dec(v === null || v === undefined || v === '' ? 0 : String(v)));

function column(model: EntityModel, field: string): string {
  return q(model.fieldMap[field].column);
}

/** The roles the early warnings read; each must be played by exactly one document type. */
export const WARNING_ROLES = {
  projectRecord: 'master.project',
  goods: 'master.goods',
  contract: 'contract.expense',
  totalDemand: 'demand.total',
  monthlyDemand: 'demand.monthly',
  procurement: 'procurement.monthly',
  batch: 'supply.batch',
  tip: 'warning.record',
} as const;

/** The counterparty of a contract (supplier, lessor, subcontractor): documents refer to it by this role. */
export const COUNTERPARTY_ROLE = 'master.counterparty';

/** Roles with rules of their own that a schema set may leave out. */
export const OPTIONAL_WARNING_ROLES = {
  receipt: 'stock.receipt',
  ticket: 'stock.voucher',
  stocktake: 'stock.count',
  monthlyReport: 'stock.monthlyReport',
} as const;

/** Settlements that bill rent: their period may not run past the lease contract. */
export const LEASE_ROLE = 'settlement.lease';

export type WarningDocuments = { [K in keyof typeof WARNING_ROLES]: EntityModel } & {
  [K in keyof typeof OPTIONAL_WARNING_ROLES]?: EntityModel;
};

const resolved = new WeakMap<EntityCatalog, WarningDocuments>();

/**
 * The document types of each role the warnings read. Called when the module starts: a schema set
 * without one of the required roles, or with one played twice, refuses to start naming the role.
 */
export function warningDocuments(catalog: EntityCatalog): WarningDocuments {
  let found = resolved.get(catalog);
  if (!found) {
    const required = Object.entries(WARNING_ROLES).map(([name, role]) => [name, entityWithRole(catalog, role)]);
    const optional = Object.entries(OPTIONAL_WARNING_ROLES).map(([name, role]) => [name, optionalEntityWithRole(catalog, role)]);
    found = Object.fromEntries([...required, ...optional]) as WarningDocuments;
    resolved.set(catalog, found);
  }
  return found;
}

export interface LineSum {
  model: EntityModel;
  sum: string;
  by: string;
  projectId: string;
  statuses: readonly string[];
  excludeId?: string;
  /** only lines whose `by` value is one of these */
  keys?: readonly string[];
}

export class Figures {
  readonly documents: WarningDocuments;

  constructor(
    private readonly db: Queryable,
    private readonly ctx: Pick<StoreContext, 'catalog' | 'dictionaryEntities' | 'timeZone'>,
    private readonly tenantId: string,
  ) {
    this.documents = warningDocuments(ctx.catalog);
  }

  /** Σ of a detail field of an entity's live documents in a project, by a line field. */
  async lineSums(spec: LineSum): Promise<Sums> {
    const model = spec.model;
    const detail = model.details[0];
    const params = new Params();
    const where = [
      `h.tenant_id = ${params.add(this.tenantId)}`,
      `h.${column(model, 'projectId')} = ${params.add(spec.projectId)}`,
      `h.${column(model, model.workflow!.statusField)} = ANY(${params.add([...spec.statuses])}::text[])`,
      `l.${q(detail.fieldMap[spec.by].column)} IS NOT NULL`,
    ];
    if (model.softDelete) where.push('h.is_deleted = 0');
    if (spec.excludeId) where.push(`h.id <> ${params.add(spec.excludeId)}`);
    if (spec.keys) where.push(`l.${q(detail.fieldMap[spec.by].column)}::text = ANY(${params.add([...spec.keys])}::text[])`);
    const rows = await this.db.query<{ k: string; s: string }>(
      `SELECT l.${q(detail.fieldMap[spec.by].column)}::text AS k, coalesce(sum(l.${q(detail.fieldMap[spec.sum].column)}), 0)::text AS s
         FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)} WHERE ${where.join(' AND ')} GROUP BY 1`,
      params.values,
    );
    return new Map(rows.map((r) => [r.k, r.s]));
  }

  /** Chosen fields of detail lines by id, for lines of this tenant's documents. */
  async lines(model: EntityModel, ids: readonly string[], fields: readonly string[]): Promise<Map<string, Row>> {
    if (!ids.length) return new Map();
    const detail = model.details[0];
    const select = fields.map((f) => `l.${q(detail.fieldMap[f].column)}::text AS ${q(f)}`).join(', ');
    const rows = await this.db.query<Row>(
      `SELECT l.id::text AS id, ${select} FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = $1 AND l.id::text = ANY($2::text[])${model.softDelete ? ' AND h.is_deleted = 0' : ''}`,
      [this.tenantId, [...ids]],
    );
    return new Map(rows.map((r) => [String(r.id), r]));
  }

  /**
   * The total demand plan a document draws on: the one it names, else the project's newest approved
   * one. Per goods: planned (demandQty), changeQty and effectiveQty.
   */
  async totalDemand(
    projectId: string,
    planId?: string | null,
  ): Promise<Map<string, { demandQty: string; changeQty: string; effectiveQty: string }>> {
    const model = this.documents.totalDemand;
    const detail = model.details[0];
    const params = new Params();
    const tenant = params.add(this.tenantId);
    const live = model.softDelete ? ' AND h.is_deleted = 0' : '';
    const chosen = planId
      ? `h.id = ${params.add(planId)}`
      : `h.id = (SELECT max(x.id) FROM ${q(model.table)} x WHERE x.tenant_id = ${tenant} AND x.${column(model, 'projectId')} = ${params.add(projectId)}
           AND x.${column(model, model.workflow!.statusField)} = 'approved'${model.softDelete ? ' AND x.is_deleted = 0' : ''})`;
    const c = (f: string) => `coalesce(sum(l.${q(detail.fieldMap[f].column)}), 0)::text`;
    const rows = await this.db.query<{ g: string; d: string; c: string; e: string }>(
      `SELECT l.${q(detail.fieldMap.goodsId.column)}::text AS g, ${c('demandQty')} AS d, ${c('changeQty')} AS c, ${c('effectiveQty')} AS e
         FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = ${tenant} AND ${chosen}${live} GROUP BY 1`,
      params.values,
    );
    return new Map(rows.map((r) => [r.g, { demandQty: r.d, changeQty: r.c, effectiveQty: r.e }]));
  }

  /** Goods' reference prices (referencePrice of the master goods) by id. */
  async referencePrices(goodsIds: readonly string[]): Promise<Map<string, string | null>> {
    if (!goodsIds.length) return new Map();
    const model = this.documents.goods;
    const rows = await this.db.query<{ id: string; p: string | null }>(
      `SELECT id::text AS id, ${column(model, 'referencePrice')}::text AS p FROM ${q(model.table)} WHERE tenant_id = $1 AND id::text = ANY($2::text[])`,
      [this.tenantId, [...new Set(goodsIds)]],
    );
    return new Map(rows.map((r) => [r.id, r.p]));
  }

  /**
   * Stock of goods in a project from the material ledger (docs/business-rules.md#material-ledger: what approved
   * checks, stocktakes and monthly reports posted), over every warehouse: received, consumed, on hand.
   */
  async stock(projectId: string, goodsIds?: readonly string[]): Promise<{ received: Sums; consumed: Sums; stock: Sums }> {
    const params = new Params();
    const where = [`tenant_id = ${params.add(this.tenantId)}`, `project_id = ${params.add(projectId)}`];
    if (goodsIds) where.push(`goods_id::text = ANY(${params.add([...goodsIds])}::text[])`);
    const rows = await this.db.query<{ g: string; r: string; c: string; s: string }>(
      `SELECT goods_id::text AS g, coalesce(sum(qty) FILTER (WHERE movement = 'receipt'), 0)::text AS r,
              coalesce(-sum(qty) FILTER (WHERE movement = 'consumption'), 0)::text AS c, sum(qty)::text AS s
         FROM material_ledger WHERE ${where.join(' AND ')} GROUP BY 1`,
      params.values,
    );
    return {
      received: new Map(rows.map((r) => [r.g, r.r])),
      consumed: new Map(rows.map((r) => [r.g, r.c])),
      stock: new Map(rows.map((r) => [r.g, r.s])),
    };
  }

  /** An expense contract of this tenant by code or id, with the fields the rules read. */
  async contract(by: 'code' | 'id', value: string): Promise<Row | null> {
    const model = this.documents.contract;
    const fields = [
      'code',
      'projectId',
      'expenditureContractType',
      'parentContractCode',
      'contractAmount',
      'changeAmount',
      'currentAmount',
      'endDate',
      'cumulativeSettledAmount',
      'cumulativePayableAmount',
      'remainingAmount',
      'retentionRate',
      'paymentRatio',
      'approvalStatus',
    ];
    const select = fields.map((f) => `${column(model, f)}${model.fieldMap[f].kind === 'decimal' ? '::text' : ''} AS ${q(f)}`).join(', ');
    const key = by === 'id' ? 'id::text' : column(model, 'code');
    const [row] = await this.db.query<Row>(
      `SELECT id::text AS id, ${select} FROM ${q(model.table)} WHERE tenant_id = $1 AND ${key} = $2${model.softDelete ? ' AND is_deleted = 0' : ''}`,
      [this.tenantId, value],
    );
    return row ?? null;
  }

  /** Σ contract amounts of the live supplementary agreements (approved or in approval) of a contract. */
  async supplementaryTotal(parentCode: string, excludeId?: string): Promise<string> {
    const model = this.documents.contract;
    const params = new Params();
    const where = [
      `tenant_id = ${params.add(this.tenantId)}`,
      `${column(model, 'parentContractCode')} = ${params.add(parentCode)}`,
      `${column(model, 'approvalStatus')} = ANY(${params.add(COMMITTED)}::text[])`,
    ];
    if (model.softDelete) where.push('is_deleted = 0');
    if (excludeId) where.push(`id <> ${params.add(excludeId)}`);
    const [row] = await this.db.query<{ s: string }>(
      `SELECT coalesce(sum(${column(model, 'contractAmount')}), 0)::text AS s FROM ${q(model.table)} WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return row.s;
  }

  /** Σ current amounts of the project's other live contracts of one type (approved or in approval). */
  async contractsOfType(projectId: string, type: string, excludeId?: string): Promise<string> {
    const model = this.documents.contract;
    // a contract not saved yet has no id to leave out
    const others = excludeId ? ' AND id <> $5' : '';
    const [row] = await this.db.query<{ s: string }>(
      `SELECT coalesce(sum(${column(model, 'currentAmount')}), 0)::text AS s FROM ${q(model.table)}
        WHERE tenant_id = $1 AND ${column(model, 'projectId')} = $2 AND ${column(model, 'expenditureContractType')} = $3${others}
          AND ${column(model, 'approvalStatus')} = ANY($4::text[])${model.softDelete ? ' AND is_deleted = 0' : ''}`,
      [this.tenantId, projectId, type, COMMITTED, ...(excludeId ? [excludeId] : [])],
    );
    return row.s;
  }

  /** A settlement group's approved amount before a period (all when none), its last approved period, and whether one is in approval. */
  async settledBefore(
    model: EntityModel,
    group: Record<string, string>,
    period?: string,
    excludeId?: string,
  ): Promise<{ amount: string; last: string | null; approving: boolean }> {
    const params = new Params();
    const where = [`tenant_id = ${params.add(this.tenantId)}`];
    if (model.softDelete) where.push('is_deleted = 0');
    for (const [k, v] of Object.entries(group)) where.push(`${column(model, k)}::text = ${params.add(v)}`);
    if (excludeId) where.push(`id <> ${params.add(excludeId)}`);
    const status = column(model, model.workflow!.statusField);
    const before = period ? ` AND ${column(model, 'period')} < ${params.add(period)}` : '';
    const [row] = await this.db.query<{ amount: string; last: string | null; approving: boolean }>(
      `SELECT coalesce(sum(${column(model, 'thisAmountInclTax')}) FILTER (WHERE ${status} = 'approved'${before}), 0)::text AS amount,
              max(${column(model, 'period')}) FILTER (WHERE ${status} = 'approved') AS last, bool_or(${status} = 'approving') AS approving
         FROM ${q(model.table)} WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return { amount: row.amount, last: row.last ?? null, approving: row.approving === true };
  }

  /** The last approved periods' amounts of a settlement group (before a period, when given), newest first. */
  async lastPeriods(
    model: EntityModel,
    group: Record<string, string>,
    limit: number,
    excludeId?: string,
    before?: string,
  ): Promise<{ period: string; amount: string }[]> {
    if (limit < 1) return [];
    const params = new Params();
    const where = [`tenant_id = ${params.add(this.tenantId)}`, `${column(model, model.workflow!.statusField)} = 'approved'`];
    if (model.softDelete) where.push('is_deleted = 0');
    for (const [k, v] of Object.entries(group)) where.push(`${column(model, k)}::text = ${params.add(v)}`);
    if (excludeId) where.push(`id <> ${params.add(excludeId)}`);
    if (before) where.push(`${column(model, 'period')} < ${params.add(before)}`);
    return this.db.query(
      `SELECT ${column(model, 'period')} AS period, ${column(model, 'thisAmountInclTax')}::text AS amount FROM ${q(model.table)}
        WHERE ${where.join(' AND ')} ORDER BY ${column(model, 'period')} DESC, id DESC LIMIT ${Number(limit)}`,
      params.values,
    );
  }

  /**
   * The project's cost budgets by expense-contract type (R-BUD): the project's detail of
   * {expenditureContractType, budgetAmount} lines (costBudgets); none when the schema
   * has no such detail or the project no line.
   */
  async budgets(projectId: string): Promise<Sums> {
    const projectModel = this.documents.projectRecord;
    const detail = projectModel.details.find((d) => 'expenditureContractType' in d.fieldMap && 'budgetAmount' in d.fieldMap);
    if (!detail) return new Map();
    const c = (f: string) => q(detail.fieldMap[f].column);
    const rows = await this.db.query<{ t: string; s: string }>(
      `SELECT l.${c('expenditureContractType')} AS t, sum(l.${c('budgetAmount')})::text AS s FROM ${q(detail.table)} l JOIN ${q(projectModel.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = $1 AND h.id::text = $2 AND l.${c('budgetAmount')} IS NOT NULL${projectModel.softDelete ? ' AND h.is_deleted = 0' : ''} GROUP BY 1`,
      [this.tenantId, projectId],
    );
    return new Map(rows.map((r) => [r.t, r.s]));
  }

  /**
   * A finished approval's timeline from the workflow tables: submitted (the instance's start), each
   * level's task from creation to completion, finished now (this runs in the approving step, whose
   * last task may not be closed yet).
   */
  async approval(instanceId: string): Promise<ApprovalTimeline | null> {
    const time = (column: string) => `to_char(${column}, 'YYYY-MM-DD HH24:MI:SS')`;
    const [instance] = await this.db.query<{ s: string }>(
      `SELECT ${time('start_time')} AS s FROM wf_instance WHERE tenant_id = $1 AND id::text = $2`,
      [this.tenantId, instanceId],
    );
    if (!instance) return null;
    const finished = nowText(this.ctx.timeZone);
    const tasks = await this.db.query<{ name: string; s: string; e: string | null }>(
      `SELECT name, ${time('create_time')} AS s, ${time('end_time')} AS e FROM wf_task WHERE tenant_id = $1 AND instance_id::text = $2 AND status <> 'cancelled' ORDER BY create_time, id`,
      [this.tenantId, instanceId],
    );
    return { submitted: instance.s, finished, steps: tasks.map((t) => ({ name: t.name, start: t.s, end: t.e ?? finished })) };
  }

  /** An expense-contract type's name in both languages, from its dictionary (the key when not found). */
  async typeName(type: string): Promise<Label> {
    const dict = this.documents.contract.fieldMap.expenditureContractType?.dict;
    const model = dict && this.ctx.catalog.entities[this.ctx.dictionaryEntities[dict.source]];
    if (!dict || !model) return { zh: type, en: type };
    const tenant = model.scope === 'tenant' ? ' AND tenant_id = $3' : '';
    const [row] = await this.db.query<{ zh: string; en: string | null }>(
      `SELECT dict_value AS zh, dict_value_en AS en FROM ${q(model.table)} WHERE code = $1 AND dict_key = $2 AND parent_id <> 0 AND is_deleted = 0${tenant} LIMIT 1`,
      model.scope === 'tenant' ? [dict.code, type, this.tenantId] : [dict.code, type],
    );
    return row ? { zh: row.zh, en: row.en || row.zh } : { zh: type, en: type };
  }
}
