// The result of a report run as a table: the rows in group order, after each group's last row a
// subtotal row (its count and sums), and the grand total below. Values arrive as labels.
import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useT } from '../i18n/useT.ts';

export interface ReportRun {
  columns: { field: string; label: string; numeric: boolean }[];
  groupBy: string[];
  sums: string[];
  records: Record<string, unknown>[];
  groups: Record<string, unknown>[];
  totals: Record<string, unknown>;
  total: number;
  current: number;
  size: number;
}

type Line = Record<string, unknown> & { key: string; kind: 'row' | 'group' };

const sameGroup = (groupBy: string[], a: Record<string, unknown>, b: Record<string, unknown>) => groupBy.every((g) => a[g] === b[g]);

/** Rows with a subtotal line after each group's last row on this page. */
export function linesOf(run: ReportRun): Line[] {
  const lines: Line[] = [];
  run.records.forEach((row, i) => {
    lines.push({ ...row, key: `r${String(row.id ?? i)}`, kind: 'row' });
    const next = run.records[i + 1];
    if (!run.groupBy.length || (next && sameGroup(run.groupBy, row, next))) return;
    const group = run.groups.find((g) => sameGroup(run.groupBy, g, row));
    if (group) lines.push({ ...group, key: `g${i}`, kind: 'group' });
  });
  return lines;
}

const show = (value: unknown) =>
  typeof value === 'number'
    ? value.toLocaleString('en-US', { maximumFractionDigits: 4 })
    : value === null || value === undefined
      ? ''
      : String(value);

export function ReportTable({
  run,
  onPage,
  loading,
}: {
  run: ReportRun;
  onPage?: (current: number, size: number) => void;
  loading?: boolean;
}) {
  const t = useT();
  const groupLabel = (line: Line) =>
    `${t('report.subtotal')} ${run.groupBy.map((g) => show(line[g])).join(' / ')} (${t('report.rows', { count: Number(line.count) })})`;
  const columns: ColumnsType<Line> = run.columns.map((c, index) => ({
    key: c.field,
    title: c.label,
    align: c.numeric ? 'right' : 'left',
    render: (_: unknown, line: Line) => {
      if (line.kind === 'group') {
        if (index === 0) return <Typography.Text strong>{groupLabel(line)}</Typography.Text>;
        return c.numeric ? <Typography.Text strong>{show(line[c.field])}</Typography.Text> : null;
      }
      return show(line[c.field]);
    },
  }));
  return (
    <Table<Line>
      size="small"
      bordered
      loading={loading}
      columns={columns}
      dataSource={linesOf(run)}
      rowClassName={(line) => (line.kind === 'group' ? 'report-group-row' : '')}
      pagination={onPage ? { current: run.current, pageSize: run.size, total: run.total, showSizeChanger: true, onChange: onPage } : false}
      summary={() => (
        <Table.Summary.Row>
          {run.columns.map((c, index) => (
            <Table.Summary.Cell key={c.field} index={index} align={c.numeric ? 'right' : 'left'}>
              <Typography.Text strong>
                {index === 0
                  ? `${t('report.total')} (${t('report.rows', { count: Number(run.totals.count) })})`
                  : run.sums.includes(c.field)
                    ? show(run.totals[c.field])
                    : ''}
              </Typography.Text>
            </Table.Summary.Cell>
          ))}
        </Table.Summary.Row>
      )}
    />
  );
}
