// @vitest-environment happy-dom
// A list's address as its opening search: the values the search bar shows and the filters the first
// request sends, for each kind of search field; what the bar does not search is ignored.
import { describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { filtersOf } from './filters.ts';
import { listHref, searchValuesFromUrl } from './urlFilters.ts';

const { expenditureContract: contract, subcontractMonthlySettlement: settlement, subcontractor, goodsArchives: goods } = catalog().entities;

describe('a list opened with a search in its address', () => {
  it('reference, dictionary and option fields as the string, sent as equality filters', () => {
    const values = searchValuesFromUrl(contract, '?projectId=1000123&expenditureContractType=subcontract&approvalStatus=approved');
    expect(values).toEqual({ projectId: '1000123', expenditureContractType: 'subcontract', approvalStatus: 'approved' });
    expect(filtersOf(contract, values)).toEqual({
      projectId_equal: '1000123',
      expenditureContractType_equal: 'subcontract',
      approvalStatus_equal: 'approved',
    });
  });

  it('a contract by its code, a period, a contains-search', () => {
    const values = searchValuesFromUrl(settlement, 'expenditureContractCode=ZCHT-202605-0001&period=2026-05&code=FBJS');
    expect(filtersOf(settlement, values)).toEqual({
      expenditureContractCode_equal: 'ZCHT-202605-0001',
      period_equal: '2026-05',
      code: 'FBJS',
    });
  });

  it('a date range as from,to (either side may be empty); a bad date is left out', () => {
    expect(filtersOf(contract, searchValuesFromUrl(contract, 'signDate=2026-04-01,2026-04-30'))).toEqual({
      signDate_datege: '2026-04-01',
      signDate_datele: '2026-04-30',
    });
    expect(filtersOf(contract, searchValuesFromUrl(contract, 'signDate=,2026-04-30'))).toEqual({ signDate_datele: '2026-04-30' });
    expect(filtersOf(settlement, searchValuesFromUrl(settlement, 'createTime=2026-05-01'))).toEqual({
      createTime_datege: '2026-05-01 00:00:00',
    });
    expect(searchValuesFromUrl(contract, 'signDate=soon')).toEqual({});
  });

  it('a multi-select dictionary as a,b; a yes/no as true/false (or 1/0)', () => {
    expect(filtersOf(subcontractor, searchValuesFromUrl(subcontractor, 'subcontractorTypes=labor,subcontract'))).toEqual({
      subcontractorTypes_equal: 'labor,subcontract',
    });
    expect(searchValuesFromUrl(goods, 'isTurnover=1')).toEqual({ isTurnover: 'true' });
    expect(searchValuesFromUrl(goods, 'isTurnover=maybe')).toEqual({});
  });

  it('ignores what the search bar does not search and empty values', () => {
    expect(searchValuesFromUrl(contract, 'tenantId=000000&contractAmount=5&name=&ascs=code')).toEqual({});
  });

  it('links carry only the values given', () => {
    expect(
      listHref('/cost/contract/expenditure', {
        projectId: '7',
        expenditureContractType: null,
        approvalStatus: 'approved',
        period: undefined,
      }),
    ).toBe('/cost/contract/expenditure?projectId=7&approvalStatus=approved');
    expect(listHref('/x', {})).toBe('/x');
  });
});
