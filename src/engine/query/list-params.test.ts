// List query parameters as the platform's clients send them, parsed against the real compiled models.
import { describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../../../tests/support/schema-set.ts';
import { MAX_PAGE_SIZE, parseListParams, QueryError, type ListQuery } from './list-params.ts';

const { catalog } = compiledSchemaSet();
const project = catalog.entities.project;
const plan = catalog.entities.materialTotalDemand;
const goods = catalog.entities.goodsArchives;
const dict = catalog.entities.dict;

const filters = (model = project, params: Record<string, string | undefined>) => parseListParams(model, params).filters;

/** The QueryError a call throws, so that its key and params can be checked. */
function queryError(fn: () => ListQuery): QueryError {
  try {
    fn();
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error('expected a QueryError, got none');
}

describe('operators', () => {
  it('refuses a filter or a sort on a write-only field (not stored; a filter would be an oracle for the secret)', () => {
    const source = catalog.entities.datasource;
    for (const key of ['url', 'url_in', 'url_like', 'password_equal']) {
      expect(() => parseListParams(source, { [key]: '9223372036854775808' }), key).toThrow(QueryError);
    }
    expect(() => parseListParams(source, { ascs: 'password' })).toThrow(QueryError);
  });

  it('reads the operator from the key suffix', () => {
    expect(
      filters(project, {
        name_equal: 'A',
        code_notequal: 'B',
        name_like: 'C',
        shortName_notlike: 'D',
        code_likeleft: 'E',
        code_likeright: 'F',
      }),
    ).toEqual([
      { field: 'name', op: 'eq', value: 'A' },
      { field: 'code', op: 'ne', value: 'B' },
      { field: 'name', op: 'like', value: 'C' },
      { field: 'shortName', op: 'notlike', value: 'D' },
      { field: 'code', op: 'endsWith', value: 'E' },
      { field: 'code', op: 'startsWith', value: 'F' },
    ]);
  });

  it('reads comparison and date operators', () => {
    expect(
      filters(project, {
        targetCost_ge: '100',
        targetCost_le: '200.5',
        buildingArea_gt: '0',
        buildingArea_lt: '1000',
        createTime_datege: '2024-01-01',
        createTime_datelt: '2024-02-01 00:00:00',
        plannedStartDate_dateequal: '2024-03-15',
        plannedEndDate_dategt: '2024-01-01',
        actualEndDate_datele: '2024-12-31',
      }),
    ).toEqual([
      { field: 'targetCost', op: 'ge', value: '100' },
      { field: 'targetCost', op: 'le', value: '200.5' },
      { field: 'buildingArea', op: 'gt', value: '0' },
      { field: 'buildingArea', op: 'lt', value: '1000' },
      { field: 'createTime', op: 'ge', value: '2024-01-01' },
      { field: 'createTime', op: 'lt', value: '2024-02-01 00:00:00' },
      { field: 'plannedStartDate', op: 'dateEq', value: '2024-03-15' },
      { field: 'plannedEndDate', op: 'gt', value: '2024-01-01' },
      { field: 'actualEndDate', op: 'le', value: '2024-12-31' },
    ]);
  });

  it('null / notnull need no value (an empty one is fine)', () => {
    expect(filters(project, { actualEndDate_null: '', shortName_notnull: 'whatever' })).toEqual([
      { field: 'actualEndDate', op: 'null' },
      { field: 'shortName', op: 'notnull' },
    ]);
  });

  it('without a suffix: like for free text, equal for ids, dictionaries, options and numbers', () => {
    expect(filters(project, { name: '住宅', partyAId: '123', projectType: 'building', targetCost: '5' })).toEqual([
      { field: 'name', op: 'like', value: '住宅' },
      { field: 'partyAId', op: 'eq', value: '123' },
      { field: 'projectType', op: 'eq', value: 'building' },
      { field: 'targetCost', op: 'eq', value: '5' },
    ]);
    expect(filters(dict, { isSealed: '1', sort: '3' })).toEqual([
      { field: 'isSealed', op: 'eq', value: 1 },
      { field: 'sort', op: 'eq', value: 3 },
    ]);
    expect(filters(plan, { planDate: '2024-05-01', versionNo: '2' })).toEqual([
      { field: 'planDate', op: 'eq', value: '2024-05-01' },
      { field: 'versionNo', op: 'eq', value: 2 },
    ]);
  });

  it('types values: integers as numbers, booleans as booleans, ids and decimals as exact strings', () => {
    expect(filters(goods, { isTurnover: 'true', classifyId: '1123598815738675201', referencePrice_ge: '0.1' })).toEqual([
      { field: 'isTurnover', op: 'eq', value: true },
      { field: 'classifyId', op: 'eq', value: '1123598815738675201' },
      { field: 'referencePrice', op: 'ge', value: '0.1' },
    ]);
    expect(filters(goods, { isTurnover: '0' })).toEqual([{ field: 'isTurnover', op: 'eq', value: false }]);
  });

  it('_ignore skips a parameter', () => {
    expect(filters(project, { name_ignore: 'x' })).toEqual([]);
  });
});

describe('values', () => {
  it('ignores empty values: a search form sends every field', () => {
    expect(filters(project, { name: '', partyAId: '', createTime_datege: '', targetCost_ge: undefined, code_like: 'XM' })).toEqual([
      { field: 'code', op: 'like', value: 'XM' },
    ]);
  });

  it('passes SQL-looking text through as a plain like value, not an error', () => {
    const text = "1' OR '1'='1";
    expect(filters(project, { name: text })).toEqual([{ field: 'name', op: 'like', value: text }]);
    expect(filters(project, { name_like: "'; DROP TABLE construct_project; --" })).toEqual([
      { field: 'name', op: 'like', value: "'; DROP TABLE construct_project; --" },
    ]);
  });

  it.each([
    ['id', project, 'partyAId', 'abc'],
    ['id with SQL', project, 'partyAId', '1 OR 1=1'],
    ['id too long', project, 'partyAId', '12345678901234567890'],
    ['id past the largest bigint', project, 'partyAId', '9223372036854775808'],
    ['integer with decimals', plan, 'versionNo', '1.5'],
    ['integer as text', dict, 'sort_ge', 'ten'],
    ['decimal as text', project, 'targetCost_ge', '1,000'],
    ['date with month 13', plan, 'planDate', '2024-13-01'],
    ['date 30 February', plan, 'planDate_datege', '2024-02-30'],
    ['datetime with hour 24', project, 'createTime_datelt', '2024-01-01 24:00:00'],
    ['date operator with text', project, 'createTime_datege', 'yesterday'],
    ['boolean', goods, 'isTurnover', 'yes'],
  ] as const)('rejects a bad %s with badFilterValue naming the field', (_what, model, param, value) => {
    const err = queryError(() => parseListParams(model, { [param]: value }));
    expect(err.key).toBe('badFilterValue');
    expect(err.params).toMatchObject({ value, param });
    const field = model.fieldMap[param.replace(/_[a-z]+$/, '')];
    expect(err.params.field).toEqual(field.label);
  });

  it('accepts a leap day', () => {
    expect(filters(plan, { planDate: '2024-02-29' })).toEqual([{ field: 'planDate', op: 'eq', value: '2024-02-29' }]);
  });
});

describe('fields', () => {
  it('rejects an unknown field with unknownFilter naming the parameter', () => {
    const err = queryError(() => parseListParams(project, { nmae_like: 'x' }));
    expect(err.key).toBe('unknownFilter');
    expect(err.params).toEqual({ param: 'nmae_like' });
    expect(queryError(() => parseListParams(project, { details: 'x' })).key).toBe('unknownFilter');
  });

  it('does not let a client filter on tenantId or isDeleted, by either name', () => {
    for (const param of ['tenantId', 'tenantId_equal', 'tenant_id', 'isDeleted', 'is_deleted_equal', 'isDeleted_null']) {
      const err = queryError(() => parseListParams(project, { [param]: '000000' }));
      expect(err.key, param).toBe('unknownFilter');
      expect(err.params, param).toEqual({ param });
    }
  });

  it('accepts the snake_case column name for a field', () => {
    expect(filters(project, { party_a_id: '7', create_time_datege: '2024-01-01', project_manager_name_like: '张' })).toEqual([
      { field: 'partyAId', op: 'eq', value: '7' },
      { field: 'createTime', op: 'ge', value: '2024-01-01' },
      { field: 'projectManagerName', op: 'like', value: '张' },
    ]);
  });

  it('accepts system fields other than the tenant and the delete flag', () => {
    expect(filters(project, { id_equal: '42', createUser: '1' })).toEqual([
      { field: 'id', op: 'eq', value: '42' },
      { field: 'createUser', op: 'eq', value: '1' },
    ]);
  });

  it('does not take paging, sorting or the token for filters', () => {
    expect(filters(project, { current: '2', size: '20', ascs: 'name', descs: 'code', 'Blade-Auth': 'bearer x', _t: '1700000000' })).toEqual(
      [],
    );
  });

  it('lets a route reserve its own parameters', () => {
    expect(parseListParams(project, { parentId: '0', name: 'a' }, ['parentId']).filters).toEqual([
      { field: 'name', op: 'like', value: 'a' },
    ]);
  });
});

describe('sorting', () => {
  it('reads ascs and descs, comma-separated, ascending first', () => {
    expect(parseListParams(project, { ascs: 'name, code', descs: 'createTime' }).sort).toEqual([
      { field: 'name', order: 'asc' },
      { field: 'code', order: 'asc' },
      { field: 'createTime', order: 'desc' },
    ]);
  });

  it('accepts column names', () => {
    expect(parseListParams(project, { descs: 'create_time' }).sort).toEqual([{ field: 'createTime', order: 'desc' }]);
  });

  it('falls back to the schema default sort', () => {
    expect(parseListParams(project, {}).sort).toEqual([{ field: 'createTime', order: 'desc' }]);
    expect(parseListParams(dict, { ascs: '' }).sort).toEqual([{ field: 'sort', order: 'asc' }]);
  });

  it('rejects an unknown sort field with unknownSort naming it', () => {
    for (const params of [{ ascs: 'name,bogus' }, { descs: 'bogus' }, { descs: 'name; DROP TABLE x' }]) {
      const err = queryError(() => parseListParams(project, params));
      expect(err.key).toBe('unknownSort');
      expect(Object.values(params)[0]).toContain(err.params.param);
    }
  });
});

describe('paging', () => {
  it('defaults to page 1 and the schema page size', () => {
    const q = parseListParams(project, {});
    expect(q.current).toBe(1);
    expect(q.size).toBe(project.list.pageSize);
    expect(q.size).toBe(10);
  });

  it('reads current and size', () => {
    expect(parseListParams(project, { current: '3', size: '50' })).toMatchObject({ current: 3, size: 50 });
  });

  it(`caps size at ${MAX_PAGE_SIZE}`, () => {
    expect(MAX_PAGE_SIZE).toBe(500);
    expect(parseListParams(project, { size: '500' }).size).toBe(500);
    expect(parseListParams(project, { size: '501' }).size).toBe(500);
    expect(parseListParams(project, { size: '100000' }).size).toBe(500);
  });

  it.each([
    ['current', '0'],
    ['current', '-1'],
    ['current', 'abc'],
    ['current', '1.5'],
    ['size', '0'],
    ['size', '-10'],
    ['size', '10; DROP'],
    ['size', '9999999999'],
  ])('rejects %s=%s with badPaging', (param, value) => {
    const err = queryError(() => parseListParams(project, { [param]: value }));
    expect(err.key).toBe('badPaging');
    expect(err.params).toEqual({ param, value });
  });
});
