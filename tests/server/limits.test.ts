// Floods and slow clients, on a listening server with small limits: what arrives on the socket is
// answered with the envelope (or cut off) before it costs the server memory or a connection.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import type { Limits } from '../../src/server/config.ts';
import { testConfig } from './config.ts';
import { databaseKinds, openTestDb } from './harness.ts';
import { rawRequest } from './raw-http.ts';

const LIMITS: Partial<Limits> = {
  bodyLimitMb: 1,
  headersTimeoutMs: 1_000,
  requestTimeoutMs: 2_000,
  captchaPerAddress: 3,
  statementTimeoutMs: 1_500,
};

/** A fresh PostgreSQL start builds and seeds every table: minutes on a loaded machine. */
const START_TIMEOUT_MS = 400_000;

/**
 * A listening app with the small limits. On PostgreSQL the database is first built and seeded by an
 * app without a statement timeout (a first start's DDL is not what the 1.5 s limit is about), then
 * served by one whose pool has it.
 */
async function listening(kind: 'pglite' | 'postgres') {
  const { db: plain, drop } = await openTestDb(kind);
  let db = plain;
  if (kind === 'postgres') {
    await (await createApp(testConfig(), { db: plain, logger: false })).close();
    db = await openPostgres((plain as unknown as { pool: pg.Pool }).pool.options.connectionString!, {
      max: 5,
      statementTimeoutMs: LIMITS.statementTimeoutMs,
    });
  }
  // as behind nginx on loopback: the client's address comes from X-Forwarded-For
  const app = await createApp(testConfig({ limits: LIMITS, trustProxy: 'loopback' }), { db, logger: false });
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.app.server.address() as { port: number };
  const token = await app.tokens.sign({
    tenant_id: '000000',
    user_id: '1123598821738675201',
    dept_id: '1123598813738675201',
    role_name: 'administrator',
  });
  const dispose = async () => {
    await app.close();
    if (db !== plain) await db.close();
    await drop();
  };
  return { app, port, db, token, dispose };
}

function envelopeOf(body: string | undefined) {
  return JSON.parse(body ?? 'null');
}

describe.each(databaseKinds())('limits on %s', (kind) => {
  let server: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    server = await listening(kind);
  }, START_TIMEOUT_MS);
  afterAll(() => server?.dispose());

  it('refuses a body announced over the limit without waiting for it', async () => {
    // 50 MB announced, not one byte of it sent: the answer comes from the Content-Length alone
    const answer = await rawRequest(
      server.port,
      `POST /api/construct/project/save HTTP/1.1\r\nhost: x\r\nblade-auth: bearer ${server.token}\r\ncontent-type: application/json\r\ncontent-length: ${50 * 1024 * 1024}\r\n\r\n`,
    );
    expect(answer?.status).toBe(413);
    expect(envelopeOf(answer?.body)).toEqual({ code: 413, success: false, data: null, msg: '请求体超过 1 MB 的上限' });
  });

  it('times out a client that never finishes its headers', async () => {
    const answer = await rawRequest(server.port, 'GET /api/health HTTP/1.1\r\nhost: x\r\n', 15_000);
    expect(answer?.status).toBe(408);
    expect(envelopeOf(answer?.body)).toMatchObject({ code: 408, success: false, msg: '请求发送过慢,已超时' });
  });

  it('times out a body that stops half way', async () => {
    const answer = await rawRequest(
      server.port,
      `POST /api/construct/project/save HTTP/1.1\r\nhost: x\r\nblade-auth: bearer ${server.token}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":`,
      15_000,
    );
    expect(answer?.status).toBe(408);
    expect(envelopeOf(answer?.body)).toMatchObject({ code: 408, msg: '请求发送过慢,已超时' });
  });

  it('answers a header carrying a line break or a NUL with 400 and the envelope', async () => {
    for (const value of ['a\rSet-Cookie: x=1', 'a\u0000b', 'a\nb']) {
      const answer = await rawRequest(server.port, `GET /api/health HTTP/1.1\r\nhost: x\r\nx-note: ${value}\r\n\r\n`);
      expect(answer?.status, JSON.stringify(value)).toBe(400);
      expect(answer?.headers).not.toContain('set-cookie');
      expect(envelopeOf(answer?.body)).toMatchObject({ code: 400, success: false, msg: '请求参数错误' });
    }
    // and the server still answers well-formed requests
    expect((await rawRequest(server.port, 'GET /api/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n'))?.status).toBe(200);
  });

  it('limits captchas per client address (the one the proxy names), with a retry hint', async () => {
    const captcha = (client: string, lang = 'zh') =>
      server.app.app.inject({
        method: 'GET',
        url: '/api/blade-auth/oauth/captcha',
        remoteAddress: '127.0.0.1',
        headers: { 'accept-language': lang, 'x-forwarded-for': client },
      });
    for (let i = 0; i < 3; i++) expect((await captcha('203.0.113.7')).statusCode).toBe(200);
    const refused = await captcha('203.0.113.7');
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(JSON.parse(refused.body)).toEqual({ code: 429, success: false, data: null, msg: `请求过于频繁,请 ${seconds} 秒后再试` });
    expect(JSON.parse((await captcha('203.0.113.7', 'en')).body).msg).toMatch(/^Too many requests; try again in \d+ seconds$/);
    const [{ n }] = await server.db.query(`SELECT count(*)::int AS n FROM zs_captcha`);
    // another address is not held back by this one
    expect((await captcha('203.0.113.8')).statusCode).toBe(200);
    expect((await server.db.query(`SELECT count(*)::int AS n FROM zs_captcha`))[0].n).toBe(n + 1);
  });
});

// PGlite runs one statement at a time inside this process and has no statement timeout: a long
// query there holds the embedded database until it ends (docs/operations.md#limits-and-faults).
describe.each(databaseKinds().filter((kind) => kind === 'postgres'))('the statement timeout on %s', (kind) => {
  let server: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    server = await listening(kind);
  }, START_TIMEOUT_MS);
  afterAll(() => server?.dispose());

  it('cancels a query that runs too long and says so in zh and en', async () => {
    // a list that cannot finish in time: another session holds the table locked meanwhile
    const blocker = new pg.Client({ connectionString: (server.db as unknown as { pool: pg.Pool }).pool.options.connectionString });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE construct_project IN ACCESS EXCLUSIVE MODE');
      const list = (lang: string) =>
        server.app.app.inject({
          method: 'GET',
          url: '/api/construct/project/list',
          headers: { 'blade-auth': `bearer ${server.token}`, 'accept-language': lang },
        });
      const zh = await list('zh');
      expect(zh.statusCode).toBe(504);
      expect(JSON.parse(zh.body)).toEqual({
        code: 504,
        success: false,
        data: null,
        msg: '查询超过 2 秒未完成,已取消;请缩小查询范围或增加筛选条件',
      });
      expect(JSON.parse((await list('en')).body).msg).toBe(
        'The query took longer than 2 seconds and was cancelled; narrow it down with filters',
      );
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
    const after = await server.app.app.inject({
      method: 'GET',
      url: '/api/construct/project/list',
      headers: { 'blade-auth': `bearer ${server.token}` },
    });
    expect(JSON.parse(after.body).code).toBe(200);
  });
});
