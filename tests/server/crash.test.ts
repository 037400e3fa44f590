// kill -9 of the server in the middle of a stream of master-detail saves, submits and approvals,
// then a restart on the same data: every save the server acknowledged is there whole (header and
// every row), no document is half saved, and every approval instance agrees with its tasks and its
// document. On the embedded database (a data directory) and on PostgreSQL.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/db.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { httpApi, loginAs, seededDataPlace, spawnServer, type ChildServer, type HttpApi } from './child-server.ts';
import { databaseKinds, type DbKind } from './harness.ts';

const DOC = '/api/construct/materialTotalDemand';
const FLOW = '/api/blade-flow';
/** The kill comes once this many saves (and at least one approval) were acknowledged; the stream keeps going meanwhile. */
const ACKED_BEFORE_KILL = 12;

interface Acked {
  saves: Map<string, { title: string; rows: number[] }>;
  submitted: Set<string>;
  approved: Set<string>;
}

/** A seeded data place for the server, and how the test opens it itself to check what survived. */
async function dataPlace(kind: DbKind): Promise<{ env: Record<string, string>; open: () => Promise<Db>; cleanup: () => Promise<void> }> {
  const place = await seededDataPlace(kind);
  const open = place.databaseUrl ? () => openPostgres(place.databaseUrl!, { max: 2 }) : () => openPglite(join(place.env.DATA_DIR, 'pg'));
  return { ...place, open };
}

/** Master data for the demands, through the API. */
async function projectAndGoods(admin: HttpApi) {
  const owner = await admin.ok('/api/construct/partyA/save', { name: '崩溃测试甲方', partyAType: 'soe', status: 'enabled' });
  const project = await admin.ok('/api/construct/project/save', {
    name: '崩溃测试项目',
    projectType: 'building',
    partyAId: owner.id,
    targetCost: 1_000_000,
    plannedStartDate: '2026-03-01',
    plannedEndDate: '2027-12-31',
    projectManagerName: '李建国',
    projectStatus: 'constructing',
  });
  const classify = await admin.ok('/api/construct/goodsClassify/save', {
    parentId: '0',
    code: 'CRASH',
    name: '钢材',
    goodsType: 'main',
    status: 'enabled',
  });
  const goods = await admin.ok('/api/construct/goodsArchives/save', {
    code: 'CRASH-1',
    name: '螺纹钢',
    spec: 'HRB400',
    unit: 't',
    classifyId: classify.id,
    goodsType: 'main',
    isTurnover: false,
    referencePrice: 4150,
    status: 'enabled',
  });
  return { projectId: project.id as string, goodsId: goods.id as string };
}

/**
 * One writer: saves demands of 1 to 8 rows (the row count is in the title, so a stored document
 * can be checked even when its save was never acknowledged), submits every second one and has the
 * manager approve every fourth. Only answers that arrived count; the rest died with the server.
 */
async function writer(
  who: { clerk: HttpApi; manager: HttpApi },
  ids: { projectId: string; goodsId: string },
  acked: Acked,
  name: string,
  stopped: () => boolean,
) {
  for (let n = 1; !stopped(); n++) {
    try {
      const rows = Array.from({ length: 1 + ((n * 5) % 8) }, (_, i) => 10 + i);
      const title = `崩溃测试 ${name}-${n} 共${rows.length}行`;
      const saved = await who.clerk.post(`${DOC}/save`, {
        projectId: ids.projectId,
        title,
        planDate: '2026-03-10',
        compilerName: '张工',
        details: rows.map((qty) => ({ goodsId: ids.goodsId, workPart: '主体结构', designQty: qty, lossRate: 2, budgetPrice: 1000 })),
      });
      if (saved.code !== 200) throw new Error(`save refused: ${JSON.stringify(saved)}`);
      acked.saves.set(saved.data.id, { title, rows });
      if (n % 2) continue;
      const submitted = await who.clerk.post(`${DOC}/submit`, { id: saved.data.id });
      if (submitted.code !== 200) throw new Error(`submit refused: ${JSON.stringify(submitted)}`);
      acked.submitted.add(saved.data.id);
      if (n % 4) continue;
      const instanceId = submitted.data.processInstanceId;
      const offered = await who.manager.get(`${FLOW}/work/claim-list`, { size: '100' });
      const task = offered.data.records.find((r: { processInstanceId: string }) => r.processInstanceId === instanceId);
      if (!task) throw new Error(`no task for instance ${instanceId}`);
      if ((await who.manager.post(`${FLOW}/work/claim-task`, undefined, { taskId: task.taskId })).code !== 200) continue;
      const done = await who.manager.post(`${FLOW}/work/complete-task`, { taskId: task.taskId, flag: 'ok', comment: '同意' });
      if (done.code === 200) acked.approved.add(saved.data.id);
    } catch (err) {
      if (stopped()) return; // the connection died with the server: not acknowledged
      throw err;
    }
  }
}

/** What the database holds that cannot be: half-saved documents, instances at odds with tasks or documents. */
async function inconsistencies(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const docs = await db.query<{ id: string; title: string; status: string; rows: number; instance: string | null }>(
    `SELECT d.id::text, d.title, d.approval_status AS status, d.process_instance_id::text AS instance,
            (SELECT count(*)::int FROM construct_material_total_demand_detail r WHERE r.material_total_demand_id = d.id) AS rows
       FROM construct_material_total_demand d WHERE d.title LIKE '崩溃测试%' AND d.is_deleted = 0`,
  );
  for (const d of docs) {
    const expected = Number(/共(\d+)行/.exec(d.title)?.[1]);
    if (d.rows !== expected) problems.push(`${d.title}: ${d.rows} rows stored`);
  }
  const instances = await db.query<{ id: string; status: string; business: string; active: number; docStatus: string | null }>(
    `SELECT i.id::text, i.status, i.business_id::text AS business,
            (SELECT count(*)::int FROM wf_task t WHERE t.instance_id = i.id AND t.status = 'active') AS active,
            (SELECT d.approval_status FROM construct_material_total_demand d WHERE d.id = i.business_id) AS "docStatus"
       FROM wf_instance i WHERE i.business_table = 'construct_material_total_demand'`,
  );
  for (const i of instances) {
    if (i.status === 'running' && (i.active === 0 || i.docStatus !== 'approving'))
      problems.push(`running instance ${i.id}: ${i.active} active tasks, document ${i.docStatus}`);
    if (i.status === 'completed' && (i.active !== 0 || i.docStatus !== 'approved'))
      problems.push(`completed instance ${i.id}: ${i.active} active tasks, document ${i.docStatus}`);
  }
  for (const d of docs.filter((doc) => doc.status === 'approving')) {
    if (!instances.some((i) => i.business === d.id && i.status === 'running'))
      problems.push(`${d.title} is approving without a running instance`);
  }
  return problems;
}

describe.each(databaseKinds())('kill -9 during saves on %s', (kind) => {
  it('keeps every acknowledged save whole, and every approval consistent, across the crash', async () => {
    const place = await dataPlace(kind);
    let server: ChildServer | undefined;
    try {
      server = await spawnServer(place.env);
      const admin = httpApi(server.url, await loginAs(server.url));
      const ids = await projectAndGoods(admin);
      const who = {
        clerk: httpApi(server.url, await loginAs(server.url, 'clerk')),
        manager: httpApi(server.url, await loginAs(server.url, 'manager')),
      };
      const acked: Acked = { saves: new Map(), submitted: new Set(), approved: new Set() };
      let killed = false;
      const writers = ['甲', '乙', '丙'].map((name) => writer(who, ids, acked, name, () => killed));
      const crashed = server;
      const killer = (async () => {
        const deadline = Date.now() + 180_000; // well inside the test's 600 s, generous for a loaded machine
        while (acked.saves.size < ACKED_BEFORE_KILL || acked.approved.size === 0) {
          if (Date.now() > deadline) {
            killed = true; // the writers stop
            throw new Error(
              `within 180 s: ${acked.saves.size} of ${ACKED_BEFORE_KILL} acknowledged saves, ${acked.approved.size} approvals`,
            );
          }
          await new Promise((r) => setTimeout(r, 20));
        }
        killed = true;
        crashed.proc.kill('SIGKILL');
      })();
      await Promise.all([killer, ...writers]);
      expect(await server.exited).toBe('SIGKILL');

      // the restart recovers the database; what was acknowledged is there, whole
      server = await spawnServer(place.env);
      const reader = httpApi(server.url, await loginAs(server.url));
      for (const [id, save] of acked.saves) {
        const doc = await reader.get(`${DOC}/detail`, { id });
        expect(doc.code, `${save.title} lost`).toBe(200);
        expect(doc.data.title).toBe(save.title);
        expect(doc.data.details.map((d: { designQty: number }) => Number(d.designQty)).sort((a: number, b: number) => a - b)).toEqual(
          save.rows,
        );
        if (acked.approved.has(id)) expect(doc.data.approvalStatus).toBe('approved');
        else if (acked.submitted.has(id)) expect(['approving', 'approved']).toContain(doc.data.approvalStatus);
      }
      expect(acked.saves.size).toBeGreaterThanOrEqual(ACKED_BEFORE_KILL);
      expect(acked.submitted.size).toBeGreaterThan(0);
      expect(acked.approved.size).toBeGreaterThan(0);
      console.info(
        `kill -9 on ${kind}: ${acked.saves.size} saves, ${acked.submitted.size} submits, ${acked.approved.size} approvals acknowledged; all found whole after the restart`,
      );

      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const db = await place.open();
      try {
        expect(await inconsistencies(db)).toEqual([]);
      } finally {
        await db.close();
      }
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- server output ---\n${server?.output() ?? ''}`);
    } finally {
      if (server && server.proc.exitCode === null && server.proc.signalCode === null) server.proc.kill('SIGKILL');
      await place.cleanup();
    }
  }, 600_000);
});
