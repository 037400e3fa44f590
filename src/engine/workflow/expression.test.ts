import { describe, expect, it } from 'vitest';
import {
  evaluateCondition,
  evaluateList,
  evaluateTemplate,
  ExpressionError,
  LIMITS,
  parseExpression,
  parseTemplate,
  type Vars,
} from './expression.ts';
import { prng as random } from '../../../tests/support/prng.ts';

const value = (text: string, vars: Vars = {}) => evaluateTemplate(parseTemplate(text), vars);
const holds = (text: string, vars: Vars = {}) => evaluateCondition(parseTemplate(text), vars);
const refused = (text: string) => expect(() => parseTemplate(text)).toThrow(ExpressionError);

describe('expressions: what process models write', () => {
  it('decides the amount gateway of an approval', () => {
    const condition = '${pass && amount > 100000}';
    expect(holds(condition, { pass: true, amount: 150000 })).toBe(true);
    expect(holds(condition, { pass: true, amount: 100000 })).toBe(false);
    expect(holds(condition, { pass: false, amount: 150000 })).toBe(false);
    expect(holds('${amount > amountThreshold}', { amount: '500000.01', amountThreshold: '500000' })).toBe(true);
  });

  it('reads the word operators of JUEL', () => {
    expect(holds('${a gt 1 and not b}', { a: 2, b: false })).toBe(true);
    expect(holds('${a eq 1 or a ne 1}', { a: 5 })).toBe(true);
    expect(holds('${a le 2 && a ge 2 && a lt 3}', { a: 2 })).toBe(true);
    expect(value('${7 div 2}')).toBe(3.5);
    expect(value('${7 mod 2}')).toBe(1);
  });

  it('keeps the type of a lone expression and joins text otherwise', () => {
    expect(value('${applyUser}', { applyUser: '1123598821738675201' })).toBe('1123598821738675201');
    expect(value('${signers}', { signers: ['1', '2'] })).toEqual(['1', '2']);
    expect(value('taskUser_${signer}', { signer: 42 })).toBe('taskUser_42');
    expect(value('plain text')).toBe('plain text');
    expect(value('cost \\${not an expression}')).toBe('cost ${not an expression}');
  });

  it('splits candidate lists from text and from lists', () => {
    expect(evaluateList(parseTemplate('manager, deputy ,'), {})).toEqual(['manager', 'deputy']);
    expect(evaluateList(parseTemplate('${groups}'), { groups: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(evaluateList(parseTemplate('boss,${extra}'), { extra: 'cfo' })).toEqual(['boss', 'cfo']);
  });

  it('follows EL rules for null: unknown names are null, null compares false and counts as 0', () => {
    expect(value('${missing}')).toBe(null);
    expect(holds('${missing > 5}')).toBe(false);
    expect(holds('${missing < 5}')).toBe(false);
    expect(holds('${missing == null}')).toBe(true);
    expect(value('${missing + 2}')).toBe(2);
    expect(holds('${empty missing && empty "" && empty list}', { list: [] })).toBe(true);
    expect(holds('${!empty list}', { list: [1] })).toBe(true);
  });

  it('compares numbers with numeric text, and text with text', () => {
    expect(holds('${amount == "100"}', { amount: 100 })).toBe(true);
    expect(holds('${name == "张三"}', { name: '张三' })).toBe(true);
    expect(holds('${name < "b"}', { name: 'a' })).toBe(true);
    expect(holds('${flag == "true"}', { flag: true })).toBe(true);
  });

  it('reads members and indexes of variables', () => {
    const vars = { form: { amount: 3, lines: [{ qty: 2 }] } };
    expect(value('${form.amount * form.lines[0].qty}', vars)).toBe(6);
    expect(value("${form['amount']}", vars)).toBe(3);
    expect(value('${form.lines.length}', vars)).toBe(1);
    expect(value('${form.nothing.deeper}', vars)).toBe(null);
  });

  it('evaluates precedence, ternaries and unary minus', () => {
    expect(value('${1 + 2 * 3 - 4 / 2}')).toBe(5);
    expect(value('${(1 + 2) * 3}')).toBe(9);
    expect(value('${-a + 1}', { a: 3 })).toBe(-2);
    expect(value('${a > 1 ? "big" : "small"}', { a: 2 })).toBe('big');
    expect(value('${a > 1 ? b > 1 ? 1 : 2 : 3}', { a: 2, b: 0 })).toBe(2);
  });

  it('short-circuits && and ||', () => {
    expect(holds('${false && 1 / 0 > 1}')).toBe(false);
    expect(holds('${true || 1 / 0 > 1}')).toBe(true);
  });

  it('reports wrong types and division by zero as expression errors', () => {
    expect(() => value('${"abc" + 1}')).toThrow(ExpressionError);
    expect(() => value('${1 / 0}')).toThrow(/division by zero/);
    expect(() => holds('${3}')).toThrow(/not true or false/);
    expect(() => value('${list < 3}', { list: [1] })).toThrow(/cannot compare/);
  });
});

describe('expressions: what is refused', () => {
  it('refuses calls, assignments and statements', () => {
    for (const text of [
      '${a()}',
      '${a.b(1)}',
      "${''.constructor.constructor('return process')()}",
      '${a = 1}',
      '${a; b}',
      '${new Date()}',
      '${this}',
      '${a instanceof b}',
    ]) {
      refused(text);
    }
  });

  it('refuses malformed text', () => {
    for (const text of [
      '${',
      '${}',
      '${a',
      '${a +}',
      '${(a}',
      '${a]}',
      '${"open}',
      "${'\\q'}",
      '${1a}',
      '${a ? b}',
      '${a..b}',
      '${a.}',
      '${{a}}',
      '${a} ${',
    ]) {
      refused(text);
    }
  });

  it('never reaches prototypes: __proto__, constructor and prototype are plain missing names', () => {
    const vars = { obj: { a: 1 }, list: [1, 2] };
    expect(value('${obj.__proto__}', vars)).toBe(null);
    expect(value('${obj.constructor}', vars)).toBe(null);
    expect(value('${obj["constructor"]["prototype"]}', vars)).toBe(null);
    expect(value('${list.constructor}', vars)).toBe(null);
    expect(value('${__proto__}', vars)).toBe(null);
    expect(value('${toString}', vars)).toBe(null);
    expect(value('${hasOwnProperty}', vars)).toBe(null);
  });

  it('limits length and nesting instead of overflowing the stack', () => {
    refused('${' + 'a+'.repeat(LIMITS.length) + 'a}');
    refused('${' + '('.repeat(200) + '1' + ')'.repeat(200) + '}');
    refused('${' + '!'.repeat(200) + 'a}');
    refused('${' + 'a['.repeat(100) + '0' + ']'.repeat(100) + '}');
    expect(() => parseExpression('a ? '.repeat(100) + 'b' + ' : c'.repeat(100))).toThrow(ExpressionError);
  });
});

const PIECES = [
  'a',
  'b',
  'obj',
  'list',
  '__proto__',
  'constructor',
  'prototype',
  'process',
  'globalThis',
  'require',
  'eval',
  'Function',
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  ';',
  '=',
  '==',
  '!=',
  '&&',
  '||',
  '!',
  '?',
  ':',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>=',
  '1',
  '0',
  '1e308',
  '-1',
  '0.5',
  '"x"',
  "'y'",
  '"\\"',
  'true',
  'false',
  'null',
  'empty',
  'not',
  'and',
  'div',
  '${',
  '}',
  '#{',
  '{',
  '`',
  '$',
  '\\',
  ' ',
  '\u0000',
  '\u2028',
  '你好',
  'new',
  'this',
  'instanceof',
  '=>',
  '()',
];

describe('expressions: fuzzed with hostile input', () => {
  const vars: Vars = { a: 1, b: 'two', obj: { a: 1, nested: { list: [1, 2, 3] } }, list: [1, 2] };

  it('either parses and evaluates to JSON, or fails with an ExpressionError — nothing else, never a prototype', () => {
    const next = random(20261122);
    let parsed = 0;
    for (let run = 0; run < 20000; run++) {
      const length = 1 + Math.floor(next() * 14);
      let text = next() < 0.8 ? '${' : '';
      for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)] + (next() < 0.3 ? ' ' : '');
      if (text.startsWith('${') && next() < 0.8) text += '}';
      try {
        const result = evaluateTemplate(parseTemplate(text), vars);
        parsed++;
        expect(['string', 'number', 'boolean', 'object'].includes(typeof result), text).toBe(true);
        if (result !== null && typeof result === 'object') expect(JSON.parse(JSON.stringify(result)), text).toEqual(result);
        expect(typeof result === 'function', text).toBe(false);
      } catch (err) {
        expect(err, `${text} threw ${String(err)}`).toBeInstanceOf(ExpressionError);
      }
    }
    expect(parsed).toBeGreaterThan(100);
  });

  it('survives random bytes', () => {
    const next = random(7);
    for (let run = 0; run < 5000; run++) {
      const text =
        '${' + Array.from({ length: Math.floor(next() * 40) }, () => String.fromCharCode(Math.floor(next() * 0x3000))).join('') + '}';
      try {
        evaluateTemplate(parseTemplate(text), vars);
      } catch (err) {
        expect(err, text).toBeInstanceOf(ExpressionError);
      }
    }
  });

  it('leaves Object.prototype untouched after all of it', () => {
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
