// .xlsx exports: one record (its fields, then a sheet per detail array) or a filtered list, with
// headers in the caller's language (Chinese by default) and dictionary/reference values as labels.
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import type { EntityModel, FieldModel, Lang } from '../../engine/model/types.ts';
import { matches } from '../../engine/predicate/predicate.ts';
import type { ListQuery } from '../../engine/query/list-params.ts';
import type { Row } from '../db/db.ts';
import { displayValue, resolveLabels } from '../db/labels.ts';
import type { EntityStore, StoreContext } from '../db/store.ts';
import { AppError } from '../errors.ts';

export const EXPORT_LIMIT = 20000;

/** exceljs is large; it is loaded on the first export, not at start-up. */
export async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const { default: Excel } = await import('exceljs');
  return new Excel.Workbook();
}

export interface Workbook {
  filename: string;
  book: ExcelJS.Workbook;
}

/**
 * Fields worth a column: everything declared, plus code-like system fields a person reads; not the
 * workflow's own bookkeeping (the process instance id), which no form shows either.
 */
function exportedFields(fields: readonly FieldModel[], model?: EntityModel): FieldModel[] {
  const internal = model?.workflow?.instanceField;
  return fields.filter((f) => (!f.system || f.name === 'createTime' || f.name === 'updateTime') && f.name !== internal);
}

/** Is the field shown for this record (x-rules.visibleIf: lease terms only on lease contracts)? */
const shownFor = (f: FieldModel, record: Row) => !f.rules?.visibleIf || matches(f.rules.visibleIf, record);

/** A list's columns: those shown for at least one record; a cell the record's form hides stays empty. */
function listColumns(fields: readonly FieldModel[], records: readonly Row[]): { fields: FieldModel[]; rows: Row[] } {
  const shown = fields.filter((f) => records.some((r) => shownFor(f, r)));
  const rows = records.map((r) => Object.fromEntries(shown.filter((f) => shownFor(f, r)).map((f) => [f.name, r[f.name]])));
  return { fields: shown, rows };
}

/**
 * A worksheet name Excel accepts: none of / \\ ? * [ ] :, at most 31 characters, and not one the
 * workbook already has (a detail titled like its document).
 */
export function sheetName(title: string, taken: readonly string[] = []): string {
  const base = title.replace(/[\\/?*[\]:]/g, '-').slice(0, 31) || 'Sheet';
  let name = base;
  for (let n = 2; taken.some((t) => t.toLowerCase() === name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 1)}-${n}`;
  return name;
}

const newSheet = (book: ExcelJS.Workbook, title: string) =>
  book.addWorksheet(
    sheetName(
      title,
      book.worksheets.map((w) => w.name),
    ),
  );

function addTable(
  book: ExcelJS.Workbook,
  title: string,
  fields: FieldModel[],
  rows: Row[],
  maps: Awaited<ReturnType<typeof resolveLabels>>,
  lang: Lang,
) {
  const sheet = newSheet(book, title);
  sheet.columns = fields.map((f) => ({
    header: f.label[lang],
    key: f.name,
    width: Math.min(40, Math.max(10, f.label[lang].length * 2 + 4)),
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(Object.fromEntries(fields.map((f) => [f.name, displayValue(f, row[f.name], maps, lang)])));
}

export async function exportRecord(ctx: StoreContext, store: EntityStore, id: string, lang: Lang): Promise<Workbook> {
  const model = store.model;
  const actor = store.actor;
  const record = await store.detail(id);
  const book = await newWorkbook();
  const fields = exportedFields(model.columns, model).filter((f) => shownFor(f, record));
  const maps = await resolveLabels(ctx, actor, fields, [record], lang);
  const sheet = newSheet(book, model.label[lang]);
  sheet.columns = [{ width: 24 }, { width: 48 }];
  for (const f of fields) sheet.addRow([f.label[lang], displayValue(f, record[f.name], maps, lang)]);
  sheet.getColumn(1).font = { bold: true };
  for (const d of model.details) {
    const rows = (record[d.name] as Row[]) ?? [];
    const detailFields = exportedFields(d.columns)
      .concat(d.columns.filter((f) => f.name === d.orderField))
      .sort((a, b) => (a.name === d.orderField ? -1 : b.name === d.orderField ? 1 : 0));
    addTable(book, d.label[lang], detailFields, rows, await resolveLabels(ctx, actor, detailFields, rows, lang), lang);
  }
  const code = model.code ? record[model.code.field] : undefined;
  return { filename: `${model.label[lang]}-${code ?? id}.xlsx`, book };
}

export async function exportList(ctx: StoreContext, store: EntityStore, query: ListQuery, lang: Lang): Promise<Workbook> {
  const page = await store.list({ ...query, current: 1, size: EXPORT_LIMIT });
  if (page.total > EXPORT_LIMIT) throw new AppError(400, 'exportTooLarge', { limit: EXPORT_LIMIT });
  const { fields, rows } = listColumns(exportedFields(store.model.columns, store.model), page.records);
  const book = await newWorkbook();
  addTable(book, store.model.label[lang], fields, rows, await resolveLabels(ctx, store.actor, fields, rows, lang), lang);
  return { filename: `${store.model.label[lang]}.xlsx`, book };
}

export async function sendWorkbook(reply: FastifyReply, { filename, book }: Workbook) {
  const buffer = Buffer.from(await book.xlsx.writeBuffer());
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .send(buffer);
}
