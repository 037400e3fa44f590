// Engine features the business documents rely on, through the HTTP API: formulas over snapshot
// fields copied from a reference, searching multi-select dictionary fields, self-references
// (a supplementary contract's parent contract) and attachment fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer } from './harness.ts';
import { project } from './fixtures.ts';

type Api = ReturnType<typeof client>;

async function saved(api: Api, url: string, record: Record<string, unknown>) {
  const res = await api.post(url, record);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

let seq = 0;
const subcontractor = (api: Api, types: string[], extra: Record<string, unknown> = {}) =>
  saved(api, '/api/construct/subcontractor/save', { name: `南京宏远机械租赁有限公司${++seq}`, subcontractorTypes: types, blacklisted: false, status: 'enabled', ...extra });

const contract = (api: Api, projectId: string, subcontractorId: string, contractAmount: number, extra: Record<string, unknown> = {}) =>
  saved(api, '/api/construct/expenditureContract/save', {
    name: `塔吊租赁合同${++seq}`, projectId, subcontractorId, expenditureContractType: 'equipment_lease', pricingMode: 'fixed_unit_price',
    signDate: '2026-03-01', startDate: '2026-03-05', contractAmount, taxRate: 13, ...extra,
  });

describe.each(databaseKinds())('schema features on %s', (kind) => {
  let server: TestServer;
  let api: Api;

  beforeAll(async () => {
    server = await startServer(kind);
    api = client(server, await server.token());
  });
  afterAll(() => server?.dispose());

  describe('multi-select dictionary fields in the search', () => {
    it('matches records holding any of the comma-joined keys, with or without the equal suffix', async () => {
      const tag = `多选检索${kind}`;
      const named = (name: string, types: string[]) => subcontractor(api, types, { name: `${tag}${name}` });
      const team = await named('劳务队', ['labor']);
      const supplier = await named('供应商', ['material_supplier', 'equipment_lessor']);
      await named('混凝土站', ['concrete_supplier']);
      const found = async (query: Record<string, string>) => {
        const res = await api.get('/api/construct/subcontractor/list', { name: tag, ...query });
        expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200 });
        return (res.body.data.records as { id: string }[]).map((r) => r.id).sort();
      };
      expect(await found({ subcontractorTypes: 'labor,equipment_lessor' })).toEqual([team.id, supplier.id].sort());
      expect(await found({ subcontractorTypes_equal: 'equipment_lessor' })).toEqual([supplier.id]);
      expect(await found({ subcontractorTypes: 'turnover_lessor' })).toEqual([]);
      expect(await found({})).toHaveLength(3);
    });
  });

  describe('snapshot fields are copied before formulas run', () => {
    const settlement = (projectId: string, subcontractorId: string, code: string) => ({
      projectId, expenditureContractCode: code, subcontractorId, period: '2026-05', settlementType: 'interim', startDate: '2026-05-01', endDate: '2026-05-31',
      taxRate: 9, paymentRatio: 80, reporterName: '王会计', previousCumulativeAmount: 30000,
      // a client's own idea of the contract amount is not what the share is computed from
      currentContractAmount: 1,
      details: [{ equipmentName: 'QTZ80 塔吊', leaseMode: 'month', quantity: 1, billedQty: 1, unitPrice: 20000, taxRate: 9 }],
    });

    it('save: the cumulative share of the contract uses the referenced contract’s current amount', async () => {
      const p = await project(api);
      const lessor = await subcontractor(api, ['equipment_lessor']);
      const c = await contract(api, p.id, lessor.id, 200000, { changeAmount: 50000 });
      const saved = await api.post('/api/construct/equipmentLeaseMonthlySettlement/save', settlement(p.id, lessor.id, c.code));
      expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200 });
      // (30 000 + 20 000) / 250 000 = 20 %
      expect(saved.body.data).toMatchObject({ contractAmount: 200000, currentContractAmount: 250000, thisAmountInclTax: 20000, cumulativeAmount: 50000, cumulativeRatio: 20 });
    });

    it('update and updatePart: choosing another contract copies its amounts and computes the share again', async () => {
      const p = await project(api);
      const lessor = await subcontractor(api, ['equipment_lessor']);
      const first = await contract(api, p.id, lessor.id, 200000);
      const second = await contract(api, p.id, lessor.id, 100000);
      const created = (await api.post('/api/construct/equipmentLeaseMonthlySettlement/save', settlement(p.id, lessor.id, first.code))).body.data;
      expect(created).toMatchObject({ currentContractAmount: 200000, cumulativeRatio: 25 });

      const part = await api.post('/api/construct/equipmentLeaseMonthlySettlement/updatePart', { id: created.id, expenditureContractCode: second.code });
      expect(part.body, JSON.stringify(part.body)).toMatchObject({ code: 200 });
      expect(part.body.data).toMatchObject({ expenditureContractCode: second.code, contractAmount: 100000, currentContractAmount: 100000, cumulativeRatio: 50 });

      const full = await api.post('/api/construct/equipmentLeaseMonthlySettlement/update', { ...part.body.data, expenditureContractCode: first.code });
      expect(full.body, JSON.stringify(full.body)).toMatchObject({ code: 200 });
      expect(full.body.data).toMatchObject({ currentContractAmount: 200000, cumulativeRatio: 25 });
    });
  });
});
