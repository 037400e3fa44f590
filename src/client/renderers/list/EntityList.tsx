// The list screen of any entity, from its schema alone: the search bar (x-search), the toolbar
// (add, batch delete, export, extension actions), the table of x-list columns with dictionary and
// reference labels, sortable headers, multi-select, row actions, per-user column settings, and
// paging (10/30/50/100/200). Tree entities list as a lazy tree until a search asks for a flat list.
// The root carries data-testid="entity-list" and aria-busy="true" while data loads.
import { useTable, type OnChangeFn, type RowSelectionState, type SortingState, type Updater } from '@tanstack/react-table';
import { Alert, Button, Pagination, Spin, theme } from 'antd';
import { useAtomValue } from 'jotai';
import { memo, useCallback, useMemo, useState, type CSSProperties } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import { nodesOf } from '../../../engine/tree/forest.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import type { Row } from '../extensions.ts';
import { ColumnSettings } from './ColumnSettings.tsx';
import { useColumnPrefs, type ColumnPrefs } from './columnPrefs.ts';
import { ACTIONS_COLUMN, ListCells, listColumns, listFeatures, SELECT_COLUMN, type ListCellContext } from './columns.tsx';
import { GridTable } from './GridTable.tsx';
import { actionsWidth, RowActions } from './RowActions.tsx';
import type { SearchValues } from './filters.ts';
import { SearchBar } from './SearchBar.tsx';
import { Toolbar } from './Toolbar.tsx';
import { useForestExpansion } from './useForestExpansion.ts';
import { useLazyTree, type TreeRow } from './useLazyTree.ts';
import { useListActions } from './useListActions.tsx';
import { firstListRequest, listsAsTree, useListQuery } from './useListQuery.ts';
import { usePageLabels } from './usePageLabels.ts';
import './entity-list.css';

export interface EntityListProps {
  model: EntityModel;
  /** Add (no row), edit or view a row: the page opens the form or the detail. */
  onOpen: (mode: 'create' | 'edit' | 'view', row?: Row) => void;
  /** Search values to start with (the page's address, `urlFilters.ts`): in the search bar and the first request. */
  initialSearch?: SearchValues;
}

const NO_ROWS: Row[] = [];
const PINNING = { start: [SELECT_COLUMN], end: [ACTIONS_COLUMN] };

const apply = <T,>(updater: Updater<T>, current: T): T => (typeof updater === 'function' ? (updater as (old: T) => T)(current) : updater);

function useThemeVariables(): CSSProperties {
  const { token } = theme.useToken();
  return {
    '--zs-grid-border': token.colorBorderSecondary,
    '--zs-grid-header-bg': token.colorFillAlter,
    '--zs-grid-header-color': token.colorTextHeading,
    '--zs-grid-row-hover': token.controlItemBgHover,
    '--zs-grid-row-selected': token.controlItemBgActive,
    '--zs-grid-bg': token.colorBgContainer,
    '--zs-grid-text': token.colorText,
    '--zs-grid-primary': token.colorPrimary,
    '--zs-grid-primary-hover': token.colorPrimaryHover,
    '--zs-grid-danger': token.colorError,
    '--zs-grid-danger-hover': token.colorErrorHover,
    '--zs-grid-disabled': token.colorTextDisabled,
    '--zs-grid-muted': token.colorTextQuaternary,
    '--zs-grid-shadow': token.colorBorder,
    '--zs-grid-radius': `${token.borderRadiusLG}px`,
    '--zs-grid-font': `${token.fontSize}px`,
  } as CSSProperties;
}

// memo: a form or a detail opening over the list (EntityPage) leaves it as it is
export const EntityList = memo(function EntityList({ model, onOpen, initialSearch }: EntityListProps) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [first] = useState(() => firstListRequest(model, initialSearch));
  const [filters, setFilters] = useState<Record<string, string>>(first.filters);
  const [page, setPage] = useState({ current: first.current, size: first.size });
  const [sorting, setSorting] = useState<SortingState>(first.sorting);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const { prefs, update, reset } = useColumnPrefs(model);

  // a tree entity lists as a lazy tree; a search shows what it finds: a page, or for a forest
  // entity (x-entity.tree.list) the forest of the finds, every branch open
  const treeMode = listsAsTree(model, filters);
  const forestMode = !treeMode && model.tree?.list === 'forest';
  const nested = treeMode || forestMode;
  const list = useListQuery(model, { filters, ...page, sorting }, !treeMode);
  const tree = useLazyTree(model, treeMode);
  const data: Row[] = treeMode ? tree.roots : (list.data?.records ?? NO_ROWS);
  const found = useForestExpansion(forestMode ? data : NO_ROWS);

  const forget = (ids: string[]) => setSelection((s) => Object.fromEntries(Object.entries(s).filter(([id]) => !ids.includes(id))));
  const actions = useListActions(model, forget);
  const width = actionsWidth(model, actions, lang);
  const columns = useMemo(() => listColumns(model, lang, width), [model, lang, width]);

  const changePrefs = useCallback(
    <K extends keyof ColumnPrefs>(key: K): OnChangeFn<ColumnPrefs[K]> =>
      (updater) =>
        update({ [key]: apply(updater, prefs[key]) }),
    [prefs, update],
  );
  const onSortingChange: OnChangeFn<SortingState> = (updater) => {
    setSorting((current) => apply(updater, current));
    setPage((p) => ({ ...p, current: 1 }));
    setSelection({});
  };

  const table = useTable({
    features: listFeatures,
    columns,
    data,
    getRowId: (row) => String(row.id),
    getSubRows: (row) => (row as TreeRow).children,
    getRowCanExpand: (row) => (treeMode ? Boolean(row.original.hasChildren) : forestMode && Boolean((row.original as TreeRow).children)),
    manualSorting: true,
    enableSorting: !nested,
    enableSortingRemoval: false,
    enableMultiSort: false,
    enableSubRowSelection: false,
    columnResizeMode: 'onChange',
    state: {
      sorting,
      rowSelection: selection,
      expanded: treeMode ? tree.expanded : forestMode ? found.expanded : {},
      columnOrder: [SELECT_COLUMN, ...prefs.order, ACTIONS_COLUMN],
      columnVisibility: prefs.visibility,
      columnSizing: prefs.sizing,
      columnPinning: PINNING,
    },
    onSortingChange,
    onRowSelectionChange: setSelection,
    onExpandedChange: () => undefined,
    onColumnOrderChange: changePrefs('order'),
    onColumnVisibilityChange: changePrefs('visibility'),
    onColumnSizingChange: changePrefs('sizing'),
  });

  const visibleFields = useMemo(() => prefs.order.filter((id) => prefs.visibility[id] !== false), [prefs]);
  const allRows = useMemo(() => (nested ? nodesOf<TreeRow>(data) : data), [nested, data]);
  const labels = usePageLabels(model.fieldMap, visibleFields, allRows);
  const selected = table.getSelectedRowModel().rows.map((r) => r.original);

  const cells: ListCellContext = {
    lang,
    labels,
    toggleRow: treeMode ? tree.toggle : forestMode ? found.toggle : undefined,
    loadingRows: tree.loading,
    renderActions: (row) => <RowActions model={model} row={row} actions={actions} onOpen={onOpen} />,
  };

  const busy = treeMode ? tree.isFetching : list.isFetching;
  const loading = treeMode ? tree.isLoading : list.isLoading;
  const error = treeMode ? tree.error : list.error;
  const refetch = () => (treeMode ? tree.refetch() : void list.refetch());
  const widths = Object.fromEntries(prefs.order.map((id) => [id, table.getColumn(id)?.getSize() ?? 0]));

  const search = (next: Record<string, string>) => {
    setFilters(next);
    setPage((p) => ({ ...p, current: 1 }));
    setSelection({});
  };

  return (
    <div className="zs-list" data-testid="entity-list" aria-busy={busy} style={useThemeVariables()}>
      <SearchBar model={model} onSearch={search} initialValues={initialSearch} />
      <Toolbar
        model={model}
        actions={actions}
        selected={selected}
        filters={filters}
        onAdd={() => onOpen('create')}
        onRefresh={() => void actions.refresh()}
        settings={<ColumnSettings model={model} prefs={prefs} widths={widths} onChange={update} onReset={reset} />}
      />
      {error && (
        <Alert
          type="error"
          showIcon
          title={t('list.loadFailed', { message: error.message })}
          action={
            <Button size="small" onClick={refetch}>
              {t('list.retry')}
            </Button>
          }
        />
      )}
      {!(error && !data.length) && (
        <Spin spinning={busy && !loading}>
          <ListCells.Provider value={cells}>
            <GridTable model={model} table={table} loading={loading} />
          </ListCells.Provider>
        </Spin>
      )}
      {forestMode && <div className="zs-list-footer">{t('common.total', { total: list.data?.total ?? 0 })}</div>}
      {!nested && (
        <div className="zs-list-footer">
          <Pagination
            current={page.current}
            pageSize={page.size}
            total={list.data?.total ?? 0}
            showSizeChanger
            pageSizeOptions={model.list.pageSizes.map(String)}
            showTotal={(total) => t('common.total', { total })}
            onChange={(current, size) => {
              setPage((p) => ({ current: size !== p.size ? 1 : current, size }));
              setSelection({});
            }}
          />
        </div>
      )}
      {actions.dialog}
    </div>
  );
});
