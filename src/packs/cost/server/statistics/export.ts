// statisticsDataExport: the statistics answer as an .xlsx with the numbers of the screen — a sheet by
// contract type with its totals row, and a sheet by project — headed in the caller's language.
import type ExcelJS from 'exceljs';
import type { Label, Lang } from '../../../../engine/model/types.ts';
import {
  STATISTICS_COLUMNS,
  TOTAL_LABEL,
  type Amount,
  type ProjectFigures,
  type StatisticsAnswer,
} from '../../engine/statistics/statistics.ts';
import { newWorkbook, sheetName, type Workbook } from '../../../../server/http/export.ts';

const MONEY = '#,##0.00';

/** A cell value: amounts as numbers (Excel's own), empty figures blank. */
const cell = (v: Amount | null | undefined | string) =>
  v === null || v === undefined ? null : typeof v === 'number' ? v : Number.isFinite(Number(v)) ? Number(v) : v;

const PROJECT_COLUMNS: readonly { key: keyof ProjectFigures; label: Label; money: boolean }[] = [
  { key: 'projectName', label: { zh: '项目', en: 'Project' }, money: false },
  { key: 'incomeAmount', label: { zh: '收入合同金额', en: 'Income contracts' }, money: true },
  { key: 'targetCost', label: { zh: '目标成本', en: 'Target cost' }, money: true },
  { key: 'contractAmount', label: { zh: '支出合同金额', en: 'Expense contracts' }, money: true },
  { key: 'settledAmountInclTax', label: { zh: '累计结算(含税)', en: 'Settled (incl. tax)' }, money: true },
  { key: 'settledAmountExclTax', label: { zh: '累计结算(不含税)', en: 'Settled (excl. tax)' }, money: true },
  { key: 'payableAmount', label: { zh: '累计应付', en: 'Payable' }, money: true },
  { key: 'paidAmount', label: { zh: '累计已付', en: 'Paid' }, money: true },
  { key: 'costOverPlan', label: { zh: '超目标成本', en: 'Over target cost' }, money: true },
  { key: 'costUsageRate', label: { zh: '成本使用率(%)', en: 'Cost used (%)' }, money: false },
];

function addSheet(
  book: ExcelJS.Workbook,
  title: string,
  headers: { label: Label; money: boolean }[],
  rows: (Amount | string | null)[][],
  lang: Lang,
) {
  const sheet = book.addWorksheet(
    sheetName(
      title,
      book.worksheets.map((w) => w.name),
    ),
  );
  sheet.columns = headers.map((h) => ({
    header: h.label[lang],
    width: Math.max(12, h.label[lang].length * 2 + 4),
    style: h.money ? { numFmt: MONEY } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map(cell));
  return sheet;
}

export async function statisticsWorkbook(answer: StatisticsAnswer, lang: Lang): Promise<Workbook> {
  const book = await newWorkbook();
  const typeHeaders = STATISTICS_COLUMNS.map((c) => ({ label: c.label, money: c.kind === 'money' }));
  const typeRows = [...answer.rows, { ...answer.total, expenditureContractTypeName: TOTAL_LABEL[lang] }].map((r) =>
    STATISTICS_COLUMNS.map((c) => r[c.key] as Amount | null),
  );
  const byType = addSheet(book, lang === 'en' ? 'By contract type' : '按合同类别', typeHeaders, typeRows, lang);
  byType.lastRow!.font = { bold: true };
  addSheet(
    book,
    lang === 'en' ? 'By project' : '按项目',
    [...PROJECT_COLUMNS],
    answer.projects.map((p) => PROJECT_COLUMNS.map((c) => p[c.key])),
    lang,
  );
  const name = answer.projectId && answer.projects[0] ? answer.projects[0].projectName : lang === 'en' ? 'all projects' : '全部项目';
  return { filename: `${lang === 'en' ? 'Project statistics' : '项目统计'}-${name}.xlsx`, book };
}
