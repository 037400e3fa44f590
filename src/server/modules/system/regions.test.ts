import { describe, expect, it } from 'vitest';
import { chinaRegions } from './regions.ts';

describe("China's regions", () => {
  const rows = chinaRegions();

  it('holds every province, city and county once, each under a parent that exists', () => {
    const codes = new Set(rows.map((row) => row.code));
    expect(codes.size).toBe(rows.length);
    expect(rows.filter((row) => row.regionLevel === '1')).toHaveLength(34);
    expect(rows.filter((row) => row.regionLevel === '3').length).toBeGreaterThan(2800);
    for (const row of rows) {
      expect(row.parentCode === '00' || codes.has(row.parentCode), row.code).toBe(true);
      expect(row.ancestors.split(',').at(-1), row.code).toBe(row.parentCode);
      expect(row.name.length, row.code).toBeLessThanOrEqual(32);
    }
  });

  it('codes a province by two digits, a city by four, a county by six', () => {
    const byCode = new Map(rows.map((row) => [row.code, row]));
    expect(byCode.get('32')).toMatchObject({ name: '江苏省', parentCode: '00', regionLevel: '1' });
    expect(byCode.get('3201')).toMatchObject({ name: '南京市', parentCode: '32', provinceName: '江苏省', regionLevel: '2' });
    expect(byCode.get('320102')).toMatchObject({ name: '玄武区', parentCode: '3201', cityName: '南京市', ancestors: '00,32,3201' });
    expect(byCode.get('1101')).toMatchObject({ name: '北京市', parentCode: '11', regionLevel: '2' });
    expect(byCode.get('110101')).toMatchObject({ name: '东城区', parentCode: '1101', districtCode: '110101' });
  });
});
