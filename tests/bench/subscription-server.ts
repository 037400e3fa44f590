// The server side of the subscription benchmark, run as its own process (forked with an IPC
// channel by tests/bench/subscriptions.ts) so that its memory is measured alone. It starts the app
// on PostgreSQL (DATABASE_URL) or on the embedded database (DATA_DIR), listens on PORT, and answers
// the driver's requests: `setup` (a department of N active users and tokens for them and for the
// platform administrator) and `memory` (process.memoryUsage after garbage collection, and the
// number of open subscriptions).
import { createApp } from '../../src/server/app.ts';
import { configFromEnv } from '../../src/server/config.ts';

type Request = { id: number; cmd: 'setup'; users: number } | { id: number; cmd: 'memory' } | { id: number; cmd: 'stop' };

const BENCH_DEPT = '880000000000000001';
const FIRST_USER = 880000000000001000n;

const config = { ...configFromEnv(), logLevel: 'silent' };
const app = await createApp(config, { logger: false, demo: false });
await app.app.listen({ port: config.port, host: '127.0.0.1' });

async function setup(count: number) {
  const db = app.db;
  await db.query(
    `INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_name, full_name, dept_category, sort, create_time, update_time, is_deleted)
     VALUES ($1, '000000', 0, '0', '基准测试部', '基准测试部', '2', 99, now(), now(), 0) ON CONFLICT DO NOTHING`,
    [BENCH_DEPT],
  );
  await db.query(
    `INSERT INTO blade_user (id, tenant_id, account, name, real_name, user_type, dept_id, role_id, status, create_time, update_time, is_deleted)
     SELECT ($1::bigint + g), '000000', 'bench' || g, '测试' || g, '测试用户' || g, '1', $2, '0', 1, now(), now(), 0
       FROM generate_series(1, $3::int) g ON CONFLICT DO NOTHING`,
    [String(FIRST_USER), BENCH_DEPT, count],
  );
  const users = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const id = String(FIRST_USER + BigInt(i + 1));
      return {
        id,
        token: await app.tokens.sign({ tenant_id: '000000', user_id: id, dept_id: BENCH_DEPT, role_id: '0', role_name: 'bench' }, 6 * 3600),
      };
    }),
  );
  const [admin] = await db.query(
    `SELECT id::text AS id, dept_id AS "deptId", role_id AS "roleId" FROM blade_user WHERE tenant_id = '000000' AND account = 'admin'`,
  );
  const adminToken = await app.tokens.sign(
    { tenant_id: '000000', user_id: admin.id, dept_id: admin.deptId, role_id: admin.roleId, role_name: 'administrator' },
    6 * 3600,
  );
  return { deptId: BENCH_DEPT, users, adminToken };
}

function memory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return {
    rss: m.rss,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    subscriptions: app.hub.size,
    gc: Boolean(gc),
  };
}

process.on('message', async (raw) => {
  const request = raw as Request;
  try {
    if (request.cmd === 'setup') process.send!({ id: request.id, ok: true, data: await setup(request.users) });
    else if (request.cmd === 'memory') process.send!({ id: request.id, ok: true, data: memory() });
    else {
      process.send!({ id: request.id, ok: true, data: null });
      await app.close();
      process.exit(0);
    }
  } catch (err) {
    process.send!({ id: request.id, ok: false, error: (err as Error).stack ?? String(err) });
  }
});

process.send!({ ready: true, kind: app.db.kind });
