// The platform's list query language: current/size paging, ascs/descs sorting and filters whose key
// suffix names the operator (name_like, amount_ge, createTime_datege …). Parsed here into a small AST
// that both ends share; fields are checked against the model, values against the field's type.
import { formats } from '../dialect/ajv.ts';
import type { EntityModel, FieldModel } from '../model/types.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { isRecordId } from './ids.ts';

export type FilterOp =
  | 'equal'
  | 'notequal'
  | 'in'
  | 'like'
  | 'likeleft'
  | 'likeright'
  | 'notlike'
  | 'ge'
  | 'le'
  | 'gt'
  | 'lt'
  | 'datege'
  | 'dategt'
  | 'dateequal'
  | 'datelt'
  | 'datele'
  | 'null'
  | 'notnull';

export interface Filter {
  field: string;
  op: FilterOp;
  /** Typed value: string for text/ids/dates, number for numbers, boolean for booleans; absent for null tests. */
  value?: string | number | boolean;
}

export interface SortSpec {
  field: string;
  order: 'asc' | 'desc';
}

export interface ListQuery {
  current: number;
  size: number;
  filters: Filter[];
  sort: SortSpec[];
}

export class QueryError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, unknown>,
  ) {
    super(key);
  }
}

const OPS: FilterOp[] = [
  'notequal',
  'equal',
  'in',
  'notlike',
  'likeleft',
  'likeright',
  'like',
  'datege',
  'dategt',
  'dateequal',
  'datelt',
  'datele',
  'ge',
  'le',
  'gt',
  'lt',
  'notnull',
  'null',
];
/** Parameters that are not filters: paging, sorting, the token (which the platform also accepts as a query parameter). */
const RESERVED = new Set(['current', 'size', 'ascs', 'descs', 'blade-auth', '_t']);
export const MAX_PAGE_SIZE = 500;

function splitKey(key: string): { field: string; op?: FilterOp | 'ignore' } {
  const i = key.lastIndexOf('_');
  if (i > 0) {
    const suffix = key.slice(i + 1);
    if (suffix === 'ignore' || (OPS as string[]).includes(suffix)) return { field: key.slice(0, i), op: suffix as FilterOp | 'ignore' };
  }
  return { field: key };
}

/**
 * Finds a field by its JSON name or its column name (the platform's clients send either). Own
 * members only: a key named after a member of Object.prototype (constructor, toString, __proto__)
 * is no field, whatever map the model was given.
 */
export function findField(model: EntityModel, name: string): FieldModel | undefined {
  return (Object.hasOwn(model.fieldMap, name) ? model.fieldMap[name] : undefined) ?? model.fields.find((f) => f.column === name);
}

function parseValue(field: FieldModel, op: FilterOp, raw: string, param: string): Filter['value'] {
  const bad = () => new QueryError('badFilterValue', { field: field.label, value: raw, param });
  const text = raw.trim();
  if (op.startsWith('date')) {
    if (formats.datetime(text) || formats.date(text)) return text;
    throw bad();
  }
  if (op.includes('like')) return raw;
  // any of comma-joined values, each a valid value of the field (an x-ref filter's _in)
  if (op === 'in')
    return raw
      .split(',')
      .map((v) => String(parseValue(field, 'equal', v, param)))
      .join(',');
  // a multi-select dictionary field matches any of the comma-joined keys
  if (field.dict?.multiple && op === 'equal') return raw;
  switch (field.kind) {
    case 'id':
      if (!isRecordId(text)) throw bad();
      return text;
    case 'integer':
      if (!/^-?\d{1,10}$/.test(text)) throw bad();
      return Number(text);
    case 'decimal':
      if (!/^-?\d{1,18}(\.\d{1,8})?$/.test(text)) throw bad();
      return text;
    case 'boolean':
      if (/^(true|1)$/.test(text)) return true;
      if (/^(false|0)$/.test(text)) return false;
      throw bad();
    case 'date':
      if (!formats.date(text)) throw bad();
      return text;
    case 'datetime':
      if (!formats.datetime(text) && !formats.date(text)) throw bad();
      return text;
    case 'month':
      if (!formats.month(text)) throw bad();
      return text;
    case 'json':
      throw new QueryError('unknownFilter', { param });
    default:
      return raw;
  }
}

/** The operator of a key without suffix: the platform means LIKE; for non-text fields that means equality. */
function defaultOp(field: FieldModel): FilterOp {
  return field.kind === 'string' && !field.dict && !field.options && !field.ref ? 'like' : 'equal';
}

function parseSort(model: EntityModel, value: string | undefined, order: 'asc' | 'desc'): SortSpec[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const field = findField(model, name);
      // a write-only field (a password, a connection URL) is not stored: nothing to sort by
      if (!field || field.kind === 'json' || field.writeOnly) throw new QueryError('unknownSort', { param: name });
      return { field: field.name, order };
    });
}

function parsePositive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new QueryError('badPaging', { param: name, value: raw });
  return Number(raw);
}

/**
 * Parses list parameters. Empty values are ignored (search forms send every field); an unknown
 * field, operator or malformed value throws a QueryError naming the parameter.
 */
export function parseListParams(
  model: EntityModel,
  params: Record<string, string | undefined>,
  extraReserved: readonly string[] = [],
): ListQuery {
  const filters: Filter[] = [];
  for (const [key, raw] of Object.entries(params)) {
    if (RESERVED.has(key.toLowerCase()) || extraReserved.includes(key) || raw === undefined) continue;
    const { field: name, op } = splitKey(key);
    if (op === 'ignore') continue;
    const field = findField(model, name);
    // a write-only field is not stored, and a filter on a secret would be an oracle for it
    if (!field || field.writeOnly || field.name === 'isDeleted' || field.name === 'tenantId')
      throw new QueryError('unknownFilter', { param: key });
    if (op === 'null' || op === 'notnull') {
      filters.push({ field: field.name, op });
      continue;
    }
    if (raw === '') continue;
    const effective = op ?? defaultOp(field);
    filters.push({ field: field.name, op: effective, value: parseValue(field, effective, raw, key) });
  }
  const sort = [...parseSort(model, params.ascs, 'asc'), ...parseSort(model, params.descs, 'desc')];
  return {
    current: parsePositive('current', params.current, 1),
    size: Math.min(parsePositive('size', params.size, model.list.pageSize), MAX_PAGE_SIZE),
    filters,
    sort: sort.length ? sort : [...model.list.defaultSort],
  };
}
