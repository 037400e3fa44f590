// The expression language of process models: the JUEL subset Flowable models use in conditions and
// assignments (`${amount > 100000 && pass}`, `${applyUser}`, `taskUser_${signer}`), parsed into a
// small tree and evaluated over plain JSON variables. There is no eval, Function or vm here, no
// method calls and no access to anything but the variables' own data properties, so a tenant's
// uploaded model cannot run code. Semantics follow the EL specification (§1.7–1.8): an unknown
// variable is null, null is 0 in arithmetic, a comparison with null is false.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Vars = Readonly<Record<string, Json | undefined>>;

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '<' | '>' | '<=' | '>=' | '==' | '!=' | '&&' | '||';

export type ExprNode =
  | { t: 'lit'; v: Json }
  | { t: 'var'; name: string }
  | { t: 'member'; obj: ExprNode; prop: ExprNode }
  | { t: 'unary'; op: '!' | '-' | 'empty'; arg: ExprNode }
  | { t: 'bin'; op: BinaryOp; l: ExprNode; r: ExprNode }
  | { t: 'cond'; test: ExprNode; then: ExprNode; else: ExprNode };

/** Text with embedded `${…}` expressions: literal parts are strings, expressions are nodes. */
export interface Template {
  parts: (string | ExprNode)[];
}

export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly source?: string,
  ) {
    super(source === undefined ? message : `${message} in "${source.length > 80 ? source.slice(0, 80) + '…' : source}"`);
    this.name = 'ExpressionError';
  }
}

export const LIMITS = { length: 4000, depth: 64, tokens: 1000 } as const;

// ---- tokens ----

type Token = { k: 'num'; v: number } | { k: 'str'; v: string } | { k: 'id'; v: string } | { k: 'op'; v: string };

const WORD_OPERATORS: Readonly<Record<string, string>> = {
  and: '&&',
  or: '||',
  not: '!',
  eq: '==',
  ne: '!=',
  lt: '<',
  gt: '>',
  le: '<=',
  ge: '>=',
  div: '/',
  mod: '%',
  empty: 'empty',
};
const LITERAL_WORDS: Readonly<Record<string, Json>> = { true: true, false: false, null: null };
const REFUSED_WORDS = new Set(['instanceof', 'new', 'function', 'this']);
const SYMBOLS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '(', ')', '[', ']', '.'];
const IDENT_START = /[\p{L}_$]/u;
const IDENT_PART = /[\p{L}\p{N}_$]/u;
const DIGIT = /[0-9]/;

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (t: Token) => {
    if (tokens.length >= LIMITS.tokens) throw new ExpressionError('expression too long', src);
    tokens.push(t);
  };
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (DIGIT.test(c) || (c === '.' && DIGIT.test(src[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i))!;
      push({ k: 'num', v: Number(m[0]) });
      i += m[0].length;
      if (IDENT_START.test(src[i] ?? '')) throw new ExpressionError(`unexpected "${src[i]}" after a number`, src);
      continue;
    }
    if (c === '"' || c === "'") {
      let text = '';
      let j = i + 1;
      for (; ; j++) {
        if (j >= src.length) throw new ExpressionError('unterminated string', src);
        const d = src[j];
        if (d === '\\') {
          const e = src[j + 1];
          if (e !== '\\' && e !== "'" && e !== '"') throw new ExpressionError(`unknown escape "\\${e ?? ''}"`, src);
          text += e;
          j++;
          continue;
        }
        if (d === c) break;
        text += d;
      }
      push({ k: 'str', v: text });
      i = j + 1;
      continue;
    }
    if (IDENT_START.test(c)) {
      let j = i + 1;
      while (j < src.length && IDENT_PART.test(src[j])) j++;
      const word = src.slice(i, j);
      i = j;
      if (REFUSED_WORDS.has(word)) throw new ExpressionError(`"${word}" is not supported`, src);
      if (Object.hasOwn(WORD_OPERATORS, word)) push({ k: 'op', v: WORD_OPERATORS[word] });
      else if (Object.hasOwn(LITERAL_WORDS, word)) push(literalToken(word));
      else push({ k: 'id', v: word });
      continue;
    }
    const symbol = SYMBOLS.find((s) => src.startsWith(s, i));
    if (!symbol) throw new ExpressionError(`unexpected character "${c}"`, src);
    push({ k: 'op', v: symbol });
    i += symbol.length;
  }
  return tokens;
}

/** true / false / null travel as an operator token marked literal (so they never name a variable). */
function literalToken(word: string): Token {
  return { k: 'op', v: `lit:${word}` };
}

// ---- parser (recursive descent, depth-limited) ----

const PRECEDENCE: readonly (readonly string[])[] = [['||'], ['&&'], ['==', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%']];

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly src: string,
  ) {}

  parse(): ExprNode {
    if (!this.tokens.length) throw new ExpressionError('empty expression', this.src);
    const node = this.ternary();
    if (this.pos < this.tokens.length) throw new ExpressionError(`unexpected "${show(this.tokens[this.pos])}"`, this.src);
    return node;
  }

  private peekOp(): string | undefined {
    const t = this.tokens[this.pos];
    return t?.k === 'op' ? t.v : undefined;
  }

  private expect(op: string) {
    if (this.peekOp() !== op) throw new ExpressionError(`expected "${op}"`, this.src);
    this.pos++;
  }

  private enter() {
    if (++this.depth > LIMITS.depth) throw new ExpressionError('expression nested too deeply', this.src);
  }

  private ternary(): ExprNode {
    this.enter();
    const test = this.binary(0);
    let node = test;
    if (this.peekOp() === '?') {
      this.pos++;
      const then = this.ternary();
      this.expect(':');
      node = { t: 'cond', test, then, else: this.ternary() };
    }
    this.depth--;
    return node;
  }

  private binary(level: number): ExprNode {
    if (level >= PRECEDENCE.length) return this.unary();
    let left = this.binary(level + 1);
    for (let op = this.peekOp(); op !== undefined && PRECEDENCE[level].includes(op); op = this.peekOp()) {
      this.pos++;
      left = { t: 'bin', op: op as BinaryOp, l: left, r: this.binary(level + 1) };
    }
    return left;
  }

  private unary(): ExprNode {
    const op = this.peekOp();
    if (op === '!' || op === '-' || op === 'empty') {
      this.pos++;
      this.enter();
      const node: ExprNode = { t: 'unary', op, arg: this.unary() };
      this.depth--;
      return node;
    }
    return this.postfix();
  }

  private postfix(): ExprNode {
    let node = this.primary();
    for (;;) {
      const op = this.peekOp();
      if (op === '.') {
        this.pos++;
        const name = this.tokens[this.pos];
        if (name?.k !== 'id') throw new ExpressionError('expected a property name after "."', this.src);
        this.pos++;
        node = { t: 'member', obj: node, prop: { t: 'lit', v: name.v } };
      } else if (op === '[') {
        this.pos++;
        this.enter();
        const prop = this.ternary();
        this.depth--;
        this.expect(']');
        node = { t: 'member', obj: node, prop };
      } else if (op === '(') {
        throw new ExpressionError('calls are not supported', this.src);
      } else {
        return node;
      }
    }
  }

  private primary(): ExprNode {
    const t = this.tokens[this.pos++];
    if (!t) throw new ExpressionError('unexpected end of expression', this.src);
    if (t.k === 'num' || t.k === 'str') return { t: 'lit', v: t.v };
    if (t.k === 'id') return { t: 'var', name: t.v };
    if (t.v.startsWith('lit:')) return { t: 'lit', v: LITERAL_WORDS[t.v.slice(4)] };
    if (t.v === '(') {
      this.enter();
      const node = this.ternary();
      this.depth--;
      this.expect(')');
      return node;
    }
    throw new ExpressionError(`unexpected "${show(t)}"`, this.src);
  }
}

function show(t: Token): string {
  return t.k === 'op' ? (t.v.startsWith('lit:') ? t.v.slice(4) : t.v) : String(t.v);
}

/** Parses the inside of one `${…}`. */
export function parseExpression(src: string): ExprNode {
  if (src.length > LIMITS.length) throw new ExpressionError('expression too long');
  return new Parser(tokenize(src), src).parse();
}

/** The end of an expression that starts at `from` (just after `${`): the matching `}` outside strings. */
function expressionEnd(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '}') {
      return i;
    } else if (c === '{') {
      throw new ExpressionError('"{" inside an expression', text);
    }
  }
  throw new ExpressionError('missing "}"', text);
}

/** Parses text with embedded `${…}` (or `#{…}`) expressions; `\${` is a literal `${`. */
export function parseTemplate(text: string): Template {
  if (text.length > LIMITS.length) throw new ExpressionError('expression too long');
  const parts: (string | ExprNode)[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '$' || text[i + 1] === '#') && text[i + 2] === '{') {
      literal += text[i + 1];
      i++;
      continue;
    }
    if ((c === '$' || c === '#') && text[i + 1] === '{') {
      const end = expressionEnd(text, i + 2);
      if (literal) parts.push(literal);
      literal = '';
      parts.push(parseExpression(text.slice(i + 2, end)));
      i = end;
      continue;
    }
    literal += c;
  }
  if (literal) parts.push(literal);
  return { parts };
}

/** The variables a template reads (the root of `form.lines[0].qty` is `form`), each once. */
export function variablesRead(template: Template): string[] {
  const names = new Set<string>();
  const walk = (node: ExprNode): void => {
    if (node.t === 'var') names.add(node.name);
    else if (node.t === 'member') walk(node.obj), walk(node.prop);
    else if (node.t === 'unary') walk(node.arg);
    else if (node.t === 'bin') walk(node.l), walk(node.r);
    else if (node.t === 'cond') walk(node.test), walk(node.then), walk(node.else);
  };
  for (const part of template.parts) if (typeof part !== 'string') walk(part);
  return [...names];
}

/** True when the text holds at least one expression. */
export function isExpression(template: Template): boolean {
  return template.parts.some((p) => typeof p !== 'string');
}

// ---- evaluation (EL coercion rules) ----

function isRecord(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function toNumber(v: unknown): number {
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMERIC.test(v)) return Number(v);
  throw new ExpressionError(`${describe(v)} is not a number`);
}

function isNumberLike(v: unknown): boolean {
  return typeof v === 'number' || (typeof v === 'string' && NUMERIC.test(v));
}

export function toBoolean(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.toLowerCase() === 'true';
  throw new ExpressionError(`${describe(v)} is not true or false`);
}

export function toText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(toText).join(',');
  throw new ExpressionError(`${describe(v)} cannot be turned into text`);
}

function compare(op: '<' | '>' | '<=' | '>=', a: unknown, b: unknown): boolean {
  if (a === b && (op === '<=' || op === '>=')) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  let x: number | string;
  let y: number | string;
  if ((typeof a === 'number' || typeof b === 'number') && isNumberLike(a) && isNumberLike(b)) {
    x = toNumber(a);
    y = toNumber(b);
  } else if (typeof a === 'string' && typeof b === 'string') {
    x = a;
    y = b;
  } else {
    throw new ExpressionError(`cannot compare ${describe(a)} with ${describe(b)}`);
  }
  switch (op) {
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '<=':
      return x <= y;
    default:
      return x >= y;
  }
}

function equals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return false;
  if (typeof a === 'number' || typeof b === 'number') return isNumberLike(a) && isNumberLike(b) && toNumber(a) === toNumber(b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return toBoolean(a) === toBoolean(b);
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return false;
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isRecord(v)) return Object.keys(v).length === 0;
  return false;
}

function arithmetic(op: '+' | '-' | '*' | '/' | '%', a: unknown, b: unknown): number {
  const x = toNumber(a);
  const y = toNumber(b);
  let result: number;
  switch (op) {
    case '+':
      result = x + y;
      break;
    case '-':
      result = x - y;
      break;
    case '*':
      result = x * y;
      break;
    case '/':
      if (y === 0) throw new ExpressionError('division by zero');
      result = x / y;
      break;
    default:
      if (y === 0) throw new ExpressionError('division by zero');
      result = x % y;
  }
  if (!Number.isFinite(result)) throw new ExpressionError('number out of range');
  return result;
}

/** A property of a variable's value: only own data of plain JSON, never a prototype's. */
function member(obj: unknown, key: unknown): Json {
  if (Array.isArray(obj)) {
    if (key === 'length') return obj.length;
    const index = typeof key === 'number' ? key : typeof key === 'string' && /^\d+$/.test(key) ? Number(key) : NaN;
    return Number.isInteger(index) && index >= 0 && index < obj.length ? (obj[index] ?? null) : null;
  }
  if (isRecord(obj)) {
    const name = toText(key);
    return Object.hasOwn(obj, name) ? (obj[name] ?? null) : null;
  }
  return null;
}

/** Evaluates a parsed expression over the variables (unknown names are null). */
export function evaluate(node: ExprNode, vars: Vars): Json {
  switch (node.t) {
    case 'lit':
      return node.v;
    case 'var':
      return Object.hasOwn(vars, node.name) ? (vars[node.name] ?? null) : null;
    case 'member':
      return member(evaluate(node.obj, vars), evaluate(node.prop, vars));
    case 'unary': {
      const v = evaluate(node.arg, vars);
      if (node.op === '!') return !toBoolean(v);
      if (node.op === 'empty') return isEmpty(v);
      return arithmetic('-', 0, v);
    }
    case 'cond':
      return toBoolean(evaluate(node.test, vars)) ? evaluate(node.then, vars) : evaluate(node.else, vars);
    case 'bin': {
      if (node.op === '&&') return toBoolean(evaluate(node.l, vars)) && toBoolean(evaluate(node.r, vars));
      if (node.op === '||') return toBoolean(evaluate(node.l, vars)) || toBoolean(evaluate(node.r, vars));
      const a = evaluate(node.l, vars);
      const b = evaluate(node.r, vars);
      switch (node.op) {
        case '==':
          return equals(a, b);
        case '!=':
          return !equals(a, b);
        case '<':
        case '>':
        case '<=':
        case '>=':
          return compare(node.op, a, b);
        default:
          return arithmetic(node.op, a, b);
      }
    }
  }
}

/**
 * The value of a template: a lone `${…}` keeps its type (a number, a list); text with expressions
 * becomes text.
 */
export function evaluateTemplate(template: Template, vars: Vars): Json {
  const [only] = template.parts;
  if (template.parts.length === 1 && typeof only !== 'string') return evaluate(only, vars);
  return template.parts.map((p) => (typeof p === 'string' ? p : toText(evaluate(p, vars)))).join('');
}

/** A condition's verdict (`${pass}`, `${amount > 100000}`). */
export function evaluateCondition(template: Template, vars: Vars): boolean {
  return toBoolean(evaluateTemplate(template, vars));
}

/** A comma-separated list (candidate users and groups): text is split, lists are flattened. */
export function evaluateList(template: Template, vars: Vars): string[] {
  const value = evaluateTemplate(template, vars);
  const items = Array.isArray(value) ? value.map(toText) : toText(value).split(',');
  return items.map((s) => s.trim()).filter(Boolean);
}
