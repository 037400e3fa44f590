// An in-memory API that answers the calls the renderers make, with records generated from the
// schemas (engine/sample): Storybook's gallery and the component tests use it, so a new schema
// file gets realistic screens with no story or fixture written.
import { ApiError } from '../../api/http.ts';
import { dependencyOrder, sampleRecord, type SampleContext } from '../../../engine/sample/sample.ts';
import type { EntityCatalog, EntityModel } from '../../../engine/model/types.ts';
import { forest } from '../../../engine/tree/forest.ts';
import type { RendererHttp } from '../http-context.tsx';

type Row = Record<string, any>;
type Params = Record<string, string | number | boolean | undefined | null> | undefined;

export interface FakeHttpOptions {
  /** Records generated per entity (default 12). */
  rows?: number;
  /** Answer every call after this many milliseconds (loading states). */
  latencyMs?: number;
  /** Never answer (a loading state that stays). */
  hang?: boolean;
  /** Fail every call with this message (error states). */
  failWith?: string;
  /** Field errors answered to save/update/submit, as the server sends them. */
  saveErrors?: { path: string; message: string }[];
}

export interface FakeHttp extends RendererHttp {
  tables: Map<string, Row[]>;
  calls: { method: string; url: string; params?: Params; body?: unknown }[];
  /** A file sent to the resource API: answered with a local object URL as its link. */
  upload: NonNullable<RendererHttp['upload']>;
}

function pad(n: number) {
  return String(n).padStart(2, '0');
}

function seed(catalog: EntityCatalog, perEntity: number): Map<string, Row[]> {
  const tables = new Map<string, Row[]>();
  const ctx: SampleContext = { catalog, ids: new Map(), seq: 1 };
  let id = 1_000_000;
  for (const model of dependencyOrder(catalog)) {
    const rows: Row[] = [];
    for (let i = 0; i < perEntity; i++) {
      ctx.seq++;
      const row: Row = {
        ...sampleRecord(model, ctx),
        id: String(++id),
        tenantId: '000000',
        createTime: `2026-0${1 + (i % 9)}-${pad(1 + (i % 28))} 09:${pad(i % 60)}:00`,
      };
      if (model.tree && i > 0 && i % 3 !== 0) row[model.tree.parentField] = rows[i - (i % 3)][model.tree.keyField];
      if (model.code) row[model.code.field] = `${model.code.prefix}2026${String(i + 1).padStart(model.code.digits, '0')}`;
      for (const d of model.details)
        row[d.name] = (row[d.name] as Row[]).map((line, n) => ({
          ...line,
          id: String(++id),
          [d.foreignKey]: row.id,
          [d.orderField]: n + 1,
        }));
      rows.push(row);
      if (i === 0) ctx.ids.set(model.key, row);
    }
    tables.set(model.key, rows);
  }
  return tables;
}

/** As the server's options label it: the option fields joined by spaces. */
function labelOf(model: EntityModel, row: Row): string {
  return (
    model.optionFields
      .map((f) => row[f])
      .filter((v) => v !== undefined && v !== null && v !== '')
      .join(' ') || String(row.id)
  );
}

function matchesFilters(model: EntityModel, row: Row, params: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(params)) {
    if (value === '' || ['current', 'size', 'ascs', 'descs'].includes(key)) continue;
    const [name, op] = key.split('_');
    const field = model.fieldMap[name];
    if (!field) continue;
    const actual = row[name] === undefined || row[name] === null ? '' : String(row[name]);
    if (
      op === 'datege'
        ? actual < value
        : op === 'datele'
          ? actual > value
          : op || field.kind !== 'string' || field.dict || field.ref
            ? actual !== value
            : !actual.includes(value)
    )
      return false;
  }
  return true;
}

/** `ascs` / `descs` = a field name, as the server sorts (numbers as numbers, the rest as text). */
function sorted(rows: Row[], params: Record<string, string>): Row[] {
  const field = params.ascs ?? params.descs;
  if (!field) return rows;
  const sign = params.ascs ? 1 : -1;
  const key = (r: Row) => r[field] ?? '';
  return rows
    .slice()
    .sort(
      (a, b) =>
        sign * (typeof key(a) === 'number' && typeof key(b) === 'number' ? key(a) - key(b) : String(key(a)).localeCompare(String(key(b)))),
    );
}

function page<T>(rows: T[], params: Record<string, string>) {
  const size = Number(params.size ?? 10);
  const current = Number(params.current ?? 1);
  return {
    records: rows.slice((current - 1) * size, current * size),
    total: rows.length,
    size,
    current,
    pages: Math.ceil(rows.length / size),
  };
}

export function createFakeHttp(catalog: EntityCatalog, options: FakeHttpOptions = {}): FakeHttp {
  const tables = seed(catalog, options.rows ?? 12);
  const calls: FakeHttp['calls'] = [];
  let nextId = 9_000_000;

  const answer = async (method: string, url: string, params: Params, body?: unknown): Promise<any> => {
    calls.push({ method, url, params, body });
    if (options.hang) await new Promise(() => undefined);
    if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
    if (options.failWith) throw new ApiError(500, options.failWith, null);
    const q: Record<string, string> = Object.fromEntries(
      Object.entries(params ?? {})
        .filter(([, v]) => v !== undefined && v !== null)
        .map(([k, v]) => [k, String(v)]),
    );
    if (url.endsWith('/dictionary')) {
      const source = url.includes('dict-biz') ? 'biz' : 'system';
      const dict = catalog.dictionaries.find((d) => d.code === q.code && d.source === source);
      return (dict?.items ?? []).map((i) => ({ dictKey: i.key, dictValue: i.value }));
    }
    const model = Object.values(catalog.entities).find((m) => url.startsWith(`${m.api}/`));
    if (!model) throw new ApiError(404, `no fake answer for ${url}`, null);
    const rows = tables.get(model.key)!;
    const action = url.slice(model.api.length + 1);
    const byId = (id: string) => rows.find((r) => String(r.id) === id);
    switch (action) {
      case 'list':
      case 'page':
        // a forest entity's list answers the records found as a forest (x-entity.tree.list)
        if (action === 'list' && model.tree?.list === 'forest') {
          const tree = model.tree;
          return forest(
            rows.filter((r) => matchesFilters(model, r, q)).map((r) => ({ ...r })),
            (r) => String(r[tree.keyField]),
            (r) => String(r[tree.parentField]),
          );
        }
        return page(
          sorted(
            rows.filter((r) => matchesFilters(model, r, q)),
            q,
          ),
          q,
        );
      case 'detail': {
        // by id, or by a lookup key (a contract by its code)
        const key = model.lookupKeys.find((k) => q[k] !== undefined);
        const row = key && q.id === undefined ? rows.find((r) => String(r[key]) === q[key]) : byId(q.id ?? '');
        if (!row) throw new ApiError(400, '数据不存在', null);
        return structuredClone(row);
      }
      case 'options': {
        const ids = q.ids?.split(',');
        const key = q.valueField ?? 'id';
        const found = rows.filter((r) =>
          ids ? ids.includes(String(r[key])) : (!q.keyword || labelOf(model, r).includes(q.keyword)) && matchesFilters(model, r, q),
        );
        return page(
          found.map((r) => ({ value: String(r[key]), label: labelOf(model, r) })),
          { ...q, size: ids ? String(ids.length) : (q.size ?? '20') },
        );
      }
      case 'tree':
      case 'package-tree': // the menus with their buttons (the tenant package's picker)
        return rows.map((r) => ({ ...r, key: r.id, value: r.id, title: labelOf(model, r) }));
      case 'lazy-list':
      case 'lazy-tree': {
        const tree = model.tree!;
        const parent = q[tree.lazyParam] ?? tree.root;
        return rows
          .filter((r) => String(r[tree.parentField]) === String(parent))
          .map((r) => ({
            ...r,
            key: r.id,
            value: r.id,
            title: labelOf(model, r),
            hasChildren: rows.some((c) => String(c[tree.parentField]) === String(r[tree.keyField])),
          }));
      }
      case 'save':
      case 'update':
      case 'submit': {
        if (options.saveErrors?.length)
          throw new ApiError(400, options.saveErrors[0].message, {
            code: 400,
            msg: options.saveErrors[0].message,
            data: { errors: options.saveErrors },
          });
        const record = structuredClone(body as Row);
        const existing = record.id ? byId(String(record.id)) : undefined;
        if (existing) Object.assign(existing, record);
        else rows.unshift({ ...record, id: String(++nextId), createTime: '2026-11-22 10:00:00' });
        return existing ?? rows[0];
      }
      case 'remove': {
        const ids = (q.ids ?? '').split(',');
        tables.set(
          model.key,
          rows.filter((r) => !ids.includes(String(r.id))),
        );
        return null;
      }
      case 'export':
        return null;
      default:
        throw new ApiError(404, `no fake answer for ${url}`, null);
    }
  };

  return {
    tables,
    calls,
    get: (url, params) => answer('get', url, params),
    post: (url, json, opts) => answer('post', url, opts?.searchParams, json),
    upload: async <T>(url: string, body: FormData): Promise<T> => {
      calls.push({ method: 'post', url, body });
      if (options.hang) await new Promise(() => undefined);
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      if (options.failWith) throw new ApiError(500, options.failWith, null);
      const file = body.get('file') as File;
      return { link: typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : `blob:${file.name}`, name: file.name } as T;
    },
    blob: async (url, params) => {
      await answer('get', url, params);
      return { blob: new Blob(['fake export']), filename: 'export.xlsx' };
    },
  };
}
