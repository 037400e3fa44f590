// The printed form of a contract or settlement: a plain A4 page made for paper, kept in a container
// of its own under <body> (hidden on screen) while the document's detail is open. print.css shows it
// alone in print: a title line (the preparing company, the document type, its number), the header
// fields in a compact grid, the this-period / cumulative table, the detail rows as full-width tables
// whose header repeats on every page (columns empty in every row left out; more than 12 columns turn
// the page to landscape), the amounts in Chinese capitals and a signature line: the creator, who
// passed the approval steps (from the approval timeline) and the approval status. Reads the record from the detail view's query (['detail', entity, id]).
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Fragment } from 'react';
import { createPortal } from 'react-dom';
import type { DetailModel, EntityModel, FieldModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom, userInfoAtom } from '../../state/session.ts';
import { useReferenceLabels } from '../data.ts';
import { FieldDisplay } from '../displays/FieldDisplay.tsx';
import { capitalsText, displayOptions, isEmptyValue } from '../displays/text.ts';
import { displayTypeOf, NUMERIC_DISPLAYS } from '../displays/display-type.ts';
import type { Row } from '../extensions.ts';
import { useHttp } from '../http-context.tsx';
import { usePageLabels } from '../list/usePageLabels.ts';
import { detailColumns, lineSpans, viewSections } from '../detail/sections.ts';
import { columnTotal, totalledColumns } from '../detail/totals.ts';
import type { PeriodPair } from './printable.ts';
import { useRegistry } from '../registry.ts';
import './print.css';

/** Detail tables of more columns than this print across the page (A4 landscape): portrait would squeeze them to a character a line. */
const LANDSCAPE_FROM = 12;

const FILE_DISPLAYS = new Set(['file', 'image']);
const isNumeric = (field: FieldModel) => NUMERIC_DISPLAYS.has(displayTypeOf(field));

function HeaderGrid({ fields, record, columns }: { fields: FieldModel[]; record: Row; columns: number }) {
  const lang = useAtomValue(langAtom);
  const spans = lineSpans(fields, columns);
  return (
    <dl className="zs-print-grid" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
      {fields.map((field, i) => (
        <div key={field.name} style={spans[i] > 1 ? { gridColumn: `span ${spans[i]}` } : undefined}>
          <dt>{field.label[lang]}</dt>
          <dd data-field={field.name}>
            <FieldDisplay field={field} value={record[field.name]} compact />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function PairsTable({ pairs, record }: { pairs: readonly PeriodPair[]; record: Row }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  return (
    <table className="zs-print-table zs-print-pairs" data-testid="print-pairs">
      <thead>
        <tr>
          <th>{t('print.item')}</th>
          <th>{t('print.thisPeriod')}</th>
          <th>{t('print.previous')}</th>
          <th>{t('print.cumulative')}</th>
        </tr>
      </thead>
      <tbody>
        {pairs.map(({ current, previous, cumulative }) => (
          <tr key={current.name}>
            <th scope="row">{current.label[lang]}</th>
            <td className="zs-num">
              <FieldDisplay field={current} value={record[current.name]} compact />
            </td>
            <td className="zs-num">
              <FieldDisplay field={previous} value={record[previous.name]} compact />
            </td>
            <td className="zs-num">{cumulative ? <FieldDisplay field={cumulative} value={record[cumulative.name]} compact /> : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The columns a detail table prints: the detail view's, less those empty in every row (paper is narrow). */
function printedColumns(detail: DetailModel, rows: readonly Row[]): FieldModel[] {
  const all = detailColumns(detail);
  const filled = all.filter((f) => rows.some((row) => !isEmptyValue(row[f.name])));
  return filled.length ? filled : all;
}

function RowsTable({ detail, rows }: { detail: DetailModel; rows: Row[] }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const fields = printedColumns(detail, rows);
  const labels = usePageLabels(
    detail.fieldMap,
    fields.map((f) => f.name),
    rows,
  );
  const totals = totalledColumns(detail, fields, rows);
  return (
    <table className="zs-print-table zs-print-rows" data-testid={`print-rows-${detail.name}`}>
      <thead>
        <tr>
          <th className="zs-print-no">{t('detail.rowNo')}</th>
          {fields.map((f) => (
            <th key={f.name}>{f.label[lang]}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={fields.length + 1}>{t('detail.noRows')}</td>
          </tr>
        )}
        {rows.map((row, i) => (
          <tr key={String(row.id ?? i)}>
            <td className="zs-print-no">{i + 1}</td>
            {fields.map((f) => (
              <td key={f.name} className={isNumeric(f) ? 'zs-num' : undefined}>
                <FieldDisplay field={f} value={row[f.name]} labels={labels[f.name]} compact empty="" />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      {totals.length > 0 && rows.length > 0 && (
        <tfoot>
          <tr>
            <th className="zs-print-no">{t('detail.total')}</th>
            {fields.map((f) => (
              <td key={f.name} className="zs-num">
                {totals.includes(f) && <FieldDisplay field={f} value={columnTotal(rows, f)} compact empty="" />}
              </td>
            ))}
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/** The amounts the schema marks for capitals (x-display.options.capitals), with their figures. */
function Capitals({ fields, record }: { fields: FieldModel[]; record: Row }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const shown = fields.filter(
    (f) => displayOptions(f).capitals === true && record[f.name] !== null && record[f.name] !== undefined && record[f.name] !== '',
  );
  if (!shown.length) return null;
  return (
    <table className="zs-print-table zs-print-capitals" data-testid="print-capitals">
      <tbody>
        {shown.map((f) => (
          <tr key={f.name}>
            <th scope="row">{f.label[lang]}</th>
            <td>
              {t('print.inCapitals')}:<strong>{capitalsText(f, record[f.name]) || '—'}</strong>
            </td>
            <td className="zs-num">
              ¥ <FieldDisplay field={f} value={record[f.name]} compact />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A step of the document's approval timeline (process/history-flow-list), as far as the signature line needs it. */
interface FlowStep {
  historyActivityType: string;
  endTime?: string;
  assigneeName?: string;
  isPass?: boolean;
}

const FLOW_HISTORY = '/api/blade-flow/process/history-flow-list';

/**
 * Who signs the approval lines: the people who passed the document's approval steps, the last of
 * them under 审批 once the document is approved, the others (all of them before) under 审核.
 */
function useSigners(model: EntityModel, record: Row): { reviewers: string; approver: string } {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  const instanceField = model.workflow?.instanceField;
  const instance = instanceField ? record[instanceField] : undefined;
  // the timeline's query, shared with the approval history view
  const history = useQuery({
    queryKey: ['flow', 'history', String(instance ?? '')],
    enabled: Boolean(instance),
    retry: false,
    queryFn: () => http.get<FlowStep[]>(FLOW_HISTORY, { processInstanceId: String(instance) }),
  });
  const names = (history.data ?? [])
    .filter((h) => h.historyActivityType === 'userTask' && h.endTime && h.isPass && h.assigneeName)
    .map((h) => h.assigneeName!);
  const approved = model.workflow ? record[model.workflow.statusField] === 'approved' : false;
  const approver = approved ? (names.at(-1) ?? '') : '';
  const reviewers = [...new Set(approved ? names.slice(0, -1) : names)].join(lang === 'zh' ? '、' : ', ');
  return { reviewers, approver };
}

function Signatures({ model, record }: { model: EntityModel; record: Row }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const { data: users } = useReferenceLabels('user', [record.createUser as string | undefined]);
  const { reviewers, approver } = useSigners(model, record);
  const status = model.workflow ? model.fieldMap[model.workflow.statusField] : undefined;
  const preparer = record.createUser ? (users?.[String(record.createUser)] ?? '') : '';
  return (
    <footer className="zs-print-sign" data-testid="print-signatures">
      <div>
        <span>{t('print.preparedBy')}:</span>
        <span className="zs-print-line" data-testid="print-prepared">
          {preparer}
        </span>
      </div>
      <div>
        <span>{t('print.reviewedBy')}:</span>
        <span className="zs-print-line" data-testid="print-reviewed">
          {reviewers}
        </span>
      </div>
      <div>
        <span>{t('print.approvedBy')}:</span>
        <span className="zs-print-line" data-testid="print-approved">
          {approver}
        </span>
      </div>
      {status && (
        <div>
          <span>{status.label[lang]}:</span>
          <span className="zs-print-status">
            <FieldDisplay field={status} value={record[status.name]} compact />
          </span>
        </div>
      )}
    </footer>
  );
}

function PrintForm({ model, record }: { model: EntityModel; record: Row }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  // the department that made the document, else the printing user's (a seeded record's may be gone)
  const userDept = useAtomValue(userInfoAtom)?.dept_id;
  const { data: depts } = useReferenceLabels('dept', [record.createDept as string | undefined, userDept]);
  const deptName = (id: unknown) => (id && depts?.[String(id)] !== String(id) ? depts?.[String(id)] : undefined);
  const company = deptName(record.createDept) ?? deptName(userDept);
  const codeField = model.code?.field;
  const pairs = useRegistry().periodPairs?.(model) ?? [];
  const inPairs = new Set(pairs.flatMap((p) => [p.current.name, p.previous.name, p.cumulative?.name ?? '']));
  const statusName = model.workflow?.statusField;
  const titleName = model.titleField && model.titleField !== codeField ? model.titleField : undefined;
  const columns = Math.max(2, Math.min(4, model.layout.columns + 1));
  const allFields: FieldModel[] = [];
  let pairsPlaced = false;

  const sections = viewSections(model, record).map((section, i) => {
    allFields.push(...section.fields);
    // the code is in the title, the status on the signature line; no attachment line when nothing is attached
    const fields = section.fields.filter(
      (f) =>
        !inPairs.has(f.name) &&
        f.name !== statusName &&
        f.name !== codeField &&
        !(FILE_DISPLAYS.has(displayTypeOf(f)) && isEmptyValue(record[f.name])),
    );
    const placePairs = !pairsPlaced && pairs.length > 0 && section.fields.some((f) => inPairs.has(f.name));
    if (placePairs) pairsPlaced = true;
    if (!fields.length && !section.details.length && !placePairs) return null;
    return (
      <section key={i} className="zs-print-section">
        {section.title && <h2>{section.title[lang]}</h2>}
        {placePairs && <PairsTable pairs={pairs} record={record} />}
        {fields.length > 0 && <HeaderGrid fields={fields} record={record} columns={columns} />}
        {section.details.map((detail) => (
          <Fragment key={detail.name}>
            {(section.fields.length > 0 || !section.title) && <h3>{detail.label[lang]}</h3>}
            <RowsTable detail={detail} rows={(record[detail.name] as Row[] | undefined) ?? []} />
          </Fragment>
        ))}
      </section>
    );
  });

  const landscape = model.details.some((d) => printedColumns(d, (record[d.name] as Row[] | undefined) ?? []).length + 1 > LANDSCAPE_FROM);
  return (
    <article className="zs-print-form" lang={lang === 'zh' ? 'zh-CN' : 'en'} data-orientation={landscape ? 'landscape' : 'portrait'}>
      {landscape && <style>{'@media print { @page { size: A4 landscape; } }'}</style>}
      <header className="zs-print-title">
        {company && <div className="zs-print-company">{company}</div>}
        <h1>{model.label[lang]}</h1>
        <div className="zs-print-meta">
          {titleName && record[titleName] ? <span>{String(record[titleName])}</span> : null}
          {codeField && (
            <span>
              {t('print.code')}:<strong data-testid="print-code">{String(record[codeField] ?? '')}</strong>
            </span>
          )}
        </div>
      </header>
      {sections}
      <Capitals fields={allFields} record={record} />
      <Signatures model={model} record={record} />
    </article>
  );
}

/** The printed form of the record, rendered into its own container under <body> once the record is loaded. */
export function PrintDocument({ model, id }: { model: EntityModel; id: string }) {
  const http = useHttp();
  const query = useQuery({
    queryKey: ['detail', model.key, id],
    queryFn: () => http.get<Row>(`${model.api}/detail`, { id }),
  });
  if (!query.data || typeof document === 'undefined') return null;
  return createPortal(
    <div className="zs-print-root" data-testid="print-document">
      <PrintForm model={model} record={query.data} />
    </div>,
    document.body,
  );
}
