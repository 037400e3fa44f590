// PostgreSQL going away under load (its backends terminated from another session, as a restart
// does to them): requests in flight fail cleanly with 503 and a retry hint, nothing half-done is
// kept, the pool and the live-event listener come back by themselves, no server restart needed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/server/realtime/notifier.ts';
import type { PostgresNotifier } from '../../src/server/realtime/postgres-notifier.ts';
import { client, databaseKinds, startServer, type Api, type TestServer } from './harness.ts';
import { count, partyA, project } from './fixtures.ts';

const LIST = '/api/construct/project/list';

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('database restarts on %s', (kind) => {
  let server: TestServer;
  let api: Api;
  let admin: pg.Client;
  let database: string;

  beforeAll(async () => {
    server = await startServer(kind);
    api = client(server, await server.token());
    const url = (server.db as unknown as { pool: pg.Pool }).pool.options.connectionString!;
    database = new URL(url).pathname.slice(1);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.dispose();
  });

  /** What a PostgreSQL restart does to this server: every one of its connections is cut. */
  async function terminateServerConnections() {
    const rows = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    return rows.rowCount ?? 0;
  }

  const listening = () => (server.hub.notifier as PostgresNotifier).listening;

  it('answers a request whose connection is cut with 503, a Retry-After and a message in zh and en', async () => {
    await project(api);
    const owner = await partyA(api);
    const before = await count(api, LIST);
    // hold the saves and lists on a lock so that they are in flight when the connections go
    const locker = new pg.Client({ connectionString: (server.db as unknown as { pool: pg.Pool }).pool.options.connectionString! });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE construct_project IN ACCESS EXCLUSIVE MODE');
    const lockerPid = (await locker.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const inFlight = [
      api.get(LIST),
      client(server, await server.token(), 'en').get(LIST),
      api.post('/api/construct/project/save', {
        name: '断线时保存的项目',
        projectType: 'building',
        partyAId: owner.id,
        targetCost: 1_000_000,
        plannedStartDate: '2026-04-01',
        plannedEndDate: '2027-06-30',
        projectManagerName: '周敏',
        projectStatus: 'preparing',
      }),
    ];
    await until(
      async () =>
        (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [database]))
          .rows[0].n >= 3,
      'three requests waiting on the lock',
    );
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid NOT IN (pg_backend_pid(), $2)`, [
      database,
      lockerPid,
    ]);
    const [zh, en, save] = await Promise.all(inFlight);
    await locker.query('ROLLBACK');
    await locker.end();
    for (const res of [zh, en, save]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ code: 503, success: false, data: { retryAfter: 5 } });
    }
    expect(zh.body.msg).toBe('数据库暂时不可用,请 5 秒后重试');
    expect(en.body.msg).toBe('The database is temporarily unavailable; retry in 5 seconds');
    // service resumes on the same process (once the pool has let go of the connections being cut:
    // one still dying answers 503 like any cut one), and the cut save left nothing behind
    await until(async () => (await api.get(LIST)).status === 200, 'a list answered again', 5_000);
    expect(await count(api, LIST)).toBe(before);
    expect((await api.get(LIST, { name: '断线时保存的项目' })).body.data.total).toBe(0);
  });

  it('survives its idle connections being cut, and reconnects its pool and its live-event listener', async () => {
    await until(listening, 'the listener is up (the previous test cut it)');
    await api.get(LIST); // some idle connections in the pool
    expect(await terminateServerConnections()).toBeGreaterThan(0);
    await until(() => !listening(), 'the listener notices its connection is gone', 5_000).catch(() => undefined);
    // the pool replaces what it lost, without a restart: a request that took a connection whose
    // backend was still being terminated is answered 503 (with its Retry-After) like any cut one
    const answers: number[] = [];
    const listed = async () => {
      answers.push((await api.get(LIST)).body.code);
      return answers.at(-1) === 200;
    };
    await until(listed, 'a list answered again', 5_000);
    expect(
      answers.every((code) => code === 200 || code === 503),
      answers.join(', '),
    ).toBe(true);
    await until(listening, 'the listener is back');
    // and live events flow again: published through the pool, received on the new LISTEN connection
    const received: LiveEvent[] = [];
    const unsubscribe = server.hub.notifier.subscribe((event) => received.push(event));
    try {
      await server.hub.notifier.publish(server.db, { tenantId: '000000', userIds: ['1'], name: 'message', data: { after: 'restart' } });
      await until(
        () => received.some((e) => e.name === 'message' && (e.data as { after?: string })?.after === 'restart'),
        'the event arrives',
      );
    } finally {
      unsubscribe();
    }
  });

  it('keeps answering while connections are cut again and again under a stream of requests', async () => {
    const answers: number[] = [];
    let cuts = 0;
    const load = (async () => {
      for (let i = 0; i < 60; i++) answers.push((await api.get(LIST)).status);
    })();
    // a cut after every 10 answers (not every 100 ms: on a loaded machine that may cut faster than
    // any request completes, or only after the load has ended)
    const cutter = (async () => {
      for (let i = 1; i <= 5; i++) {
        await until(() => answers.length >= 10 * i, `${10 * i} answers`);
        cuts += await terminateServerConnections();
      }
    })();
    await Promise.all([load, cutter]);
    expect(cuts).toBeGreaterThan(0);
    // every answer is either the list or the clean refusal, never a 500 or a hang
    expect(answers.every((status) => status === 200 || status === 503)).toBe(true);
    expect(answers.filter((status) => status === 200).length).toBeGreaterThan(0);
    // and service resumes (a request right after the last cut may still meet a dying connection)
    await until(async () => (await api.get(LIST)).status === 200, 'a list answered again', 5_000);
  });
});
