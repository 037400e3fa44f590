// Rows picked from another document's lines (x-detail.pickFrom). A picked row keeps the source
// line's id; the server checks that the line exists in the caller's tenant, on a live document, and
// that this document is the one the header selects — a client cannot attach another contract's or
// another tenant's line by sending its id.
import { t } from '../../engine/i18n/messages.ts';
import type { DetailModel, EntityCatalog, EntityModel, Lang, PickSource } from '../../engine/model/types.ts';
import { describePath, type FieldError } from '../../engine/validate/record.ts';
import type { Queryable, Row } from './db.ts';
import { Params, q } from './sql.ts';

const ID = /^\d{1,19}$/;

const isBlank = (v: unknown) => v === undefined || v === null || v === '';

export interface PickCheck {
  catalog: EntityCatalog;
  model: EntityModel;
  tenantId: string;
  lang: Lang;
}

/**
 * Errors for the picked rows of `record`. `written` tells which fields the write changes: a detail's
 * picks are checked when its rows or the header field selecting their source are written.
 */
export async function pickErrors(tx: Queryable, check: PickCheck, record: Row, written: (name: string) => boolean): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  for (const d of check.model.details) {
    const rows = Array.isArray(record[d.name]) ? (record[d.name] as Row[]) : [];
    for (const pick of d.pickFrom) {
      if (!written(d.name) && !written(pick.header)) continue;
      errors.push(...repeatedPicks(check, d, pick, rows));
      const picked = rows.flatMap((row, i) =>
        row && !isBlank(row[pick.rowId]) ? [{ path: `/${d.name}/${i}/${pick.rowId}`, id: String(row[pick.rowId]) }] : [],
      );
      if (!picked.length) continue;
      const owners = await lineOwners(
        tx,
        check,
        pick,
        picked.map((p) => p.id),
      );
      const selected = isBlank(record[pick.header]) ? undefined : String(record[pick.header]);
      const source = check.model.fieldMap[pick.header].label;
      for (const { path, id } of picked) {
        const field = describePath(check.model, path, check.lang).label;
        const owner = owners.get(id);
        if (owner === undefined) errors.push({ path, message: t('refMissing', check.lang, { field, value: id }) });
        else if (owner !== selected) errors.push({ path, message: t('pickedElsewhere', check.lang, { field, source }) });
      }
    }
  }
  return errors;
}

/**
 * Rows holding a line an earlier row already holds, with the same values of the fields that tell
 * picks apart (x-detail.pickFrom.unique): one row per contract line per settlement, or per check.
 */
function repeatedPicks(check: PickCheck, d: DetailModel, pick: PickSource, rows: Row[]): FieldError[] {
  if (!pick.unique) return [];
  const per = pick.unique.map((name) => d.fieldMap[name].label[check.lang]).join(check.lang === 'zh' ? '、' : ', ');
  const firstRow = new Map<string, number>();
  const errors: FieldError[] = [];
  rows.forEach((row, i) => {
    if (!row || isBlank(row[pick.rowId])) return;
    const key = JSON.stringify([String(row[pick.rowId]), ...pick.unique!.map((name) => (isBlank(row[name]) ? null : String(row[name])))]);
    const first = firstRow.get(key);
    if (first === undefined) return void firstRow.set(key, i);
    const path = `/${d.name}/${i}/${pick.rowId}`;
    const field = describePath(check.model, path, check.lang).label;
    errors.push({
      path,
      message: per
        ? t('pickedTwicePer', check.lang, { field, row: first + 1, per })
        : t('pickedTwice', check.lang, { field, row: first + 1 }),
    });
  });
  return errors;
}

/** Source line id -> the value by which the header refers to the line's document (its id, or a code). */
async function lineOwners(tx: Queryable, check: PickCheck, pick: PickSource, ids: string[]): Promise<Map<string, string>> {
  const source = check.catalog.entities[pick.entity];
  const lines = source.details.find((x) => x.name === pick.detail)!;
  const key = source.fieldMap[check.model.fieldMap[pick.header].ref!.valueField];
  const params = new Params();
  const where = [`d.id = ANY(${params.add([...new Set(ids.filter((id) => ID.test(id)))])}::bigint[])`];
  if (source.scope === 'tenant') where.push(`h.tenant_id = ${params.add(check.tenantId)}`, `d.tenant_id = h.tenant_id`);
  if (source.softDelete) where.push('h.is_deleted = 0');
  const rows = await tx.query<{ id: string; owner: string }>(
    `SELECT d.id::text AS id, h.${q(key.column)}::text AS owner FROM ${q(lines.table)} d JOIN ${q(source.table)} h ON h.id = d.${q(lines.foreignKeyColumn)} WHERE ${where.join(' AND ')}`,
    params.values,
  );
  return new Map(rows.map((r) => [r.id, r.owner]));
}
