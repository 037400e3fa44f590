// Issue #18, hole 8: a JSON body nested 10,000 deep overflowed the stack of the text guard (500),
// and one of 200,000 keys held the event loop for seconds (parse, text guard, validation, log).
// jsonShapeRefusal reads the text once, before it is parsed, and refuses depth, members of one
// object and values in all beyond fixed bounds; badTextPath walks what passed without allocating.
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { badTextPath, jsonShapeRefusal, MAX_JSON_DEPTH, MAX_JSON_VALUES, MAX_OBJECT_KEYS, type JsonBounds } from './limits.ts';
import { prng } from '../../../tests/support/prng.ts';

/** The refusal's message key and limit, or 'ok'. */
function shape(text: string, bounds?: JsonBounds): string {
  const refusal = jsonShapeRefusal(text, bounds);
  if (!refusal) return 'ok';
  expect(refusal).toBeInstanceOf(AppError);
  return `${refusal.status} ${refusal.key} ${refusal.params.limit}`;
}

/** Depth, the most members of one object and the values in all of a parsed value: the reference. */
function measure(value: unknown, depth = 0): { depth: number; keys: number; values: number } {
  if (typeof value !== 'object' || value === null) return { depth, keys: 0, values: 0 };
  const items = Array.isArray(value) ? value : Object.values(value);
  const out = { depth: depth + 1, keys: Array.isArray(value) ? 0 : items.length, values: items.length };
  for (const item of items) {
    const inner = measure(item, depth + 1);
    out.depth = Math.max(out.depth, inner.depth);
    out.keys = Math.max(out.keys, inner.keys);
    out.values += inner.values;
  }
  return out;
}

describe('the shape of a JSON body, read before it is parsed', () => {
  const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

  it('refuses nesting beyond the bound, arrays and objects, and not at it', () => {
    expect(shape(nest(MAX_JSON_DEPTH))).toBe('ok');
    expect(shape(objects(MAX_JSON_DEPTH))).toBe('ok');
    expect(shape(nest(MAX_JSON_DEPTH + 1))).toBe(`400 bodyTooDeep ${MAX_JSON_DEPTH}`);
    expect(shape(objects(MAX_JSON_DEPTH + 1))).toBe(`400 bodyTooDeep ${MAX_JSON_DEPTH}`);
    expect(shape(`{"rows":[${nest(10_000)}]}`)).toBe(`400 bodyTooDeep ${MAX_JSON_DEPTH}`);
  });

  it('refuses an object of more members than the bound, and values in all beyond theirs', () => {
    const object = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;
    expect(shape(object(MAX_OBJECT_KEYS))).toBe('ok');
    expect(shape(object(MAX_OBJECT_KEYS + 1))).toBe(`413 bodyTooManyKeys ${MAX_OBJECT_KEYS}`);
    expect(shape(`[${Array(MAX_JSON_VALUES).fill(0).join(',')}]`)).toBe('ok');
    expect(
      shape(
        `[${Array(MAX_JSON_VALUES + 1)
          .fill(0)
          .join(',')}]`,
      ),
    ).toBe(`413 bodyTooManyValues ${MAX_JSON_VALUES}`);
    expect(
      shape(
        `{"rows":[${Array(MAX_JSON_VALUES / 2)
          .fill('{"a":0}')
          .join(',')}]}`,
      ),
    ).toBe(`413 bodyTooManyValues ${MAX_JSON_VALUES}`);
  });

  it('lets the largest document through: 5,000 detail rows of 34 fields', () => {
    const row = `{${Array.from({ length: 34 }, (_, j) => `"field${j}": "值 ${j}"`).join(', ')}}`;
    expect(shape(`{"name": "x", "details": [${Array(5_000).fill(row).join(',\n')}]}`)).toBe('ok');
  });

  it('counts nothing inside strings: brackets, colons, commas, escaped quotes and backslashes', () => {
    const bounds = { depth: 2, objectKeys: 2, values: 4 };
    expect(shape('{"a":"[[[[{{{{:::,,,,","b":"\\"[[[\\"]"}', bounds)).toBe('ok');
    expect(shape('{"a\\\\":"\\\\","b":["\\\\\\"[[["]}', bounds)).toBe('ok');
    expect(shape('{"a\\\\":"\\\\","b":[["\\\\"]]}', bounds)).toBe('400 bodyTooDeep 2');
    expect(shape('[[], {}, [], {}]', bounds)).toBe('ok');
    expect(shape('[[], {}, [], {}, 1]', bounds)).toBe('413 bodyTooManyValues 4');
  });

  it('agrees with a walk of the parsed value (random JSON, small bounds)', () => {
    const random = prng(8);
    const strings = ['""', '"x"', '"[{:,"', '"\\"]"', '"\\\\"', '"中文"', '"\\u005b"'];
    const make = (depth: number): string => {
      const r = random();
      const space = random() < 0.2 ? ' \n\t' : '';
      if (depth > 6 || r < 0.35)
        return [strings[Math.floor(random() * strings.length)], '1', '-2.5e3', 'true', 'null'][Math.floor(random() * 5)];
      const n = Math.floor(random() * 4);
      if (r < 0.65) return `[${space}${Array.from({ length: n }, () => make(depth + 1)).join(`${space},`)}${space}]`;
      return `{${space}${Array.from({ length: n }, (_, i) => `"k${i}"${space}:${space}${make(depth + 1)}`).join(',')}}`;
    };
    for (let n = 0; n < 5_000; n++) {
      const text = make(0);
      const bounds = {
        depth: 1 + Math.floor(random() * 5),
        objectKeys: 1 + Math.floor(random() * 3),
        values: 1 + Math.floor(random() * 12),
      };
      const m = measure(JSON.parse(text));
      const expected = m.depth > bounds.depth || m.keys > bounds.objectKeys || m.values > bounds.values;
      expect(shape(text, bounds) !== 'ok', `${text} ${JSON.stringify(bounds)} ${JSON.stringify(m)}`).toBe(expected);
    }
  });

  // Linear in the text: the bound is the test's own timeout, far above a scan of 5 MB (milliseconds)
  // and far below what a quadratic reading would take (hours); no wall-clock figure is asserted,
  // so a loaded machine cannot fail it
  it('reads 5 MB of any shape whole: only the million-value array is refused', () => {
    const MB = 1024 * 1024;
    const answers = [
      [`"${'a'.repeat(5 * MB)}"`, undefined],
      [`"${'\\"'.repeat(2 * MB)}"`, undefined],
      [`"${'\\\\'.repeat(2 * MB)}"`, undefined],
      [`[${'"a",'.repeat(MB)}1]`, 'bodyTooManyValues'],
      [`[${' '.repeat(5 * MB)}]`, undefined],
      [`{"a":${'1'.repeat(5 * MB)}}`, undefined],
    ];
    for (const [text, refusal] of answers) expect(jsonShapeRefusal(text as string)?.message, text?.slice(0, 20)).toBe(refusal);
  });
});

describe('the text guard', () => {
  it('names where the first bad character is, in values and keys', () => {
    expect(badTextPath('a\u0000')).toBe('/');
    expect(badTextPath({ a: [{ b: 'ok' }, { c: 'x\uD800' }] })).toBe('/a/1/c');
    expect(badTextPath({ ok: 1, ['k\u0000']: 'v' })).toBe('/k\u0000');
    expect(badTextPath({ a: [1, true, null, 'fine'], b: { c: '😀' } })).toBeUndefined();
  });

  it('walks the deepest body the parser lets through', () => {
    let value: unknown = 'x\u0000';
    for (let i = 0; i < MAX_JSON_DEPTH; i++) value = [value];
    expect(badTextPath(value)).toBe(`/${Array(MAX_JSON_DEPTH).fill('0').join('/')}`);
  });
});
