// A settlement takes its terms from the contract it names (x-ref.inherit): the server fills the
// party, tax rate, payment ratio and retention rate a client leaves out, refuses another party or
// retention rate (fixed terms) with a message naming the field and the contract's value, and keeps
// a tax rate or payment ratio the clerk changed (overridable terms). The contract picker's kind
// filter (x-ref.filter with _in) is the list language's `_in`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { count, expenseContract, project, supplier } from './fixtures.ts';

const BASE = '/api/construct/subcontractMonthlySettlement';
const LINE = { itemCode: '010101', itemName: '土方开挖', unit: 'm3', quantity: 1000, priceInclTax: 30, taxRate: 9 };
type Row = Record<string, any>;

describe.each(databaseKinds())('settlement terms from the contract on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let english: Api;
  let team: Row;
  let other: Row;
  let contract: Row;
  let projectId: string;

  /** A May settlement of 100 m³ naming the contract, with only `extra` of the terms. */
  const settlement = (extra: Row = {}, period = '2026-05') => ({
    projectId,
    expenditureContractCode: contract.code,
    period,
    settlementType: 'interim',
    startDate: `${period}-01`,
    endDate: `${period}-28`,
    reporterName: '王会计',
    details: [{ itemCode: '010101', itemName: '土方开挖', unit: 'm3', contractQty: 1000, thisQty: 100, thisPrice: 30, taxRate: 9 }],
    ...extra,
  });

  beforeAll(async () => {
    server = await startServer(kind);
    const token = await server.token();
    api = client(server, token);
    english = client(server, token, 'en');
    projectId = (await project(api)).id;
    team = await supplier(api, { name: '南京恒通建筑劳务有限公司', subcontractorTypes: ['subcontract'] });
    other = await supplier(api, { name: '南京大地土方工程有限公司', subcontractorTypes: ['subcontract'] });
    contract = await expenseContract(api, projectId, team.id, [LINE], {
      name: '土方分包合同',
      expenditureContractType: 'subcontract',
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
    });
  });
  afterAll(() => server?.dispose());

  it('a settlement that names only its contract gets the contract’s party, tax rate, payment ratio and retention rate', async () => {
    const saved = await api.post(`${BASE}/save`, settlement());
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200 });
    expect(saved.body.data).toMatchObject({
      subcontractorId: team.id,
      taxRate: 9,
      paymentRatio: 80,
      retentionRate: 3,
      // 3,000 × 80 % − 3 % retention (90) — the contract's ratio, not the schema's default 100
      retentionAmount: 90,
      thisPayableAmount: 2310,
    });
    await api.post(`${BASE}/remove`, undefined, { ids: saved.body.data.id });
  });

  it('another party or retention rate is refused, naming the field and the contract’s value, and nothing is saved', async () => {
    const before = await count(api, `${BASE}/list`);
    const party = await api.post(`${BASE}/save`, settlement({ subcontractorId: other.id }));
    expect(party.status).toBe(400);
    expect(party.body.msg).toContain('合同乙方须与分包合同“土方分包合同”的约定一致:南京恒通建筑劳务有限公司');

    const retention = await english.post(`${BASE}/save`, settlement({ retentionRate: 5 }));
    expect(retention.status).toBe(400);
    expect(retention.body.msg).toContain('Retention rate (%) must be the one of Subcontract "土方分包合同": 3');
    expect(await count(api, `${BASE}/list`)).toBe(before);
  });

  it('the tax rate and payment ratio the clerk changed are kept (overridable terms); the contract’s own spelling is accepted', async () => {
    const saved = await api.post(
      `${BASE}/save`,
      settlement({ subcontractorId: team.id, taxRate: 13, paymentRatio: '90', retentionRate: '3.00' }),
    );
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200, data: { taxRate: 13, paymentRatio: 90, retentionRate: 3 } });
    await api.post(`${BASE}/remove`, undefined, { ids: saved.body.data.id });
  });

  it('an update is held to the same rule; a partial update to another contract takes that contract’s terms', async () => {
    const saved = (await api.post(`${BASE}/save`, settlement({}, '2026-06'))).body.data;
    const refused = await api.post(`${BASE}/update`, { ...saved, subcontractorId: other.id });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('合同乙方须与分包合同');
    const part = await api.post(`${BASE}/updatePart`, { id: saved.id, retentionRate: 0 });
    expect(part.status).toBe(400);
    expect(part.body.msg).toContain('保证金比例(%)须与分包合同“土方分包合同”的约定一致:3');

    const second = await expenseContract(api, projectId, other.id, [LINE], {
      name: '基坑土方分包合同',
      expenditureContractType: 'subcontract',
      taxRate: 9,
      paymentRatio: 70,
      retentionRate: 5,
    });
    const moved = await api.post(`${BASE}/updatePart`, { id: saved.id, expenditureContractCode: second.code });
    expect(moved.body, JSON.stringify(moved.body)).toMatchObject({
      code: 200,
      data: { subcontractorId: other.id, paymentRatio: 70, retentionRate: 5 },
    });
    // a remark changes nothing else, and blames the document for no term
    const remark = await api.post(`${BASE}/updatePart`, { id: saved.id, remark: '已核对' });
    expect(remark.body).toMatchObject({ code: 200, data: { remark: '已核对', subcontractorId: other.id } });
  });

  it('a contract without a retention rate leaves the settlement’s empty (or 0) and refuses one', async () => {
    const bare = await expenseContract(api, projectId, team.id, [LINE], {
      name: '零星土方合同',
      expenditureContractType: 'subcontract',
      taxRate: 9,
    });
    const refused = await api.post(`${BASE}/save`, settlement({ expenditureContractCode: bare.code, retentionRate: 3 }, '2026-07'));
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toContain('保证金比例(%)须留空:分包合同“零星土方合同”未约定');
    const saved = await api.post(`${BASE}/save`, settlement({ expenditureContractCode: bare.code }, '2026-07'));
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200, data: { subcontractorId: team.id, paymentRatio: 100 } });
    expect(saved.body.data.retentionRate ?? null).toBeNull();
    const none = await api.post(`${BASE}/updatePart`, { id: saved.body.data.id, retentionRate: 0 });
    expect(none.body, JSON.stringify(none.body)).toMatchObject({ code: 200, data: { retentionRate: 0 } });
  });

  it('the picker’s kind filter: _in lists the contracts of the kinds named, and checks each value', async () => {
    const purchase = await expenseContract(api, projectId, team.id, [], { name: '钢筋采购合同' });
    const options = await api.get('/api/construct/expenditureContract/list', {
      projectId_equal: projectId,
      expenditureContractType_in: 'subcontract,labor',
      size: '100',
    });
    const codes = options.body.data.records.map((r: Row) => r.code);
    expect(codes).toContain(contract.code);
    expect(codes).not.toContain(purchase.code);
    const bad = await api.get('/api/construct/expenditureContract/list', { projectId_in: `${projectId},abc` });
    expect(bad.status).toBe(400);
  });
});
