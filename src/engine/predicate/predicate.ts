// The condition language of x-rules and x-ref filters: plain objects, parsed, never eval'ed.
// { "parentId": { "_neq": "0" } }, combined with _and / _or / _not.
// Operand values may be tokens: "$form.<field>" reads another field of the same record.

export type Operator = '_eq' | '_neq' | '_in' | '_nin' | '_gt' | '_gte' | '_lt' | '_lte' | '_empty';
export type Condition = Partial<Record<Operator, unknown>>;
export type Predicate = { _and?: Predicate[]; _or?: Predicate[]; _not?: Predicate } & {
  [field: string]: Condition | Predicate[] | Predicate | undefined;
};

const COMBINATORS = new Set(['_and', '_or', '_not']);

export interface PredicateContext {
  form: Record<string, unknown>;
}

function resolveToken(value: unknown, ctx: PredicateContext): unknown {
  if (typeof value === 'string' && value.startsWith('$form.')) return ctx.form[value.slice(6)];
  return value;
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Loose equality that treats "1" and 1 alike: form values and dictionary keys travel as strings. */
function same(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  return a === b || (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b));
}

function compare(a: unknown, b: unknown): number | null {
  if (isEmpty(a) || isEmpty(b)) return null;
  const na = Number(a);
  const nb = Number(b);
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function test(cond: Condition, value: unknown, ctx: PredicateContext): boolean {
  const [op, raw] = Object.entries(cond)[0] as [Operator, unknown];
  const operand = resolveToken(raw, ctx);
  switch (op) {
    case '_eq':
      return same(value, operand);
    case '_neq':
      return !same(value, operand);
    case '_in':
      return Array.isArray(operand) && operand.some((o) => same(value, resolveToken(o, ctx)));
    case '_nin':
      return !Array.isArray(operand) || !operand.some((o) => same(value, resolveToken(o, ctx)));
    case '_empty':
      return isEmpty(value) === Boolean(operand);
    default: {
      const c = compare(value, operand);
      if (c === null) return false;
      return op === '_gt' ? c > 0 : op === '_gte' ? c >= 0 : op === '_lt' ? c < 0 : c <= 0;
    }
  }
}

/** True when `values` satisfy the predicate. */
export function matches(pred: Predicate, values: Record<string, unknown>, ctx: PredicateContext = { form: values }): boolean {
  return Object.entries(pred).every(([key, body]) => {
    if (key === '_and') return (body as Predicate[]).every((p) => matches(p, values, ctx));
    if (key === '_or') return (body as Predicate[]).some((p) => matches(p, values, ctx));
    if (key === '_not') return !matches(body as Predicate, values, ctx);
    return test(body as Condition, values[key], ctx);
  });
}

/** Every field name a predicate reads, directly or through $form tokens. */
export function fieldsOf(pred: Predicate): string[] {
  const out: string[] = [];
  for (const [key, body] of Object.entries(pred)) {
    if (key === '_and' || key === '_or') for (const p of body as Predicate[]) out.push(...fieldsOf(p));
    else if (key === '_not') out.push(...fieldsOf(body as Predicate));
    else {
      out.push(key);
      for (const v of Object.values(body as Condition)) {
        const vals = Array.isArray(v) ? v : [v];
        for (const x of vals) if (typeof x === 'string' && x.startsWith('$form.')) out.push(x.slice(6));
      }
    }
  }
  return out;
}

export function isCombinator(key: string): boolean {
  return COMBINATORS.has(key);
}
