// First-start data. Runs once per database (a row in zs_setting records it), so a second start
// re-opens the data as it was. Dictionaries come from the manifest's dictionary catalogs; other
// records from schemas/seed/*.json, written through the same stores as any request (so they are
// validated like user input). Records refer to each other with "@name" placeholders.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Row } from '../db/db.ts';
import { EntityStore, PLATFORM_TENANT, type Actor, type StoreContext } from '../db/store.ts';

/** The seeded platform administrator's ids (the platform's well-known values). */
export const SEED_ADMIN = { userId: '1123598821738675201', deptId: '1123598813738675201' };

export interface SeedFile {
  /** Set to "demo" for demonstration data, which can be switched off. */
  kind?: 'platform' | 'demo';
  records: { entity: string; name?: string; data: Row }[];
}

export interface SeedOptions {
  dir: string;
  demo: boolean;
}

const platformActor: Actor = { tenantId: PLATFORM_TENANT, userId: SEED_ADMIN.userId, deptId: SEED_ADMIN.deptId, lang: 'zh' };

function actorFor(tenantId: string): Actor {
  return { ...platformActor, tenantId };
}

async function seedDictionarySource(ctx: StoreContext, source: 'system' | 'biz', actor: Actor) {
  const store = new EntityStore(ctx, ctx.catalog.entities[ctx.dictionaryEntities[source]], actor);
  for (const [i, dict] of ctx.catalog.dictionaries.filter((d) => d.source === source).entries()) {
    const root = await store.create({ parentId: '0', code: dict.code, dictKey: '-1', dictValue: dict.name, dictValueEn: dict.en, sort: i + 1, isSealed: 0 });
    for (const [j, item] of dict.items.entries()) {
      const remark = (item as { remark?: string }).remark;
      await store.create({ parentId: root.id, code: dict.code, dictKey: item.key, dictValue: item.value, dictValueEn: item.en, sort: j + 1, isSealed: 0, ...(remark && { remark }) });
    }
  }
}

/** Gives a new tenant its own copy of the default business dictionaries. */
export async function provisionTenant(ctx: StoreContext, tenantId: string) {
  await seedDictionarySource(ctx, 'biz', actorFor(tenantId));
}

function resolvePlaceholders(value: unknown, names: Map<string, string>): unknown {
  if (typeof value === 'string' && value.startsWith('@')) {
    const id = names.get(value.slice(1));
    if (!id) throw new Error(`seed: unknown placeholder ${value}`);
    return id;
  }
  if (Array.isArray(value)) return value.map((v) => resolvePlaceholders(v, names));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolvePlaceholders(v, names)]));
  return value;
}

async function seedRecords(ctx: StoreContext, file: SeedFile, names: Map<string, string>) {
  for (const record of file.records) {
    const model = ctx.catalog.entities[record.entity];
    if (!model) throw new Error(`seed: unknown entity ${record.entity}`);
    const created = await new EntityStore(ctx, model, platformActor).create(resolvePlaceholders(record.data, names) as Row);
    if (record.name) names.set(record.name, created.id);
  }
}

export function readSeedFiles(dir: string): { file: string; seed: SeedFile }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => ({ file: f, seed: JSON.parse(readFileSync(join(dir, f), 'utf8')) as SeedFile }));
}

/** Seeds an empty database; returns false when it was seeded before. */
export async function seedOnce(ctx: StoreContext, options: SeedOptions): Promise<boolean> {
  // Whoever inserts the marker seeds; another process starting at the same moment skips.
  const claimed = await ctx.db.query(`INSERT INTO zs_setting (key, value) VALUES ('seed.version', 'running') ON CONFLICT (key) DO NOTHING RETURNING key`);
  if (!claimed.length) return false;
  await seedDictionarySource(ctx, 'system', platformActor);
  await provisionTenant(ctx, PLATFORM_TENANT);
  const names = new Map<string, string>();
  for (const { seed } of readSeedFiles(options.dir)) {
    if (seed.kind === 'demo' && !options.demo) continue;
    await seedRecords(ctx, seed, names);
  }
  await ctx.db.query(`UPDATE zs_setting SET value = '1' WHERE key = 'seed.version'`);
  return true;
}
