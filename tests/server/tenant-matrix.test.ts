// The cross-tenant matrix, generated from the manifest: for every entity, tenant A (the seeded
// company, whose roles have the users an approval needs) owns a record and a new tenant B tries
// every action on it — detail, lists, labels, export, every write, the schema's extra
// routes, trees — and afterwards every GET route of the app with A's ids. B never sees or changes
// A's record. A new entity is covered without a new test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import { dependencyOrder, sampleRecord, type SampleContext } from '../../src/engine/sample/sample.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { ok } from './approval.ts';
import { apiRoutes, client, databaseKinds, startServer, type Answer, type Api, type TestServer } from './harness.ts';

const { catalog } = compile(readSchemaSource());
const entities = Object.values(catalog.entities);
const REFUSED = [403, 404];
const GENERIC_READS = ['list', 'detail', 'options', 'export', 'tree', 'lazy-list', 'lazy-tree'];
type Row = Record<string, any>;

/** The ids in an answer, wherever they appear (records, trees, labels). */
function mentions(answer: Answer, ids: Iterable<string>): string[] {
  const text = answer.raw.toString('utf8');
  return [...ids].filter((id) => text.includes(id));
}

/** A multipart body with one small text file. */
function upload(name: string, body: string) {
  const boundary = `----zs${Date.now()}`;
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${body}\r\n--${boundary}--\r\n`,
  );
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(databaseKinds())('cross-tenant matrix on %s', (kind) => {
  let server: TestServer;
  let a: Api;
  let b: Api;
  let aToken: string;
  const tenantA = '000000';
  /** The attacked record of every entity, as its owner reads it. */
  const owned = new Map<string, Row>();
  /** Every id tenant A owns: none may appear in an answer to B. */
  const aIds = new Set<string>();
  let file: { link: string; attachId: string };
  let flow: { instanceId: string; taskId: string; documentId: string };

  async function createRecords() {
    const ctx: SampleContext = { catalog, ids: new Map(), seq: 700 };
    for (const model of dependencyOrder(catalog)) {
      if (model.readOnly) continue;
      const saved = ok(await a.post(`${model.api}/save`, sampleRecord(model, { ...ctx, seq: ++ctx.seq })));
      const record = ok(await a.get(`${model.api}/detail`, { id: saved.id }));
      ctx.ids.set(model.key, record);
      owned.set(model.key, record);
      // shared records (system dictionaries, regions, menus) are every tenant's to read
      if (model.scope !== 'shared') aIds.add(String(record.id));
    }
    // rows of another document: A's document's first row
    for (const model of entities.filter((m) => m.rowsOf)) {
      const row = owned.get(model.rowsOf!.entity)![model.rowsOf!.detail][0];
      owned.set(model.key, row);
      aIds.add(String(row.id));
    }
  }

  /** The logs are written by the server alone: A's requests, A's removal, A's browser errors. */
  async function findLogs() {
    ok(
      await a.post('/api/blade-auth/oauth/client-logs', [
        { url: '/construct/project', time: '2026-03-15 09:30:00', type: 'error', message: '甲租户的浏览器错误' },
      ]),
    );
    const gone = ok(
      await a.post('/api/construct/partyA/save', sampleRecord(catalog.entities.partyA, { catalog, ids: new Map(), seq: 999 })),
    );
    ok(await a.post('/api/construct/partyA/remove', undefined, { ids: gone.id }));
    await server.logs.flush();
    for (const model of entities.filter((m) => m.readOnly && !m.rowsOf)) {
      const [record] = ok(await a.get(`${model.api}/list`, { size: '1' })).records;
      expect(record, `tenant A has a ${model.key} record`).toBeDefined();
      owned.set(model.key, record);
      aIds.add(String(record.id));
    }
  }

  async function uploadFile() {
    const { payload, contentType } = upload('甲方图纸.txt', 'tenant A only');
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      payload,
      headers: { 'content-type': contentType, 'blade-auth': `bearer ${aToken}` },
    });
    file = ok({ body: JSON.parse(res.body) });
    aIds.add(String(file.attachId));
  }

  /** A's demand plan submitted for approval: an instance and its first task. */
  async function startApproval() {
    const model = catalog.entities.materialTotalDemand;
    const submitted = ok(await a.post(`${model.api}/submit`, { id: owned.get(model.key)!.id }));
    const [task] = await server.db.query<{ id: string }>('SELECT id::text AS id FROM wf_task WHERE instance_id = $1', [
      submitted.processInstanceId,
    ]);
    flow = { instanceId: String(submitted.processInstanceId), taskId: task.id, documentId: String(submitted.id) };
    aIds.add(flow.instanceId);
    aIds.add(flow.taskId);
  }

  beforeAll(async () => {
    server = await startServer(kind);
    aToken = await server.token();
    a = client(server, aToken);
    b = client(server, (await server.newTenant('乙建设公司')).token);
    await createRecords();
    await findLogs();
    await uploadFile();
    await startApproval();
  }, 300_000);
  afterAll(() => server?.dispose());

  it('has a record of tenant A for every entity of the manifest', () => {
    expect(entities.filter((m) => !owned.has(m.key)).map((m) => m.key)).toEqual([]);
    for (const model of entities.filter((m) => m.scope === 'tenant' && !m.rowsOf))
      expect(owned.get(model.key)!.tenantId, model.key).toBe(tenantA);
  });

  it.each(entities.map((m) => [m.key, m.scope, m] as const))(
    '%s (%s): tenant B reads nothing of it and changes nothing',
    async (_key, scope, model) => {
      const record = owned.get(model.key)!;
      const id = String(record.id);
      const before = await a.get(`${model.api}/detail`, { id });
      const readable = scope === 'shared';

      // reads: tenant data is not found, platform data forbidden (tenant B is no platform
      // administrator), shared data readable by design
      const detail = await b.get(`${model.api}/detail`, { id });
      if (readable) expect(detail.body.data?.id, 'shared detail').toBe(id);
      else expect(REFUSED, `detail: ${detail.raw}`).toContain(detail.status);
      const reads = [
        await b.get(`${model.api}/list`),
        await b.get(`${model.api}/list`, { id_equal: id }),
        await b.get(`${model.api}/list`, { id }),
        await b.get(`${model.api}/options`, { ids: id }),
        await b.get(`${model.api}/export`, { id }),
        ...(await Promise.all(Object.keys(model.routes).map((path) => b.get(`${model.api}/${path}`, { id, ids: id })))),
        ...(model.tree
          ? [
              await b.get(`${model.api}/tree`),
              await b.get(`${model.api}/lazy-list`, { [model.tree.lazyParam]: id }),
              await b.get(`${model.api}/lazy-tree`, { [model.tree.lazyParam]: id }),
            ]
          : []),
      ];
      for (const answer of reads) {
        expect(answer.status, answer.raw.toString()).toBeLessThan(500);
        if (!readable) expect(mentions(answer, [id]), answer.raw.toString().slice(0, 300)).toEqual([]);
      }
      if (!readable) expect(REFUSED, 'export by id').toContain(reads[4].status);

      // writes: refused whatever the scope, the record unchanged
      const writes = [
        await b.post(`${model.api}/update`, { ...record, remark: '乙租户篡改' }),
        await b.post(`${model.api}/updatePart`, { id, remark: '乙租户篡改' }),
        await b.post(`${model.api}/submit`, { ...record }),
        await b.post(`${model.api}/remove`, undefined, { ids: id }),
        await b.post(`${model.api}/remove`, { ids: id }),
      ];
      for (const answer of writes) expect(REFUSED, `${answer.raw}`).toContain(answer.status);
      const after = await a.get(`${model.api}/detail`, { id });
      expect(after.body).toEqual(before.body);
    },
  );

  it("tenant B cannot read, list or remove A's uploaded file", async () => {
    const asB = await b.get(file.link);
    expect(REFUSED).toContain(asB.status);
    expect(asB.raw.toString()).not.toContain('tenant A only');
    expect(REFUSED).toContain((await b.get('/api/blade-resource/attach/detail', { id: file.attachId })).status);
    expect(REFUSED).toContain((await b.post('/api/blade-resource/attach/remove', undefined, { ids: file.attachId })).status);
    const mine = await server.app.inject({ method: 'GET', url: file.link, headers: { 'blade-auth': `bearer ${aToken}` } });
    expect(mine.body).toBe('tenant A only');
  });

  it("tenant B cannot see, take or act on A's approval", async () => {
    const FLOW = '/api/blade-flow';
    const reads = [
      await b.get(`${FLOW}/process/instance-detail`, { processInstanceId: flow.instanceId }),
      await b.get(`${FLOW}/process/history-flow-list`, { processInstanceId: flow.instanceId }),
      await b.get(`${FLOW}/follow/history-flow-list`, { processInstanceId: flow.instanceId }),
      await b.get(`${FLOW}/process/model-view`, { processInstanceId: flow.instanceId }),
      await b.get(`${FLOW}/work/task-detail`, { taskId: flow.taskId }),
    ];
    for (const answer of reads) expect(REFUSED, answer.raw.toString()).toContain(answer.status);
    const writes = [
      await b.post(`${FLOW}/work/claim-task`, undefined, { taskId: flow.taskId }),
      await b.post(`${FLOW}/work/complete-task`, { taskId: flow.taskId, flag: 'ok', comment: '乙租户批准' }),
      await b.post(`${FLOW}/work/recall-process`, undefined, { processInstanceId: flow.instanceId }),
      await b.post(`${FLOW}/follow/delete-process-instance`, undefined, { processInstanceId: flow.instanceId, deleteReason: '乙租户删除' }),
    ];
    for (const answer of writes) expect(answer.body.success, answer.raw.toString()).toBe(false);
    const [task] = await server.db.query<{ status: string; assignee: string | null }>(
      'SELECT status, assignee_id::text AS assignee FROM wf_task WHERE id = $1',
      [flow.taskId],
    );
    expect(task).toEqual({ status: 'active', assignee: null });
    const [instance] = await server.db.query<{ status: string }>('SELECT status FROM wf_instance WHERE id = $1', [flow.instanceId]);
    expect(instance.status).toBe('running');
  });

  it("no other GET route of the app answers tenant B with anything of tenant A's", async () => {
    // the generic reads of each entity are the matrix above: here the routes of the modules
    const generic = new Set(entities.flatMap((m) => [...GENERIC_READS, ...Object.keys(m.routes)].map((path) => `${m.api}/${path}`)));
    // (the live-message stream never ends: its subscriptions are per user, see messages.test.ts)
    const routes = apiRoutes(server)
      .filter(([method, path]) => method === 'GET' && !generic.has(path) && !path.endsWith('/subscribe'))
      .map(([, path]) => path);
    expect(routes.length).toBeGreaterThan(50);
    const pick = (key: string) => String(owned.get(key)!.id);
    const project = owned.get('project')!;
    const contract = owned.get('expenditureContract')!;
    // every parameter a route takes an id of another record by, with A's ids
    const query: Record<string, string> = {
      id: pick('project'),
      ids: [...aIds].slice(0, 50).join(','),
      projectId: pick('project'),
      warehouseId: pick('warehouse'),
      subcontractorId: pick('subcontractor'),
      expenditureContractCode: String(contract.code),
      partyAId: pick('partyA'),
      goodsId: pick('goodsArchives'),
      processInstanceId: flow.instanceId,
      taskId: flow.taskId,
      businessId: flow.documentId,
      parentId: pick('dept'),
      roleIds: pick('role'),
      userId: pick('user'),
      deptId: pick('dept'),
      tenantId: tenantA,
      period: '2026-03',
      date: '2026-03-31',
      code: String(project.code ?? ''),
    };
    const sent = new Set(Object.values(query).flatMap((v) => v.split(',')));
    // A's ids B did not send, and texts of A's records (tenant B has none of its own to match them)
    const secrets = [...[...aIds].filter((id) => !sent.has(id)), String(project.name), String(contract.name)];
    const leaks: string[] = [];
    const check = async (route: string) => {
      const url = route
        .replace(/\*$/, file.link.split('/').pop()!)
        .replace(/:(\w+)/g, (_m, name: string) => query[name] ?? pick('project'));
      const answer = await b.get(url, query);
      if (answer.status >= 500) leaks.push(`${route}: ${answer.status} ${answer.raw.toString().slice(0, 200)}`);
      // an id B sent may be echoed (a refusal naming it, a group's keys over B's own empty figures)
      const found = mentions(answer, secrets);
      if (found.length) leaks.push(`${route}: ${found.join(',')} in ${answer.raw.toString().slice(0, 300)}`);
    };
    for (let i = 0; i < routes.length; i += 8) await Promise.all(routes.slice(i, i + 8).map(check));
    expect(leaks).toEqual([]);
  }, 300_000);
});
