// The cumulative query and the contract write-back of every document with x-cumulative: sums over
// the approved documents of one group (its key fields' values), straight from the tables, scoped to
// the caller's tenant and to live rows.
import { decimalToJson, Dec } from '../../../../engine/compute/decimal.ts';
import { applyComputed } from '../../../../engine/compute/apply.ts';
import { lineKey, nextPeriod, type Amount, type CumulativeAnswer, type CumulativeLine } from '../../engine/cumulative/cumulative.ts';
import type { DetailModel, EntityCatalog, EntityModel, FieldModel } from '../../../../engine/model/types.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import { updateRows } from '../../../../server/db/batch.ts';
import { Params, q, selectList, toParam, toRecord } from '../../../../server/db/sql.ts';
import { EntityStore, type Actor, type StoreContext } from '../../../../server/db/store.ts';
import { cumulativeOf, type CumulativeModel } from '../../engine/cumulative/model.ts';

const amount = (text: unknown): Amount => decimalToJson(new Dec(String(text ?? '0')));

/** WHERE terms selecting the live documents of a group in a status. */
function groupWhere(
  model: EntityModel,
  tenantId: string,
  group: Record<string, string>,
  statuses: string[],
  params: Params,
  excludeId?: string,
): string[] {
  const status = model.fieldMap[model.workflow!.statusField];
  const terms = [`t.tenant_id = ${params.add(tenantId)}`, `t.${q(status.column)} = ANY(${params.add(statuses)}::text[])`];
  if (model.softDelete) terms.push('t.is_deleted = 0');
  for (const [key, value] of Object.entries(group)) terms.push(`t.${q(model.fieldMap[key].column)}::text = ${params.add(value)}`);
  if (excludeId) terms.push(`t.id <> ${params.add(excludeId)}`);
  return terms;
}

/** One source's approved documents that reference a contract: how many, and their write-back figures. */
interface SourceFigures {
  approved: number;
  values: Row;
}

/** The column alias of one figure: its aggregate and the source field it reads. */
const figureKey = (aggregate: string, field: string) => `${aggregate}:${field}`;

export interface AnswerOptions {
  period?: string;
  excludeId?: string;
}

export class Cumulatives {
  constructor(private readonly ctx: StoreContext) {}

  private get catalog(): EntityCatalog {
    return this.ctx.catalog;
  }

  /** R-CUM-4: what was approved in a group before a period, with the contract it settles. */
  async answer(
    db: Queryable,
    actor: Actor,
    model: EntityModel,
    group: Record<string, string>,
    options: AnswerOptions = {},
  ): Promise<CumulativeAnswer> {
    const spec = cumulativeOf(model)!;
    const source = this.catalog.entities[spec.source];
    const params = new Params();
    const where = groupWhere(source, actor.tenantId, group, ['approved'], params, options.excludeId);
    const periodField = spec.period ? source.fieldMap[spec.period] : undefined;
    const sums = [...new Set([...Object.values(spec.header), ...spec.totals])];
    // the period bound is a parameter only when a sum uses it (a write-back-only spec sums nothing)
    const before = options.period && periodField && sums.length ? `t.${q(periodField.column)} < ${params.add(options.period)}` : 'true';
    const select = [
      ...sums.map((f) => `coalesce(sum(t.${q(source.fieldMap[f].column)}) FILTER (WHERE ${before}), 0)::text AS ${q(f)}`),
      periodField ? `max(t.${q(periodField.column)}) AS "__last"` : 'NULL AS "__last"',
    ];
    const [row] = await db.query(`SELECT ${select.join(', ')} FROM ${q(source.table)} t WHERE ${where.join(' AND ')}`, params.values);
    const last = (row.__last as string | null) ?? null;
    const header: Record<string, Amount> = {};
    for (const [target, from] of Object.entries(spec.header)) header[target] = amount(row[from]);
    const totals: Record<string, Amount> = {};
    for (const f of spec.totals) totals[f] = amount(row[f]);
    const contract = await this.contract(db, actor, spec, group);
    return {
      keys: group,
      period: options.period ?? (periodField && last ? nextPeriod(last) : null),
      lastApprovedPeriod: last,
      approving: await this.approving(db, actor.tenantId, source, group),
      contract: contract?.header ?? null,
      header,
      totals,
      lines: await this.lines(db, actor, spec, source, group, options, contract?.rows ?? []),
    };
  }

  /** A document of the group in approval (of `model`, other than `excludeId`). */
  async approving(
    db: Queryable,
    tenantId: string,
    model: EntityModel,
    group: Record<string, string>,
    excludeId?: string,
  ): Promise<{ id: string; code: string | null } | null> {
    const params = new Params();
    const where = groupWhere(model, tenantId, group, ['approving'], params, excludeId);
    const title = model.code ? `t.${q(model.fieldMap[model.code.field].column)}` : 'NULL';
    const [row] = await db.query<{ id: string; code: string | null }>(
      `SELECT t.id::text AS id, ${title} AS code FROM ${q(model.table)} t WHERE ${where.join(' AND ')} ORDER BY t.id LIMIT 1`,
      params.values,
    );
    return row ?? null;
  }

  /** The latest period of the group's approved or approving documents (other than `excludeId`). */
  async latestPeriod(
    db: Queryable,
    tenantId: string,
    model: EntityModel,
    group: Record<string, string>,
    excludeId?: string,
  ): Promise<string | null> {
    const spec = cumulativeOf(model)!;
    if (!spec.period) return null;
    const params = new Params();
    const where = groupWhere(model, tenantId, group, ['approved', 'approving'], params, excludeId);
    const [row] = await db.query<{ last: string | null }>(
      `SELECT max(t.${q(model.fieldMap[spec.period].column)}) AS last FROM ${q(model.table)} t WHERE ${where.join(' AND ')}`,
      params.values,
    );
    return row?.last ?? null;
  }

  /** The referenced contract's snapshot and its lines, when the group names it. */
  private async contract(
    db: Queryable,
    actor: Actor,
    spec: CumulativeModel,
    group: Record<string, string>,
  ): Promise<{ id: string; header: Row; rows: Row[] } | undefined> {
    const c = spec.contract;
    if (!c || group[c.field] === undefined) return undefined;
    const target = this.catalog.entities[c.entity];
    const ref = this.catalog.entities[spec.source].fieldMap[c.field].ref ?? { valueField: 'id' };
    const fields = [...new Set(['id', ...c.snapshot])].map((f) => target.fieldMap[f]);
    const params = new Params();
    const where = [
      `t.${q(target.fieldMap[ref.valueField].column)}::text = ${params.add(group[c.field])}`,
      `t.tenant_id = ${params.add(actor.tenantId)}`,
    ];
    if (target.softDelete) where.push('t.is_deleted = 0');
    const [row] = await db.query(
      `SELECT ${selectList(fields)} FROM ${q(target.table)} t WHERE ${where.join(' AND ')} LIMIT 1`,
      params.values,
    );
    if (!row) return undefined;
    const header = toRecord(row, fields);
    const cl = c.lines;
    if (!cl) return { id: String(header.id), header, rows: [] };
    const detail = target.details.find((d) => d.name === cl.detail)!;
    const rowFields = [...new Set(['id', ...Object.values(cl.match), ...cl.snapshot, ...cl.quantity])].map((f) => detail.fieldMap[f]);
    const rows = await db.query(
      `SELECT ${selectList(rowFields)} FROM ${q(detail.table)} t WHERE t.${q(detail.foreignKeyColumn)} = $1 AND t.tenant_id = $2 ORDER BY t.${q(detail.fieldMap[detail.orderField].column)}, t.id`,
      [header.id, actor.tenantId],
    );
    return { id: String(header.id), header, rows: rows.map((r) => toRecord(r, rowFields)) };
  }

  /** Previous sums by line, on the contract's lines first (in its order), then lines not on the contract. */
  private async lines(
    db: Queryable,
    actor: Actor,
    spec: CumulativeModel,
    source: EntityModel,
    group: Record<string, string>,
    options: AnswerOptions,
    contractRows: Row[],
  ): Promise<CumulativeLine[]> {
    const lines = spec.lines;
    if (!lines) return [];
    const detail = source.details.find((d) => d.name === lines.detail)!;
    const periodField = spec.period && options.period ? source.fieldMap[spec.period] : undefined;
    const before = periodField ? { field: periodField, value: options.period! } : undefined;
    const sums = await this.lineSums(
      db,
      actor.tenantId,
      source,
      detail,
      lines.match,
      [...new Set(Object.values(lines.previous))],
      group,
      options.excludeId,
      before,
    );
    const toLine = (key: Record<string, string>, found: Row | undefined): CumulativeLine => {
      const previous: Record<string, Amount> = {};
      for (const [target, from] of Object.entries(lines.previous)) previous[target] = amount(found?.[from]);
      return { key, previous };
    };
    const out: CumulativeLine[] = [];
    const used = new Set<string>();
    const cl = spec.contract?.lines;
    for (const row of cl ? contractRows : []) {
      const key: Record<string, string> = {};
      for (const f of lines.match) key[f] = cl!.match[f] === undefined ? '' : String(row[cl!.match[f]] ?? '');
      const k = lineKey(key, lines.match);
      used.add(k);
      const line = toLine(key, sums.get(k));
      const snapshot: Row = {};
      for (const f of cl!.snapshot) snapshot[f] = row[f] ?? null;
      line.contract = snapshot;
      const qty = cl!.quantity.map((f) => row[f]).find((v) => v !== null && v !== undefined && v !== '');
      if (qty !== undefined) {
        line.contractQty = amount(qty);
        const settledTarget = Object.entries(lines.previous).find(([, from]) => from === lines.quantity)?.[0];
        if (settledTarget) line.remainingQty = decimalToJson(new Dec(String(qty)).minus(new Dec(String(line.previous[settledTarget]))));
      }
      out.push(line);
    }
    for (const [k, found] of sums) {
      if (used.has(k)) continue;
      const key: Record<string, string> = {};
      for (const f of lines.match) key[f] = String(found[f] ?? '');
      out.push(toLine(key, found));
    }
    return out;
  }

  /** Σ of row fields over the group's approved documents (before the period), by match key. */
  private async lineSums(
    db: Queryable,
    tenantId: string,
    source: EntityModel,
    detail: DetailModel,
    match: readonly string[],
    fields: string[],
    group: Record<string, string>,
    excludeId?: string,
    before?: { field: FieldModel; value: string },
  ): Promise<Map<string, Row>> {
    const params = new Params();
    const where = groupWhere(source, tenantId, group, ['approved'], params, excludeId);
    if (before) where.push(`t.${q(before.field.column)} < ${params.add(before.value)}`);
    const keys = match.map((f) => `d.${q(detail.fieldMap[f].column)}::text`);
    const rows = await db.query(
      `SELECT ${keys.map((k, i) => `${k} AS ${q(match[i])}`).join(', ')}, ${fields.map((f) => `coalesce(sum(d.${q(detail.fieldMap[f].column)}), 0)::text AS ${q(f)}`).join(', ')}
         FROM ${q(detail.table)} d JOIN ${q(source.table)} t ON t.id = d.${q(detail.foreignKeyColumn)}
        WHERE ${where.join(' AND ')} GROUP BY ${keys.join(', ')}`,
      params.values,
    );
    return new Map(rows.map((r) => [lineKey(r, match), r]));
  }

  // ---- contract write-back (R-CUM-5) ----

  /**
   * Recomputes the totals a contract receives from approved documents: each write-back field is the
   * sum over every entity that writes it, never an increment, so a reversal or a repeat gives the same.
   */
  async writeBack(tx: Queryable, actor: Actor, model: EntityModel, record: Row): Promise<void> {
    const c = cumulativeOf(model)?.contract;
    if (!c || (!Object.keys(c.writeBack).length && !Object.keys(c.lines?.writeBack ?? {}).length)) return;
    const value = record[c.field];
    if (value === undefined || value === null || value === '') return;
    const target = this.catalog.entities[c.entity];
    const valueField = model.fieldMap[c.field].ref?.valueField ?? 'id';
    const store = new EntityStore(this.ctx, target, actor);
    let contract: Row;
    try {
      contract = await store.detail(String(value), valueField === 'id' ? 'id' : valueField, tx);
    } catch {
      return; // the contract is gone: nothing to write back
    }
    const writers = Object.values(this.catalog.entities).filter((m) => cumulativeOf(m)?.contract?.entity === c.entity);
    const figures = await this.approvedFigures(tx, actor.tenantId, writers, String(value));
    const next: Row = { ...contract };
    const headerFields = new Set<string>();
    for (const field of new Set(writers.flatMap((m) => Object.keys(cumulativeOf(m)!.contract!.writeBack)))) {
      next[field] = this.aggregateOver(figures, writers, field);
      headerFields.add(field);
    }
    if (c.status && !c.status.keep.includes(String(contract[c.status.field] ?? ''))) {
      next[c.status.field] = [...figures.values()].some((f) => f.approved > 0) ? c.status.settled : c.status.unsettled;
      headerFields.add(c.status.field);
    }
    const rowFields = await this.lineWriteBack(tx, actor.tenantId, writers, String(value), target, next);
    const computed = applyComputed(target, next);
    await writeFields(
      tx,
      target.table,
      [...headerFields, ...target.computeOrder].map((f) => target.fieldMap[f]),
      String(contract.id),
      computed,
    );
    for (const [name, fields] of rowFields) {
      const detail = target.details.find((d) => d.name === name)!;
      const columns = [...fields, ...detail.computeOrder].map((f) => detail.fieldMap[f]);
      await writeRowFields(tx, detail.table, columns, (computed[name] as Row[]) ?? []);
    }
  }

  /**
   * What the approved documents of each writer's source that reference the contract add up to: how
   * many there are, and the sum or the largest value of every column a write-back reads, in one
   * query per source (keyed by source and contract field, as `figureKey` names them).
   */
  private async approvedFigures(
    tx: Queryable,
    tenantId: string,
    writers: EntityModel[],
    value: string,
  ): Promise<Map<string, SourceFigures>> {
    const groups = new Map<string, { source: EntityModel; contractField: string; columns: Set<string> }>();
    for (const m of writers) {
      const c = cumulativeOf(m)!.contract!;
      const source = this.catalog.entities[cumulativeOf(m)!.source];
      const key = `${source.key}.${c.field}`;
      const group = groups.get(key) ?? { source, contractField: c.field, columns: new Set<string>() };
      for (const spec of Object.values(c.writeBack)) group.columns.add(figureKey(spec.aggregate, spec.field));
      groups.set(key, group);
    }
    const figures = new Map<string, SourceFigures>();
    for (const [key, { source, contractField, columns }] of groups) {
      const params = new Params();
      const where = groupWhere(source, tenantId, { [contractField]: value }, ['approved'], params);
      const select = [...columns].map((column) => {
        const [aggregate, field] = column.split(':');
        const col = `t.${q(source.fieldMap[field].column)}`;
        return aggregate === 'sum' ? `coalesce(sum(${col}), 0)::text AS ${q(column)}` : `max(${col})::text AS ${q(column)}`;
      });
      const [row] = await tx.query<Row>(
        `SELECT ${['count(*)::int AS "__approved"', ...select].join(', ')} FROM ${q(source.table)} t WHERE ${where.join(' AND ')}`,
        params.values,
      );
      figures.set(key, { approved: Number(row.__approved), values: row });
    }
    return figures;
  }

  /**
   * Σ (or the largest value, for a `max` write-back) over the approved documents of every writer of
   * `field` that reference the contract; a `max` without any is empty.
   */
  private aggregateOver(figures: Map<string, SourceFigures>, writers: EntityModel[], field: string): Amount | string | null {
    let total = new Dec(0);
    let largest: string | null = null;
    let numeric = true;
    const seen = new Set<string>();
    for (const m of writers) {
      const c = cumulativeOf(m)!.contract!;
      const spec = c.writeBack[field];
      const source = this.catalog.entities[cumulativeOf(m)!.source];
      if (!spec || seen.has(`${source.key}.${spec.field}.${c.field}`)) continue;
      seen.add(`${source.key}.${spec.field}.${c.field}`);
      const figure = figures.get(`${source.key}.${c.field}`)!.values[figureKey(spec.aggregate, spec.field)] as string | null;
      if (spec.aggregate === 'sum') {
        total = total.plus(figure ?? '0');
        continue;
      }
      const from = source.fieldMap[spec.field];
      numeric = from.kind === 'decimal' || from.kind === 'integer';
      if (figure === null) continue;
      // numbers compare as decimals, months and dates as their fixed-width text
      if (largest === null || (numeric ? new Dec(figure).greaterThan(largest) : figure > largest)) largest = figure;
    }
    const max = writers.some((m) => cumulativeOf(m)!.contract!.writeBack[field]?.aggregate === 'max');
    if (!max) return decimalToJson(total);
    return largest === null ? null : numeric ? amount(largest) : largest;
  }

  /** Sets the contract rows' write-back fields in `contract`; answers which fields of which detail it set. */
  private async lineWriteBack(
    tx: Queryable,
    tenantId: string,
    writers: EntityModel[],
    value: string,
    target: EntityModel,
    contract: Row,
  ): Promise<Map<string, Set<string>>> {
    const touched = new Map<string, Set<string>>();
    for (const m of writers) {
      const spec = cumulativeOf(m)!;
      const cl = spec.contract!.lines;
      if (!cl || !spec.lines || !Object.keys(cl.writeBack).length) continue;
      const source = this.catalog.entities[spec.source];
      const detail = source.details.find((d) => d.name === spec.lines!.detail)!;
      const sums = await this.lineSums(tx, tenantId, source, detail, spec.lines.match, [...new Set(Object.values(cl.writeBack))], {
        [spec.contract!.field]: value,
      });
      const rows = (contract[cl.detail] as Row[] | undefined) ?? [];
      const fields = touched.get(cl.detail) ?? new Set<string>();
      touched.set(cl.detail, fields);
      for (const row of rows) {
        const key: Record<string, string> = {};
        for (const f of spec.lines.match) key[f] = cl.match[f] === undefined ? '' : String(row[cl.match[f]] ?? '');
        const found = sums.get(lineKey(key, spec.lines.match));
        for (const [field, from] of Object.entries(cl.writeBack)) {
          // several writers of one field add up (first one starts from zero)
          const base = fields.has(field) ? new Dec(String(row[field] ?? 0)) : new Dec(0);
          row[field] = decimalToJson(base.plus(String(found?.[from] ?? '0')));
        }
      }
      for (const f of Object.keys(cl.writeBack)) fields.add(f);
    }
    return touched;
  }
}

// ---- final settlement (R-ORDER-2, R-FIN) ----

/** A document of a final-settlement type (x-cumulative.contract.final) approved for a contract. */
export interface ApprovedFinal {
  model: EntityModel;
  record: Row;
}

/** A live settlement of a contract, found by a check. */
export interface FoundDocument {
  model: EntityModel;
  code: string;
}

export class FinalSettlements {
  constructor(
    private readonly ctx: StoreContext,
    private readonly cumulatives: Cumulatives,
  ) {}

  /** The documents with x-cumulative that settle contracts of `entity`: finals and the others (interim). */
  private settling(entity: string, finals: boolean): EntityModel[] {
    return Object.values(this.ctx.catalog.entities).filter(
      (m) => cumulativeOf(m)?.contract?.entity === entity && !!cumulativeOf(m)!.contract!.final === finals,
    );
  }

  /** The approved final settlement of a contract (other than `excludeId`), if any. */
  async approvedFinal(db: Queryable, actor: Actor, entity: string, value: string, excludeId?: string): Promise<ApprovedFinal | null> {
    for (const model of this.settling(entity, true)) {
      const params = new Params();
      const where = groupWhere(model, actor.tenantId, { [cumulativeOf(model)!.contract!.field]: value }, ['approved'], params, excludeId);
      const [row] = await db.query(
        `SELECT t.id::text AS id FROM ${q(model.table)} t WHERE ${where.join(' AND ')} ORDER BY t.id LIMIT 1`,
        params.values,
      );
      if (row) return { model, record: await new EntityStore(this.ctx, model, actor).detail(String(row.id), 'id', db) };
    }
    return null;
  }

  /** A live interim settlement of a contract that is not approved (draft, in approval, rejected, …), if any. */
  async unapprovedInterim(db: Queryable, tenantId: string, entity: string, value: string): Promise<FoundDocument | null> {
    for (const model of this.settling(entity, false)) {
      const status = model.fieldMap[model.workflow!.statusField];
      const params = new Params();
      const where = [
        `t.tenant_id = ${params.add(tenantId)}`,
        `t.${q(model.fieldMap[cumulativeOf(model)!.contract!.field].column)}::text = ${params.add(value)}`,
        `coalesce(t.${q(status.column)}, '') <> 'approved'`,
      ];
      if (model.softDelete) where.push('t.is_deleted = 0');
      const title = model.code ? `t.${q(model.fieldMap[model.code.field].column)}` : 't.id::text';
      const [row] = await db.query<{ code: string }>(
        `SELECT ${title} AS code FROM ${q(model.table)} t WHERE ${where.join(' AND ')} ORDER BY t.id LIMIT 1`,
        params.values,
      );
      if (row) return { model, code: row.code };
    }
    return null;
  }

  /**
   * The contract follows its approved final settlement: its values and statuses. Without one, a
   * contract that was finalised is reopened (the reopen values, its status back to what the
   * interim settlements give) and its totals recomputed from them.
   */
  async settle(tx: Queryable, actor: Actor, model: EntityModel, record: Row): Promise<void> {
    const c = cumulativeOf(model)?.contract;
    const value = c && record[c.field];
    if (!c || value === undefined || value === null || value === '') return;
    const target = this.ctx.catalog.entities[c.entity];
    const valueField = model.fieldMap[c.field].ref?.valueField ?? 'id';
    const contract = await new EntityStore(this.ctx, target, actor).detail(String(value), valueField, tx).catch(() => null);
    if (!contract) return; // the contract is gone: nothing to write back
    const final = await this.approvedFinal(tx, actor, c.entity, String(value));
    const next: Row = { ...contract };
    if (final) {
      const spec = cumulativeOf(final.model)!.contract!.final!;
      for (const [field, from] of Object.entries(spec.writeBack)) next[field] = final.record[from];
      Object.assign(next, spec.set);
      return this.write(tx, target, next, [...Object.keys(spec.writeBack), ...Object.keys(spec.set)]);
    }
    const finals = this.settling(c.entity, true).map((m) => cumulativeOf(m)!.contract!.final!);
    if (!finals.some((f) => Object.entries(f.set).every(([k, v]) => contract[k] === v))) return;
    const changed = new Set<string>();
    for (const f of finals) for (const [k, v] of Object.entries(f.reopen)) (next[k] = v), changed.add(k);
    for (const m of this.settling(c.entity, false)) {
      const status = cumulativeOf(m)!.contract!.status;
      if (status) (next[status.field] = status.unsettled), changed.add(status.field);
    }
    await this.write(tx, target, next, [...changed]);
    // the totals of every interim writer are recomputed by one of them (writeBack sums over all)
    const writer = this.settling(c.entity, false).find((m) => Object.keys(cumulativeOf(m)!.contract!.writeBack).length);
    if (writer) await this.cumulatives.writeBack(tx, actor, writer, { [cumulativeOf(writer)!.contract!.field]: value });
  }

  private async write(tx: Queryable, target: EntityModel, next: Row, fields: string[]): Promise<void> {
    const computed = applyComputed(target, next);
    await writeFields(
      tx,
      target.table,
      [...fields, ...target.computeOrder].map((f) => target.fieldMap[f]),
      String(next.id),
      computed,
    );
  }
}

/** UPDATE of some columns of one row by id (ids come from rows just read in the caller's tenant). */
export async function writeFields(tx: Queryable, table: string, fields: FieldModel[], id: string, record: Row): Promise<void> {
  const own = ownFields(fields);
  if (!own.length) return;
  const params = new Params();
  const sets = own.map((f) => `${q(f.column)} = ${params.add(toParam(f, record[f.name]))}`);
  await tx.query(`UPDATE ${q(table)} SET ${sets.join(', ')} WHERE id = ${params.add(id)}`, params.values);
}

/** Sets `fields` of many stored rows, each by its id, as writeFields does for one: in one statement. */
export async function writeRowFields(tx: Queryable, table: string, fields: FieldModel[], rows: Row[]): Promise<void> {
  await updateRows(tx, table, ownFields(fields), rows);
}

/** The fields a write-back may set: stored, not system, not write-only, each once. */
function ownFields(fields: FieldModel[]): FieldModel[] {
  return [...new Map(fields.filter((f) => f && !f.system && !f.writeOnly).map((f) => [f.name, f])).values()];
}
