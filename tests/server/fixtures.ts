// Realistic records for the server suites, created through the API like a client would.
import { expect } from 'vitest';
import type { Api } from './harness.ts';
import { nodesOf } from '../../src/engine/tree/forest.ts';

let seq = 0;

async function saved(api: Api, url: string, record: Record<string, unknown>) {
  const res = await api.post(url, record);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

export function partyA(api: Api, overrides: Record<string, unknown> = {}) {
  seq++;
  return saved(api, '/api/construct/partyA/save', {
    name: `江苏省城建投资集团${seq}`,
    partyAType: 'soe',
    contactName: '王经理',
    contactPhone: '13800000000',
    status: 'enabled',
    ...overrides,
  });
}

export async function project(api: Api, overrides: Record<string, unknown> = {}) {
  seq++;
  const owner = overrides.partyAId ? undefined : await partyA(api);
  return saved(api, '/api/construct/project/save', {
    name: `南京江北新区人才公寓${seq}号地块`,
    projectType: 'building',
    partyAId: owner?.id,
    targetCost: 128_000_000.5,
    plannedStartDate: '2026-03-01',
    plannedEndDate: '2027-12-31',
    projectManagerName: '李建国',
    projectStatus: 'constructing',
    ...overrides,
  });
}

export async function goods(api: Api, overrides: Record<string, unknown> = {}) {
  seq++;
  const classify = await saved(api, '/api/construct/goodsClassify/save', {
    parentId: '0',
    code: `GC${seq}`,
    name: `钢材${seq}`,
    goodsType: 'main',
    status: 'enabled',
  });
  return saved(api, '/api/construct/goodsArchives/save', {
    code: `WZ${seq}`,
    name: '螺纹钢',
    spec: `HRB400 Φ${seq}`,
    unit: 't',
    classifyId: classify.id,
    goodsType: 'main',
    isTurnover: false,
    referencePrice: 4150,
    status: 'enabled',
    ...overrides,
  });
}

export function demandRow(goodsId: string, designQty: number, budgetPrice: number, extra: Record<string, unknown> = {}) {
  return { goodsId, workPart: '主体结构 1#楼', designQty, lossRate: 2, budgetPrice, ...extra };
}

export async function demand(api: Api, projectId: string, rows: Record<string, unknown>[], overrides: Record<string, unknown> = {}) {
  return saved(api, '/api/construct/materialTotalDemand/save', {
    projectId,
    title: '主体结构材料总计划',
    planDate: '2026-03-10',
    compilerName: '张工',
    details: rows,
    ...overrides,
  });
}

/** A user of `roleId` named `alias`, created as an administrator does; answers its id. */
export async function userOfRole(
  admin: Api,
  alias: string,
  roleId: string,
  { account = alias, password = 'secret1' }: { account?: string; password?: string } = {},
): Promise<string> {
  const user = await admin.post('/api/blade-system/user/save', {
    account,
    password,
    name: alias,
    realName: alias,
    roleId,
    status: 1,
  });
  expect(user.body.code, JSON.stringify(user.body)).toBe(200);
  return user.body.data.id;
}

/** How many records a list finds: its page's total, or the nodes of its forest. */
export async function count(api: Api, url: string, query: Record<string, string> = {}) {
  const res = await api.get(url, { size: '1', ...query });
  expect(res.body.code).toBe(200);
  return Array.isArray(res.body.data) ? nodesOf(res.body.data).length : (res.body.data.total as number);
}

export function supplier(api: Api, overrides: Record<string, unknown> = {}) {
  seq++;
  return saved(api, '/api/construct/subcontractor/save', {
    name: `沙钢物资贸易有限公司${seq}`,
    subcontractorTypes: ['material_supplier'],
    blacklisted: false,
    status: 'enabled',
    ...overrides,
  });
}

/** An expense contract (a purchase contract unless overridden) with priced lines. */
export function expenseContract(
  api: Api,
  projectId: string,
  subcontractorId: string,
  lines: Record<string, unknown>[],
  overrides: Record<string, unknown> = {},
) {
  return saved(api, '/api/construct/expenditureContract/save', {
    name: '钢筋采购合同',
    projectId,
    subcontractorId,
    expenditureContractType: 'material',
    pricingMode: 'fixed_unit_price',
    signDate: '2026-03-12',
    startDate: '2026-04-01',
    contractAmount: 0,
    taxRate: 13,
    performanceStatus: 'not_started',
    settlementStatus: 'none',
    details: lines.map((l) => ({ taxRate: 13, ...l })),
    ...overrides,
  });
}
