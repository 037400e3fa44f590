// One row of the detail grid. It reads its own values from the form store, so a keystroke
// re-renders this row (and the totals) only. Each cell is the field's widget, or text for values
// the row derives (amounts) or copies from a reference (goods code, name, spec, unit); a cell's
// validation message shows under it until the cell is edited.
import { CopyOutlined, DeleteOutlined } from '@ant-design/icons';
import type { ErrorSchema } from '@rjsf/utils';
import { Button, Checkbox } from 'antd';
import { useAtomValue } from 'jotai';
import { memo, useCallback, useMemo, useState, useSyncExternalStore, type CSSProperties, type ReactNode } from 'react';
import { t as engineT } from '../../../engine/i18n/messages.ts';
import type { FieldModel } from '../../../engine/model/types.ts';
import { langAtom } from '../../state/session.ts';
import { useT } from '../../i18n/useT.ts';
import { useDictionary, useReferenceLabels } from '../data.ts';
import { displayScale, formatDecimal } from '../format.ts';
import { dependenciesOf } from '../widgets/ref-filters.ts';
import { FieldControl } from '../widgets/FieldControl.tsx';
import { ACTIONS_WIDTH, INDEX_WIDTH, ROW_HEIGHT, SELECT_WIDTH, type GridColumn } from './grid-columns.ts';
import { ruleState } from './rules.ts';
import type { FormStore, Row } from './store.ts';

/** A cell's message: one small red line under the input (the full text on hover). */
const ERROR_STYLE: CSSProperties = {
  color: 'var(--ant-color-error, #ff4d4f)',
  fontSize: 11,
  lineHeight: '12px',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  padding: '0 7px',
};

export function Cell({
  width,
  align,
  children,
  style,
}: {
  width: number;
  align?: 'right' | 'center';
  children?: ReactNode;
  style?: CSSProperties;
}) {
  return (
    <div
      role="cell"
      className="zs-grid-cell"
      style={{
        width,
        flex: `0 0 ${width}px`,
        textAlign: align,
        padding: '0 4px',
        overflow: 'hidden',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        ...style,
      }}
    >
      {children}
    </div>
  );
}

function LabelText({ field, value }: { field: FieldModel; value: unknown }) {
  const dict = useDictionary(field.dict);
  const refs = useReferenceLabels(field.ref?.entity, field.ref ? [value as string] : [], field.ref?.valueField);
  const key = String(value);
  return <>{field.dict ? (dict.data?.find((d) => d.value === key)?.label ?? key) : (refs.data?.[key] ?? key)}</>;
}

/** A value the user does not type: derived amounts, snapshot fields. */
function CellText({ field, value }: { field: FieldModel; value: unknown }) {
  if (value === undefined || value === null || value === '') return null;
  if (field.kind === 'decimal') return <>{formatDecimal(value as string | number, displayScale(field))}</>;
  if (field.dict || field.ref) return <LabelText field={field} value={value} />;
  return <>{String(value)}</>;
}

interface GridCellProps {
  store: FormStore;
  detail: string;
  rowKey: string;
  index: number;
  column: GridColumn;
  value: unknown;
  hidden: boolean;
  readOnly: boolean;
  /** Only for fields that read other fields (cascading references): else undefined, so the cell stays memoised. */
  values?: Row;
  message?: string;
  /** "物资明细第2行": left out of the cell's message, which sits in that row. */
  rowLabel: string;
  onEdited: (field: string) => void;
}

/** "请输入物资明细第2行 图纸设计量" in the cell of row 2: "请输入图纸设计量" (the full text on hover). */
function withoutRow(message: string, rowLabel: string): string {
  const at = message.toLowerCase().indexOf(`${rowLabel.toLowerCase()} `);
  return at < 0 ? message : message.slice(0, at) + message.slice(at + rowLabel.length + 1);
}

/** One cell; memoised, so typing in a row re-renders only the cells whose values changed. */
const GridCell = memo(function GridCell({
  store,
  detail,
  rowKey,
  index,
  column,
  value,
  hidden,
  readOnly,
  values,
  message,
  rowLabel,
  onEdited,
}: GridCellProps) {
  const { field, width, editable, numeric } = column;
  const name = field.name;
  return (
    <Cell width={width} align={numeric && !editable ? 'right' : undefined}>
      {hidden ? null : editable && !readOnly ? (
        <FieldControl
          compact
          field={field}
          value={value}
          id={`root_${detail}_${index}_${name}`}
          onChange={(v) => {
            onEdited(name);
            store.setCell(detail, rowKey, name, v);
          }}
          onPick={(record) => store.pick(detail, rowKey, name, record)}
          readOnly={readOnly}
          invalid={Boolean(message)}
          values={values}
          fieldMap={store.detail(detail).fieldMap}
        />
      ) : (
        <CellText field={field} value={value} />
      )}
      {message && (
        <div className="zs-grid-error" title={message} style={ERROR_STYLE}>
          {withoutRow(message, rowLabel)}
        </div>
      )}
    </Cell>
  );
});

export interface GridRowProps {
  store: FormStore;
  detail: string;
  rowKey: string;
  index: number;
  top: number;
  columns: readonly GridColumn[];
  readOnly: boolean;
  selected: boolean;
  /** This row's errors (rjsf error schema of the row), shown until a cell is edited. */
  errors?: ErrorSchema;
  onSelect: (key: string, selected: boolean) => void;
  onCopy: (key: string) => void;
  onDelete: (key: string) => void;
}

function GridRowView({ store, detail, rowKey, index, top, columns, readOnly, selected, errors, onSelect, onCopy, onDelete }: GridRowProps) {
  const t = useT();
  const row = useSyncExternalStore(
    (notify) => store.subscribe(`row:${detail}:${rowKey}`, notify),
    () => store.row(detail, rowKey),
  );
  const [edited, setEdited] = useState<{ errors?: ErrorSchema; fields: ReadonlySet<string> }>({ errors, fields: new Set() });
  const touched = edited.errors === errors ? edited.fields : new Set<string>();
  const model = store.detail(detail);
  const lang = useAtomValue(langAtom);
  const rowLabel = engineT('detailRow', lang, { detail: model.label, row: index + 1 });
  const values: Row = { ...store.header, ...row };
  const rules = ruleState(model.fields, row, values);
  const dependent = useMemo(() => new Set(model.fields.filter((f) => dependenciesOf(f).length > 0).map((f) => f.name)), [model]);

  const onEdited = useCallback(
    (name: string) =>
      setEdited((e) => {
        const fields = e.errors === errors ? e.fields : new Set<string>();
        return fields.has(name) ? e : { errors, fields: new Set([...fields, name]) };
      }),
    [errors],
  );

  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`zs-grid-row${selected ? ' zs-grid-row-selected' : ''}`}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        transform: `translateY(${top}px)`,
        height: ROW_HEIGHT,
        display: 'flex',
        alignItems: 'center',
      }}
    >
      {!readOnly && (
        <Cell width={SELECT_WIDTH} align="center">
          <Checkbox
            checked={selected}
            onChange={(e) => onSelect(rowKey, e.target.checked)}
            aria-label={t('grid.selectRow', { row: index + 1 })}
          />
        </Cell>
      )}
      <Cell width={INDEX_WIDTH} align="center">
        {index + 1}
      </Cell>
      {columns.map((column) => {
        const name = column.field.name;
        return (
          <GridCell
            key={name}
            store={store}
            detail={detail}
            rowKey={rowKey}
            index={index}
            column={column}
            value={row[name]}
            hidden={rules.hidden.has(name)}
            readOnly={readOnly || rules.readonly.has(name)}
            values={dependent.has(name) ? values : undefined}
            message={touched.has(name) ? undefined : (errors?.[name] as ErrorSchema | undefined)?.__errors?.[0]}
            rowLabel={rowLabel}
            onEdited={onEdited}
          />
        );
      })}
      {!readOnly && (
        <Cell width={ACTIONS_WIDTH} align="center">
          <Button
            size="small"
            type="text"
            icon={<CopyOutlined />}
            title={t('grid.copy')}
            aria-label={`${t('grid.copy')} ${index + 1}`}
            onClick={() => onCopy(rowKey)}
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            title={t('grid.delete')}
            aria-label={`${t('grid.delete')} ${index + 1}`}
            onClick={() => onDelete(rowKey)}
          />
        </Cell>
      )}
    </div>
  );
}

export const GridRow = memo(GridRowView);
