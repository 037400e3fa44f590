// The project's figures the warning rules and the early-warning queries read: sums over the live
// documents of one tenant and project, by goods or by upstream line, straight from the tables.
// Documents are found by their roles (x-entity.roles), their fields by field roles (documents.ts),
// never by entity key or field name.
import { decimalToJson, Dec } from '../../../../engine/compute/decimal.ts';
import type { DetailModel, EntityModel, FieldModel, Label } from '../../../../engine/model/types.ts';
import type { ApprovalTimeline } from '../../engine/warnings/rules.ts';
import { nowText } from '../../../../server/clock.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { Params, q } from '../../../../server/db/sql.ts';
import type { StoreContext } from '../../../../server/db/store.ts';
import { WARNING_ROLES, warningDocuments, warningFields, type WarningDocuments, type WarningFields } from './documents.ts';

/** Documents that count as taken: approved, and in approval (M and C of docs/rules.md#material-plans-supply-and-receiving). */
export const COMMITTED = ['approved', 'approving'];

export type Sums = Map<string, string>;

export const num = (v: unknown) => decimalToJson(new Dec(v === null || v === undefined || v === '' ? 0 : String(v)));

/** The quoted column of a field. */
const col = (field: FieldModel) => q(field.column);
/** The quoted column of a document's workflow status. */
const statusColumn = (model: EntityModel) => q(model.fieldMap[model.workflow!.statusField].column);

/** Documents whose lines are summed in a project: their project reference and the detail of those lines. */
export interface SummedLines {
  model: EntityModel;
  header: Record<typeof WARNING_ROLES.projectRecord, FieldModel>;
  lines: { detail: DetailModel };
}

export interface LineSum {
  /** the line field summed, and the one the sums are by */
  sum: FieldModel;
  by: FieldModel;
  projectId: string;
  statuses: readonly string[];
  excludeId?: string;
  /** only lines whose `by` value is one of these */
  keys?: readonly string[];
}

/** A settlement group: the header fields it is kept by (project, contract, counterparty) with their values. */
export type Group = readonly (readonly [FieldModel, string])[];

/** What a total demand plan holds for one goods: planned, change and effective quantities. */
export interface PlannedGoods {
  quantity: string;
  changeQuantity: string;
  effectiveQuantity: string;
}

/** What is read of an expense contract, by the name the answer gives it. */
function contractReads({ code, header }: WarningFields['contract']) {
  return {
    code,
    projectId: header[WARNING_ROLES.projectRecord],
    contractType: header.contractType,
    parentContract: header.parentContract,
    amount: header.amount,
    currentAmount: header.currentAmount,
    endDate: header.endDate,
    settledAmount: header.settledAmount,
    payableAmount: header.payableAmount,
    remainingAmount: header.remainingAmount,
    retentionRate: header.retentionRate,
    paymentRatio: header.paymentRatio,
  };
}

/** An expense contract's figures (values as the database answers them; decimals as text). */
export type ContractFigures = Record<keyof ReturnType<typeof contractReads> | 'id' | 'status', unknown>;

export class Figures {
  readonly documents: WarningDocuments;
  readonly fields: WarningFields;

  constructor(
    private readonly db: Queryable,
    private readonly ctx: Pick<StoreContext, 'catalog' | 'dictionaryEntities' | 'timeZone'>,
    private readonly tenantId: string,
  ) {
    this.documents = warningDocuments(ctx.catalog);
    this.fields = warningFields(ctx.catalog);
  }

  /** Σ of a line field of a document type's live documents in a project, by another line field. */
  async lineSums({ model, header, lines: { detail } }: SummedLines, spec: LineSum): Promise<Sums> {
    const params = new Params();
    const by = `l.${col(spec.by)}`;
    const where = [
      `h.tenant_id = ${params.add(this.tenantId)}`,
      `h.${col(header[WARNING_ROLES.projectRecord])} = ${params.add(spec.projectId)}`,
      `h.${statusColumn(model)} = ANY(${params.add([...spec.statuses])}::text[])`,
      `${by} IS NOT NULL`,
    ];
    if (model.softDelete) where.push('h.is_deleted = 0');
    if (spec.excludeId) where.push(`h.id <> ${params.add(spec.excludeId)}`);
    if (spec.keys) where.push(`${by}::text = ANY(${params.add([...spec.keys])}::text[])`);
    const rows = await this.db.query<{ k: string; s: string }>(
      `SELECT ${by}::text AS k, coalesce(sum(l.${col(spec.sum)}), 0)::text AS s
         FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)} WHERE ${where.join(' AND ')} GROUP BY 1`,
      params.values,
    );
    return new Map(rows.map((r) => [r.k, r.s]));
  }

  /** Chosen fields of detail lines by id, for lines of this tenant's documents, each answered under its key. */
  async lines(
    { model, lines: { detail } }: Pick<SummedLines, 'model' | 'lines'>,
    ids: readonly string[],
    fields: Readonly<Record<string, FieldModel>>,
  ): Promise<Map<string, Row>> {
    if (!ids.length) return new Map();
    const select = Object.entries(fields)
      .map(([key, f]) => `l.${col(f)}::text AS ${q(key)}`)
      .join(', ');
    const rows = await this.db.query<Row>(
      `SELECT l.id::text AS id, ${select} FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = $1 AND l.id::text = ANY($2::text[])${model.softDelete ? ' AND h.is_deleted = 0' : ''}`,
      [this.tenantId, [...ids]],
    );
    return new Map(rows.map((r) => [String(r.id), r]));
  }

  /**
   * The total demand plan a document draws on: the one it names, else the project's newest approved
   * one. Per goods: its planned, change and effective quantities.
   */
  async totalDemand(projectId: string, planId?: string | null): Promise<Map<string, PlannedGoods>> {
    const { model, header, lines } = this.fields.totalDemand;
    const { detail, fields } = lines;
    const params = new Params();
    const tenant = params.add(this.tenantId);
    const live = model.softDelete ? ' AND h.is_deleted = 0' : '';
    const chosen = planId
      ? `h.id = ${params.add(planId)}`
      : `h.id = (SELECT max(x.id) FROM ${q(model.table)} x WHERE x.tenant_id = ${tenant} AND x.${col(header[WARNING_ROLES.projectRecord])} = ${params.add(projectId)}
           AND x.${statusColumn(model)} = 'approved'${model.softDelete ? ' AND x.is_deleted = 0' : ''})`;
    const total = (f: FieldModel) => `coalesce(sum(l.${col(f)}), 0)::text`;
    const rows = await this.db.query<{ g: string; d: string; c: string; e: string }>(
      `SELECT l.${col(fields[WARNING_ROLES.goods])}::text AS g, ${total(fields.quantity)} AS d, ${total(fields.changeQuantity)} AS c, ${total(fields.effectiveQuantity)} AS e
         FROM ${q(detail.table)} l JOIN ${q(model.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = ${tenant} AND ${chosen}${live} GROUP BY 1`,
      params.values,
    );
    return new Map(rows.map((r) => [r.g, { quantity: r.d, changeQuantity: r.c, effectiveQuantity: r.e }]));
  }

  /** Goods' reference prices (of the master goods) by id. */
  async referencePrices(goodsIds: readonly string[]): Promise<Map<string, string | null>> {
    if (!goodsIds.length) return new Map();
    const { model, header } = this.fields.goods;
    const rows = await this.db.query<{ id: string; p: string | null }>(
      `SELECT id::text AS id, ${col(header.referencePrice)}::text AS p FROM ${q(model.table)} WHERE tenant_id = $1 AND id::text = ANY($2::text[])`,
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

  /** An expense contract of this tenant by code or id, with the figures the rules read. */
  async contract(by: 'code' | 'id', value: string): Promise<ContractFigures | null> {
    const bound = this.fields.contract;
    const { model } = bound;
    const reads = Object.entries(contractReads(bound)).map(([key, f]) => `${col(f)}${f.kind === 'decimal' ? '::text' : ''} AS ${q(key)}`);
    const key = by === 'id' ? 'id::text' : col(bound.code);
    const [row] = await this.db.query<ContractFigures>(
      `SELECT id::text AS id, ${reads.join(', ')}, ${statusColumn(model)} AS status FROM ${q(model.table)} WHERE tenant_id = $1 AND ${key} = $2${model.softDelete ? ' AND is_deleted = 0' : ''}`,
      [this.tenantId, value],
    );
    return row ?? null;
  }

  /** Σ contract amounts of the live supplementary agreements (approved or in approval) of a contract. */
  async supplementaryTotal(parentCode: string, excludeId?: string): Promise<string> {
    const { model, header } = this.fields.contract;
    const params = new Params();
    const where = [
      `tenant_id = ${params.add(this.tenantId)}`,
      `${col(header.parentContract)} = ${params.add(parentCode)}`,
      `${statusColumn(model)} = ANY(${params.add(COMMITTED)}::text[])`,
    ];
    if (model.softDelete) where.push('is_deleted = 0');
    if (excludeId) where.push(`id <> ${params.add(excludeId)}`);
    const [row] = await this.db.query<{ s: string }>(
      `SELECT coalesce(sum(${col(header.amount)}), 0)::text AS s FROM ${q(model.table)} WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return row.s;
  }

  /** Σ current amounts of the project's other live contracts of one type (approved or in approval). */
  async contractsOfType(projectId: string, type: string, excludeId?: string): Promise<string> {
    const { model, header } = this.fields.contract;
    // a contract not saved yet has no id to leave out
    const others = excludeId ? ' AND id <> $5' : '';
    const [row] = await this.db.query<{ s: string }>(
      `SELECT coalesce(sum(${col(header.currentAmount)}), 0)::text AS s FROM ${q(model.table)}
        WHERE tenant_id = $1 AND ${col(header[WARNING_ROLES.projectRecord])} = $2 AND ${col(header.contractType)} = $3${others}
          AND ${statusColumn(model)} = ANY($4::text[])${model.softDelete ? ' AND is_deleted = 0' : ''}`,
      [this.tenantId, projectId, type, COMMITTED, ...(excludeId ? [excludeId] : [])],
    );
    return row.s;
  }

  /** A settlement type's period and amount fields. */
  private settlementOf(model: EntityModel) {
    const header = this.fields.settlements.get(model.key)?.header;
    if (!header) throw new Error(`${model.key} is not a monthly settlement`);
    return { period: col(header.period), amount: col(header.amount) };
  }

  /** A settlement group's approved amount before a period (all when none), its last approved period, and whether one is in approval. */
  async settledBefore(
    model: EntityModel,
    group: Group,
    period?: string,
    excludeId?: string,
  ): Promise<{ amount: string; last: string | null; approving: boolean }> {
    const fields = this.settlementOf(model);
    const params = new Params();
    const where = [`tenant_id = ${params.add(this.tenantId)}`];
    if (model.softDelete) where.push('is_deleted = 0');
    for (const [field, value] of group) where.push(`${col(field)}::text = ${params.add(value)}`);
    if (excludeId) where.push(`id <> ${params.add(excludeId)}`);
    const status = statusColumn(model);
    const before = period ? ` AND ${fields.period} < ${params.add(period)}` : '';
    const [row] = await this.db.query<{ amount: string; last: string | null; approving: boolean }>(
      `SELECT coalesce(sum(${fields.amount}) FILTER (WHERE ${status} = 'approved'${before}), 0)::text AS amount,
              max(${fields.period}) FILTER (WHERE ${status} = 'approved') AS last, bool_or(${status} = 'approving') AS approving
         FROM ${q(model.table)} WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return { amount: row.amount, last: row.last ?? null, approving: row.approving === true };
  }

  /** The last approved periods' amounts of a settlement group (before a period, when given), newest first. */
  async lastPeriods(
    model: EntityModel,
    group: Group,
    limit: number,
    excludeId?: string,
    before?: string,
  ): Promise<{ period: string; amount: string }[]> {
    if (limit < 1) return [];
    const fields = this.settlementOf(model);
    const params = new Params();
    const where = [`tenant_id = ${params.add(this.tenantId)}`, `${statusColumn(model)} = 'approved'`];
    if (model.softDelete) where.push('is_deleted = 0');
    for (const [field, value] of group) where.push(`${col(field)}::text = ${params.add(value)}`);
    if (excludeId) where.push(`id <> ${params.add(excludeId)}`);
    if (before) where.push(`${fields.period} < ${params.add(before)}`);
    return this.db.query(
      `SELECT ${fields.period} AS period, ${fields.amount}::text AS amount FROM ${q(model.table)}
        WHERE ${where.join(' AND ')} ORDER BY ${fields.period} DESC, id DESC LIMIT ${Number(limit)}`,
      params.values,
    );
  }

  /**
   * The project's cost budgets by expense-contract type (R-BUD): the project's detail whose rows play
   * contractType and budget (x-detail.fieldRoles); none when the schema has no such detail or the
   * project no line.
   */
  async budgets(projectId: string): Promise<Sums> {
    const budgets = this.fields.budgets;
    if (!budgets) return new Map();
    const { detail, contractType, budget } = budgets;
    const projectModel = this.documents.projectRecord;
    const rows = await this.db.query<{ t: string; s: string }>(
      `SELECT l.${col(contractType)} AS t, sum(l.${col(budget)})::text AS s FROM ${q(detail.table)} l JOIN ${q(projectModel.table)} h ON h.id = l.${q(detail.foreignKeyColumn)}
        WHERE h.tenant_id = $1 AND h.id::text = $2 AND l.${col(budget)} IS NOT NULL${projectModel.softDelete ? ' AND h.is_deleted = 0' : ''} GROUP BY 1`,
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
    const dict = this.fields.contract.header.contractType.dict;
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
