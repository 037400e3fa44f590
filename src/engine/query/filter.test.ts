// The dialect's predicates as the one filter tree the server compiles (filter.ts): values typed by
// their field, a value the field cannot hold matching nothing, tokens resolved, unknown and
// write-only fields matching nothing.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { predicateTree } from './filter.ts';
import { parseListParams } from './list-params.ts';

const { catalog } = compiledSchemaSet();
const project = catalog.entities.project;

describe('a predicate as a filter tree', () => {
  it('types each value by its field', () => {
    expect(predicateTree({ targetCost: { _eq: 999 } }, project)).toEqual({ field: 'targetCost', op: 'eq', value: '999' });
    expect(predicateTree({ projectStatus: { _neq: 'completed' } }, project)).toEqual({
      field: 'projectStatus',
      op: 'ne',
      value: 'completed',
    });
    expect(predicateTree({ plannedStartDate: { _gte: '2024-01-01' } }, project)).toMatchObject({ op: 'ge', value: '2024-01-01' });
    expect(predicateTree({ builtIn: { _eq: '1' } }, catalog.entities.dataScope)).toEqual({ field: 'builtIn', op: 'eq', value: 1 });
  });

  it('matches nothing where the value cannot be the field’s (and everything for "not equal")', () => {
    expect(predicateTree({ targetCost: { _eq: '九百' } }, project)).toEqual({ constant: false });
    expect(predicateTree({ targetCost: { _neq: '九百' } }, project)).toEqual({ constant: true });
    expect(predicateTree({ targetCost: { _gt: 'abc' } }, project)).toEqual({ constant: false });
    expect(predicateTree({ targetCost: { _between: 1 } } as never, project)).toEqual({ constant: false });
  });

  it('matches nothing on a field the model lacks or never stores', () => {
    expect(predicateTree({ nothing: { _eq: 1 } }, project)).toEqual({ constant: false });
    expect(predicateTree({ password: { _eq: 'x' } }, catalog.entities.datasource)).toEqual({ constant: false });
  });

  it('tests an empty field with null, and a token without a value matches nothing', () => {
    expect(predicateTree({ remark: { _eq: null } }, project)).toEqual({ field: 'remark', op: 'null' });
    expect(predicateTree({ remark: { _neq: null } }, project)).toEqual({ field: 'remark', op: 'notnull' });
    const resolve = (v: unknown) => (v === '$user.deptId' ? undefined : v);
    expect(predicateTree({ createDept: { _eq: '$user.deptId' } }, project, resolve)).toEqual({ constant: false });
  });

  it('keeps _and, _or and _not, and resolves tokens inside lists', () => {
    const resolve = (v: unknown) => (v === '$user.userId' ? '42' : v);
    expect(
      predicateTree(
        {
          _or: [{ createUser: { _in: ['$user.userId', '7'] } }, { _not: { projectStatus: { _empty: true } } }],
          projectType: { _nin: ['a'] },
        },
        project,
        resolve,
      ),
    ).toEqual({
      all: [
        {
          any: [{ field: 'createUser', op: 'in', value: ['42', '7'] }, { not: { field: 'projectStatus', op: 'empty', value: true } }],
        },
        { field: 'projectType', op: 'nin', value: ['a'] },
      ],
    });
  });

  it('is the same test a list parameter is', () => {
    const [fromParams] = parseListParams(project, { targetCost_equal: '999' }).filters;
    expect(predicateTree({ targetCost: { _eq: 999 } }, project)).toEqual(fromParams);
    const [inParams] = parseListParams(project, { projectStatus_in: 'constructing,completed' }).filters;
    expect(predicateTree({ projectStatus: { _in: ['constructing', 'completed'] } }, project)).toEqual(inParams);
  });
});
