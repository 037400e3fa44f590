// Engine features the business documents rely on, through the HTTP API: formulas over snapshot
// fields copied from a reference, searching multi-select dictionary fields, self-references
// (a supplementary contract's parent contract) and attachment fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, databaseKinds, startServer, type TestServer, type Api } from './harness.ts';
import { project } from './fixtures.ts';

async function saved(api: Api, url: string, record: Record<string, unknown>) {
  const res = await api.post(url, record);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, success: true });
  return res.body.data;
}

let seq = 0;
const subcontractor = (api: Api, types: string[], extra: Record<string, unknown> = {}) =>
  saved(api, '/api/construct/subcontractor/save', {
    name: `南京宏远机械租赁有限公司${++seq}`,
    subcontractorTypes: types,
    blacklisted: false,
    status: 'enabled',
    ...extra,
  });

const contract = (api: Api, projectId: string, subcontractorId: string, contractAmount: number, extra: Record<string, unknown> = {}) =>
  saved(api, '/api/construct/expenditureContract/save', {
    name: `塔吊租赁合同${++seq}`,
    projectId,
    subcontractorId,
    expenditureContractType: 'equipment_lease',
    pricingMode: 'fixed_unit_price',
    signDate: '2026-03-01',
    startDate: '2026-03-05',
    contractAmount,
    taxRate: 13,
    ...extra,
  });

const PDF = Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Uploads a file through the resource API as the token's user; answers {link, originalName, attachId}. */
async function upload(server: TestServer, token: string, filename: string) {
  const boundary = '----zhusuan' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    PDF,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/blade-resource/oss/endpoint/put-file',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'blade-auth': `bearer ${token}` },
  });
  const body = JSON.parse(res.body);
  expect(body, res.body).toMatchObject({ code: 200 });
  return body.data as { link: string; originalName: string; attachId: string };
}

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

  describe('attachments', () => {
    it('a contract keeps uploaded files by link, shown by their names; another tenant’s file is refused; a used file stays', async () => {
      const token = await server.token();
      const scan = await upload(server, token, '塔吊租赁合同扫描件.pdf');
      const annex = await upload(server, token, '设备清单.pdf');
      const p = await project(api);
      const lessor = await subcontractor(api, ['equipment_lessor']);
      const c = await contract(api, p.id, lessor.id, 120000, { attachments: `${scan.link},${annex.link}` });
      const detail = await api.get('/api/construct/expenditureContract/detail', { id: c.id });
      expect(detail.body.data.attachments).toBe(`${scan.link},${annex.link}`);

      // the names a detail view shows, looked up by link
      const labels = await api.get('/api/blade-resource/attach/options', { ids: `${scan.link},${annex.link}`, valueField: 'link' });
      expect(labels.body.data.records).toEqual(
        expect.arrayContaining([
          { value: scan.link, label: '塔吊租赁合同扫描件.pdf' },
          { value: annex.link, label: '设备清单.pdf' },
        ]),
      );

      // a file of another tenant cannot be attached, and nothing changes
      const other = await server.newTenant();
      const foreign = await upload(server, other.token, '别家的文件.pdf');
      const refused = await api.post('/api/construct/expenditureContract/updatePart', {
        id: c.id,
        attachments: `${scan.link},${foreign.link}`,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.data.errors).toEqual([
        expect.objectContaining({ path: '/attachments', message: expect.stringContaining('附件') }),
      ]);
      expect((await api.get('/api/construct/expenditureContract/detail', { id: c.id })).body.data.attachments).toBe(
        `${scan.link},${annex.link}`,
      );
      const english = await client(server, token, 'en').post('/api/construct/expenditureContract/save', {
        ...c,
        id: undefined,
        code: undefined,
        attachments: foreign.link,
      });
      expect(english.body.msg).toMatch(/Attachments/);

      // an attached file is not removed from under the contract
      const removed = await api.post('/api/blade-resource/attach/remove', undefined, { ids: scan.attachId });
      expect(removed.status).toBe(400);
      expect(removed.body.msg).toContain('支出合同');
      const kept = await api.post('/api/construct/expenditureContract/updatePart', { id: c.id, attachments: annex.link });
      expect(kept.body.data.attachments).toBe(annex.link);
    });
  });

  describe('snapshot fields are copied before formulas run', () => {
    const settlement = (projectId: string, subcontractorId: string, code: string) => ({
      projectId,
      expenditureContractCode: code,
      subcontractorId,
      period: '2026-05',
      settlementType: 'interim',
      startDate: '2026-05-01',
      endDate: '2026-05-31',
      taxRate: 9,
      paymentRatio: 80,
      reporterName: '王会计',
      previousCumulativeAmount: 30000,
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
      expect(saved.body.data).toMatchObject({
        contractAmount: 200000,
        currentContractAmount: 250000,
        thisAmountInclTax: 20000,
        cumulativeAmount: 50000,
        cumulativeRatio: 20,
      });
    });

    it('update and updatePart: choosing another contract copies its amounts and computes the share again', async () => {
      const p = await project(api);
      const lessor = await subcontractor(api, ['equipment_lessor']);
      const first = await contract(api, p.id, lessor.id, 200000);
      const second = await contract(api, p.id, lessor.id, 100000);
      const created = (await api.post('/api/construct/equipmentLeaseMonthlySettlement/save', settlement(p.id, lessor.id, first.code))).body
        .data;
      expect(created).toMatchObject({ currentContractAmount: 200000, cumulativeRatio: 25 });

      const part = await api.post('/api/construct/equipmentLeaseMonthlySettlement/updatePart', {
        id: created.id,
        expenditureContractCode: second.code,
      });
      expect(part.body, JSON.stringify(part.body)).toMatchObject({ code: 200 });
      expect(part.body.data).toMatchObject({
        expenditureContractCode: second.code,
        contractAmount: 100000,
        currentContractAmount: 100000,
        cumulativeRatio: 50,
      });

      const full = await api.post('/api/construct/equipmentLeaseMonthlySettlement/update', {
        ...part.body.data,
        expenditureContractCode: first.code,
      });
      expect(full.body, JSON.stringify(full.body)).toMatchObject({ code: 200 });
      expect(full.body.data).toMatchObject({ currentContractAmount: 200000, cumulativeRatio: 25 });
    });
  });
});
