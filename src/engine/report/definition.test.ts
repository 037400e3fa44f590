// The report definition check: what it accepts, and each refusal with its path and message.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { checkReportDefinition, isSummable, reportFields } from './definition.ts';

const { catalog } = compiledSchemaSet();
const check = (definition: unknown, entity: unknown = 'project', lang: 'zh' | 'en' = 'zh') =>
  checkReportDefinition(catalog, entity, definition, lang);

describe('report definitions', () => {
  it('accepts columns, a nested filter, grouping and sums over real fields', () => {
    expect(
      check({
        columns: ['code', 'name', 'targetCost', 'createTime'],
        filter: {
          _or: [{ projectType: { _in: ['building', 'municipal'] } }, { _not: { targetCost: { _lte: 0 } } }],
          projectStatus: { _eq: 'constructing' },
        },
        groupBy: ['projectType'],
        sums: ['targetCost'],
      }),
    ).toEqual([]);
  });

  it('offers neither the tenant column, JSON fields nor write-only ones', () => {
    const names = reportFields(catalog.entities.user).map((f) => f.name);
    expect(names).toContain('account');
    expect(names).not.toContain('tenantId');
    expect(names).not.toContain('password');
    expect(reportFields(catalog.entities.report).map((f) => f.name)).not.toContain('definition');
    expect(isSummable(catalog.entities.project.fieldMap.targetCost)).toBe(true);
    expect(isSummable(catalog.entities.project.fieldMap.projectType)).toBe(false);
  });

  it('names each unknown field, where it is, in the caller language', () => {
    expect(
      check(
        { columns: ['name', 'tenantId'], filter: { _and: [{ 'name; DROP TABLE x': { _eq: 1 } }] }, groupBy: ['nope'] },
        'project',
        'en',
      ),
    ).toEqual([
      { path: '/definition/columns/1', message: 'Project has no field tenantId a report may use' },
      { path: '/definition/filter/_and/0/name; DROP TABLE x', message: 'Project has no field name; DROP TABLE x a report may use' },
      { path: '/definition/groupBy/0', message: 'Project has no field nope a report may use' },
    ]);
  });

  it('refuses malformed conditions, sums of non-numbers, empty and repeated columns, unknown parts and entities', () => {
    const paths = (def: unknown) => check(def).map((e) => `${e.path} ${e.message}`);
    expect(paths({ columns: ['name'], filter: { name: { _like: 'x' } } })).toEqual([
      '/definition/filter/name 项目名称的筛选条件无效:应为一个运算符及其值',
    ]);
    expect(paths({ columns: ['name'], filter: { name: { _eq: { $gt: 1 } } } })).toHaveLength(1);
    expect(paths({ columns: ['name'], filter: { name: { _in: 'x' } } })).toHaveLength(1);
    expect(paths({ columns: ['name'], filter: { _or: [] } })).toEqual(['/definition/filter/_or 筛选条件格式无效']);
    expect(paths({ columns: ['name'], sums: ['name'] })).toEqual(['/definition/sums/0 项目名称不是数值字段,不能求和']);
    expect(paths({ columns: [] })).toEqual(['/definition/columns 请至少选择一列']);
    expect(paths({ columns: ['name', 'name'] })).toEqual(['/definition/columns 字段重复']);
    expect(paths({ columns: ['name'], sql: 'SELECT 1' })).toEqual(['/definition/sql 报表定义不支持 sql']);
    expect(paths('columns')).toEqual(['/definition 请至少选择一列']);
    expect(check({ columns: ['name'] }, 'report')).toEqual([{ path: '/entityKey', message: '报表的数据对象 report 不存在' }]);
    expect(check({ columns: ['name'] }, '../etc/passwd')[0].path).toBe('/entityKey');
  });
});
