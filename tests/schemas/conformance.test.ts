// Every manifest entity, through the real HTTP API: a valid record saves, reads back equal, is found
// in the list, updates, and is removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledSchemaSet } from '../support/schema-set.ts';
import { client, databaseKinds, startServer, type TestServer } from '../server/harness.ts';
import { dependencyOrder, editableText, sampleRecord, type SampleContext } from '../../src/engine/sample/sample.ts';
import { UNCHANGED_SECRET } from '../../src/engine/model/secrets.ts';

const { catalog } = compiledSchemaSet();
const models = dependencyOrder(catalog).filter((m) => !m.readOnly);
/** Entities the server alone writes (logs): listed and read, never written through the API. */
const readOnly = Object.values(catalog.entities).filter((m) => m.readOnly);

describe.each(databaseKinds())('conformance on %s', (kind) => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  const ctx: SampleContext = { catalog, ids: new Map(), seq: 1 };

  beforeAll(async () => {
    server = await startServer(kind);
    api = client(server, await server.token());
  });
  afterAll(() => server?.dispose());

  it.each(models.map((m) => [m.key, m] as const))('%s round-trips save → detail → list → update → remove', async (_key, model) => {
    const record = sampleRecord(model, ctx);
    const saved = await api.post(`${model.api}/save`, record);
    expect(saved.body, JSON.stringify(saved.body)).toMatchObject({ code: 200, success: true });
    const id = saved.body.data.id as string;
    expect(id).toMatch(/^\d+$/);

    const detail = await api.get(`${model.api}/detail`, { id });
    expect(detail.body.code).toBe(200);
    for (const [name, value] of Object.entries(record)) {
      if (model.fieldMap[name]?.writeOnly) {
        // never the value: the placeholder that means "set, unchanged" when sent back
        expect(detail.body.data[name], `${name} is write-only`).toBe(UNCHANGED_SECRET);
        continue;
      }
      if (Array.isArray(value) && model.details.some((d) => d.name === name)) {
        expect(detail.body.data[name]).toHaveLength(value.length);
        continue;
      }
      expect(detail.body.data[name], name).toEqual(value);
    }
    for (const f of model.fields.filter((f) => f.name === 'createTime' || f.name === 'tenantId'))
      expect(detail.body.data[f.name]).toBeTruthy();
    ctx.ids.set(model.key, detail.body.data);

    const list = await api.get(`${model.api}/list`, { id_equal: id });
    if (model.tree?.list === 'forest') {
      // the forest of what was found: the record alone, a root (its parent was not found)
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({ id, hasChildren: false });
    } else {
      expect(list.body.data).toMatchObject({ total: 1, current: 1 });
      expect(list.body.data.records[0].id).toBe(id);
    }

    const field = editableText(model);
    if (field) {
      const changed = { ...detail.body.data, [field.name]: `改${String(record[field.name] ?? '')}`.slice(0, field.maxLength) };
      const updated = await api.post(`${model.api}/update`, changed);
      expect(updated.body, JSON.stringify(updated.body)).toMatchObject({ code: 200 });
      expect(updated.body.data[field.name]).toBe(changed[field.name]);
    }

    const removed = await api.post(`${model.api}/remove`, undefined, { ids: id });
    expect(removed.body).toMatchObject({ code: 200, success: true });
    const gone = await api.get(`${model.api}/detail`, { id });
    expect(gone.status).toBe(404);
    expect(gone.body.success).toBe(false);

    // the same values again (unique ones are free after removal): the record later entities refer to;
    // nothing may refer to the removed one, not even a record of its own type
    ctx.ids.delete(model.key);
    const again = await api.post(`${model.api}/save`, sampleRecord(model, { ...ctx, seq: ++ctx.seq }));
    expect(again.body, JSON.stringify(again.body)).toMatchObject({ code: 200 });
    ctx.ids.set(model.key, again.body.data);

    // a self-reference (a supplementary contract's parent contract) points at the record just saved;
    // read-only ones (a plan's previous version) are the server's to set
    const selfRefs = model.fields.filter((f) => f.ref?.entity === model.key && f.name !== model.tree?.parentField && !f.readOnly);
    if (selfRefs.length) {
      const child = await api.post(`${model.api}/save`, sampleRecord(model, { ...ctx, seq: ++ctx.seq }));
      expect(child.body, JSON.stringify(child.body)).toMatchObject({ code: 200 });
      for (const f of selfRefs) expect(child.body.data[f.name], f.name).toBe(again.body.data[f.ref!.valueField]);
    }
  });

  // rows of another document (x-entity.rowsOf): the rows of the record its round trip kept, each
  // with the document's fields, found by the foreign key
  it.each(readOnly.filter((m) => m.rowsOf).map((m) => [m.key, m] as const))(
    '%s reads the rows of the saved document with its fields',
    async (_key, model) => {
      const { entity, detail: name, parentFields } = model.rowsOf!;
      const parent = ctx.ids.get(entity)!;
      const rows = parent[name] as Record<string, unknown>[];
      expect(rows.length).toBeGreaterThan(0);
      const list = await api.get(`${model.api}/list`, {
        [catalog.entities[entity].details.find((d) => d.name === name)!.foreignKey]: String(parent.id),
      });
      expect(list.body.data.records.map((r: { id: string }) => r.id)).toEqual(rows.map((r) => r.id));
      list.body.data.records.forEach((record: Record<string, unknown>, i: number) => {
        for (const f of model.fields)
          expect(record[f.name], f.name).toEqual(f.name in parentFields ? parent[parentFields[f.name]] : rows[i][f.name]);
      });
    },
  );

  it.each(readOnly.map((m) => [m.key, m] as const))('%s lists and refuses every write', async (_key, model) => {
    const list = await api.get(`${model.api}/list`);
    expect(list.body).toMatchObject({ code: 200, data: { current: 1 } });
    for (const action of ['save', 'update', 'submit', 'updatePart', 'remove']) {
      const refused = await api.post(`${model.api}/${action}`, sampleRecord(model, ctx), { ids: '1' });
      expect(refused.status, action).toBe(404);
    }
  });
});
