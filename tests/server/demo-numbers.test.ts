// Demo documents are made on their own date, not the day the demo was seeded: their numbers
// (PREFIX-yyyyMM-####) and creation times carry its month, so a settlement of May reads as prepared
// in May (no late-settlement warning for it); a document saved through the API is numbered today.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityModel } from '../../src/engine/model/types.ts';
import { toRecord, selectList, q } from '../../src/server/db/sql.ts';
import { documentMonth } from '../../src/server/seed/seed.ts';
import { nowText } from '../../src/server/clock.ts';
import { project } from './fixtures.ts';
import { client, databaseKinds, startServer, type TestServer } from './harness.ts';

describe.each(databaseKinds())('demo document numbers on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(kind);
  }, 120_000);

  afterAll(async () => server?.dispose());

  /** The coded records of a document type with the month they should be numbered in. */
  async function numbered(model: EntityModel) {
    const fields = model.fields.filter(
      (f) => f.name === model.code!.field || f.name === 'createTime' || f.kind === 'date' || f.kind === 'month',
    );
    const rows = await server.db.query(
      `SELECT ${selectList(fields)} FROM ${q(model.table)} t WHERE t.${q(model.fieldMap[model.code!.field].column)} IS NOT NULL`,
    );
    // codes the demo gives itself (ZCHT-NJ-2026-006, the contracts' own numbers) are not the server's
    const generated = new RegExp(`^${model.code!.prefix}-\\d{6}-\\d+$`);
    return rows
      .map((r) => toRecord(r, fields))
      .filter((r) => generated.test(String(r[model.code!.field])))
      .map((r) => ({ code: String(r[model.code!.field]), month: documentMonth(model, r), created: String(r.createTime) }));
  }

  it('numbers each seeded document by its own month', async () => {
    const coded = Object.values(server.catalog.entities).filter((m) => m.code?.period === 'yyyyMM');
    const records = (await Promise.all(coded.map(numbered))).flat().filter((r) => r.month);
    expect(records.length).toBeGreaterThan(10);
    // the demo spans several months, and each code carries its document's
    expect(new Set(records.map((r) => r.month)).size).toBeGreaterThan(1);
    for (const { code, month } of records) expect(code, code).toContain(`-${month!.replace('-', '')}-`);
  });

  it("dates each seeded document's creation in its own month, so none reads as prepared late", async () => {
    const coded = Object.values(server.catalog.entities).filter((m) => m.code?.period === 'yyyyMM');
    const records = (await Promise.all(coded.map(numbered))).flat().filter((r) => r.month);
    for (const { code, month, created } of records) expect(created.slice(0, 7), code).toBe(month);
    const tips = server.catalog.entities.warnTip;
    const late = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${q(tips.table)} WHERE ${q(tips.fieldMap.warnType.column)} = 'late_settlement' AND ${q(tips.fieldMap.message.column)} LIKE '%编制月份%'`,
    );
    expect(late[0].n).toBe(0);
  });

  it('numbers a document saved through the API in the current month, whatever its date', async () => {
    const saved = await project(client(server, await server.token()), { plannedStartDate: '2020-03-01', plannedEndDate: '2021-03-01' });
    const today = nowText(server.ctx.timeZone).slice(0, 7).replace('-', '');
    expect(saved.code).toMatch(new RegExp(`^XM-${today}-\\d{4}$`));
  });
});
