// Live delivery benchmark (`npm run bench`, after the list benchmark): 1,000 concurrent
// subscriptions (server-sent event streams) on one server process, then department broadcasts to
// those 1,000 users. Measures the server's memory per subscription (RSS and JS heap, after garbage
// collection, against the same process before the streams opened) and the delivery latency: from
// the moment the broadcast request leaves the sender to the moment each subscriber's stream
// delivers the event (the send itself — validation, 1,000 receipts in one INSERT, the NOTIFY — is
// part of it). The server runs in its own process (tests/bench/subscription-server.ts) on
// PostgreSQL and on the embedded database; the 1,000 clients run here. Writes
// tests/bench/subscriptions-results.md.
// Knobs: BENCH_PG_URL (admin URL), BENCH_SUBSCRIBERS (1000), BENCH_BROADCASTS (20), BENCH_KEEP=1.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const RESULTS = join(HERE, 'subscriptions-results.md');
const num = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);
const CFG = {
  pgAdminUrl: process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  subscribers: num('BENCH_SUBSCRIBERS', 1000),
  broadcasts: num('BENCH_BROADCASTS', 20),
  dbName: 'zs_bench_live',
  keep: process.env.BENCH_KEEP === '1',
};

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  subscriptions: number;
  gc: boolean;
}

interface ServerHandle {
  child: ChildProcess;
  port: number;
  kind: string;
  call<T>(cmd: string, extra?: Record<string, unknown>): Promise<T>;
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

async function startServer(env: Record<string, string>): Promise<ServerHandle> {
  const port = await freePort();
  const child = fork(join(HERE, 'subscription-server.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'silent', ZS_SEED: 'on' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let seq = 0;
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 180 s')), 180_000);
    child.on('message', (m: any) => {
      if (m.ready) {
        clearTimeout(timer);
        resolve(m.kind);
      } else if (waiting.has(m.id)) {
        const w = waiting.get(m.id)!;
        waiting.delete(m.id);
        m.ok ? w.resolve(m.data) : w.reject(new Error(m.error));
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  const kind = await ready;
  return {
    child,
    port,
    kind,
    call: (cmd, extra = {}) =>
      new Promise((resolve, reject) => {
        const id = ++seq;
        waiting.set(id, { resolve, reject });
        child.send({ id, cmd, ...extra });
      }),
  };
}

async function stopServer(server: ServerHandle) {
  await Promise.race([server.call('stop').catch(() => undefined), sleep(10_000)]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

/** One subscriber: an open event stream that notes when each broadcast reached it. */
interface Subscriber {
  ready: Promise<void>;
  arrivals: Map<string, number>;
  close(): void;
}

function subscribe(port: number, token: string, agent: http.Agent): Subscriber {
  const arrivals = new Map<string, number>();
  let req: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/blade-message/message/subscribe',
        agent,
        headers: { 'blade-auth': `bearer ${token}`, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`subscribe answered ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (frame.startsWith('event: ready')) resolve();
            else if (frame.startsWith('event: message')) {
              const data = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as { title: string };
              arrivals.set(data.title, now);
            }
          }
        });
      },
    );
    req.on('error', reject);
  });
  return { ready, arrivals, close: () => req.destroy() };
}

async function post(port: number, path: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'blade-auth': `bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

interface RunResult {
  database: string;
  subscribers: number;
  connectMs: number;
  before: Memory;
  after: Memory;
  closed: Memory;
  latencies: number[];
  sendMs: number[];
  missing: number;
  perBroadcastP99: number[];
}

async function run(label: string, env: Record<string, string>): Promise<RunResult> {
  console.log(`\n[${label}] starting the server`);
  const server = await startServer(env);
  try {
    const { deptId, users, adminToken } = await server.call<{ deptId: string; users: { id: string; token: string }[]; adminToken: string }>(
      'setup',
      { users: CFG.subscribers },
    );
    // a broadcast first, with nobody listening: warms the routes, the statements and the caches
    await post(server.port, '/api/blade-message/message/save', adminToken, {
      type: '2',
      deptIds: deptId,
      title: 'warm-up',
      content: '预热',
    });
    const before = await server.call<Memory>('memory');
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    const started = performance.now();
    const subscribers: Subscriber[] = [];
    for (let i = 0; i < users.length; i += 100) {
      const batch = users.slice(i, i + 100).map((u) => subscribe(server.port, u.token, agent));
      subscribers.push(...batch);
      await Promise.all(batch.map((s) => s.ready));
    }
    const connectMs = performance.now() - started;
    await sleep(500);
    const after = await server.call<Memory>('memory');
    console.log(
      `[${label}] ${after.subscriptions} subscriptions open in ${Math.round(connectMs)} ms; RSS +${((after.rss - before.rss) / 1024 / 1024).toFixed(1)} MiB`,
    );

    const latencies: number[] = [];
    const sendMs: number[] = [];
    const perBroadcastP99: number[] = [];
    let missing = 0;
    for (let b = 1; b <= CFG.broadcasts; b++) {
      const title = `部门广播 ${b}`;
      const t0 = performance.now();
      const answer = await post(server.port, '/api/blade-message/message/save', adminToken, {
        type: '2',
        deptIds: deptId,
        title,
        content: '基准测试的部门广播。',
      });
      sendMs.push(performance.now() - t0);
      if (answer.code !== 200) throw new Error(`broadcast refused: ${JSON.stringify(answer)}`);
      const deadline = performance.now() + 10_000;
      while (subscribers.some((s) => !s.arrivals.has(title)) && performance.now() < deadline) await sleep(5);
      const these = subscribers
        .map((s) => s.arrivals.get(title))
        .filter((t): t is number => t !== undefined)
        .map((t) => t - t0);
      missing += subscribers.length - these.length;
      latencies.push(...these);
      perBroadcastP99.push(
        quantile(
          [...these].sort((a, c) => a - c),
          0.99,
        ),
      );
      await sleep(300);
    }
    for (const s of subscribers) s.close();
    agent.destroy();
    await sleep(1000);
    const closed = await server.call<Memory>('memory');
    console.log(
      `[${label}] p99 ${quantile(
        [...latencies].sort((a, c) => a - c),
        0.99,
      ).toFixed(1)} ms over ${latencies.length} deliveries, ${missing} missing; after closing: ${closed.subscriptions} open`,
    );
    return {
      database: label,
      subscribers: subscribers.length,
      connectMs,
      before,
      after,
      closed,
      latencies,
      sendMs,
      missing,
      perBroadcastP99,
    };
  } finally {
    await stopServer(server);
  }
}

async function freshPostgres(): Promise<string | undefined> {
  const admin = new pg.Client({ connectionString: CFG.pgAdminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  await admin.query(`DROP DATABASE IF EXISTS ${CFG.dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${CFG.dbName}`);
  await admin.end();
  const url = new URL(CFG.pgAdminUrl);
  url.pathname = `/${CFG.dbName}`;
  return url.toString();
}

async function dropPostgres() {
  if (CFG.keep) return;
  const admin = new pg.Client({ connectionString: CFG.pgAdminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${CFG.dbName} WITH (FORCE)`);
  await admin.end();
}

const ms = (v: number) => v.toFixed(1);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function report(results: RunResult[], skipped: string[], started: number): string {
  const cpu = os.cpus()[0];
  const lines: string[] = [];
  lines.push('# Zhusuan benchmark: live subscriptions', '');
  lines.push(
    `Generated by \`tsx tests/bench/subscriptions.ts\` (part of \`npm run bench\`) in ${Math.round((performance.now() - started) / 1000)} s. ` +
      `${CFG.subscribers.toLocaleString('en')} subscribers (server-sent event streams, each authenticated with its own token) on one server process; ` +
      `${CFG.broadcasts} department broadcasts, each to all of them (one department of ${CFG.subscribers.toLocaleString('en')} active users). ` +
      'The server runs in its own process; the clients run in the benchmark process on the same machine, so they share its two cores with the server and PostgreSQL.',
    '',
  );
  lines.push('## Machine', '', '|  |  |', '| --- | --- |');
  lines.push(
    `| Date | ${new Date().toISOString()} |`,
    `| CPU | ${cpu?.model.trim()} × ${os.cpus().length} |`,
    `| RAM | ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB |`,
    `| OS | ${os.type()} ${os.release()} |`,
    `| Node | ${process.version} |`,
    `| Load average at end | ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} |`,
    '',
  );
  lines.push('## Results', '');
  lines.push(
    '| database | subscriptions | opened in | RSS per subscription | JS heap per subscription | broadcast answered p50 / p99 | delivery p50 | p95 | p99 | max | missing |',
  );
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    const send = [...r.sendMs].sort((a, b) => a - b);
    const n = r.after.subscriptions || r.subscribers;
    lines.push(
      `| ${r.database} | ${n.toLocaleString('en')} | ${Math.round(r.connectMs)} ms | ${kib((r.after.rss - r.before.rss) / n)} KiB | ${kib((r.after.heapUsed - r.before.heapUsed) / n)} KiB | ` +
        `${ms(quantile(send, 0.5))} / ${ms(quantile(send, 0.99))} ms | ${ms(quantile(sorted, 0.5))} ms | ${ms(quantile(sorted, 0.95))} ms | **${ms(quantile(sorted, 0.99))} ms** | ${ms(sorted.at(-1) ?? 0)} ms | ${r.missing} |`,
    );
  }
  lines.push('');
  for (const r of results) {
    lines.push(
      `- ${r.database}: server RSS ${mib(r.before.rss)} MiB before the streams, ${mib(r.after.rss)} MiB with ${r.after.subscriptions.toLocaleString('en')} open, ` +
        `${mib(r.closed.rss)} MiB after they closed (${r.closed.subscriptions} left open); JS heap ${mib(r.before.heapUsed)} → ${mib(r.after.heapUsed)} → ${mib(r.closed.heapUsed)} MiB` +
        `${r.after.gc ? ' (after forced garbage collection)' : ''}. p99 per broadcast: ${r.perBroadcastP99.map((v) => Math.round(v)).join(', ')} ms.`,
    );
  }
  for (const s of skipped) lines.push(`- ${s}`);
  const n = CFG.subscribers.toLocaleString('en');
  lines.push(
    '',
    `Delivery latency is measured from the moment the sender's request leaves to the moment a subscriber's stream delivers the event: it includes the send (validation, ${n} receipts written by one INSERT … SELECT, NOTIFY in the same transaction), the commit, the fan-out to ${n} sockets and the clients' own parsing. Memory per subscription is the server process's growth from before the streams opened to ${n} open streams, divided by ${n} (RSS moves in pages and with the allocator, so small runs can even show it shrinking; the JS heap is the steadier figure). Target: delivery ≤ 1 s.`,
    '',
  );
  return lines.join('\n');
}

async function main() {
  const started = performance.now();
  const results: RunResult[] = [];
  const skipped: string[] = [];
  const pgUrl = await freshPostgres();
  if (pgUrl) {
    try {
      results.push(await run('PostgreSQL', { DATABASE_URL: pgUrl }));
    } finally {
      await dropPostgres();
    }
  } else {
    skipped.push(`PostgreSQL skipped: ${CFG.pgAdminUrl} does not answer.`);
  }
  const dataDir = mkdtempSync(join(os.tmpdir(), 'zs-bench-live-'));
  try {
    results.push(await run('PGlite (embedded)', { DATA_DIR: dataDir }));
  } finally {
    if (!CFG.keep) rmSync(dataDir, { recursive: true, force: true });
  }
  const text = report(results, skipped, started);
  writeFileSync(RESULTS, text);
  console.log(`\n${text}\nwritten to ${RESULTS}`);
  const failed = results.some((r) => r.missing > 0);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
