// The real server as a child process (`node --import tsx src/server/main.ts`), for what an
// in-process app cannot show: signals, kill -9, a restart on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../../src/server/db/pglite.ts';
import { clientHash } from '../../src/server/security/passwords.ts';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';
import { createTestDatabase, seededTemplate, type DbKind } from './harness.ts';

/** Where a child server keeps its data: its environment, the PostgreSQL database's address, and the clean-up. */
export interface DataPlace {
  env: Record<string, string>;
  databaseUrl?: string;
  cleanup: () => Promise<void>;
}

/**
 * A data place holding a copy of the run's seeded database (tests/setup/global.ts), so that a child
 * server starts as on existing data (a few seconds) rather than initialising and seeding (a dozen).
 * For the suites about what a running server does; a first start is lifecycle.test's and processes.test's.
 */
export async function seededDataPlace(kind: DbKind): Promise<DataPlace> {
  if (kind === 'postgres') {
    const { url, drop } = await createTestDatabase({ seeded: true });
    return { env: { DATABASE_URL: url }, databaseUrl: url, cleanup: drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'zs-child-'));
  // the server's embedded database lives in <DATA_DIR>/pg (src/server/config.ts)
  const db = await openPglite(join(dir, 'pg'), { loadDataDir: seededTemplate() });
  await db.close();
  return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ChildServer {
  proc: ChildProcess;
  /** http://127.0.0.1:port */
  url: string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** Everything it printed, for failure messages. */
  output(): string;
}

function spawnMain(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ZS_DEMO: 'basic',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts the server with `env` and kills it (SIGKILL) as soon as its output matches `moment`, as a
 * power cut would; resolves with what it printed once it has ended.
 */
export function killServerAt(env: Record<string, string>, moment: RegExp, timeoutMs = 240_000): Promise<string> {
  const proc = spawnMain(env);
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
    if (moment.test(out)) proc.kill('SIGKILL');
  };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${moment} not printed within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    proc.once('exit', (_code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && moment.test(out)) resolve(out);
      else reject(new Error(`server ended (${signal ?? _code}) before ${moment}:\n${out}`));
    });
  });
}

/** Starts the server with `env` on a free port; resolves once it says it is ready. */
export function spawnServer(env: Record<string, string>, readyTimeoutMs = 240_000): Promise<ChildServer> {
  const proc = spawnMain(env);
  let out = '';
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server not ready after ${readyTimeoutMs} ms:\n${out}`));
    }, readyTimeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /Zhusuan: (http:\/\/\S+)/.exec(out);
      if (ready) {
        clearTimeout(timer);
        resolve({ proc, url: ready[1].replace('localhost', '127.0.0.1'), exited, output: () => out });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // `exited` only ever resolves, so this handler needs no rejection branch
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before it was ready:\n${out}`));
    });
  });
}

/** Logs in as a seeded user through the API (password grant) and returns the token. */
export async function loginAs(url: string, username = 'admin', password = username): Promise<string> {
  const query = new URLSearchParams({
    tenantId: '000000',
    username,
    password: clientHash(password),
    grant_type: 'password',
    scope: 'all',
    type: 'account',
  });
  const res = await fetch(`${url}/api/blade-auth/oauth/token?${query}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'tenant-id': '000000' },
  });
  const body = await res.json();
  if (!body.access_token) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.access_token as string;
}

export interface HttpApi {
  get(path: string, query?: Record<string, string>): Promise<any>;
  post(path: string, body?: unknown, query?: Record<string, string>): Promise<any>;
  /** A POST that must succeed: its data. */
  ok(path: string, body: unknown): Promise<any>;
}

/** JSON calls to a child server with a token, answering the envelope. */
export function httpApi(url: string, token: string): HttpApi {
  const call = async (method: string, path: string, query: Record<string, string> = {}, body?: unknown) => {
    const qs = new URLSearchParams(query).toString();
    const res = await fetch(`${url}${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers: { 'blade-auth': `bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  return {
    get: (path, query) => call('GET', path, query),
    post: (path, body, query) => call('POST', path, query, body),
    async ok(path, body) {
      const answer = await call('POST', path, {}, body);
      if (answer.code !== 200) throw new Error(`${path}: ${JSON.stringify(answer)}`);
      return answer.data;
    },
  };
}
