// Human-readable values for dictionary and reference fields (exports, printed pages): dictionary keys
// become their text in the caller's language, reference ids become the referenced record's label.
// One query per dictionary and per referenced entity, whatever the number of rows.
import type { EntityCatalog, EntityModel, FieldModel, Lang } from '../../engine/model/types.ts';
import type { Queryable, Row } from './db.ts';
import { Params, q } from './sql.ts';
import { databaseOf, PLATFORM_TENANT, type Actor, type StoreContext } from './store.ts';

export type LabelMaps = Map<FieldModel, Map<string, string>>;

async function dictionaryLabels(ctx: StoreContext, actor: Actor, f: FieldModel, lang: Lang): Promise<Map<string, string>> {
  const model = ctx.catalog.entities[ctx.dictionaryEntities[f.dict!.source]];
  const params = new Params();
  const where = [`t.code = ${params.add(f.dict!.code)}`, 't.parent_id <> 0', 't.is_deleted = 0'];
  if (model.scope === 'tenant') where.push(`t.tenant_id = ${params.add(actor.tenantId)}`);
  // inside a step's transaction on a tenant database, dictionaries are on the main one
  const db = ctx.mainDb && (await ctx.isBound?.(actor.tenantId)) ? ctx.mainDb : ctx.db;
  const rows = await db.query<{ k: string; zh: string; en: string | null }>(
    `SELECT t.dict_key AS k, t.dict_value AS zh, t.dict_value_en AS en FROM ${q(model.table)} t WHERE ${where.join(' AND ')}`,
    params.values,
  );
  return new Map(rows.map((r) => [r.k, lang === 'en' && r.en ? r.en : r.zh]));
}

async function referenceLabels(
  db: Queryable,
  catalog: EntityCatalog,
  actor: Actor,
  f: FieldModel,
  values: string[],
): Promise<Map<string, string>> {
  const target = catalog.entities[f.ref!.entity];
  const labelField = target.fieldMap[f.ref!.labelField ?? target.titleField ?? f.ref!.valueField];
  const valueField = target.fieldMap[f.ref!.valueField];
  if (!values.length) return new Map();
  const params = new Params();
  const where = [`t.${q(valueField.column)}::text = ANY(${params.add(values)}::text[])`];
  if (target.scope === 'tenant') where.push(`t.tenant_id = ${params.add(actor.tenantId)}`);
  const rows = await db.query<{ v: string; l: string }>(
    `SELECT t.${q(valueField.column)}::text AS v, t.${q(labelField.column)}::text AS l FROM ${q(target.table)} t WHERE ${where.join(' AND ')}`,
    params.values,
  );
  return new Map(rows.map((r) => [r.v, r.l]));
}

/**
 * The ids among `ids` of the platform's people who wrote (created or last changed) a shared record of
 * the platform's, which every tenant reads: a tenant may see their names on those records, and on
 * nothing else of the platform's.
 */
export async function sharedRecordAuthors(db: Queryable, catalog: EntityCatalog, ids: string[]): Promise<string[]> {
  const shared = Object.values(catalog.entities).filter((m) => m.scope === 'shared' && m.fieldMap.createUser && m.fieldMap.updateUser);
  if (!ids.length || !shared.length) return [];
  const params = new Params();
  const wanted = `${params.add(ids)}::bigint[]`;
  const platformRows = (m: EntityModel) => (m.tenantRows ? ` AND t.tenant_id = ${params.add(PLATFORM_TENANT)}` : '');
  const selects = shared.flatMap((m) =>
    ['createUser', 'updateUser'].map(
      (name) =>
        `SELECT t.${q(m.fieldMap[name].column)}::text AS id FROM ${q(m.table)} t WHERE t.${q(m.fieldMap[name].column)} = ANY(${wanted})${platformRows(m)}`,
    ),
  );
  const rows = await db.query<{ id: string }>(selects.join(' UNION '), params.values);
  return rows.map((r) => r.id);
}

/** Label maps for the dictionary, option and reference fields of `fields` over `rows`. */
export async function resolveLabels(
  ctx: StoreContext,
  actor: Actor,
  fields: readonly FieldModel[],
  rows: Row[],
  lang: Lang,
): Promise<LabelMaps> {
  const maps: LabelMaps = new Map();
  for (const f of fields) {
    if (f.dict) maps.set(f, await dictionaryLabels(ctx, actor, f, lang));
    else if (f.options) maps.set(f, new Map(f.options.map((o) => [String(o.value), o.label[lang]])));
    else if (f.ref) {
      const values = [
        ...new Set(
          rows
            .map((r) => r[f.name])
            .filter((v) => v !== null && v !== undefined && v !== '')
            .flatMap((v) => (f.ref!.separator ? String(v).split(f.ref!.separator) : [String(v)])),
        ),
      ];
      maps.set(
        f,
        await referenceLabels(databaseOf(ctx, ctx.catalog.entities[f.ref.entity], actor.tenantId), ctx.catalog, actor, f, values),
      );
    }
  }
  return maps;
}

/** The text shown for a value: its label where there is one, else the value itself. */
export function displayValue(f: FieldModel, value: unknown, maps: LabelMaps, lang: Lang): string | number | null {
  if (value === null || value === undefined || value === '') return null;
  const map = maps.get(f);
  if (map) {
    const values = Array.isArray(value) ? value : f.ref?.separator ? String(value).split(f.ref.separator) : [value];
    return values.map((v) => map.get(String(v)) ?? String(v)).join(', ');
  }
  if (f.kind === 'boolean') return value ? (lang === 'en' ? 'Yes' : '是') : lang === 'en' ? 'No' : '否';
  if (typeof value === 'number') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
