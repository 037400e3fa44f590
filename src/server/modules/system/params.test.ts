// Parameters are read in one statement however many a caller needs (the warning rules read 13 on
// every save): each key takes the tenant's own value, else the platform's, else the caller's default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityCatalog } from '../../../engine/model/types.ts';
import { openPglite } from '../../db/pglite.ts';
import { PLATFORM_TENANT } from '../../db/store.ts';
import { readParam, readParams } from './params.ts';

const catalog = { entities: { param: { table: 'blade_param' } } } as unknown as EntityCatalog;

describe('reading parameters', () => {
  let db: Awaited<ReturnType<typeof openPglite>>;

  beforeAll(async () => {
    db = await openPglite();
    await db.exec(`CREATE TABLE blade_param (id bigint PRIMARY KEY, tenant_id varchar(12), param_key varchar(255), param_value text, is_deleted int DEFAULT 0);
      INSERT INTO blade_param (id, tenant_id, param_key, param_value, is_deleted) VALUES
        (1, '${PLATFORM_TENANT}', 'warn.a', 'platform a', 0),
        (2, '${PLATFORM_TENANT}', 'warn.b', 'platform b', 0),
        (3, '100001', 'warn.b', 'own b', 0),
        (4, '100001', 'warn.c', 'removed c', 1),
        (5, '100002', 'warn.a', 'another tenant a', 0);`);
  });
  afterAll(() => db.close());

  it("takes each key's own value for the tenant, else the platform's; a removed or unset key is absent", async () => {
    const values = await readParams(db, catalog, '100001', ['warn.a', 'warn.b', 'warn.c', 'warn.d']);
    expect(Object.fromEntries(values)).toEqual({ 'warn.a': 'platform a', 'warn.b': 'own b' });
  });

  it("never reads another tenant's value", async () => {
    expect(await readParam(db, catalog, '100003', 'warn.a', 'default')).toBe('platform a');
    expect(await readParam(db, catalog, '100001', 'warn.d', 'default')).toBe('default');
  });
});
