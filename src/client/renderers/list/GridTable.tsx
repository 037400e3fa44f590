// The list's table markup over a TanStack table: a plain <table> styled like antd's (theme tokens
// as CSS variables), a sticky header with sort buttons and resize handles, the selection column
// pinned at the start and the actions at the end, fixed-height rows. Pages longer than 50 rows are
// virtualised (only the rows in view are in the DOM), so 200 rows scroll at display rate.
import { CaretDownFilled, CaretUpFilled } from '@ant-design/icons';
import type { Column, Header, ReactTable, Row as TableRow } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Empty, Skeleton } from 'antd';
import { memo, useContext, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { translate } from '../../i18n/useT.ts';
import type { Row } from '../extensions.ts';
import { isNumericField, ListCells, ROW_HEIGHT, SELECT_COLUMN, type ListFeatures } from './columns.tsx';

export const VIRTUAL_FROM = 50;

type ListTable = ReactTable<ListFeatures, Row, unknown>;

function pinStyle(column: Column<ListFeatures, Row, unknown>): CSSProperties {
  const pinned = column.getIsPinned();
  if (!pinned) return {};
  // position and stacking come from the stylesheet (header cells stack above body cells)
  return pinned === 'start' ? { insetInlineStart: column.getStart('start') } : { insetInlineEnd: column.getAfter('end') };
}

function cellClass(model: EntityModel, column: Column<ListFeatures, Row, unknown>, base: string): string {
  const field = model.fieldMap[column.id];
  const classes = [base];
  if (field && isNumericField(field)) classes.push('zs-grid-number');
  if (column.id === SELECT_COLUMN) classes.push('zs-grid-select');
  if (column.getIsPinned()) classes.push(`zs-grid-pinned-${column.getIsPinned()}`);
  return classes.join(' ');
}

function SortButton({ header, label }: { header: Header<ListFeatures, Row, unknown>; label: ReactNode }) {
  const { lang } = useContext(ListCells);
  const sorted = header.column.getIsSorted();
  const next = sorted === 'asc' ? 'desc' : 'asc';
  const sortBy = () => header.getContext().table.setSorting([{ id: header.column.id, desc: next === 'desc' }]);
  return (
    <button
      type="button"
      className="zs-grid-sort"
      onClick={sortBy}
      title={translate(lang, next === 'asc' ? 'list.sortAsc' : 'list.sortDesc')}
    >
      <span className="zs-grid-title">{label}</span>
      <span className="zs-grid-sorter" aria-hidden>
        <CaretUpFilled className={sorted === 'asc' ? 'on' : ''} />
        <CaretDownFilled className={sorted === 'desc' ? 'on' : ''} />
      </span>
    </button>
  );
}

const HeaderCell = memo(function HeaderCell({
  model,
  table,
  header,
}: {
  model: EntityModel;
  table: ListTable;
  header: Header<ListFeatures, Row, unknown>;
}) {
  const column = header.column;
  const sorted = column.getIsSorted();
  const label = <table.FlexRender header={header} />;
  return (
    <th
      className={cellClass(model, column, 'zs-grid-th')}
      style={pinStyle(column)}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
      data-column={column.id}
    >
      {column.getCanSort() ? <SortButton header={header} label={label} /> : <span className="zs-grid-title">{label}</span>}
      {column.getCanResize() && (
        <span
          className={`zs-grid-resizer${column.getIsResizing() ? ' active' : ''}`}
          onMouseDown={header.getResizeHandler()}
          onTouchStart={header.getResizeHandler()}
          onDoubleClick={() => column.resetSize()}
          role="separator"
          aria-orientation="vertical"
        />
      )}
    </th>
  );
});

interface BodyRowProps {
  model: EntityModel;
  table: ListTable;
  row: TableRow<ListFeatures, Row>;
  columns: Column<ListFeatures, Row, unknown>[];
  /** Passed so that a memoised row re-renders when its selection changes. */
  selected: boolean;
}

const ROW_STYLE: CSSProperties = { height: ROW_HEIGHT };

/** One row; rows that stay in view are not rendered again while the list scrolls. */
const BodyRow = memo(function BodyRow({ model, table, row, columns, selected }: BodyRowProps) {
  const cells = row.getVisibleCellsByColumnId();
  return (
    <tr className={`zs-grid-row${selected ? ' selected' : ''}`} data-row-id={row.id} style={ROW_STYLE}>
      {columns.map((column) => (
        <td key={column.id} className={cellClass(model, column, 'zs-grid-td')} style={pinStyle(column)}>
          {cells[column.id] && <table.FlexRender cell={cells[column.id]} />}
        </td>
      ))}
    </tr>
  );
});

function Placeholder({ span, children }: { span: number; children: ReactNode }) {
  return (
    <tr className="zs-grid-placeholder">
      <td colSpan={span}>{children}</td>
    </tr>
  );
}

/** Which pinned side has content scrolled under it (it then casts a shadow, as antd's does). */
function usePinShadows(scrollRef: React.RefObject<HTMLDivElement | null>, width: number) {
  const [ping, setPing] = useState('');
  const current = useRef('');
  const measure = () => {
    const el = scrollRef.current;
    if (!el) return;
    const start = el.scrollLeft > 0 ? ' ping-start' : '';
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1 ? ' ping-end' : '';
    if (start + end === current.current) return;
    current.current = start + end;
    setPing(start + end);
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(measure, [width]);
  useLayoutEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  });
  return { ping, measure };
}

export interface GridTableProps {
  model: EntityModel;
  table: ListTable;
  /** No rows yet: skeleton rows instead of the empty state. */
  loading: boolean;
}

export function GridTable({ model, table, loading }: GridTableProps) {
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUAL_FROM;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.id ?? index,
    overscan: 10,
    enabled: virtual,
    initialRect: { width: 1200, height: 600 },
  });
  const headers = table.getHeaderGroups().at(-1)?.headers ?? [];
  const columnKey = headers.map((h) => `${h.column.id}:${h.column.getSize()}`).join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const columns = useMemo(() => headers.map((h) => h.column), [columnKey, table]);
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const before = virtual && items.length ? items[0].start : 0;
  const after = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const shown = virtual ? items.map((item) => rows[item.index]).filter(Boolean) : rows;
  const { ping, measure } = usePinShadows(scrollRef, table.getTotalSize());

  return (
    <div ref={scrollRef} className={`zs-grid-scroll${virtual ? ' zs-grid-long' : ''}${ping}`} onScroll={measure}>
      <table className="zs-grid" style={{ width: table.getTotalSize() }}>
        <colgroup>
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.getSize() }} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {headers.map((h) => (
              <HeaderCell key={h.id} model={model} table={table} header={h} />
            ))}
          </tr>
        </thead>
        <tbody>
          {loading &&
            !rows.length &&
            Array.from({ length: 5 }, (_, i) => (
              <Placeholder key={i} span={columns.length}>
                <Skeleton.Input active block size="small" />
              </Placeholder>
            ))}
          {!loading && !rows.length && (
            <Placeholder span={columns.length}>
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            </Placeholder>
          )}
          {before > 0 && <tr aria-hidden style={{ height: before }} />}
          {shown.map((row) => (
            <BodyRow key={row.id} model={model} table={table} row={row} columns={columns} selected={row.getIsSelected()} />
          ))}
          {after > 0 && <tr aria-hidden style={{ height: after }} />}
        </tbody>
      </table>
    </div>
  );
}
