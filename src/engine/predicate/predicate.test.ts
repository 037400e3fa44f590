import { describe, expect, it } from 'vitest';
import { fieldsOf, isCombinator, matches, type Predicate } from './predicate.ts';

describe('operators', () => {
  it('_eq / _neq', () => {
    expect(matches({ status: { _eq: 'enabled' } }, { status: 'enabled' })).toBe(true);
    expect(matches({ status: { _eq: 'enabled' } }, { status: 'disabled' })).toBe(false);
    expect(matches({ parentId: { _neq: '0' } }, { parentId: '12' })).toBe(true);
    expect(matches({ parentId: { _neq: '0' } }, { parentId: '0' })).toBe(false);
  });

  it('_in / _nin', () => {
    const pred = { type: { _in: ['building', 'municipal'] } };
    expect(matches(pred, { type: 'municipal' })).toBe(true);
    expect(matches(pred, { type: 'railway' })).toBe(false);
    expect(matches(pred, {})).toBe(false);
    expect(matches({ type: { _nin: ['building', 'municipal'] } }, { type: 'railway' })).toBe(true);
    expect(matches({ type: { _nin: ['building', 'municipal'] } }, { type: 'building' })).toBe(false);
  });

  it('_gt / _gte / _lt / _lte on numbers', () => {
    expect(matches({ qty: { _gt: 5 } }, { qty: 6 })).toBe(true);
    expect(matches({ qty: { _gt: 5 } }, { qty: 5 })).toBe(false);
    expect(matches({ qty: { _gte: 5 } }, { qty: 5 })).toBe(true);
    expect(matches({ qty: { _gte: 5 } }, { qty: 4.99 })).toBe(false);
    expect(matches({ qty: { _lt: 5 } }, { qty: -1 })).toBe(true);
    expect(matches({ qty: { _lt: 5 } }, { qty: 5 })).toBe(false);
    expect(matches({ qty: { _lte: 5 } }, { qty: 5 })).toBe(true);
    expect(matches({ qty: { _lte: 5 } }, { qty: 5.01 })).toBe(false);
  });

  it('compares numeric strings as numbers ("10" > "9")', () => {
    expect(matches({ qty: { _gt: '9' } }, { qty: '10' })).toBe(true);
    expect(matches({ qty: { _lt: 9 } }, { qty: '10' })).toBe(false);
  });

  it('compares dates as text in their natural order', () => {
    expect(matches({ planDate: { _gt: '2024-01-31' } }, { planDate: '2024-02-01' })).toBe(true);
    expect(matches({ planDate: { _lte: '2024-01-31' } }, { planDate: '2024-02-01' })).toBe(false);
  });

  it('an empty value is neither greater nor smaller than anything', () => {
    for (const op of ['_gt', '_gte', '_lt', '_lte']) {
      expect(matches({ qty: { [op]: 0 } }, {}), op).toBe(false);
      expect(matches({ qty: { [op]: 0 } }, { qty: '' }), op).toBe(false);
      expect(matches({ qty: { [op]: '' } }, { qty: 1 }), op).toBe(false);
    }
  });

  it('_empty: undefined, null, "" and [] are empty; 0 and false are not', () => {
    for (const v of [undefined, null, '', []]) {
      expect(matches({ f: { _empty: true } }, { f: v }), JSON.stringify(v)).toBe(true);
      expect(matches({ f: { _empty: false } }, { f: v }), JSON.stringify(v)).toBe(false);
    }
    for (const v of [0, false, 'x', [1]]) {
      expect(matches({ f: { _empty: true } }, { f: v }), JSON.stringify(v)).toBe(false);
      expect(matches({ f: { _empty: false } }, { f: v }), JSON.stringify(v)).toBe(true);
    }
  });
});

describe('loose equality between strings and numbers', () => {
  it('treats "1" and 1 alike (form values and dictionary keys travel as strings)', () => {
    expect(matches({ isSealed: { _eq: 1 } }, { isSealed: '1' })).toBe(true);
    expect(matches({ isSealed: { _eq: '1' } }, { isSealed: 1 })).toBe(true);
    expect(matches({ parentId: { _neq: '0' } }, { parentId: 0 })).toBe(false);
    expect(matches({ isSealed: { _in: ['0', '1'] } }, { isSealed: 1 })).toBe(true);
    expect(matches({ isSealed: { _nin: [0] } }, { isSealed: '0' })).toBe(false);
  });

  it('does not equate different values that merely look falsy', () => {
    expect(matches({ f: { _eq: 0 } }, { f: '' })).toBe(false);
    expect(matches({ f: { _eq: 0 } }, { f: false })).toBe(false);
    expect(matches({ f: { _eq: '0' } }, {})).toBe(false);
  });

  it('takes all empty values as equal to each other', () => {
    expect(matches({ f: { _eq: null } }, {})).toBe(true);
    expect(matches({ f: { _eq: '' } }, { f: null })).toBe(true);
    expect(matches({ f: { _neq: null } }, { f: 'x' })).toBe(true);
  });
});

describe('combinators', () => {
  const a = { a: { _eq: 1 } };
  const b = { b: { _eq: 1 } };

  it('_and needs every branch', () => {
    expect(matches({ _and: [a, b] }, { a: 1, b: 1 })).toBe(true);
    expect(matches({ _and: [a, b] }, { a: 1, b: 2 })).toBe(false);
  });

  it('_or needs one branch', () => {
    expect(matches({ _or: [a, b] }, { a: 2, b: 1 })).toBe(true);
    expect(matches({ _or: [a, b] }, { a: 2, b: 2 })).toBe(false);
  });

  it('_not inverts', () => {
    expect(matches({ _not: a }, { a: 2 })).toBe(true);
    expect(matches({ _not: a }, { a: 1 })).toBe(false);
  });

  it('several keys of one object must all hold (implicit and)', () => {
    expect(matches({ ...a, ...b }, { a: 1, b: 1 })).toBe(true);
    expect(matches({ ...a, ...b }, { a: 1, b: 0 })).toBe(false);
  });

  it('nest', () => {
    const pred: Predicate = { _or: [{ _and: [a, { _not: b }] }, { c: { _in: ['x', 'y'] } }] };
    expect(matches(pred, { a: 1, b: 0 })).toBe(true);
    expect(matches(pred, { a: 1, b: 1 })).toBe(false);
    expect(matches(pred, { a: 1, b: 1, c: 'y' })).toBe(true);
  });

  it('isCombinator knows exactly _and, _or, _not', () => {
    expect(['_and', '_or', '_not', '_eq', 'and', 'parentId'].map(isCombinator)).toEqual([true, true, true, false, false, false]);
  });
});

describe('$form tokens', () => {
  it('read another field of the same record', () => {
    const pred = { plannedEndDate: { _gte: '$form.plannedStartDate' } };
    expect(matches(pred, { plannedStartDate: '2024-03-01', plannedEndDate: '2024-06-30' })).toBe(true);
    expect(matches(pred, { plannedStartDate: '2024-03-01', plannedEndDate: '2024-02-01' })).toBe(false);
  });

  it('read from the form context when one is given (an x-ref filter over candidate rows)', () => {
    const filter = { projectId: { _eq: '$form.projectId' } };
    const form = { projectId: '42' };
    expect(matches(filter, { projectId: 42 }, { form })).toBe(true);
    expect(matches(filter, { projectId: '7' }, { form })).toBe(false);
  });

  it('work inside _in / _nin lists', () => {
    const ctx = { form: { a: 'x', b: 'y' } };
    expect(matches({ v: { _in: ['$form.a', '$form.b'] } }, { v: 'y' }, ctx)).toBe(true);
    expect(matches({ v: { _nin: ['$form.a', '$form.b'] } }, { v: 'y' }, ctx)).toBe(false);
    expect(matches({ v: { _nin: ['$form.a', '$form.b'] } }, { v: 'z' }, ctx)).toBe(true);
  });

  it('an empty referenced field compares as empty', () => {
    expect(matches({ goodsId: { _eq: '$form.classifyId' } }, { goodsId: '' }, { form: {} })).toBe(true);
    expect(matches({ qty: { _gt: '$form.limit' } }, { qty: 5 }, { form: {} })).toBe(false);
  });

  it('a string that merely contains $form is a plain value', () => {
    expect(matches({ note: { _eq: 'see $form.x' } }, { note: 'see $form.x' })).toBe(true);
  });
});

describe('fieldsOf', () => {
  it('lists every field read, directly and through $form tokens, inside combinators', () => {
    const pred: Predicate = {
      parentId: { _neq: '0' },
      _and: [{ a: { _eq: '$form.b' } }, { _or: [{ c: { _in: ['x', '$form.d'] } }] }],
      _not: { e: { _empty: true } },
    };
    expect(fieldsOf(pred).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'parentId']);
  });

  it('does not list the operators or combinators themselves', () => {
    const names = fieldsOf({ _or: [{ qty: { _gt: 1 } }], _not: { qty: { _lt: 0 } } });
    expect(names.every((n) => n === 'qty')).toBe(true);
  });
});
