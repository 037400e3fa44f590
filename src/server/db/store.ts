// The data layer of every document type. A store is built for one entity and one caller (Actor);
// every statement it runs is scoped to the caller's tenant and to live rows, so no route can forget
// to. Writes run the whole pipeline: normalize, compute, validate, check dictionaries and references,
// then header and detail rows in one transaction.
import { applyComputed } from '../../engine/compute/apply.ts';
import { withoutUnchangedSecrets } from '../../engine/model/secrets.ts';
import { forest } from '../../engine/tree/forest.ts';
import type { Ajv } from '../../engine/dialect/ajv.ts';
import { t } from '../../engine/i18n/messages.ts';
import { localizeRecord, sameText, storedTextFields } from '../../engine/i18n/stored-text.ts';
import { inheritingRefs, termsOnSave, type TermConflict } from '../../engine/inherit/inherit.ts';
import type { DetailModel, EntityCatalog, EntityModel, FieldModel, Lang } from '../../engine/model/types.ts';
import type { Filter, ListQuery } from '../../engine/query/list-params.ts';
import { isRecordId } from '../../engine/query/ids.ts';
import { matches, type Predicate } from '../../engine/predicate/predicate.ts';
import { describePath, validateRecord, type FieldError } from '../../engine/validate/record.ts';
import { nowText } from '../clock.ts';
import { AppError, badRequest, notFound, ValidationFailed } from '../errors.ts';
import { insertRows, updateRows } from './batch.ts';
import { sqlState, type Db, type Queryable, type Row } from './db.ts';
import { nextId } from './ids.ts';
import { pickErrors } from './picks.ts';
import { orderSql, Params, q, selectList, toParam, toRecord } from './sql.ts';
import { indexName, linkRefType, uniqueWithinIndex } from './sync.ts';
import { conditionSql, filterSql } from './filter-sql.ts';
import { isTenantData } from './tenant-data.ts';

export const PLATFORM_TENANT = '000000';

/** Who is asking: from the verified token. */
export interface Actor {
  tenantId: string;
  userId: string;
  deptId: string | null;
  lang: Lang;
  /** The roles the token carries (ids and aliases). */
  roleIds?: readonly string[];
  roleAliases?: readonly string[];
}

/**
 * Server code a system entity needs beyond the generic pipeline (a password to hash, a tenant id to
 * generate, a department's ancestors). Each hook runs inside the write's transaction.
 */
export interface EntityHooks {
  /** Checks on the raw body that the schema cannot express (a password needed on create). */
  validate?(event: { body: Row; creating: boolean; actor: Actor }): FieldError[];
  /** Fills derived fields of the record before it is written. */
  beforeWrite?(event: { tx: Queryable; actor: Actor; record: Row; id?: string; creating: boolean }): Promise<void>;
  /** After header and rows were written. */
  afterWrite?(event: { tx: Queryable; actor: Actor; id: string; body: Row; record: Row; creating: boolean }): Promise<void>;
  /** Before records are removed. */
  beforeRemove?(event: { tx: Queryable; actor: Actor; ids: string[] }): Promise<void>;
  /** After a workflow step moved the record's approval status (approving, approved, rejected, …), in the step's transaction. */
  afterStatus?(event: { tx: Queryable; actor: Actor; id: string; status: string }): Promise<void>;
  /** Adds to the records a list or detail answer returns what the caller may do with each (an approval's recall), in place. */
  afterRead?(event: { db: Queryable; actor: Actor; records: Row[] }): Promise<void>;
}

/** A row filter from a data scope: SQL over the entity's own table (alias t) with its parameters. */
export type DataFilter = (params: Params, alias: string) => string;

export interface StoreContext {
  /** The main database: platform data, and the business data of tenants not bound elsewhere. */
  db: Db;
  /** The database of a tenant's business data (tenant-data.ts); the main one when absent. */
  dbFor?(tenantId: string): Db;
  /** The main database itself where `db` is a transaction (flow/tx.ts inTransaction). */
  mainDb?: Db;
  /** True when the tenant's business data is on a database of its own. */
  isBound?(tenantId: string): Promise<boolean>;
  catalog: EntityCatalog;
  ajv: Ajv;
  timeZone: string;
  /** Entity keys of the system and business dictionaries, for dictionary value checks. */
  dictionaryEntities: { system: string; biz: string };
  hooks?: Readonly<Record<string, EntityHooks>>;
}

export interface Page<T = Row> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

export interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  hasChildren?: boolean;
  children?: TreeNode[];
}

const DEFERRED_JOIN_OFFSET = 200;
const TREE_LIMIT = 20000;
/** At most this many records from `all` (an unpaged list for pickers and caches, not an export). */
export const ALL_LIMIT = 5000;

export function parseIds(raw: string | undefined, param = 'ids'): string[] {
  if (raw === undefined || raw.trim() === '') throw badRequest('missingParam', { param });
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !isRecordId(id));
  if (bad !== undefined || ids.length === 0) throw badRequest('badId', { param, value: bad ?? raw });
  return [...new Set(ids)];
}

export function parseId(raw: string | undefined, param = 'id'): string {
  if (raw === undefined || raw === '') throw badRequest('missingParam', { param });
  if (!isRecordId(raw)) throw badRequest('badId', { param, value: raw });
  return raw;
}

function isBlank(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** A local date and time as the platform's clients send it where a date is meant: `2026-11-27 00:00:00`. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/;

/**
 * The value as stored, for the spellings the platform's clients send (lenient on the way in, exact
 * on the way out): a numeric string for a number, a local date and time for a date (its date: a
 * value with a time zone is left to be refused), a number for a single dictionary key.
 */
function normalizeValue(f: FieldModel, v: unknown): unknown {
  if ((f.kind === 'decimal' || f.kind === 'integer') && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  if (f.kind === 'date' && typeof v === 'string') return LOCAL_DATE_TIME.exec(v)?.[1] ?? v;
  // the platform's clients send numbers for text (a dictionary key typed as a number, `dictKey: 3`)
  if (f.kind === 'string' && typeof v === 'number' && Number.isFinite(v)) return String(v);
  return v;
}

/** Keeps the fields a client may set, each as stored (normalizeValue); blanks become absent. */
function normalizeInput(fields: readonly FieldModel[], body: Row, keepId: boolean): Row {
  const out: Row = {};
  if (keepId && typeof body.id === 'string' && body.id !== '') out.id = body.id;
  for (const f of fields) {
    if (f.system || (f.readOnly && !f.compute) || !(f.name in body)) continue;
    const v = body[f.name];
    if (isBlank(v)) continue;
    out[f.name] = normalizeValue(f, v);
  }
  return out;
}

/** The database of `tenantId`'s business data. */
export function tenantDb(ctx: StoreContext, tenantId: string): Db {
  return ctx.dbFor?.(tenantId) ?? ctx.db;
}

/** The database `model`'s rows of `tenantId` live on. */
export function databaseOf(ctx: StoreContext, model: EntityModel, tenantId: string): Db {
  return isTenantData(model) ? tenantDb(ctx, tenantId) : platformDb(ctx, tenantId);
}

/**
 * Platform rows of `tenantId` from inside a business transaction (ctx of flow/tx.ts inTransaction):
 * in that transaction while the tenant is on the main database, else on the main database.
 */
function platformDb(ctx: StoreContext, tenantId: string): Db {
  const { db: inside, mainDb: main, isBound } = ctx;
  if (!main || !isBound) return inside;
  const pick = async () => ((await isBound(tenantId)) ? main : inside);
  return {
    kind: inside.kind,
    query: async (sql, params, options) => (await pick()).query(sql, params, options),
    transaction: async (fn) => (await pick()).transaction(fn),
    exec: async (sql) => (await pick()).exec(sql),
    close: async () => undefined,
  };
}

/**
 * Where a transaction over `inside`'s rows reads `model`'s rows of `tenantId`: in the transaction
 * when both are on one database (always so for tenants on the main database), else on `model`'s
 * database, outside the transaction (reference data: a dictionary, an attachment, a user).
 */
export async function readerFor(
  ctx: StoreContext,
  inside: EntityModel | 'business' | 'platform',
  model: EntityModel | 'business' | 'platform',
  tenantId: string,
  tx: Queryable,
): Promise<Queryable> {
  const business = (m: typeof inside) => (typeof m === 'string' ? m === 'business' : isTenantData(m));
  if (business(inside) === business(model) || !(await ctx.isBound?.(tenantId))) return tx;
  return business(model) ? tenantDb(ctx, tenantId) : (ctx.mainDb ?? ctx.db);
}

export class EntityStore {
  private readonly db: Db;

  constructor(
    private readonly ctx: StoreContext,
    readonly model: EntityModel,
    readonly actor: Actor,
    /** Row filters of the caller's data scopes on this entity (any one admits a row). */
    private readonly dataFilters: readonly DataFilter[] = [],
  ) {
    this.db = databaseOf(ctx, model, actor.tenantId);
  }

  /**
   * Where to read `model`'s rows during a write of this store: inside the transaction when they
   * live on the same database, else on theirs (a dictionary or an attachment of a tenant whose
   * documents are on a database of its own).
   */
  private on(model: EntityModel, tx: Queryable): Promise<Queryable> {
    return readerFor(this.ctx, this.model, model, this.actor.tenantId, tx);
  }

  private get hooks(): EntityHooks {
    return this.ctx.hooks?.[this.model.key] ?? {};
  }

  private get platform(): boolean {
    return this.actor.tenantId === PLATFORM_TENANT;
  }

  private assertRead() {
    if (this.model.scope === 'platform' && !this.platform) throw new AppError(403, 'forbidden');
  }

  private assertWrite() {
    // rows of another document are written through that document's form
    if (this.model.rowsOf) throw new AppError(404, 'routeNotFound');
    if (this.model.scope !== 'tenant' && !this.model.tenantRows && !this.platform)
      throw new AppError(403, 'platformOnly', { entity: this.model.label });
  }

  /** Whether the entity's rows carry their tenant: a tenant's entity, or shared rows a tenant may add to. */
  private get tenantColumn(): boolean {
    return this.model.scope === 'tenant' || this.model.tenantRows;
  }

  /** WHERE terms every statement on this entity carries. */
  private scope(params: Params, model: EntityModel = this.model, alias = 't'): string[] {
    const terms: string[] = [];
    if (model.scope === 'tenant') terms.push(`${alias}.tenant_id = ${params.add(this.actor.tenantId)}`);
    // shared rows a tenant may add to: the platform's and the caller's own
    if (model.tenantRows) terms.push(`${alias}.tenant_id IN (${params.add(PLATFORM_TENANT)}, ${params.add(this.actor.tenantId)})`);
    if (model.softDelete) terms.push(`${alias}.is_deleted = 0`);
    // rows of another document are scoped through their document (relation())
    if (model === this.model && !model.rowsOf && this.dataFilters.length)
      terms.push(`(${this.dataFilters.map((f) => f(params, alias)).join(' OR ')})`);
    return terms;
  }

  /**
   * What alias t reads: the entity's table or, for rows of another document (x-entity.rowsOf), that
   * document's detail rows joined to their live document within the caller's data scopes on it, the
   * document's fields named as this entity's properties. PostgreSQL folds the subquery into the
   * outer statement, so filters and order reach the tables' indexes.
   */
  private relation(params: Params): string {
    const rowsOf = this.model.rowsOf;
    if (!rowsOf) return q(this.model.table);
    const parent = this.ctx.catalog.entities[rowsOf.entity];
    const detail = parent.details.find((d) => d.name === rowsOf.detail)!;
    const columns = this.model.columns.map((f) => {
      const from = rowsOf.parentFields[f.name];
      return from ? `p.${q(parent.fieldMap[from].column)} AS ${q(f.column)}` : `d.${q(f.column)}`;
    });
    const join = [`p.id = d.${q(detail.foreignKeyColumn)}`];
    if (parent.scope === 'tenant') join.push('p.tenant_id = d.tenant_id');
    if (parent.softDelete) join.push('p.is_deleted = 0');
    if (this.dataFilters.length) join.push(`(${this.dataFilters.map((f) => f(params, 'p')).join(' OR ')})`);
    return `(SELECT ${columns.join(', ')} FROM ${q(detail.table)} d JOIN ${q(parent.table)} p ON ${join.join(' AND ')})`;
  }

  // ---- reads ----

  /** A row as a reader gets it: numbers decoded, stored texts (x-display message) in the reader's language. */
  private readable(row: Row, fields: readonly FieldModel[] = this.model.columns): Row {
    return localizeRecord(fields, toRecord(row, fields), this.actor.lang);
  }

  async list(query: ListQuery): Promise<Page> {
    this.assertRead();
    const params = new Params();
    const where = this.scope(params);
    for (const filter of query.filters) where.push(filterSql(filter, this.model, params));
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const from = `FROM ${this.relation(params)} t ${whereSql}`;
    const [{ total }] = await this.db.query<{ total: number }>(`SELECT count(*)::int AS total ${from}`, params.values);
    const offset = (query.current - 1) * query.size;
    let records: Row[] = [];
    if (offset < total) {
      const limit = params.add(query.size);
      const off = params.add(offset);
      const order = orderSql(query.sort, this.model.fieldMap);
      // Deep pages: find the page's ids first (the list index answers that alone), then read
      // only those rows, instead of reading every skipped row.
      const sql =
        offset >= DEFERRED_JOIN_OFFSET
          ? `SELECT ${selectList(this.model.columns)} FROM ${this.relation(params)} t JOIN (SELECT t.id ${from} ORDER BY ${order} LIMIT ${limit} OFFSET ${off}) page ON page.id = t.id ORDER BY ${order}`
          : `SELECT ${selectList(this.model.columns)} ${from} ORDER BY ${order} LIMIT ${limit} OFFSET ${off}`;
      records = (await this.db.query(sql, params.values)).map((r) => this.readable(r));
    }
    return { records, total, size: query.size, current: query.current, pages: Math.ceil(total / query.size) };
  }

  /**
   * Choices for a reference picker or labels for a list: {value, label} of the records with the
   * given ids, or of those whose title contains `keyword`, narrowed by list filters, a page at a time.
   */
  async options(query: {
    ids?: string[];
    valueField?: string;
    keyword?: string;
    filters?: readonly Filter[];
    current: number;
    size: number;
  }): Promise<Page<{ value: string; label: string }>> {
    this.assertRead();
    const valueField = this.model.fieldMap[query.valueField ?? 'id'];
    const labelField = this.model.fieldMap[this.model.titleField ?? 'id'];
    const shown = this.model.optionFields.map((f) => this.model.fieldMap[f]);
    const params = new Params();
    const where = this.scope(params);
    if (query.ids)
      where.push(`t.${q(valueField.column)} = ANY(${params.add(query.ids)}::${valueField.name === 'id' ? 'bigint' : 'text'}[])`);
    // a keyword matches any of the shown fields (a goods code as well as its name)
    if (query.keyword) {
      const keyword = query.keyword;
      const texts = shown.filter((f) => f.kind === 'string');
      where.push(
        filterSql(
          { any: (texts.length ? texts : [labelField]).map((f) => ({ field: f.name, op: 'like' as const, value: keyword })) },
          this.model,
          params,
        ),
      );
    }
    for (const filter of query.filters ?? []) where.push(filterSql(filter, this.model, params));
    // a picker offers live records only; labels by id still name a disabled record an old document holds
    if (!query.ids) where.push(...this.activeTerms(params));
    const from = `FROM ${this.relation(params)} t ${where.length ? 'WHERE ' + where.join(' AND ') : ''}`;
    const [{ total }] = await this.db.query<{ total: number }>(`SELECT count(*)::int AS total ${from}`, params.values);
    const limit = params.add(query.size);
    const offset = params.add((query.current - 1) * query.size);
    const rows = await this.db.query<{ value: string; label: string }>(
      `SELECT t.${q(valueField.column)}::text AS value, concat_ws(' ', ${shown.map((f) => `t.${q(f.column)}::text`).join(', ')}) AS label ${from} ORDER BY t.${q(labelField.column)}, t.id LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    return { records: rows, total, size: query.size, current: query.current, pages: Math.ceil(total / query.size) };
  }

  /** The live records (x-entity.activeIf) of the tenant, unpaged, in the list's default order, at most ALL_LIMIT. */
  async all(filters: readonly Filter[] = []): Promise<Row[]> {
    this.assertRead();
    const params = new Params();
    const where = [...this.scope(params), ...this.activeTerms(params)];
    for (const filter of filters) where.push(filterSql(filter, this.model, params));
    const rows = await this.db.query(
      `SELECT ${selectList(this.model.columns)} FROM ${this.relation(params)} t ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY ${orderSql(this.model.list.defaultSort, this.model.fieldMap)} LIMIT ${ALL_LIMIT}`,
      params.values,
    );
    return rows.map((r) => this.readable(r));
  }

  /**
   * A report over the records the caller may read: the `columns` of the records matching `filter`
   * (a predicate over the model's fields, checked by the caller), ordered by the grouping fields,
   * a page at a time; and the count and sums of each group and of all of them.
   */
  async report(spec: {
    columns: readonly string[];
    filter?: Predicate;
    groupBy: readonly string[];
    sums: readonly string[];
    current: number;
    size: number;
    maxGroups: number;
  }): Promise<{ page: Page; groups: Row[]; totals: Row }> {
    this.assertRead();
    const fields = (names: readonly string[]) => names.map((n) => this.model.fieldMap[n]);
    const params = new Params();
    const where = this.scope(params);
    if (spec.filter) where.push(`(${conditionSql(spec.filter, this.model, params)})`);
    const from = `FROM ${this.relation(params)} t ${where.length ? 'WHERE ' + where.join(' AND ') : ''}`;
    const sums = fields(spec.sums).map((f) => `sum(t.${q(f.column)}) AS ${q(f.name)}`);
    const groupCols = fields(spec.groupBy).map((f) => `t.${q(f.column)}`);
    const asNumbers = (row: Row) =>
      toRecord(
        row,
        fields(spec.sums).map((f) => ({ ...f, kind: 'decimal' as const })),
      );
    const [totals] = await this.db.query(`SELECT ${['count(*)::int AS count', ...sums].join(', ')} ${from}`, params.values);
    const groups = groupCols.length
      ? await this.db.query(
          `SELECT ${[selectList(fields(spec.groupBy)), 'count(*)::int AS count', ...sums].join(', ')} ${from} GROUP BY ${groupCols.join(', ')} ORDER BY ${groupCols.join(', ')} LIMIT ${Math.trunc(spec.maxGroups)}`,
          params.values,
        )
      : [];
    const shown = fields([...new Set(['id', ...spec.groupBy, ...spec.columns])]);
    const order = [...groupCols, orderSql(this.model.list.defaultSort, this.model.fieldMap)].join(', ');
    const rows = await this.db.query(
      `SELECT ${selectList(shown)} ${from} ORDER BY ${order} LIMIT ${params.add(spec.size)} OFFSET ${params.add((spec.current - 1) * spec.size)}`,
      params.values,
    );
    const total = totals.count as number;
    return {
      page: {
        records: rows.map((r) => this.readable(r, shown)),
        total,
        size: spec.size,
        current: spec.current,
        pages: Math.ceil(total / spec.size),
      },
      groups: groups.map(asNumbers),
      totals: asNumbers(totals),
    };
  }

  private activeTerms(params: Params, model: EntityModel = this.model, alias = 't'): string[] {
    return model.activeIf ? [`(${conditionSql(model.activeIf, model, params, alias)})`] : [];
  }

  /** One record with its detail rows, found by id or by a lookup key; not found is an error. */
  async detail(id: string, by: string = 'id', db: Queryable = this.db): Promise<Row> {
    const record = await this.header(id, by, db);
    for (const detail of this.model.details) record[detail.name] = await this.detailRows(db, detail, record.id);
    return record;
  }

  /** The record as `detail` answers it, without its detail rows: for a caller that reads only the header. */
  async header(id: string, by: string = 'id', db: Queryable = this.db): Promise<Row> {
    this.assertRead();
    const field = this.model.fieldMap[by];
    const params = new Params();
    const where = [`t.${q(field.column)} = ${params.add(id)}`, ...this.scope(params)];
    const [row] = await db.query(
      `SELECT ${selectList(this.model.columns)} FROM ${this.relation(params)} t WHERE ${where.join(' AND ')}`,
      params.values,
    );
    if (!row) throw notFound(this.model.label);
    return this.readable(row);
  }

  private async detailRows(db: Queryable, detail: DetailModel, parentId: string): Promise<Row[]> {
    const params = new Params();
    const where = [`t.${q(detail.foreignKeyColumn)} = ${params.add(parentId)}`];
    if (this.model.scope === 'tenant') where.push(`t.tenant_id = ${params.add(this.actor.tenantId)}`);
    const order = q(detail.fieldMap[detail.orderField].column);
    const rows = await db.query(
      `SELECT ${selectList(detail.columns)} FROM ${q(detail.table)} t WHERE ${where.join(' AND ')} ORDER BY t.${order}, t.id`,
      params.values,
    );
    return rows.map((r) => this.readable(r, detail.columns));
  }

  /** The whole tree as nested TreeNodes (platform shape: title, key, value, children). */
  async tree(): Promise<TreeNode[]> {
    const tree = this.requireTree();
    const rows = await this.allRows();
    const nodes = rows.map((r) => this.treeNode(r, tree));
    const roots = forest(nodes, (n) => n.key);
    for (const n of nodes) if (n.children) n.hasChildren = true;
    return roots;
  }

  /**
   * The records the filters find, as a forest (x-entity.tree.list "forest", the platform's dept,
   * dict, menu and role lists): each with its parent's title (`parentName`, `topName` at a root),
   * `hasChildren`, and `children` when it has any. A record whose parent is not among those found
   * is a root, so a search still shows what it found.
   */
  async forestList(query: ListQuery, topName: string): Promise<Row[]> {
    const tree = this.requireTree();
    this.assertRead();
    const params = new Params();
    const where = this.scope(params);
    for (const filter of query.filters) where.push(filterSql(filter, this.model, params));
    const column = (field: string) => q(this.model.fieldMap[field].column);
    const parentScope = this.scope(params, this.model, 'p');
    const parentName = `(SELECT p.${column(this.model.titleField ?? tree.keyField)}::text FROM ${q(this.model.table)} p WHERE p.${column(tree.keyField)} = t.${column(tree.parentField)}${parentScope.map((s) => ` AND ${s}`).join('')} LIMIT 1)`;
    const rows = await this.db.query<Row>(
      `SELECT ${selectList(this.model.columns)}, ${parentName} AS "parentName" FROM ${this.relation(params)} t ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY ${this.treeOrder()} LIMIT ${TREE_LIMIT}`,
      params.values,
    );
    const records: Row[] = rows.map((r) => ({ ...this.readable(r), parentName: r.parentName ?? topName }));
    const roots = forest(
      records,
      (r) => String(r[tree.keyField]),
      (r) => String(r[tree.parentField] ?? tree.root),
    );
    for (const r of records) r.hasChildren = Boolean(r.children);
    return roots;
  }

  /** One level of the tree, each record with hasChildren. */
  async children(parent: string): Promise<Row[]> {
    const tree = this.requireTree();
    this.assertRead();
    const parentCol = q(this.model.fieldMap[tree.parentField].column);
    const keyCol = q(this.model.fieldMap[tree.keyField].column);
    const params = new Params();
    const where = [`t.${parentCol}::text = ${params.add(parent)}`, ...this.scope(params)];
    const childScope = this.scope(params, this.model, 'c');
    const hasChildren = `EXISTS (SELECT 1 FROM ${q(this.model.table)} c WHERE c.${parentCol} = t.${keyCol}${childScope.length ? ' AND ' + childScope.join(' AND ') : ''})`;
    const rows = await this.db.query(
      `SELECT ${selectList(this.model.columns)}, ${hasChildren} AS "hasChildren" FROM ${q(this.model.table)} t WHERE ${where.join(' AND ')} ORDER BY ${this.treeOrder()} LIMIT ${TREE_LIMIT}`,
      params.values,
    );
    return rows.map((r) => this.readable(r));
  }

  /** One level as TreeNodes (for lazy tree pickers). */
  async lazyTree(parent: string): Promise<TreeNode[]> {
    const tree = this.requireTree();
    return (await this.children(parent)).map((r) => ({ ...this.treeNode(r, tree), hasChildren: Boolean(r.hasChildren) }));
  }

  private requireTree() {
    if (!this.model.tree) throw new AppError(404, 'routeNotFound');
    return this.model.tree;
  }

  private treeOrder(): string {
    return 'sort' in this.model.fieldMap ? 't.sort, t.id' : 't.id';
  }

  private async allRows(): Promise<Row[]> {
    this.assertRead();
    const params = new Params();
    const where = this.scope(params);
    const rows = await this.db.query(
      `SELECT ${selectList(this.model.columns)} FROM ${q(this.model.table)} t ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY ${this.treeOrder()} LIMIT ${TREE_LIMIT}`,
      params.values,
    );
    return rows.map((r) => this.readable(r));
  }

  private treeNode(r: Row, tree: NonNullable<EntityModel['tree']>): TreeNode {
    const key = String(r[tree.keyField]);
    const title = this.model.titleField ? String(r[this.model.titleField] ?? '') : key;
    // a tree keyed by another field (a region by its code) names its nodes by that key, as the
    // platform does: its clients ask for a node's record by the node's id (region/detail?code=)
    const id = tree.keyField === 'id' ? String(r.id) : key;
    return { id, parentId: String(r[tree.parentField] ?? tree.root), title, key, value: key };
  }

  // ---- writes ----

  /**
   * Creates a record (with its rows) and returns it as `detail` would. `createdAt` (yyyy-MM-dd
   * HH:mm:ss) dates it, and its code, in the past instead of now: the demo's history.
   */
  async create(body: Row, options: { createdAt?: string } = {}): Promise<Row> {
    return this.detail(await this.insert(body, options));
  }

  /** Creates a record as `create` does and answers its id only, for a caller that does not read it back. */
  async insert(body: Row, { createdAt }: { createdAt?: string } = {}): Promise<string> {
    body = withoutUnchangedSecrets(this.model, body);
    this.assertWrite();
    const { input, record: checked } = await this.prepare(body, 'full', true);
    return this.write(async (tx) => {
      await this.checkValues(tx, checked);
      const record = this.withSnapshots(checked, input);
      await this.checkPicks(tx, record);
      await this.hooks.beforeWrite?.({ tx, actor: this.actor, record, creating: true });
      await this.checkUniqueWithin(tx, record);
      const newId = nextId();
      await this.insertHeader(tx, newId, record, createdAt);
      for (const detail of this.model.details) await this.syncRows(tx, detail, newId, (record[detail.name] as Row[]) ?? [], []);
      await this.hooks.afterWrite?.({ tx, actor: this.actor, id: newId, body, record, creating: true });
      return newId;
    }, checked);
  }

  /** Replaces a record's editable fields (and, when sent, its rows). Absent fields become empty. */
  async update(id: string, body: Row): Promise<Row> {
    body = withoutUnchangedSecrets(this.model, body);
    this.assertWrite();
    const { input, record: checked } = await this.prepare(body, 'full', false);
    await this.write(async (tx) => {
      const existing = await this.lockExisting(tx, id);
      await this.keepStoredTexts(tx, id, checked);
      await this.checkValues(tx, checked, id, existing);
      const record = this.withSnapshots(checked, input);
      await this.checkPicks(tx, record);
      await this.hooks.beforeWrite?.({ tx, actor: this.actor, record, id, creating: false });
      await this.checkUniqueWithin(tx, record, id);
      await this.updateHeader(tx, id, record, [...this.editableFields().map((f) => f.name), ...this.snapshotFields()]);
      for (const detail of this.model.details) {
        if (Array.isArray(record[detail.name])) await this.syncRows(tx, detail, id, record[detail.name] as Row[], existing[detail.name]);
      }
      await this.hooks.afterWrite?.({ tx, actor: this.actor, id, body, record, creating: false });
    }, checked);
    return this.detail(id);
  }

  /** Changes only the fields sent; derived values are recomputed from the stored record. */
  async updatePart(id: string, body: Row): Promise<Row> {
    body = withoutUnchangedSecrets(this.model, body);
    this.assertWrite();
    const given = normalizeInput(this.model.fields, body, false);
    const cleared = this.editableFields()
      .filter((f) => f.name in body && isBlank(body[f.name]))
      .map((f) => f.name);
    const sent = this.model.details.filter((d) => Array.isArray(body[d.name]));
    // rows whose formulas read a header field sent are recomputed with it (and written) too
    const sentDetails = this.model.details.filter((d) => sent.includes(d) || d.headerReads.some((f) => f in body));
    await this.write(async (tx) => {
      const existing = await this.lockExisting(tx, id);
      const merged: Row = { ...existing, ...given };
      await this.keepStoredTexts(tx, id, merged);
      for (const name of cleared) delete merged[name];
      for (const d of sent) merged[d.name] = (body[d.name] as Row[]).map((r) => normalizeInput(d.fields, r, true));
      const inherited = await this.inheritTerms(tx, this.forgetTermsOfChangedRefs(merged, existing, given), (name) => name in body);
      const computed = applyComputed(this.model, merged);
      const checked = [
        ...new Set([...Object.keys(given), ...cleared, ...inherited, ...this.model.computeOrder, ...sentDetails.map((d) => d.name)]),
      ];
      this.assertValid(computed, 'partial', checked);
      const partial: Row = {};
      for (const name of checked) if (name in computed) partial[name] = computed[name];
      await this.checkValues(tx, partial, id, existing);
      // snapshot fields copied from a newly chosen reference are written too, and computed with
      const changed = [...new Set([...checked, ...this.carrySnapshots(partial, merged)])];
      const record = applyComputed(this.model, merged);
      this.assertValid(record, 'partial', changed);
      await this.checkPicks(tx, record, (name) => name in partial);
      await this.hooks.beforeWrite?.({ tx, actor: this.actor, record, id, creating: false });
      await this.checkUniqueWithin(tx, record, id);
      await this.updateHeader(tx, id, record, changed);
      for (const d of sentDetails) await this.syncRows(tx, d, id, record[d.name] as Row[], existing[d.name]);
      await this.hooks.afterWrite?.({ tx, actor: this.actor, id, body, record, creating: false });
    }, given);
    return this.detail(id);
  }

  /** Removes records: all of them or, if any is missing or still needed, none. */
  async remove(ids: string[]): Promise<void> {
    this.assertWrite();
    await this.write(async (tx) => {
      const params = new Params();
      const where = [`t.id = ANY(${params.add(ids)}::bigint[])`, ...this.scope(params)];
      const found = await tx.query<{ id: string }>(
        `SELECT t.id::text AS id FROM ${q(this.model.table)} t WHERE ${where.join(' AND ')} FOR UPDATE`,
        params.values,
      );
      if (found.length !== ids.length) throw notFound(this.model.label);
      await this.assertChangeable(tx, ids);
      await this.assertNotPermanent(tx, ids);
      await this.assertNotNeeded(tx, ids);
      await this.hooks.beforeRemove?.({ tx, actor: this.actor, ids });
      const now = nowText(this.ctx.timeZone);
      if (this.model.softDelete) {
        const p = new Params();
        await tx.query(
          `UPDATE ${q(this.model.table)} t SET is_deleted = 1, update_user = ${p.add(this.actor.userId)}, update_time = ${p.add(now)} WHERE t.id = ANY(${p.add(ids)}::bigint[])`,
          p.values,
        );
      } else {
        for (const d of this.model.details)
          await tx.query(`DELETE FROM ${q(d.table)} WHERE ${q(d.foreignKeyColumn)} = ANY($1::bigint[])`, [ids]);
        for (const { link } of this.model.columns.filter((f) => f.link))
          await tx.query(`DELETE FROM ${q(link!.table)} WHERE ${q(link!.ownerColumn)} = ANY($1::bigint[])`, [ids]);
        await tx.query(`DELETE FROM ${q(this.model.table)} WHERE id = ANY($1::bigint[])`, [ids]);
      }
    });
  }

  /**
   * None of `ids` is a record the caller may read but not change: one nobody changes
   * (x-entity.fixedIf: a rule derived from the schemas) or, for a tenant, a shared row of the
   * platform's (x-entity.tenantRows).
   */
  private async assertChangeable(tx: Queryable, ids: string[]) {
    const { fixedIf, tenantRows, titleField } = this.model;
    const shared = tenantRows && !this.platform;
    if (!fixedIf && !shared) return;
    const params = new Params();
    const name = titleField ? `t.${q(this.model.fieldMap[titleField].column)}` : 't.id';
    const fixed = fixedIf ? conditionSql(fixedIf, this.model, params) : 'false';
    const others = shared ? `t.tenant_id <> ${params.add(this.actor.tenantId)}` : 'false';
    const [kept] = await tx.query<{ name: string; fixed: boolean }>(
      `SELECT ${name}::text AS name, (${fixed}) AS fixed FROM ${q(this.model.table)} t
        WHERE t.id = ANY(${params.add(ids)}::bigint[]) AND ((${fixed}) OR ${others}) LIMIT 1`,
      params.values,
    );
    if (kept) throw new AppError(403, kept.fixed ? 'fixedRecord' : 'sharedRecord', { name: kept.name, entity: this.model.label });
  }

  /** None of `ids` is a record that is never removed (x-entity.permanentIf: the platform tenant). */
  private async assertNotPermanent(tx: Queryable, ids: string[]) {
    const { permanentIf, titleField } = this.model;
    if (!permanentIf) return;
    const params = new Params();
    const name = titleField ? `t.${q(this.model.fieldMap[titleField].column)}` : 't.id';
    const [kept] = await tx.query<{ name: string }>(
      `SELECT ${name}::text AS name FROM ${q(this.model.table)} t
        WHERE t.id = ANY(${params.add(ids)}::bigint[]) AND (${conditionSql(permanentIf, this.model, params)}) LIMIT 1`,
      params.values,
    );
    if (kept) throw new AppError(400, 'permanent', { name: kept.name });
  }

  /** Picked rows belong to the document their header selects (x-detail.pickFrom). */
  private async checkPicks(tx: Queryable, record: Row, written: (name: string) => boolean = () => true) {
    if (!this.model.details.some((d) => d.pickFrom.length)) return;
    const errors = await pickErrors(
      tx,
      { catalog: this.ctx.catalog, model: this.model, tenantId: this.actor.tenantId, lang: this.actor.lang },
      record,
      written,
    );
    if (errors.length) throw new ValidationFailed(errors);
  }

  private editableFields(): FieldModel[] {
    return this.model.fields.filter((f) => !f.system && !(f.readOnly && !f.compute));
  }

  /**
   * x-ref.inherit: fills the terms `input` leaves empty from the records its references name, and
   * refuses a fixed term that differs from the record's (`sent`: only the fields this write sets are
   * refused, a stored document is not blamed for its past). Answers the fields filled.
   */
  private async inheritTerms(tx: Queryable, input: Row, sent: (name: string) => boolean = () => true): Promise<string[]> {
    const filled: string[] = [];
    const errors: FieldError[] = [];
    for (const ref of inheritingRefs(this.model.fields)) {
      if (isBlank(input[ref.name])) continue;
      const target = this.ctx.catalog.entities[ref.ref!.entity];
      const sources = Object.values(ref.ref!.inherit).map((term) => term.from);
      const referenced = await this.recordBy(tx, target, ref.ref!.valueField, input[ref.name], sources);
      if (!referenced) continue; // the reference check names the missing record
      const { fill, conflicts } = termsOnSave(ref, referenced, input, this.model.fieldMap);
      Object.assign(input, fill);
      filled.push(...Object.keys(fill));
      for (const c of conflicts.filter((x) => sent(x.field) || sent(x.ref)))
        errors.push({ path: `/${c.field}`, message: await this.termMessage(tx, c, referenced) });
    }
    if (errors.length) throw new ValidationFailed(errors);
    return filled;
  }

  /** A reference changed by a partial update takes the new record's terms where the update names none. */
  private forgetTermsOfChangedRefs(merged: Row, existing: Row, given: Row): Row {
    for (const ref of inheritingRefs(this.model.fields)) {
      if (!(ref.name in given) || String(given[ref.name]) === String(existing[ref.name] ?? '')) continue;
      for (const target of Object.keys(ref.ref!.inherit)) if (!(target in given)) delete merged[target];
    }
    return merged;
  }

  /** 合同乙方须与分包合同“…”一致:某劳务公司 — the term's field, the record it comes from and its value. */
  private async termMessage(tx: Queryable, c: TermConflict, referenced: Row): Promise<string> {
    const lang = this.actor.lang;
    const params = { field: this.describe(`/${c.field}`), ref: this.describe(`/${c.ref}`), record: referenced.__title };
    if (isBlank(c.expected)) return t('inheritedTermEmpty', lang, params);
    return t('inheritedTerm', lang, { ...params, value: await this.shownValue(tx, this.model.fieldMap[c.field], c.expected) });
  }

  /** A value as a user knows it: a referenced record by its title. */
  private async shownValue(tx: Queryable, field: FieldModel, value: unknown): Promise<unknown> {
    if (!field.ref) return value;
    const found = await this.recordBy(tx, this.ctx.catalog.entities[field.ref.entity], field.ref.valueField, value, []);
    return found?.__title ?? value;
  }

  /** The record of `model` whose `by` is `value` (its `fields` and its title as __title), if it is live. */
  private async recordBy(tx: Queryable, model: EntityModel, by: string, value: unknown, fields: string[]): Promise<Row | undefined> {
    const key = model.fieldMap[by];
    if (key.kind === 'id' && !isRecordId(String(value))) return undefined;
    const wanted = [...new Set(fields)].map((name) => model.fieldMap[name]);
    const title = model.fieldMap[model.titleField ?? by];
    const params = new Params();
    const where = [`t.${q(key.column)}::text = ${params.add(String(value))}`, ...this.scope(params, model)];
    const columns = [`t.${q(title.column)}::text AS "__title"`, ...(wanted.length ? [selectList(wanted)] : [])];
    const [row] = await (await this.on(model, tx)).query(
      `SELECT ${columns.join(', ')} FROM ${q(model.table)} t WHERE ${where.join(' AND ')} LIMIT 1`,
      params.values,
    );
    return row && toRecord(row, wanted);
  }

  /** Normalizes, fills defaults, computes and validates a full record; `input` is what was computed from. */
  private async prepare(body: Row, mode: 'full', creating: boolean): Promise<{ input: Row; record: Row }> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('badJson');
    const hookErrors = this.hooks.validate?.({ body, creating, actor: this.actor }) ?? [];
    if (hookErrors.length) throw new ValidationFailed(hookErrors);
    const input = normalizeInput(this.model.fields, body, false);
    // terms of a referenced record before defaults: a contract's payment ratio, not the schema's 100
    await this.inheritTerms(this.db, input);
    for (const f of this.model.fields) if (f.default !== undefined && !f.system && !(f.name in input)) input[f.name] = f.default;
    for (const d of this.model.details) {
      if (!(d.name in body)) continue;
      if (!Array.isArray(body[d.name])) {
        input[d.name] = body[d.name];
        continue;
      }
      input[d.name] = (body[d.name] as Row[]).map((row) => {
        if (typeof row !== 'object' || row === null) return row;
        const r = normalizeInput(d.fields, row, true);
        for (const f of d.fields) if (f.default !== undefined && !f.system && !(f.name in r)) r[f.name] = f.default;
        return r;
      });
    }
    const record = this.safeCompute(input);
    this.assertValid(record, mode);
    return { input, record };
  }

  /**
   * The record computed again once the reference check copied its snapshot fields (x-ref.copy) in:
   * a formula over a copied value (a share of the contract's amount) uses the referenced record's
   * value, never one the client sent, just as the form computes after a pick.
   */
  private withSnapshots(checked: Row, input: Row): Row {
    const fields = [...this.model.fields, ...this.model.details.flatMap((d) => d.fields)];
    if (!fields.some((f) => f.ref && Object.keys(f.ref.copy).length)) return checked;
    this.carrySnapshots(checked, input);
    const record = this.safeCompute(input);
    this.assertValid(record, 'full');
    return record;
  }

  /** Header fields a reference copies its snapshot into (read-only to clients, written on save). */
  private snapshotFields(): string[] {
    return this.model.fields.flatMap((f) => Object.keys(f.ref?.copy ?? {}));
  }

  /** Copies the snapshot fields the reference check filled in `checked` into `input`; answers the header fields copied. */
  private carrySnapshots(checked: Row, input: Row): string[] {
    const copied: string[] = [];
    for (const target of this.snapshotFields()) {
      if (!(target in checked)) continue;
      input[target] = checked[target];
      copied.push(target);
    }
    for (const d of this.model.details) {
      const [from, to] = [checked[d.name], input[d.name]];
      if (!Array.isArray(from) || !Array.isArray(to)) continue;
      const targets = d.fields.flatMap((f) => Object.keys(f.ref?.copy ?? {}));
      from.forEach((row: Row, i) => {
        for (const target of targets) if (row && to[i] && target in row) (to[i] as Row)[target] = row[target];
      });
    }
    return copied;
  }

  /** Computes derived values; a value that is not a number is left for the validator to report. */
  private safeCompute(input: Row): Row {
    try {
      return applyComputed(this.model, input);
    } catch {
      return input;
    }
  }

  private assertValid(record: Row, mode: 'full' | 'partial', changed?: string[]) {
    const errors = validateRecord(this.ctx.ajv, this.model, stripRowIds(this.model, record), { mode, lang: this.actor.lang, changed });
    if (errors.length) throw new ValidationFailed(errors);
  }

  /** Runs a write in one transaction and turns unique-index violations into field errors. */
  private async write<T>(fn: (tx: Queryable) => Promise<T>, input: Row = {}): Promise<T> {
    try {
      return await this.db.transaction(fn);
    } catch (err) {
      if (sqlState(err) === '23505') throw this.uniqueViolation(err, input);
      throw err;
    }
  }

  /**
   * A field unique within others (x-db.uniqueWithin) is refused on the field when another live
   * record of the tenant (or of the table, when shared) shares its value and theirs. The partial
   * unique index refuses what two concurrent writes could slip past this (uniqueViolation).
   */
  private async checkUniqueWithin(tx: Queryable, record: Row, selfId?: string) {
    for (const f of this.model.fields) {
      const rule = f.uniqueWithin;
      if (!rule || isBlank(record[f.name]) || rule.fields.some((name) => isBlank(record[name]))) continue;
      if (rule.when && !matches(rule.when, record)) continue;
      const params = new Params();
      const column = (name: string) => `t.${q(this.model.fieldMap[name].column)}`;
      const where = [f.name, ...rule.fields].map(
        (name) => `${column(name)} = ${params.add(toParam(this.model.fieldMap[name], record[name]))}`,
      );
      if (this.model.scope === 'tenant') where.push(`t.tenant_id = ${params.add(this.actor.tenantId)}`);
      if (this.model.softDelete) where.push('t.is_deleted = 0');
      if (selfId) where.push(`t.id <> ${params.add(selfId)}`);
      if (rule.when) where.push(`(${conditionSql(rule.when, this.model, params)})`);
      const taken = await tx.query(`SELECT 1 FROM ${q(this.model.table)} t WHERE ${where.join(' AND ')} LIMIT 1`, params.values);
      if (taken.length) throw this.uniqueError(f, record[f.name]);
    }
  }

  private uniqueError(f: FieldModel, value: unknown): ValidationFailed {
    return new ValidationFailed([{ path: `/${f.name}`, message: t('unique', this.actor.lang, { field: f.label, value: value ?? '' }) }]);
  }

  private uniqueViolation(err: unknown, input: Row): Error {
    const constraint = (err as { constraint?: string }).constraint ?? '';
    const message = String((err as Error).message);
    const scope = this.tenantColumn ? ['tenant_id'] : [];
    for (const f of this.model.fields) {
      if (f.uniqueWithin) {
        const name = uniqueWithinIndex(this.model, f).name;
        if (constraint === name || message.includes(name)) return this.uniqueError(f, input[f.name]);
        continue;
      }
      if (!f.unique) continue;
      const name = indexName(this.model.table, [...scope, f.column], true);
      if (constraint === name || message.includes(name)) {
        return new ValidationFailed([
          { path: `/${f.name}`, message: t('unique', this.actor.lang, { field: f.label, value: input[f.name] ?? '' }) },
        ]);
      }
    }
    return err as Error;
  }

  /**
   * A stored text (x-display message) sent back as the words it reads as (an edit form posts the
   * record it loaded) stays the stored text, so it still reads in each reader's language.
   */
  private async keepStoredTexts(tx: Queryable, id: string, record: Row) {
    const fields = storedTextFields(this.model.columns).filter((f) => typeof record[f.name] === 'string');
    if (!fields.length) return;
    const [stored] = await tx.query<Row>(
      `SELECT ${fields.map((f) => `t.${q(f.column)} AS ${q(f.name)}`).join(', ')} FROM ${q(this.model.table)} t WHERE t.id = $1`,
      [id],
    );
    for (const f of fields) if (stored && sameText(record[f.name], stored[f.name])) record[f.name] = stored[f.name];
  }

  private async lockExisting(tx: Queryable, id: string): Promise<Row> {
    const params = new Params();
    const where = [`t.id = ${params.add(id)}`, ...this.scope(params)];
    const [row] = await tx.query(`SELECT t.id FROM ${q(this.model.table)} t WHERE ${where.join(' AND ')} FOR UPDATE`, params.values);
    if (!row) throw notFound(this.model.label);
    await this.assertChangeable(tx, [id]);
    return this.detail(id, 'id', tx);
  }

  private async insertHeader(tx: Queryable, id: string, record: Row, createdAt?: string) {
    const now = createdAt ?? nowText(this.ctx.timeZone);
    const values: Row = {
      ...record,
      id,
      createUser: this.actor.userId,
      createDept: this.actor.deptId,
      createTime: now,
      updateUser: this.actor.userId,
      updateTime: now,
    };
    if (this.tenantColumn) values.tenantId = this.actor.tenantId;
    if (this.model.softDelete) values.isDeleted = 0;
    if (this.model.code && isBlank(values[this.model.code.field])) values[this.model.code.field] = await this.nextCode(tx, now);
    const fields = this.model.columns.filter((f) => f.name in values && !f.link);
    const params = new Params();
    const placeholders = fields.map((f) => params.add(toParam(f, values[f.name])));
    await tx.query(
      `INSERT INTO ${q(this.model.table)} (${fields.map((f) => q(f.column)).join(', ')}) VALUES (${placeholders.join(', ')})`,
      params.values,
    );
    for (const f of this.model.columns) if (f.link) await this.writeLinks(tx, id, f, values[f.name]);
  }

  private async updateHeader(tx: Queryable, id: string, record: Row, names: string[]) {
    const params = new Params();
    // a field can be both editable and a snapshot of a reference: set each column once
    const written = [...new Set(names)].map((name) => this.model.fieldMap[name]).filter((f) => f && !f.system && !f.writeOnly);
    const sets = written.filter((f) => !f.link).map((f) => `${q(f.column)} = ${params.add(toParam(f, record[f.name]))}`);
    sets.push(`update_user = ${params.add(this.actor.userId)}`, `update_time = ${params.add(nowText(this.ctx.timeZone))}`);
    const where = [`t.id = ${params.add(id)}`, ...this.scope(params)];
    await tx.query(`UPDATE ${q(this.model.table)} t SET ${sets.join(', ')} WHERE ${where.join(' AND ')}`, params.values);
    for (const f of written) if (f.link) await this.writeLinks(tx, id, f, record[f.name]);
  }

  /**
   * Makes a link field's rows (x-db.link) those of the comma-joined `value`: one row per reference,
   * in the order sent, each once. The value was validated (its ids, their count) before.
   */
  private async writeLinks(tx: Queryable, ownerId: string, f: FieldModel, value: unknown) {
    const link = f.link!;
    const refs = isBlank(value) ? [] : [...new Set(String(value).split(f.ref!.separator ?? ','))].filter(Boolean);
    await tx.query(`DELETE FROM ${q(link.table)} WHERE ${q(link.ownerColumn)} = $1`, [ownerId]);
    if (!refs.length) return;
    const refType = linkRefType(f);
    const tenant = this.model.scope === 'tenant';
    await tx.query(
      `INSERT INTO ${q(link.table)} (${q(link.ownerColumn)}, ${q(f.column)}, sort${tenant ? ', tenant_id' : ''})
       SELECT $1, x.ref, x.n${tenant ? ', $3' : ''} FROM unnest($2::${refType}[]) WITH ORDINALITY AS x(ref, n)`,
      tenant ? [ownerId, refs, this.actor.tenantId] : [ownerId, refs],
    );
  }

  /** Makes the stored rows equal the sent ones: rows with a known id are updated, new ones added, the rest removed. */
  /**
   * Writes a document's rows as sent: a row with an id updates that stored row, one without is new,
   * and a stored row not sent is removed. Whatever their number, the new rows are one INSERT and the
   * kept ones one UPDATE (per chunk of some thousands of parameters), not a statement per row.
   */
  private async syncRows(tx: Queryable, detail: DetailModel, parentId: string, rows: Row[], existing: Row[] = []) {
    const known = new Set(existing.map((r) => String(r.id)));
    const kept: Row[] = [];
    const keptIds = new Set<string>();
    const added: Row[] = [];
    for (const [i, row] of rows.entries()) {
      const sortNo = i + 1;
      if (row.id === undefined) {
        const values: Row = { ...row, id: nextId(), [detail.foreignKey]: parentId, [detail.orderField]: sortNo };
        if (this.model.scope === 'tenant') values.tenantId = this.actor.tenantId;
        added.push(values);
        continue;
      }
      const rowId = String(row.id);
      if (!known.has(rowId)) {
        throw new ValidationFailed([
          { path: `/${detail.name}/${i}/id`, message: t('rowNotFound', this.actor.lang, { detail: detail.label, value: rowId }) },
        ]);
      }
      // one stored row twice in a payload would be updated from whichever copy the database met last
      if (keptIds.has(rowId)) {
        throw new ValidationFailed([
          { path: `/${detail.name}/${i}/id`, message: t('rowTwice', this.actor.lang, { detail: detail.label, row: sortNo, value: rowId }) },
        ]);
      }
      keptIds.add(rowId);
      kept.push({ ...row, id: rowId, [detail.orderField]: sortNo });
    }
    // every editable column and the position of each kept row; the new ones as sent
    const written = [...new Set([...detail.columns.filter((f) => !f.system), detail.fieldMap[detail.orderField]])];
    await updateRows(tx, detail.table, written, kept, { column: detail.foreignKeyColumn, value: parentId });
    await insertRows(tx, detail.table, detail.columns, added);
    const removed = [...known].filter((id) => !keptIds.has(id));
    if (removed.length)
      await tx.query(`DELETE FROM ${q(detail.table)} WHERE id = ANY($1::bigint[]) AND ${q(detail.foreignKeyColumn)} = $2`, [
        removed,
        parentId,
      ]);
  }

  /** PREFIX-yyyyMM-#### (the month of `now`) from a per-tenant counter row, incremented atomically. */
  private async nextCode(tx: Queryable, now: string): Promise<string> {
    const code = this.model.code!;
    const period = code.period === 'none' ? '' : code.period === 'yyyy' ? now.slice(0, 4) : now.slice(0, 4) + now.slice(5, 7);
    const [{ value }] = await tx.query<{ value: string }>(
      `INSERT INTO zs_sequence (tenant_id, name, period, value) VALUES ($1, $2, $3, 1)
       ON CONFLICT (tenant_id, name, period) DO UPDATE SET value = zs_sequence.value + 1 RETURNING value::text AS value`,
      [this.actor.tenantId, this.model.key, period],
    );
    return [code.prefix, period, value.padStart(code.digits, '0')].filter(Boolean).join('-');
  }

  // ---- checks that need the database ----

  /**
   * Dictionary values, references (copying snapshot fields) and tree parents. `existing` is the
   * stored record on update: references it already holds may stay even when no longer live.
   */
  private async checkValues(tx: Queryable, record: Row, selfId?: string, existing?: Row) {
    const errors: FieldError[] = [];
    const places: Place[] = [];
    for (const f of this.model.fields) if (f.name in record) places.push({ field: f, row: record, path: `/${f.name}` });
    for (const d of this.model.details) {
      const rows = Array.isArray(record[d.name]) ? (record[d.name] as Row[]) : [];
      rows.forEach((row, i) => {
        for (const f of d.fields)
          if (f.name in row && !f.system) places.push({ field: f, row, path: `/${d.name}/${i}/${f.name}`, detail: d.name });
      });
    }
    await this.checkDictionaries(
      tx,
      places.filter((p) => p.field.dict && !isBlank(p.row[p.field.name])),
      errors,
    );
    await this.checkReferences(
      tx,
      places.filter((p) => p.field.ref && !isBlank(p.row[p.field.name]) && !this.isTreeRoot(p.field, p.row)),
      errors,
      existing,
    );
    if (this.model.tree && selfId) await this.checkTreeParent(tx, record, selfId, errors);
    if (errors.length) throw new ValidationFailed(errors);
  }

  /** The parent field of a root node points at no record. */
  private isTreeRoot(field: FieldModel, row: Row): boolean {
    const tree = this.model.tree;
    return tree !== undefined && field === this.model.fieldMap[tree.parentField] && String(row[field.name]) === tree.root;
  }

  private async checkDictionaries(tx: Queryable, places: Place[], errors: FieldError[]) {
    const allowed = await this.dictionaryKeys(
      tx,
      places.map((p) => p.field.dict!),
    );
    for (const { field, row, path } of places) {
      const dict = field.dict!;
      const keys = allowed.get(`${dict.source}:${dict.code}`) ?? new Set<string>();
      const values = Array.isArray(row[field.name]) ? (row[field.name] as unknown[]) : [row[field.name]];
      for (const v of values) {
        if (!keys.has(String(v)))
          errors.push({ path, message: t('dictValue', this.actor.lang, { field: this.describe(path), value: v, code: dict.code }) });
      }
    }
  }

  /** The keys of each dictionary the places use ("source:code" → keys), one read per dictionary table. */
  private async dictionaryKeys(tx: Queryable, dicts: { source: 'system' | 'biz'; code: string }[]): Promise<Map<string, Set<string>>> {
    const keys = new Map<string, Set<string>>();
    for (const source of ['system', 'biz'] as const) {
      const codes = [...new Set(dicts.filter((d) => d.source === source).map((d) => d.code))];
      if (!codes.length) continue;
      const model = this.ctx.catalog.entities[this.ctx.dictionaryEntities[source]];
      const params = new Params();
      const where = [`t.code = ANY(${params.add(codes)}::text[])`, `t.parent_id <> 0`, ...this.scope(params, model)];
      const rows = await (await this.on(model, tx)).query<{ c: string; k: string }>(
        `SELECT t.code AS c, t.dict_key AS k FROM ${q(model.table)} t WHERE ${where.join(' AND ')}`,
        params.values,
      );
      for (const code of codes) keys.set(`${source}:${code}`, new Set());
      for (const r of rows) keys.get(`${source}:${r.c}`)?.add(r.k);
    }
    return keys;
  }

  private async checkReferences(tx: Queryable, places: Place[], errors: FieldError[], existing?: Row) {
    const byField = new Map<FieldModel, typeof places>();
    for (const p of places) byField.set(p.field, [...(byField.get(p.field) ?? []), p]);
    for (const [field, list] of byField) {
      const ref = field.ref!;
      const target = this.ctx.catalog.entities[ref.entity];
      const valueField = target.fieldMap[ref.valueField];
      const copies = Object.entries(ref.copy);
      const params = new Params();
      const valuesOf = (p: (typeof list)[number]) =>
        ref.separator ? String(p.row[field.name]).split(ref.separator).filter(Boolean) : [String(p.row[field.name])];
      const values = [...new Set(list.flatMap(valuesOf))];
      const malformed = valueField.kind === 'id' ? values.filter((v) => !isRecordId(v)) : [];
      if (malformed.length) {
        for (const p of list)
          for (const v of valuesOf(p).filter((x) => malformed.includes(x)))
            errors.push({ path: p.path, message: t('refMissing', this.actor.lang, { field: this.describe(p.path), value: v }) });
        continue;
      }
      const cast = valueField.kind === 'id' ? 'bigint[]' : 'text[]';
      const where = [`t.${q(valueField.column)} = ANY(${params.add(values)}::${cast})`, ...this.scope(params, target)];
      const sourceFields = copies.map(([, source]) => target.fieldMap[source]);
      const active = target.activeIf ? `, (${this.activeTerms(params, target)[0]}) AS "__active"` : '';
      const title = target.fieldMap[target.titleField ?? ref.valueField];
      const rows = await (await this.on(target, tx)).query(
        `SELECT t.${q(valueField.column)}::text AS "__value", t.${q(title.column)}::text AS "__title"${active}${sourceFields.length ? ', ' + selectList(sourceFields) : ''} FROM ${q(target.table)} t WHERE ${where.join(' AND ')}`,
        params.values,
      );
      const found = new Map(rows.map((r) => [String(r.__value), toRecord(r, sourceFields)]));
      const inactive = new Map(
        rows.filter((r) => active && r.__active !== true).map((r) => [String(r.__value), String(r.__title ?? r.__value)]),
      );
      for (const p of list) {
        const missing = valuesOf(p).filter((v) => !found.has(v));
        for (const v of missing)
          errors.push({ path: p.path, message: t('refMissing', this.actor.lang, { field: this.describe(p.path), value: v }) });
        // a disabled record may stay where the stored document already holds it, never be newly chosen
        const held = this.heldValues(existing, p, ref.separator);
        for (const v of valuesOf(p).filter((x) => inactive.has(x) && !held.has(x))) {
          errors.push({
            path: p.path,
            message: t('refInactive', this.actor.lang, { field: this.describe(p.path), entity: target.label, value: inactive.get(v) }),
          });
        }
        const hit = found.get(String(p.row[field.name]));
        if (hit && !ref.separator) for (const [targetField, source] of copies) p.row[targetField] = hit[source] ?? null;
      }
    }
  }

  /** The values the stored document holds in a place's field (its header, or any of its rows). */
  private heldValues(existing: Row | undefined, place: Place, separator?: string): Set<string> {
    if (!existing) return new Set();
    const rows = place.detail ? ((existing[place.detail] as Row[] | undefined) ?? []) : [existing];
    const values = rows
      .map((r) => r[place.field.name])
      .filter((v) => !isBlank(v))
      .map(String);
    return new Set(separator ? values.flatMap((v) => v.split(separator)) : values);
  }

  /** A tree node's parent must exist and must not be the node or one of its descendants. */
  private async checkTreeParent(tx: Queryable, record: Row, selfId: string, errors: FieldError[]) {
    const tree = this.model.tree!;
    const parentField = this.model.fieldMap[tree.parentField];
    const keyField = this.model.fieldMap[tree.keyField];
    let current = record[tree.parentField] === undefined ? undefined : String(record[tree.parentField]);
    const [self] = await tx.query(`SELECT ${selectList([keyField])} FROM ${q(this.model.table)} t WHERE t.id = $1`, [selfId]);
    const selfKey = String(self?.[keyField.name]);
    for (let depth = 0; current !== undefined && current !== tree.root && depth < 100; depth++) {
      if (current === selfKey) {
        errors.push({ path: `/${tree.parentField}`, message: t('treeCycle', this.actor.lang, { field: parentField.label }) });
        return;
      }
      const params = new Params();
      const where = [`t.${q(keyField.column)}::text = ${params.add(current)}`, ...this.scope(params)];
      const [row] = await tx.query(
        `SELECT ${selectList([parentField])} FROM ${q(this.model.table)} t WHERE ${where.join(' AND ')}`,
        params.values,
      );
      current = row ? String(row[parentField.name]) : undefined;
    }
  }

  /**
   * A record with live children, or referenced by a live record of any entity, stays. Records the
   * server alone writes (x-entity.readOnly: the logs) are history, not a use: they name what was
   * there and never hold it back (nobody could remove them first anyway).
   */
  private async assertNotNeeded(tx: Queryable, ids: string[]) {
    const keys = await this.keyValues(tx, ids);
    if (this.model.tree) {
      const tree = this.model.tree;
      const params = new Params();
      const where = [
        `t.${q(this.model.fieldMap[tree.parentField].column)}::text = ANY(${params.add(keys.tree)}::text[])`,
        `NOT (t.id = ANY(${params.add(ids)}::bigint[]))`,
        ...this.scope(params),
      ];
      const [child] = await tx.query(`SELECT 1 FROM ${q(this.model.table)} t WHERE ${where.join(' AND ')} LIMIT 1`, params.values);
      if (child) throw new AppError(400, 'hasChildren', { entity: this.model.label });
    }
    // rows of another document (x-entity.rowsOf) are checked as that document's detail, with its liveness
    for (const other of Object.values(this.ctx.catalog.entities).filter((m) => !m.rowsOf && !m.readOnly)) {
      for (const { table, fields, header } of [
        { table: other.table, fields: other.fields, header: true },
        ...other.details.map((d) => ({ table: d.table, fields: d.fields, header: false })),
      ]) {
        for (const f of fields) {
          if (f.ref?.entity !== this.model.key || (other === this.model && this.model.tree && f.name === this.model.tree.parentField))
            continue;
          const values = f.ref.valueField === 'id' ? ids : keys.byField(f.ref.valueField);
          const params = new Params();
          const where = [
            f.link
              ? `EXISTS (SELECT 1 FROM ${q(f.link.table)} l WHERE l.${q(f.link.ownerColumn)} = t.id AND l.${q(f.column)}::text = ANY(${params.add(values)}::text[]))`
              : f.ref.separator
                ? `string_to_array(t.${q(f.column)}, ',') && ${params.add(values)}::text[]`
                : `t.${q(f.column)}::text = ANY(${params.add(values)}::text[])`,
          ];
          if (other.scope === 'tenant') where.push(`t.tenant_id = ${params.add(this.actor.tenantId)}`);
          const live =
            header && other.softDelete
              ? ' AND t.is_deleted = 0'
              : !header && other.softDelete
                ? ` AND EXISTS (SELECT 1 FROM ${q(other.table)} h WHERE h.id = t.${q(other.details.find((d) => d.table === table)!.foreignKeyColumn)} AND h.is_deleted = 0)`
                : '';
          const [hit] = await (await this.on(other, tx)).query(
            `SELECT 1 FROM ${q(table)} t WHERE ${where.join(' AND ')}${live} LIMIT 1`,
            params.values,
          );
          // master data that can be disabled says so: that is what its user should do instead
          if (hit)
            throw new AppError(400, this.model.activeIf ? 'referencedDisable' : 'referenced', {
              entity: this.model.label,
              by: other.label,
            });
        }
      }
    }
  }

  private async keyValues(tx: Queryable, ids: string[]) {
    const wanted = new Set<string>([this.model.tree?.keyField ?? 'id']);
    for (const other of Object.values(this.ctx.catalog.entities).filter((m) => !m.rowsOf && !m.readOnly)) {
      for (const f of [...other.fields, ...other.details.flatMap((d) => d.fields)])
        if (f.ref?.entity === this.model.key) wanted.add(f.ref.valueField);
    }
    const fields = [...wanted].map((n) => this.model.fieldMap[n]);
    const rows = await tx.query(`SELECT ${selectList(fields)} FROM ${q(this.model.table)} t WHERE t.id = ANY($1::bigint[])`, [ids]);
    const byField = (name: string) => rows.map((r) => String(r[name]));
    return { tree: byField(this.model.tree?.keyField ?? 'id'), byField };
  }

  private describe(path: string): string {
    return describePath(this.model, path, this.actor.lang).label;
  }
}

/** A field value of a record being written: in the header, or in a row of one of its details. */
interface Place {
  field: FieldModel;
  row: Row;
  path: string;
  detail?: string;
}

/** Row ids are ours to check (against the stored rows), not the schema's. */
function stripRowIds(model: EntityModel, record: Row): Row {
  if (!model.details.length) return record;
  const out: Row = { ...record };
  for (const d of model.details) {
    if (Array.isArray(out[d.name]))
      out[d.name] = (out[d.name] as unknown[]).map((r) => {
        if (typeof r !== 'object' || r === null) return r;
        const { id: _id, ...rest } = r as Row;
        return rest;
      });
  }
  return out;
}
