// x-rules applied live: which fields a record's current values hide, require or make read-only
// (read-only too: the terms a referenced record fixes, x-ref.inherit),
// and what a change takes with it (values of fields it hides when the schema says so, and the
// references that depend on the changed field).
import { fixedTerms } from '../../../engine/inherit/inherit.ts';
import type { FieldModel } from '../../../engine/model/types.ts';
import { matches } from '../../../engine/predicate/predicate.ts';
import { dependantsOf } from '../widgets/ref-filters.ts';

type Values = Record<string, unknown>;

export interface RuleState {
  hidden: ReadonlySet<string>;
  required: ReadonlySet<string>;
  readonly: ReadonlySet<string>;
}

/** The rules' verdicts over `values` (`context` adds the header's values for a detail row's `$form.` tokens). */
export function ruleState(fields: readonly FieldModel[], values: Values, context: Values = values): RuleState {
  const hidden = new Set<string>();
  const required = new Set<string>();
  const ctx = { form: context };
  // terms a referenced record fixes (x-ref.inherit) are its own while it is named
  const readonly = fixedTerms(fields, values);
  for (const f of fields) {
    const rules = f.rules;
    if (!rules) continue;
    if (rules.visibleIf && !matches(rules.visibleIf, values, ctx)) hidden.add(f.name);
    if (rules.requiredIf && matches(rules.requiredIf, values, ctx)) required.add(f.name);
    if (rules.readonlyIf && matches(rules.readonlyIf, values, ctx)) readonly.add(f.name);
  }
  return { hidden, required, readonly };
}

/** A short, stable text of a rule state: the form schema is rebuilt only when it changes. */
export function ruleKey(state: RuleState): string {
  return [state.hidden, state.required, state.readonly].map((s) => [...s].sort().join(',')).join('|');
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The values after a change from `before` to `after`: references depending on a changed field
 * are cleared, then fields the rules now hide lose their values (clearWhenHidden), until stable.
 */
export function settle(fields: readonly FieldModel[], before: Values, after: Values, context?: (v: Values) => Values): Values {
  let next = after;
  const changed = fields.filter((f) => before[f.name] !== after[f.name]).map((f) => f.name);
  for (const name of changed) {
    for (const dependant of dependantsOf(fields, name)) {
      if (!changed.includes(dependant) && !blank(next[dependant])) next = { ...next, [dependant]: undefined };
    }
  }
  for (let round = 0; round < 3; round++) {
    const { hidden } = ruleState(fields, next, context?.(next));
    const clear = fields.filter((f) => hidden.has(f.name) && f.rules?.clearWhenHidden && !blank(next[f.name]));
    if (!clear.length) break;
    next = { ...next };
    for (const f of clear) delete next[f.name];
  }
  return next;
}
