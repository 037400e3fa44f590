// Cascading references: an x-ref filter such as {"projectId": {"_eq": "$form.projectId"}} becomes
// the list filters the options route understands (projectId_equal=<the form's projectId>), and
// the fields a reference depends on are the ones whose change must clear it.
import type { FieldModel } from '../../../engine/model/types.ts';
import type { Predicate } from '../../../engine/predicate/predicate.ts';

type Values = Readonly<Record<string, unknown>>;

const SUFFIX: Record<string, string | undefined> = { _eq: 'equal', _neq: 'notequal', _gt: 'gt', _gte: 'ge', _lt: 'lt', _lte: 'le' };

function resolve(operand: unknown, values: Values): unknown {
  return typeof operand === 'string' && operand.startsWith('$form.') ? values[operand.slice(6)] : operand;
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The options-route filters of a reference field, with `$form.` tokens read from `values`.
 * Conditions the list language cannot say (_or, _not, _nin) are left to the server's own checks.
 */
export function refFilters(field: FieldModel, values: Values): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (pred: Predicate) => {
    for (const [key, body] of Object.entries(pred)) {
      if (key === '_and') (body as Predicate[]).forEach(walk);
      if (key.startsWith('_')) continue;
      for (const [op, operand] of Object.entries(body as Record<string, unknown>)) {
        const value = resolve(operand, values);
        if (op === '_empty') out[`${key}_${operand ? 'null' : 'notnull'}`] = '';
        else if (op === '_in' && Array.isArray(value)) out[`${key}_in`] = value.map((v) => resolve(v, values)).join(',');
        else if (SUFFIX[op] && !blank(value)) out[`${key}_${SUFFIX[op]}`] = String(value);
      }
    }
  };
  if (field.ref?.filter) walk(field.ref.filter);
  return out;
}

/** The fields of the same record a reference depends on: x-ref.dependsOn and its filter's `$form.` tokens. */
export function dependenciesOf(field: FieldModel): string[] {
  if (!field.ref) return [];
  const fromFilter = field.ref.filter ? tokenNames(field.ref.filter) : [];
  return [...new Set([...field.ref.dependsOn, ...fromFilter])];
}

/** Fields of this record the predicate reads through `$form.` tokens. */
function tokenNames(pred: Predicate): string[] {
  return (
    JSON.stringify(pred)
      .match(/\$form\.[A-Za-z0-9_]+/g)
      ?.map((t) => t.slice(6)) ?? []
  );
}

/** The first dependency still empty: the picker waits for it ("请先选择项目"). */
export function missingDependency(field: FieldModel, values: Values): string | undefined {
  return dependenciesOf(field).find((name) => blank(values[name]));
}

/**
 * Fields to clear when `changed` changes: every field depending on it, and in turn their dependants.
 */
export function dependantsOf(fields: readonly FieldModel[], changed: string): string[] {
  const out: string[] = [];
  const queue = [changed];
  while (queue.length) {
    const name = queue.shift()!;
    for (const f of fields) {
      if (!out.includes(f.name) && f.name !== changed && dependenciesOf(f).includes(name)) {
        out.push(f.name);
        queue.push(f.name);
      }
    }
  }
  return out;
}
