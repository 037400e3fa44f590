// @vitest-environment happy-dom
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { filtersOf } from './filters.ts';
import { defaultSorting, listParams } from './useListQuery.ts';

const { materialTotalDemand: demand, region, goodsClassify } = catalog().entities;

describe('what the search bar sends', () => {
  it('date ranges: whole days of a datetime (创建时间), plain dates of a date', () => {
    const filters = filtersOf(demand, {
      createTime: [dayjs('2026-03-01'), dayjs('2026-03-31')],
      planDate: [dayjs('2026-02-01'), dayjs('2026-02-28')],
    });
    expect(filters).toEqual({
      createTime_datege: '2026-03-01 00:00:00',
      createTime_datele: '2026-03-31 23:59:59',
      planDate_datege: '2026-02-01',
      planDate_datele: '2026-02-28',
    });
  });

  it('contains-searches without a suffix, other operators as suffixes, empty inputs not at all', () => {
    expect(filtersOf(demand, { title: '钢筋', code: '', projectId: '1000123' })).toEqual({ title: '钢筋', projectId_equal: '1000123' });
    expect(filtersOf(region, { code: '32', regionLevel: '2' })).toEqual({ code_likeright: '32', regionLevel_equal: '2' });
  });

  it('a multi-select dictionary sends the chosen keys comma-joined (any of them matches); none chosen sends nothing', () => {
    const { subcontractor } = catalog().entities;
    expect(filtersOf(subcontractor, { subcontractorTypes: ['labor', 'equipment_lessor'] })).toEqual({
      subcontractorTypes_equal: 'labor,equipment_lessor',
    });
    expect(filtersOf(subcontractor, { subcontractorTypes: [] })).toEqual({});
  });
});

describe('the list request', () => {
  it('leaves the default sort to the server and sends a chosen one as ascs / descs', () => {
    const base = { filters: { title: '钢' }, current: 2, size: 30 };
    expect(listParams(demand, { ...base, sorting: defaultSorting(demand) })).toEqual({ current: 2, size: 30, title: '钢' });
    expect(listParams(demand, { ...base, sorting: [{ id: 'title', desc: false }] })).toMatchObject({ ascs: 'title' });
    expect(listParams(demand, { ...base, sorting: [{ id: 'createTime', desc: false }] })).toMatchObject({ ascs: 'createTime' });
    expect(defaultSorting(goodsClassify)).toEqual([{ id: 'sort', desc: false }]);
  });
});
