// The detail rows of a document, read-only: one column per row field (labels of references looked
// up once for all rows), a row number, and a footer of totals under quantities and amounts.
// Long tables scroll inside a fixed height with antd's virtual rows.
import { Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import type { DetailModel, FieldModel } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { FieldDisplay } from '../displays/FieldDisplay.tsx';
import { displayTypeOf, NUMERIC_DISPLAYS } from '../displays/display-type.ts';
import type { Row } from '../extensions.ts';
import { usePageLabels } from '../list/usePageLabels.ts';
import { detailColumns } from './sections.ts';
import { columnTotal, totalledColumns } from './totals.ts';

const NO_ROWS: Row[] = [];
const VIRTUAL_FROM = 100;

function widthOf(field: FieldModel): number {
  const type = displayTypeOf(field);
  if (NUMERIC_DISPLAYS.has(type)) return 130;
  if (type === 'month' || type === 'date') return 120;
  return field.maxLength && field.maxLength <= 20 ? 90 : 160;
}

export function DetailRowsTable({ detail, rows = NO_ROWS }: { detail: DetailModel; rows?: Row[] }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const fields = useMemo(() => detailColumns(detail), [detail]);
  const names = useMemo(() => fields.map((f) => f.name), [fields]);
  const labels = usePageLabels(detail.fieldMap, names, rows);
  const totals = totalledColumns(detail, fields, rows);

  const columns: ColumnsType<Row> = [
    { key: '__no', title: t('detail.rowNo'), width: 64, fixed: 'left', align: 'center', render: (_v, _row, index) => index + 1 },
    ...fields.map((field) => ({
      key: field.name,
      dataIndex: field.name,
      title: field.label[lang],
      width: widthOf(field),
      ellipsis: true,
      align: NUMERIC_DISPLAYS.has(displayTypeOf(field)) ? ('right' as const) : undefined,
      render: (value: unknown) => <FieldDisplay field={field} value={value} labels={labels[field.name]} compact empty="" />,
    })),
  ];
  const width = columns.reduce((sum, c) => sum + Number(c.width ?? 120), 0);
  const long = rows.length > VIRTUAL_FROM;

  const summary = () => (
    <Table.Summary fixed>
      <Table.Summary.Row>
        <Table.Summary.Cell index={0} align="center">
          <Typography.Text strong>{t('detail.total')}</Typography.Text>
        </Table.Summary.Cell>
        {fields.map((field, i) => (
          <Table.Summary.Cell key={field.name} index={i + 1} align="right">
            {totals.includes(field) && (
              <Typography.Text strong data-testid={`total-${field.name}`}>
                <FieldDisplay field={field} value={columnTotal(rows, field)} compact empty="" />
              </Typography.Text>
            )}
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    </Table.Summary>
  );

  return (
    <div data-testid={`detail-rows-${detail.name}`}>
      <Table<Row>
        rowKey={(row) => String(row.id ?? rows.indexOf(row))}
        size="small"
        bordered
        columns={columns}
        dataSource={rows}
        pagination={false}
        virtual={long}
        scroll={{ x: width, y: long ? 480 : undefined }}
        summary={totals.length && rows.length ? summary : undefined}
        locale={{ emptyText: t('detail.noRows') }}
      />
    </div>
  );
}
