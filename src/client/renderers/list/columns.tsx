// The TanStack Table v9 setup of the list: its features (selection, manual sorting, lazy tree
// expansion, column visibility / order / pinning / sizing / resizing) and the column definitions
// built from x-list. Cells read what changes per page (labels, the tree, the row actions) from a
// context, so the column definitions stay stable while pages come and go.
import { CaretDownOutlined, CaretRightOutlined, LoadingOutlined } from '@ant-design/icons';
import {
  columnOrderingFeature,
  columnPinningFeature,
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  createExpandedRowModel,
  rowExpandingFeature,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  type CellContext,
  type HeaderContext,
} from '@tanstack/react-table';
import { Checkbox } from 'antd';
import { createContext, useContext, type ReactNode } from 'react';
import type { EntityModel, FieldModel, Lang } from '../../../engine/model/types.ts';
import { translate } from '../../i18n/useT.ts';
import { FieldDisplay } from '../displays/FieldDisplay.tsx';
import { displayTypeOf, NUMERIC_DISPLAYS } from '../displays/display-type.ts';
import type { Row } from '../extensions.ts';
import { isSortable } from './useListQuery.ts';
import type { PageLabels } from './usePageLabels.ts';

export const listFeatures = tableFeatures({
  rowSelectionFeature,
  rowSortingFeature,
  rowExpandingFeature,
  expandedRowModel: createExpandedRowModel(),
  columnVisibilityFeature,
  columnOrderingFeature,
  columnPinningFeature,
  columnSizingFeature,
  columnResizingFeature,
});

export type ListFeatures = typeof listFeatures;

export const SELECT_COLUMN = '__select';
export const ACTIONS_COLUMN = '__actions';
export const ROW_HEIGHT = 44;

/** What the cells need beyond their row: the page's reference labels, tree expansion, row buttons. */
export interface ListCellContext {
  lang: Lang;
  labels: PageLabels;
  /** Expands / collapses a tree row (tree lists only). */
  toggleRow?: (row: Row) => void;
  loadingRows?: ReadonlySet<string>;
  renderActions: (row: Row) => ReactNode;
}

export const ListCells = createContext<ListCellContext>({ lang: 'zh', labels: {}, renderActions: () => null });

export function isNumericField(field: FieldModel): boolean {
  return NUMERIC_DISPLAYS.has(displayTypeOf(field));
}

function defaultWidth(field: FieldModel): number {
  const type = displayTypeOf(field);
  if (type === 'datetime') return 170;
  if (type === 'date' || type === 'month' || type === 'money') return 130;
  if (type === 'boolean' || type === 'tag' || type === 'percent' || (type === 'number' && field.kind === 'integer')) return 100;
  return 160;
}

function SelectAllHeader({ table }: HeaderContext<ListFeatures, Row, unknown>) {
  const { lang } = useContext(ListCells);
  const some = table.getIsSomeRowsSelected();
  return (
    <Checkbox
      aria-label={translate(lang, 'list.selectAll')}
      checked={table.getIsAllRowsSelected() && table.getRowModel().rows.length > 0}
      indeterminate={some && !table.getIsAllRowsSelected()}
      onChange={(e) => table.toggleAllRowsSelected(e.target.checked)}
    />
  );
}

function SelectCell({ row }: CellContext<ListFeatures, Row, unknown>) {
  const { lang } = useContext(ListCells);
  return (
    <Checkbox aria-label={translate(lang, 'list.selectRow')} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
  );
}

function Expander({ row }: { row: CellContext<ListFeatures, Row, unknown>['row'] }) {
  const { toggleRow, loadingRows, lang } = useContext(ListCells);
  const indent = <span style={{ display: 'inline-block', width: row.depth * 20 }} />;
  if (!row.getCanExpand())
    return (
      <>
        {indent}
        <span className="zs-grid-expander" />
      </>
    );
  const open = row.getIsExpanded();
  const icon = loadingRows?.has(row.id) ? <LoadingOutlined /> : open ? <CaretDownOutlined /> : <CaretRightOutlined />;
  return (
    <>
      {indent}
      <button
        type="button"
        className="zs-grid-expander"
        aria-expanded={open}
        aria-label={translate(lang, open ? 'list.collapse' : 'list.expand')}
        onClick={() => toggleRow?.(row.original)}
      >
        {icon}
      </button>
    </>
  );
}

function ValueCell({ field, context }: { field: FieldModel; context: CellContext<ListFeatures, Row, unknown> }) {
  const { labels, toggleRow } = useContext(ListCells);
  // the tree's expander sits in the first field column the person sees
  const first = Boolean(toggleRow) && context.table.getVisibleLeafColumns().find((c) => c.id !== SELECT_COLUMN)?.id === context.column.id;
  return (
    <>
      {first && <Expander row={context.row} />}
      <FieldDisplay field={field} value={context.getValue()} labels={labels[field.name]} compact empty="" />
    </>
  );
}

function ActionsCell({ row }: CellContext<ListFeatures, Row, unknown>) {
  return <>{useContext(ListCells).renderActions(row.original)}</>;
}

/** Column definitions from x-list; `actionsWidth` fits the row buttons the user may press. */
export function listColumns(model: EntityModel, lang: Lang, actionsWidth: number) {
  const helper = createColumnHelper<ListFeatures, Row>();
  const fields = model.list.columns.filter((c) => model.fieldMap[c.field]);
  return helper.columns([
    helper.display({
      id: SELECT_COLUMN,
      header: SelectAllHeader,
      cell: SelectCell,
      size: 48,
      minSize: 48,
      enableResizing: false,
      enableHiding: false,
      enableSorting: false,
    }),
    ...fields.map((c) =>
      helper.accessor((row: Row) => row[c.field], {
        id: c.field,
        header: model.fieldMap[c.field].label[lang],
        cell: (context) => <ValueCell field={model.fieldMap[c.field]} context={context} />,
        size: c.width ?? defaultWidth(model.fieldMap[c.field]),
        minSize: 60,
        maxSize: 800,
        enableSorting: isSortable(model, c),
      }),
    ),
    helper.display({
      id: ACTIONS_COLUMN,
      header: translate(lang, 'common.actions'),
      cell: ActionsCell,
      size: actionsWidth,
      minSize: actionsWidth,
      enableResizing: false,
      enableHiding: false,
      enableSorting: false,
    }),
  ]);
}
