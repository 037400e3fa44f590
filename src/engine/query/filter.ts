// One filter language for the server's queries. The list API's parameters (`name_like`,
// `amount_ge`, list-params.ts) and the dialect's predicates (x-entity.activeIf, x-rules' `when`,
// custom data scopes: predicate/predicate.ts) both become this tree, which one SQL compiler
// (src/server/db/filter-sql.ts) turns into SQL through a table of operators.
//
// Values are typed by the field they test (a number for an integer, text for a decimal or a date):
// the list API refuses a value its field cannot hold, naming the parameter; in a predicate such a
// value simply matches nothing (`eq`) or everything (`ne`), as comparing it as text always did.
import { formats } from '../dialect/ajv.ts';
import type { EntityModel, FieldModel } from '../model/types.ts';
import type { Condition, Predicate } from '../predicate/predicate.ts';
import { isRecordId } from './ids.ts';

/**
 * eq, ne        equal / not equal (a multi-select dictionary holds any of the comma-joined keys; a
 *               separated or linked reference holds the value); ne also matches an empty field
 * in, nin       the field's text is one of the values / none of them (an empty field is none of them)
 * gt ge lt le   ordered by the field's type
 * dateEq        the same day
 * like, notlike the text contains the value / does not (or is empty); startsWith, endsWith
 * null, notnull the field is empty (SQL NULL) / is not
 * empty         the field is NULL or '' (value true), or holds something (value false)
 */
export type FilterOp =
  | 'eq'
  | 'ne'
  | 'in'
  | 'nin'
  | 'gt'
  | 'ge'
  | 'lt'
  | 'le'
  | 'dateEq'
  | 'like'
  | 'notlike'
  | 'startsWith'
  | 'endsWith'
  | 'null'
  | 'notnull'
  | 'empty';

/** A scalar as the field holds it: text for text, ids, decimals and dates; numbers for integers. */
export type FilterValue = string | number | boolean | null;

export interface FilterTest {
  field: string;
  op: FilterOp;
  /** Absent for null and notnull; a list for in and nin. */
  value?: FilterValue | FilterValue[];
}

export type FilterTree = FilterTest | { all: FilterTree[] } | { any: FilterTree[] } | { not: FilterTree } | { constant: boolean };

/** A value the field cannot hold. */
export const NOT_A_VALUE = Symbol('not a value');

/** `raw` as the field holds it, or NOT_A_VALUE. */
export function typedValue(field: FieldModel, raw: unknown): FilterValue | typeof NOT_A_VALUE {
  if (raw === null) return null;
  const text = String(raw).trim();
  switch (field.kind) {
    case 'id':
      return isRecordId(text) ? text : NOT_A_VALUE;
    case 'integer':
      return /^-?\d{1,10}$/.test(text) ? Number(text) : NOT_A_VALUE;
    case 'decimal':
      return /^-?\d{1,18}(\.\d{1,8})?$/.test(text) ? text : NOT_A_VALUE;
    case 'boolean':
      return /^(true|1)$/.test(text) ? true : /^(false|0)$/.test(text) ? false : NOT_A_VALUE;
    case 'date':
      return formats.date(text) ? text : NOT_A_VALUE;
    case 'datetime':
      return formats.datetime(text) || formats.date(text) ? text : NOT_A_VALUE;
    case 'month':
      return formats.month(text) ? text : NOT_A_VALUE;
    case 'json':
      return NOT_A_VALUE;
    default:
      return String(raw);
  }
}

const ORDERED: Record<string, FilterOp> = { _gt: 'gt', _gte: 'ge', _lt: 'lt', _lte: 'le' };

/** One field's condition of a predicate as a test (or a constant, when its value cannot be the field's). */
function conditionTree(field: FieldModel, condition: Condition, resolve: (v: unknown) => unknown): FilterTree {
  const [op, raw] = Object.entries(condition ?? {})[0] ?? [];
  const value = resolve(raw);
  const list = () => (Array.isArray(value) ? value : [value]).map((v) => String(resolve(v)));
  switch (op) {
    case '_eq':
    case '_neq': {
      const negated = op === '_neq';
      // a token with no value (a data scope's "$user.deptId" of a user without one) is no value
      if (value === undefined) return { constant: negated };
      if (value === null) return { field: field.name, op: negated ? 'notnull' : 'null' };
      // a multi-select field holds comma-joined keys: any text may be one of them
      const typed = field.dict?.multiple ? String(value) : typedValue(field, value);
      if (typed === NOT_A_VALUE) return { constant: negated };
      return { field: field.name, op: negated ? 'ne' : 'eq', value: typed };
    }
    case '_in':
      return { field: field.name, op: 'in', value: list() };
    case '_nin':
      return { field: field.name, op: 'nin', value: list() };
    case '_empty':
      return { field: field.name, op: 'empty', value: Boolean(value) };
    default: {
      const typed = op in ORDERED && value !== null ? typedValue(field, value) : NOT_A_VALUE;
      return typed === NOT_A_VALUE ? { constant: false } : { field: field.name, op: ORDERED[op], value: typed };
    }
  }
}

/**
 * A predicate over the model's fields as a filter tree. `resolve` replaces tokens in its values (a
 * data scope's "$user.userId"). A field the model lacks, or one never stored (write-only), matches nothing.
 */
export function predicateTree(pred: Predicate, model: EntityModel, resolve: (v: unknown) => unknown = (v) => v): FilterTree {
  const parts = Object.entries(pred).map(([key, body]): FilterTree => {
    if (key === '_and') return { all: (body as Predicate[]).map((p) => predicateTree(p, model, resolve)) };
    if (key === '_or') return { any: (body as Predicate[]).map((p) => predicateTree(p, model, resolve)) };
    if (key === '_not') return { not: predicateTree(body as Predicate, model, resolve) };
    const field = Object.hasOwn(model.fieldMap, key) ? model.fieldMap[key] : undefined;
    if (!field || field.writeOnly) return { constant: false };
    return conditionTree(field, body as Condition, resolve);
  });
  return parts.length === 1 ? parts[0] : { all: parts };
}
