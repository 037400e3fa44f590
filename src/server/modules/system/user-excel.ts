// Users as a workbook: the export of the list, the empty import template and the import. The three
// share one set of columns, so that an exported file imports again: tenant, account, nickname, full
// name, email, phone, sex (its dictionary label), birthday, roles, departments and posts (by name,
// comma-joined as the user list shows them) and the user code. A header is recognised in Chinese or
// English, whatever the request's language.
//
// Each row of an import is written as user/submit would write it, through the same store (its
// validation, its hooks: the password hashed, the tenant's account quota), in a transaction of its
// own: a refused row (a duplicate account, an unknown role, a missing name, a unique index the
// database enforces) leaves the others standing, and the answer says which rows were refused and why.
import type ExcelJS from 'exceljs';
import { t } from '../../../engine/i18n/messages.ts';
import type { EntityModel, FieldModel, Label, Lang } from '../../../engine/model/types.ts';
import type { ListQuery } from '../../../engine/query/list-params.ts';
import type { Row } from '../../db/db.ts';
import { resolveLabels } from '../../db/labels.ts';
import { Params, q } from '../../db/sql.ts';
import { databaseOf, type EntityStore, type StoreContext } from '../../db/store.ts';
import { AppError, ValidationFailed } from '../../errors.ts';
import { EXPORT_LIMIT, newWorkbook, sheetName, type Workbook } from '../../http/export.ts';
import { badTextPath } from '../../http/limits.ts';

/**
 * Rows one import may hold. A new account costs a password hash (scrypt) and a few statements: about
 * 0.08 s on the 2-core test machine, so 500 rows answer in about 40 s, within the proxy's 60 s
 * (deploy/nginx/zhusuan.conf).
 */
export const IMPORT_ROW_LIMIT = 500;

const EXPORT_NAME: Label = { zh: '用户数据导出', en: 'User export' };
const TEMPLATE_NAME: Label = { zh: '用户导入模板', en: 'User import template' };

/** The columns, in order; role, department and post hold names. */
const COLUMN_FIELDS = [
  'tenantId',
  'account',
  'name',
  'realName',
  'email',
  'phone',
  'sex',
  'birthday',
  'roleId',
  'deptId',
  'postId',
  'code',
];
/** Columns Excel must keep as text (a phone number typed in is not a number). */
const TEXT_COLUMNS = new Set(['tenantId', 'account', 'phone', 'code', 'birthday']);
const NAME_FIELDS = ['roleId', 'deptId', 'postId'];
/** What separates several names in one cell: the export writes commas; people type these too. */
const NAME_SEPARATORS = /[,，、;；]/;

function columnsOf(model: EntityModel): FieldModel[] {
  return COLUMN_FIELDS.map((name) => model.fieldMap[name]);
}

function headerRow(book: ExcelJS.Workbook, model: EntityModel, lang: Lang): ExcelJS.Worksheet {
  const sheet = book.addWorksheet(sheetName(model.label[lang]));
  sheet.columns = columnsOf(model).map((f) => ({
    header: f.label[lang],
    key: f.name,
    width: Math.min(40, Math.max(12, f.label[lang].length * 2 + 6)),
    ...(TEXT_COLUMNS.has(f.name) ? { style: { numFmt: '@' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  return sheet;
}

/** The empty import template: the header row alone. */
export async function userTemplate(model: EntityModel, lang: Lang): Promise<Workbook> {
  const book = await newWorkbook();
  headerRow(book, model, lang);
  return { filename: `${TEMPLATE_NAME[lang]}.xlsx`, book };
}

/** The users the store's caller may see, filtered as the list is, in the template's columns. */
export async function exportUsers(ctx: StoreContext, store: EntityStore, query: ListQuery, lang: Lang): Promise<Workbook> {
  const page = await store.list({ ...query, current: 1, size: EXPORT_LIMIT });
  if (page.total > EXPORT_LIMIT) throw new AppError(400, 'exportTooLarge', { limit: EXPORT_LIMIT });
  const model = store.model;
  const labelled = columnsOf(model).filter((f) => f.dict || f.ref);
  const maps = await resolveLabels(ctx, store.actor, labelled, page.records, lang);
  const text = (f: FieldModel, value: unknown): string | null => {
    if (value === null || value === undefined || value === '') return null;
    const map = maps.get(f);
    if (!map) return String(value);
    // names comma-joined as the list's roleName: the import splits them the same way
    return String(value)
      .split(f.ref?.separator ?? '\u0000')
      .map((v) => map.get(v) ?? v)
      .join(',');
  };
  const book = await newWorkbook();
  const sheet = headerRow(book, model, lang);
  for (const row of page.records) sheet.addRow(Object.fromEntries(columnsOf(model).map((f) => [f.name, text(f, row[f.name])])));
  return { filename: `${EXPORT_NAME[lang]}.xlsx`, book };
}

// ---- reading a sheet ----

/** A value of a cell as text: what a person sees in it (a date as yyyy-MM-dd). */
export function cellText(value: ExcelJS.CellValue | undefined, depth = 0): string {
  if (value === null || value === undefined || depth > 3) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value !== 'object') return String(value).trim();
  if ('richText' in value)
    return value.richText
      .map((r) => r.text)
      .join('')
      .trim();
  if ('formula' in value || 'sharedFormula' in value)
    return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue, depth + 1);
  if ('hyperlink' in value) return cellText((value as ExcelJS.CellHyperlinkValue).text as ExcelJS.CellValue, depth + 1);
  if ('error' in value) return String(value.error);
  return '';
}

/** A header as compared: no white space, no marks of a required column, lower case. */
const headerKey = (text: string) => text.replace(/[\s*＊]/g, '').toLowerCase();

export interface SheetRow {
  /** The row's number in the sheet (the header is row 1). */
  row: number;
  /** Text of each recognised column, by field name; blank cells are absent. */
  values: Map<string, string>;
}

/**
 * The data rows of the workbook's first sheet, by the columns its first row names. Refuses a sheet
 * without the account column, one without data rows and one of more than IMPORT_ROW_LIMIT rows:
 * nothing of such a file is written.
 */
export function sheetRows(book: ExcelJS.Workbook, model: EntityModel, lang: Lang): SheetRow[] {
  const sheet = book.worksheets[0];
  const known = new Map<string, string>();
  for (const f of columnsOf(model)) for (const text of [f.label.zh, f.label.en, f.name]) known.set(headerKey(text), f.name);
  const columns = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, col) => {
    const name = known.get(headerKey(cellText(cell.value)));
    if (name && ![...columns.values()].includes(name)) columns.set(col, name);
  });
  if (![...columns.values()].includes('account')) throw new AppError(400, 'importNoHeader', { column: model.fieldMap.account.label[lang] });
  const rows: SheetRow[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values = new Map<string, string>();
    for (const [col, name] of columns) {
      const text = cellText(row.getCell(col).value);
      if (text) values.set(name, text);
    }
    if (values.size) rows.push({ row: number, values });
  });
  if (!rows.length) throw new AppError(400, 'importNoRows');
  if (rows.length > IMPORT_ROW_LIMIT) throw new AppError(400, 'importTooManyRows', { limit: IMPORT_ROW_LIMIT, count: rows.length });
  return rows;
}

// ---- importing ----

export interface RefusedRow {
  row: number;
  account: string | null;
  reason: string;
}

export interface ImportReport {
  read: number;
  created: number;
  updated: number;
  refused: number;
  refusedRows: RefusedRow[];
}

/** The ids of records of `field`'s entity in the caller's tenant, by their name (one query). */
async function idsByName(ctx: StoreContext, store: EntityStore, field: FieldModel, names: string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (!names.length) return found;
  const target = ctx.catalog.entities[field.ref!.entity];
  const label = target.fieldMap[field.ref!.labelField ?? target.titleField!];
  const params = new Params();
  const where = [`t.${q(label.column)} = ANY(${params.add(names)}::text[])`];
  if (target.scope === 'tenant') where.push(`t.tenant_id = ${params.add(store.actor.tenantId)}`);
  if (target.softDelete) where.push('t.is_deleted = 0');
  const rows = await databaseOf(ctx, target, store.actor.tenantId).query<{ id: string; name: string }>(
    `SELECT t.id::text AS id, t.${q(label.column)} AS name FROM ${q(target.table)} t WHERE ${where.join(' AND ')}`,
    params.values,
  );
  for (const r of rows) found.set(r.name, [...(found.get(r.name) ?? []), r.id]);
  return found;
}

/** A dictionary field's keys by their label in either language (and by the key itself). */
async function keysByLabel(ctx: StoreContext, store: EntityStore, field: FieldModel): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const lang of ['en', 'zh'] as const) {
    const labels = (await resolveLabels(ctx, store.actor, [field], [], lang)).get(field) ?? new Map<string, string>();
    for (const [key, label] of labels) {
      keys.set(label.toLowerCase(), key);
      keys.set(key.toLowerCase(), key);
    }
  }
  return keys;
}

/** Why a write was refused, in the caller's language; undefined for a fault that is no refusal. */
function refusal(err: unknown, lang: Lang): string | undefined {
  if (err instanceof ValidationFailed) return err.message;
  if (err instanceof AppError && err.status < 500) return t(err.key, lang, err.params);
  return undefined;
}

/**
 * Writes the rows as users of the store's caller's tenant: new accounts are created with
 * `password` (the tenant's initial password), existing ones are updated with the cells given when
 * `covered`, else refused as duplicates.
 */
export async function importUsers(
  ctx: StoreContext,
  store: EntityStore,
  rows: readonly SheetRow[],
  { covered, password }: { covered: boolean; password: string },
): Promise<ImportReport> {
  const model = store.model;
  const { tenantId, lang } = store.actor;
  const nameFields = NAME_FIELDS.map((name) => model.fieldMap[name]);
  const namesOf = (text: string | undefined) =>
    (text ?? '')
      .split(NAME_SEPARATORS)
      .map((s) => s.trim())
      .filter(Boolean);
  const ids = new Map<FieldModel, Map<string, string[]>>();
  for (const f of nameFields) ids.set(f, await idsByName(ctx, store, f, [...new Set(rows.flatMap((r) => namesOf(r.values.get(f.name))))]));
  const sexKeys = await keysByLabel(ctx, store, model.fieldMap.sex);
  const users = databaseOf(ctx, model, tenantId);
  const existing = async (account: string) =>
    (
      await users.query<{ id: string }>(
        `SELECT id::text AS id FROM ${q(model.table)} WHERE tenant_id = $1 AND account = $2 AND is_deleted = 0`,
        [tenantId, account],
      )
    )[0]?.id;

  const report: ImportReport = { read: rows.length, created: 0, updated: 0, refused: 0, refusedRows: [] };
  const refuse = (row: SheetRow, reason: string) =>
    report.refusedRows.push({ row: row.row, account: row.values.get('account') ?? null, reason });
  for (const row of rows) {
    const reasons: string[] = [];
    const body: Row = {};
    for (const [name, text] of row.values) {
      // exceljs turns an escape such as _x0000_ into the character: NUL no column keeps
      if (badTextPath(text)) reasons.push(t('badTextCharacter', lang, { where: model.fieldMap[name].label }));
      else if (name === 'tenantId') {
        if (text !== tenantId) reasons.push(t('importOtherTenant', lang, { value: text }));
      } else if (name === 'sex') body.sex = sexKeys.get(text.toLowerCase()) ?? text;
      else if (!NAME_FIELDS.includes(name)) body[name] = text;
    }
    for (const f of nameFields) {
      const names = namesOf(row.values.get(f.name));
      if (!names.length) continue;
      const picked: string[] = [];
      for (const name of names) {
        const found = ids.get(f)!.get(name) ?? [];
        if (found.length === 1) picked.push(found[0]);
        else reasons.push(t(found.length ? 'importNameAmbiguous' : 'importNameUnknown', lang, { field: f.label, value: name }));
      }
      body[f.name] = [...new Set(picked)].join(',');
    }
    if (reasons.length) {
      refuse(row, reasons.join('; '));
      continue;
    }
    const account = typeof body.account === 'string' ? body.account : '';
    const id = account ? await existing(account) : undefined;
    if (id && !covered) {
      refuse(row, t('unique', lang, { field: model.fieldMap.account.label, value: account }));
      continue;
    }
    try {
      if (id) {
        await store.updatePart(id, body);
        report.updated++;
      } else {
        await store.create({ ...body, password });
        report.created++;
      }
    } catch (err) {
      const reason = refusal(err, lang);
      if (reason === undefined) throw err;
      refuse(row, reason);
    }
  }
  report.refused = report.refusedRows.length;
  return report;
}
