// Hostile list parameters against every entity of the manifest: every search field and a sample of
// the others, with SQL-injection payloads, operators that do not exist, huge and negative numbers,
// unicode edge cases and repeated keys; every sort field with injections around it. The answer is
// never a 500: it is the envelope, a normal page or a refusal in the caller's language, and a canary
// table and the data stay as they were. The payloads are drawn by a seeded PRNG (FUZZ_SEED to
// replay another run), so a failure names a request that fails again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/engine/model/compile.ts';
import type { EntityModel } from '../../src/engine/model/types.ts';
import { readSchemaSource } from '../../src/server/schema-source.ts';
import { databaseKinds, startServer, type TestServer } from './harness.ts';
import { prng } from '../support/prng.ts';

const { catalog } = compile(readSchemaSource());
const entities = Object.values(catalog.entities);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

const PAYLOADS: readonly string[] = [
  "' OR '1'='1",
  "1' OR 1=1 --",
  '1; DROP TABLE zs_fuzz_canary; --',
  "'); DELETE FROM blade_user; --",
  '1) UNION SELECT password FROM blade_user --',
  "\\'; TRUNCATE zs_fuzz_canary; --",
  '$1',
  '%',
  '_',
  '%\\_%',
  "name'||(SELECT pg_sleep(5))||'",
  '1 AND (SELECT count(*) FROM pg_user) > 0',
  '99999999999999999999999999999',
  '-1',
  '-9223372036854775809',
  '9223372036854775808',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '0x7fffffff',
  '1.0000000000000000001',
  '\u0000',
  '\uFEFF零宽',
  '𠮷野家',
  '\u202Eevil',
  'e\u0301',
  '🏗️👷',
  ' ',
  '\t\n',
  'a'.repeat(5000),
  '2026-02-30',
  '2026-13-01 25:61:61',
  'null',
  'true',
  '[]',
  '{}',
];
const OPERATORS = [
  'equal',
  'notequal',
  'like',
  'likeleft',
  'likeright',
  'notlike',
  'ge',
  'le',
  'gt',
  'lt',
  'datege',
  'dategt',
  'dateequal',
  'datelt',
  'datele',
  'null',
  'notnull',
  'ignore',
];
const BOGUS_OPERATORS = ['regex', 'in', 'between', 'equal;', 'like--', 'ILIKE', 'sql', '1=1'];
const GENERIC = ['current', 'size', 'ascs', 'descs'];
const CJK = /[\u4e00-\u9fff]/;

type Query = Record<string, string | string[]>;

describe.each(databaseKinds())('list parameter fuzz on %s', (kind) => {
  let server: TestServer;
  let token: string;
  const random = prng(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  let failures: string[] = [];
  let requests = 0;
  let rowsBefore: Record<string, number>;

  /** Row counts of the tables the payloads name, and of every entity's table. */
  async function counts(): Promise<Record<string, number>> {
    // (the logs grow with every request: they are the server's to write)
    const tables = ['zs_fuzz_canary', 'blade_user', ...new Set(entities.filter((m) => !m.readOnly).map((m) => m.table))];
    const out: Record<string, number> = {};
    for (const table of tables) out[table] = Number((await server.db.query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n);
    return out;
  }

  async function send(model: EntityModel, route: string, query: Query) {
    const lang = random() < 0.5 ? 'zh' : 'en';
    const res = await server.app.inject({
      method: 'GET',
      url: `${model.api}/${route}`,
      query,
      headers: { 'blade-auth': `bearer ${token}`, 'accept-language': lang },
    });
    requests++;
    const what = `${lang} GET ${model.api}/${route}?${JSON.stringify(query).slice(0, 200)}`;
    let body: any;
    try {
      body = JSON.parse(res.body);
    } catch {
      // an export answers a workbook
      if (res.statusCode === 200 && route === 'export') return;
      failures.push(`${what}: ${res.statusCode} not JSON: ${res.body.slice(0, 100)}`);
      return;
    }
    if (res.statusCode >= 500) failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    else if (typeof body?.code !== 'number' || typeof body?.success !== 'boolean' || typeof body?.msg !== 'string' || !body.msg)
      failures.push(`${what}: not the envelope: ${res.body.slice(0, 200)}`);
    else if (!body.success && lang === 'zh' && !CJK.test(body.msg)) failures.push(`${what}: refusal not in Chinese: ${body.msg}`);
  }

  beforeAll(async () => {
    server = await startServer(kind);
    token = await server.token();
    await server.db.exec("CREATE TABLE zs_fuzz_canary (id int PRIMARY KEY, note text); INSERT INTO zs_fuzz_canary VALUES (1, '金丝雀')");
    rowsBefore = await counts();
  }, 120_000);
  afterAll(() => server?.dispose());

  it.each(entities.map((m) => [m.key, m] as const))(
    '%s: every search field, a sample of the others, every sort field',
    async (_key, model) => {
      failures = [];
      const searched = model.search.map((s) => s.field);
      const others = model.fields.filter((f) => !searched.includes(f.name)).map((f) => f.name);
      const fields = [...searched, ...(others.length ? [pick(others), pick(others)] : [])];
      for (const field of fields) {
        await send(model, 'list', { [`${field}_${pick(OPERATORS)}`]: pick(PAYLOADS) });
        await send(model, 'list', { [`${field}_${pick(BOGUS_OPERATORS)}`]: pick(PAYLOADS) });
        // arrays where a scalar is expected (the key repeated), and the bare key
        await send(model, 'list', { [field]: [pick(PAYLOADS), pick(PAYLOADS)] });
      }
      const sortable = model.list.columns.map((c) => c.field);
      for (const field of sortable) await send(model, 'list', { [pick(['ascs', 'descs'])]: field });
      for (const field of [pick(sortable.length ? sortable : ['id']), 'id']) {
        await send(model, 'list', { descs: `${field} ${pick(PAYLOADS)}` });
        await send(model, 'list', { ascs: `${field},${pick(PAYLOADS)}` });
      }
      for (const param of GENERIC) await send(model, 'list', { [param]: pick(PAYLOADS) });
      await send(model, 'list', { current: pick(['0', '-1', '99999999999', '1.5']), size: pick(['0', '-5', '100000000', '1e3', '501']) });
      await send(model, 'detail', { id: pick(PAYLOADS) });
      await send(model, 'options', { ids: `1,${pick(PAYLOADS)}`, keyword: pick(PAYLOADS) });
      if (model.list.export)
        await send(model, 'export', { [`${pick(searched.length ? searched : ['id'])}_${pick(OPERATORS)}`]: pick(PAYLOADS) });
      expect(failures).toEqual([]);
    },
  );

  it('leaves the canary table and every table as they were', async () => {
    expect(requests).toBeGreaterThan(entities.length * 10);
    expect(await server.db.query('SELECT id, note FROM zs_fuzz_canary')).toEqual([{ id: 1, note: '金丝雀' }]);
    expect(await counts()).toEqual(rowsBefore);
  });
});
