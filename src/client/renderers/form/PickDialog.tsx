// "从采购合同选择": the lines of the document a header reference selects (x-detail.pickFrom), to
// tick and append as rows. Lines already in the grid are marked and cannot be picked twice, unless
// the source lets a line come once per value of other row fields (pickFrom.unique: a contract line
// once per receiving check); each picked line fills the fields the schema maps and keeps its id for
// the server's check.
import { useQuery } from '@tanstack/react-query';
import { Alert, Modal, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import type { DetailModel, FieldModel, PickSource } from '../../../engine/model/types.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { detailColumns } from '../detail/sections.ts';
import { FieldDisplay } from '../displays/FieldDisplay.tsx';
import { displayTypeOf, NUMERIC_DISPLAYS } from '../displays/display-type.ts';
import { useHttp } from '../http-context.tsx';
import { usePageLabels } from '../list/usePageLabels.ts';
import type { FormStore, Row } from './store.ts';

const NO_LINES: Row[] = [];

/** The row a picked line becomes: the mapped fields and the line's id. */
export function rowFromLine(pick: PickSource, line: Row): Row {
  const row: Row = { [pick.rowId]: line.id };
  for (const [target, source] of Object.entries(pick.map))
    if (line[source] !== undefined && line[source] !== null) row[target] = line[source];
  return row;
}

/**
 * The source line fields worth a column: those with a value on some line, leaving out references
 * whose snapshot fields (goods code, name, spec, unit) already say what they point to.
 */
function lineColumns(lines: DetailModel, rows: readonly Row[]): FieldModel[] {
  const filled = (name: string) => rows.some((r) => r[name] !== undefined && r[name] !== null && r[name] !== '');
  return detailColumns(lines).filter(
    (f) => filled(f.name) && !(f.ref && Object.keys(f.ref.copy).some((c) => lines.fieldMap[c] && filled(c))),
  );
}

export interface PickDialogProps {
  store: FormStore;
  detail: string;
  pick: PickSource;
  open: boolean;
  onClose: () => void;
}

export function PickDialog({ store, detail, pick, open, onClose }: PickDialogProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const http = useHttp();
  const header = store.model.fieldMap[pick.header];
  const source = catalog().entities[pick.entity];
  const lines = source.details.find((d) => d.name === pick.detail)!;
  const selected = store.header[pick.header];
  const by = header.ref!.valueField;
  const query = useQuery({
    queryKey: ['pick', pick.entity, by, selected],
    enabled: open && selected !== undefined && selected !== null && selected !== '',
    queryFn: () => http.get<Row>(`${source.api}/detail`, { [by]: String(selected) }),
  });
  const rows = (query.data?.[pick.detail] as Row[] | undefined) ?? NO_LINES;
  const fields = useMemo(() => lineColumns(lines, rows), [lines, rows]);
  const labels = usePageLabels(
    lines.fieldMap,
    fields.map((f) => f.name),
    rows,
  );
  const taken = new Set(
    store
      .rows(detail)
      .map((r) => r[pick.rowId])
      .filter(Boolean)
      .map(String),
  );
  const lockTaken = !pick.unique?.length;
  const [chosen, setChosen] = useState<string[]>([]);

  const close = () => {
    setChosen([]);
    onClose();
  };
  const confirm = () => {
    store.appendRows(
      detail,
      rows.filter((r) => chosen.includes(String(r.id))).map((r) => rowFromLine(pick, r)),
    );
    close();
  };

  const columns: ColumnsType<Row> = [
    ...fields.map((field) => ({
      key: field.name,
      dataIndex: field.name,
      title: field.label[lang],
      ellipsis: true,
      align: NUMERIC_DISPLAYS.has(displayTypeOf(field)) ? ('right' as const) : undefined,
      render: (value: unknown) => <FieldDisplay field={field} value={value} labels={labels[field.name]} compact empty="" />,
    })),
    {
      key: '__taken',
      title: '',
      width: 80,
      render: (_v, row) => (taken.has(String(row.id)) ? <Tag color="blue">{t('grid.picked')}</Tag> : null),
    },
  ];

  const title = t('grid.pickFrom', { source: header.label[lang] });
  return (
    <Modal
      open={open}
      title={title}
      width={960}
      onCancel={close}
      onOk={confirm}
      okText={t('grid.pickConfirm', { count: chosen.length })}
      okButtonProps={{ disabled: chosen.length === 0 }}
      destroyOnHidden
    >
      {query.isError && <Alert type="error" showIcon title={(query.error as Error).message} />}
      {query.data && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {[query.data[source.titleField ?? 'id'], ...source.optionFields.filter((f) => f !== source.titleField).map((f) => query.data![f])]
            .filter(Boolean)
            .join(' · ')}
        </Typography.Paragraph>
      )}
      <Table<Row>
        size="small"
        rowKey={(r) => String(r.id)}
        loading={query.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content', y: 400 }}
        locale={{ emptyText: t('grid.pickEmpty', { source: header.label[lang] }) }}
        rowSelection={{
          selectedRowKeys: chosen,
          onChange: (keys) => setChosen(keys.map(String)),
          getCheckboxProps: (r) => ({
            disabled: lockTaken && taken.has(String(r.id)),
            'aria-label': t('grid.pickLine', { row: rows.indexOf(r) + 1 }),
          }),
        }}
      />
    </Modal>
  );
}
