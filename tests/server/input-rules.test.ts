// Fields in order (x-rules.atLeast) as the server enforces them: every ordered pair of every document
// type, header or detail row, refuses a value below its partner with a message naming both fields,
// in zh and en, and saves nothing; a record in order saves, and an update that reverses it is refused.
// The statuses a contract's workflow keeps cannot be set by a client, on save, update or updatePart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityModel, FieldModel } from '../../src/engine/model/types.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { count, expenseContract, goods, project, supplier } from './fixtures.ts';
import { approvedSubcontract, EARTHWORK_LINE, ok, tokenOf } from './approval.ts';

interface OrderedPair {
  model: EntityModel;
  detail?: string;
  field: FieldModel;
  other: FieldModel;
}

/** Every x-rules.atLeast of the schema set, each field with the first field it may not be below. */
function orderedPairs(entities: Record<string, EntityModel>): OrderedPair[] {
  const pairs: OrderedPair[] = [];
  for (const model of Object.values(entities)) {
    if (model.readOnly || model.rowsOf) continue;
    for (const field of model.fields) if (field.rules?.atLeast) pairs.push({ model, field, other: model.fieldMap[field.rules.atLeast[0]] });
    for (const d of model.details)
      for (const field of d.fields)
        if (field.rules?.atLeast) pairs.push({ model, detail: d.name, field, other: d.fieldMap[field.rules.atLeast[0]] });
  }
  return pairs;
}

/** A value of `kind` and one after it. */
function earlyAndLate(kind: FieldModel['kind']): [unknown, unknown] {
  if (kind === 'month') return ['2026-01', '2026-12'];
  if (kind === 'datetime') return ['2026-01-31 08:00:00', '2026-12-01 08:00:00'];
  if (kind === 'date') return ['2026-01-31', '2026-12-01'];
  return [1, 2];
}

/** The field below its partner (and below every other field it may not be below). */
function reversed({ detail, field, other }: OrderedPair): Record<string, unknown> {
  const [early, late] = earlyAndLate(field.kind);
  const values: Record<string, unknown> = { [field.name]: early, [other.name]: late };
  for (const name of field.rules?.atLeast ?? []) values[name] = late;
  return detail ? { [detail]: [values] } : values;
}

describe.each(databaseKinds())('fields in order on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let en: Api;
  let pairs: OrderedPair[];

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    api = client(server, token);
    en = client(server, token, 'en');
    pairs = orderedPairs(server.catalog.entities);
  });
  afterAll(() => server?.dispose());

  it('covers the ordered dates of contracts, settlement periods, lease rows and plans', () => {
    const named = pairs.map((p) => `${p.model.key}.${p.detail ? `${p.detail}.` : ''}${p.field.name}`);
    expect(named).toEqual(
      expect.arrayContaining([
        'constructionContract.endDate',
        'expenditureContract.endDate',
        'laborMonthlySettlement.endDate',
        'materialMonthlySettlement.checkEndDate',
        'equipmentLeaseMonthlySettlement.details.exitDate',
        'materialTurnoverDemand.details.plannedExitDate',
        'project.plannedEndDate',
      ]),
    );
    expect(pairs.length).toBeGreaterThanOrEqual(20);
  });

  it('refuses each value below its partner, naming both fields in zh and en, and saves nothing', async () => {
    for (const pair of pairs) {
      const { model, detail, field, other } = pair;
      const list = `${model.api}/list`;
      const before = await count(api, list);
      const path = detail ? `/${detail}/0/${field.name}` : `/${field.name}`;
      const zh = await api.post(`${model.api}/save`, reversed(pair));
      expect(zh.status, `${model.key} ${path}`).toBe(400);
      const verb = field.kind === 'decimal' || field.kind === 'integer' ? '不能小于' : '不能早于';
      const message = zh.body.data.errors.find((e: { path: string }) => e.path === path)?.message;
      expect(message, `${model.key} ${path}`).toMatch(new RegExp(`${field.label.zh}${verb}${other.label.zh}$`));
      const answer = await en.post(`${model.api}/save`, reversed(pair));
      const english = answer.body.data.errors.find((e: { path: string }) => e.path === path)?.message;
      expect(english, `${model.key} ${path}`).toMatch(new RegExp(`${field.label.en} cannot be (earlier|less) than ${other.label.en}$`));
      expect(await count(api, list)).toBe(before);
    }
  });

  it('saves dates in order, and refuses an update or a partial update that reverses them, changing nothing', async () => {
    const url = '/api/construct/project';
    const p = await project(api, { plannedStartDate: '2026-11-01', plannedEndDate: '2026-11-30' });
    const moved = await api.post(`${url}/update`, { ...p, plannedStartDate: '2026-12-01' });
    expect(moved.status).toBe(400);
    expect(moved.body.msg).toBe('计划竣工日期不能早于计划开工日期');
    const part = await en.post(`${url}/updatePart`, { id: p.id, plannedStartDate: '2026-12-01' });
    expect(part.status).toBe(400);
    expect(part.body.msg).toBe('Planned completion date cannot be earlier than Planned start date');
    const stored = (await api.get(`${url}/detail`, { id: p.id })).body.data;
    expect([stored.plannedStartDate, stored.plannedEndDate]).toEqual(['2026-11-01', '2026-11-30']);
    expect((await api.post(`${url}/updatePart`, { id: p.id, plannedStartDate: '2026-11-30' })).body.code).toBe(200);
  });

  it('keeps the statuses the workflow owns whatever a client sends', async () => {
    const p = await project(api);
    const vendor = await supplier(api);
    const line = { goodsId: (await goods(api)).id, quantity: 10, priceInclTax: 3950 };
    const c = await expenseContract(api, p.id, vendor.id, [line], { performanceStatus: 'completed', settlementStatus: 'final' });
    expect([c.performanceStatus, c.settlementStatus]).toEqual(['not_started', 'none']);
    const url = '/api/construct/expenditureContract';
    const updated = await api.post(`${url}/update`, {
      ...c,
      remark: '改备注',
      performanceStatus: 'terminated',
      settlementStatus: 'partial',
    });
    expect(updated.body.code).toBe(200);
    expect((await api.post(`${url}/updatePart`, { id: c.id, settlementStatus: 'final' })).body.code).toBe(200);
    const stored = (await api.get(`${url}/detail`, { id: c.id })).body.data;
    expect([stored.remark, stored.performanceStatus, stored.settlementStatus]).toEqual(['改备注', 'not_started', 'none']);
  });

  it('makes a contract performing when its approval ends, and no sooner', async () => {
    const manager = client(server, await tokenOf(server, 'manager'));
    const p = await project(api);
    const { contract } = await approvedSubcontract(api, manager, p.id, '土方分包合同(履约状态)', [EARTHWORK_LINE]);
    expect(contract.performanceStatus).toBe('not_started');
    const approved = ok(await api.get('/api/construct/expenditureContract/detail', { id: contract.id }));
    expect([approved.approvalStatus, approved.performanceStatus, approved.settlementStatus]).toEqual(['approved', 'performing', 'none']);
  });
});
