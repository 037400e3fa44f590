// The platform's list query language: current/size paging, ascs/descs sorting and filters whose key
// suffix names the operator (name_like, amount_ge, createTime_datege …). Each filter is a test of the
// one filter language (filter.ts), which the dialect's predicates become too; fields are checked
// against the model, values against the field's type.
import { formats } from '../dialect/ajv.ts';
import type { EntityModel, FieldModel } from '../model/types.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { NOT_A_VALUE, typedValue, type FilterOp, type FilterTest } from './filter.ts';

/** A list parameter's filter: one test, all of them holding. */
export type Filter = FilterTest;

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

/** The parameters' operator suffixes, and the test each one is. */
const SUFFIXES: Record<string, FilterOp> = {
  equal: 'eq',
  notequal: 'ne',
  in: 'in',
  like: 'like',
  notlike: 'notlike',
  likeleft: 'endsWith',
  likeright: 'startsWith',
  ge: 'ge',
  le: 'le',
  gt: 'gt',
  lt: 'lt',
  datege: 'ge',
  dategt: 'gt',
  dateequal: 'dateEq',
  datelt: 'lt',
  datele: 'le',
  null: 'null',
  notnull: 'notnull',
};
/** Parameters that are not filters: paging, sorting, the token (which the platform also accepts as a query parameter). */
const RESERVED = new Set(['current', 'size', 'ascs', 'descs', 'blade-auth', '_t']);
export const MAX_PAGE_SIZE = 500;

function splitKey(key: string): { field: string; suffix?: string } {
  const i = key.lastIndexOf('_');
  if (i > 0) {
    const suffix = key.slice(i + 1);
    if (suffix === 'ignore' || Object.hasOwn(SUFFIXES, suffix)) return { field: key.slice(0, i), suffix };
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

function parseValue(field: FieldModel, suffix: string, raw: string, param: string): Filter['value'] {
  const bad = () => new QueryError('badFilterValue', { field: field.label, value: raw, param });
  const text = raw.trim();
  if (suffix.startsWith('date')) {
    if (formats.datetime(text) || formats.date(text)) return text;
    throw bad();
  }
  if (suffix.includes('like')) return raw;
  // any of comma-joined values, each a valid value of the field (an x-ref filter's _in)
  if (suffix === 'in') return raw.split(',').map((v) => String(parseValue(field, 'equal', v, param)));
  // a multi-select dictionary field matches any of the comma-joined keys
  if (field.dict?.multiple && suffix === 'equal') return raw;
  if (field.kind === 'json') throw new QueryError('unknownFilter', { param });
  const value = typedValue(field, raw);
  if (value === NOT_A_VALUE || value === null) throw bad();
  return value;
}

/** The operator of a key without suffix: the platform means LIKE; for non-text fields that means equality. */
function defaultSuffix(field: FieldModel): string {
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
    const { field: name, suffix } = splitKey(key);
    if (suffix === 'ignore') continue;
    const field = findField(model, name);
    // a write-only field is not stored, and a filter on a secret would be an oracle for it
    if (!field || field.writeOnly || field.name === 'isDeleted' || field.name === 'tenantId')
      throw new QueryError('unknownFilter', { param: key });
    if (suffix === 'null' || suffix === 'notnull') {
      filters.push({ field: field.name, op: suffix });
      continue;
    }
    if (raw === '') continue;
    const effective = suffix ?? defaultSuffix(field);
    filters.push({ field: field.name, op: SUFFIXES[effective], value: parseValue(field, effective, raw, key) });
  }
  const sort = [...parseSort(model, params.ascs, 'asc'), ...parseSort(model, params.descs, 'desc')];
  return {
    current: parsePositive('current', params.current, 1),
    size: Math.min(parsePositive('size', params.size, model.list.pageSize), MAX_PAGE_SIZE),
    filters,
    sort: sort.length ? sort : [...model.list.defaultSort],
  };
}
