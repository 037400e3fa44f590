// The inline editable grid of a document's detail rows (x-detail editor "grid"): add, copy and
// delete rows, per-cell validation messages, computed line fields and a footer of totals, all
// updating as one types. Rows are virtualised (only those in view are mounted) and each row
// subscribes to its own values in the form store, so a form with 500 rows stays responsive.
import { DeleteOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import type { ErrorSchema, FieldProps } from '@rjsf/utils';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Button, Checkbox, Empty, Space, theme, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { evaluate } from '../../../engine/compute/expr.ts';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { displayScale, formatDecimal } from '../format.ts';
import type { PickSource } from '../../../engine/model/types.ts';
import type { FormContextValue } from './context.ts';
import { Cell, GridRow } from './GridRow.tsx';
import { ACTIONS_WIDTH, gridColumns, gridWidth, INDEX_WIDTH, ROW_HEIGHT, SELECT_WIDTH, type GridColumn } from './grid-columns.ts';
import { PickDialog } from './PickDialog.tsx';
import type { FormStore } from './store.ts';

const HEADER_HEIGHT = 40;
const VISIBLE_ROWS = 10;
const VIEW = { width: 1200, height: ROW_HEIGHT * VISIBLE_ROWS };
/** Rows mounted below the view, ready for scrolling. */
const OVERSCAN = 8;

/**
 * The rows mounted beyond the view: none while the grid first renders, so a form opens with the rows
 * one sees (each row is ten controls), then OVERSCAN once that render has painted.
 */
function useOverscan(): number {
  const [overscan, setOverscan] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setOverscan(OVERSCAN));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return overscan;
}

/** Header and footer: opaque (rows scroll under them), tinted like antd's table header. */
function useStripe(): CSSProperties {
  const { token } = theme.useToken();
  return {
    backgroundColor: token.colorBgContainer,
    backgroundImage: `linear-gradient(${token.colorFillAlter}, ${token.colorFillAlter})`,
    fontWeight: 500,
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
  };
}

function GridHeader({
  columns,
  readOnly,
  allSelected,
  someSelected,
  onSelectAll,
}: {
  columns: readonly GridColumn[];
  readOnly: boolean;
  allSelected: boolean;
  someSelected: boolean;
  onSelectAll: (all: boolean) => void;
}) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const stripe = useStripe();
  return (
    <div
      role="row"
      style={{ position: 'sticky', top: 0, zIndex: 2, display: 'flex', alignItems: 'center', height: HEADER_HEIGHT, ...stripe }}
    >
      {!readOnly && (
        <Cell width={SELECT_WIDTH} align="center">
          <Checkbox
            checked={allSelected}
            indeterminate={someSelected && !allSelected}
            onChange={(e) => onSelectAll(e.target.checked)}
            aria-label={t('grid.deleteSelected')}
          />
        </Cell>
      )}
      <Cell width={INDEX_WIDTH} align="center">
        {t('grid.index')}
      </Cell>
      {columns.map((c) => (
        <Cell key={c.field.name} width={c.width} align={c.numeric ? 'right' : undefined}>
          <span role="columnheader">
            {c.field.required && c.editable && !readOnly ? <span style={{ color: 'var(--ant-color-error, #ff4d4f)' }}>* </span> : null}
            {c.field.label[lang]}
          </span>
        </Cell>
      ))}
      {!readOnly && (
        <Cell width={ACTIONS_WIDTH} align="center">
          {t('grid.actions')}
        </Cell>
      )}
    </div>
  );
}

/** The footer: the sum of every total column, recomputed as rows change. */
function GridTotals({
  store,
  detail,
  columns,
  readOnly,
}: {
  store: FormStore;
  detail: string;
  columns: readonly GridColumn[];
  readOnly: boolean;
}) {
  const t = useT();
  const stripe = useStripe();
  const version = useSyncExternalStore(
    (notify) => store.subscribe('totals', notify),
    () => store.totals(),
  );
  const sums = useMemo(() => {
    const rows = store.rows(detail);
    const out: Record<string, string> = {};
    for (const c of columns)
      if (c.total)
        out[c.field.name] = formatDecimal(
          evaluate({ sum: `${detail}.${c.field.name}` }, { [detail]: rows }).toFixed(),
          displayScale(c.field),
        );
    return out;
  }, [version, store, detail, columns]);
  return (
    <div
      role="row"
      className="zs-grid-totals"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        display: 'flex',
        alignItems: 'center',
        height: ROW_HEIGHT,
        ...stripe,
        borderBottom: 0,
        borderTop: stripe.borderBottom,
      }}
    >
      {!readOnly && <Cell width={SELECT_WIDTH} />}
      <Cell width={INDEX_WIDTH} align="center">
        {t('grid.total')}
      </Cell>
      {columns.map((c) => (
        <Cell key={c.field.name} width={c.width} align="right">
          {sums[c.field.name] ?? ''}
        </Cell>
      ))}
      {!readOnly && <Cell width={ACTIONS_WIDTH} />}
    </div>
  );
}

/**
 * "从采购合同选择": opens the lines of the document the header field selects; until one is
 * selected the button is disabled and says what to choose first.
 */
function PickButton({ store, detail, pick }: { store: FormStore; detail: string; pick: PickSource }) {
  const t = useT();
  const lang = useAtomValue(langAtom);
  const [open, setOpen] = useState(false);
  // the header mirrors rjsf's data; setHeader notifies "totals"
  const selected = useSyncExternalStore(
    (notify) => store.subscribe('totals', notify),
    () => store.header[pick.header],
  );
  const source = store.model.fieldMap[pick.header].label[lang];
  const ready = selected !== undefined && selected !== null && selected !== '';
  return (
    <>
      <Button
        size="small"
        icon={<ImportOutlined />}
        disabled={!ready}
        title={ready ? undefined : t('grid.pickNeedsSource', { source })}
        onClick={() => setOpen(true)}
      >
        {t('grid.pickFrom', { source })}
      </Button>
      {open && <PickDialog store={store} detail={detail} pick={pick} open={open} onClose={() => setOpen(false)} />}
    </>
  );
}

export interface DetailGridProps {
  store: FormStore;
  detail: string;
  /** rjsf's errors of the detail array: {3: {designQty: {__errors: [...]}}}. */
  errorSchema?: ErrorSchema;
  readOnly?: boolean;
}

/**
 * The same object while the content is the same (rjsf rebuilds its error schema on every change),
 * and a new one after each check of the record (a save attempt), so messages hidden by editing
 * come back when they still apply.
 */
function useStableErrors(store: FormStore, errors: ErrorSchema | undefined): ErrorSchema | undefined {
  const round = useSyncExternalStore(
    (notify) => store.subscribe('checked', notify),
    () => store.checks,
  );
  const last = useRef<{ text: string; errors?: ErrorSchema }>({ text: '' });
  const text = errors ? `${round}:${JSON.stringify(errors)}` : '';
  if (text !== last.current.text) last.current = { text, errors };
  return last.current.errors;
}

export function DetailGrid({ store, detail, errorSchema: given, readOnly = false }: DetailGridProps) {
  const t = useT();
  const errorSchema = useStableErrors(store, given);
  const columns = useMemo(() => gridColumns(store.model, store.detail(detail)), [store, detail]);
  const keys = useSyncExternalStore(
    (notify) => store.subscribe(`rows:${detail}`, notify),
    () => store.keys(detail),
  );
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // errors belong to row positions: once the rows change (added, copied, removed here, or replaced
  // by a fill or a pick) they are hidden until the next check
  const [movedSince, setMovedSince] = useState<ErrorSchema | undefined | null>(null);
  const shownKeys = useRef(keys);
  if (shownKeys.current !== keys) {
    shownKeys.current = keys;
    if (movedSince !== errorSchema) setMovedSince(errorSchema);
  }
  const errors = movedSince === errorSchema ? undefined : errorSchema;
  const scrollRef = useRef<HTMLDivElement>(null);
  const overscan = useOverscan();
  const virtualizer = useVirtualizer({
    count: keys.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan,
    scrollMargin: HEADER_HEIGHT,
    initialRect: VIEW,
    // a grid not laid out (in a hidden tab, or a DOM without layout) still shows its first rows
    observeElementRect: (instance, report) => observeElementRect(instance, (rect) => report(rect.height > 0 ? rect : VIEW)),
  });

  const onSelect = useCallback(
    (key: string, on: boolean) =>
      setSelected((s) => {
        const next = new Set(s);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  const onCopy = useCallback((key: string) => store.copyRow(detail, key), [store, detail]);
  const onDelete = useCallback(
    (key: string) => {
      store.removeRows(detail, [key]);
      onSelect(key, false);
    },
    [store, detail, onSelect],
  );
  const add = () => {
    store.addRow(detail);
    requestAnimationFrame(() => virtualizer.scrollToIndex(store.keys(detail).length - 1));
  };
  const removeSelected = () => {
    store.removeRows(detail, [...selected]);
    setSelected(new Set());
  };

  // after a failed check, bring the first row with an error into view
  useEffect(() => {
    const first = Object.keys(errorSchema ?? {})
      .filter((k) => /^\d+$/.test(k))
      .map(Number)
      .sort((a, b) => a - b)[0];
    if (first !== undefined) virtualizer.scrollToIndex(first, { align: 'center' });
  }, [errorSchema]);

  const width = gridWidth(columns, readOnly);
  const items = virtualizer.getVirtualItems();
  return (
    // Enter in a cell picks or confirms within the cell; it does not submit the whole document
    <div
      className="zs-detail-grid"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') e.preventDefault();
      }}
    >
      {!readOnly && (
        <Space style={{ marginBottom: 8, width: '100%', justifyContent: 'space-between' }}>
          <Space>
            <Button type="primary" ghost size="small" icon={<PlusOutlined />} onClick={add}>
              {t('grid.add')}
            </Button>
            {store.detail(detail).pickFrom.map((pick) => (
              <PickButton key={pick.rowId} store={store} detail={detail} pick={pick} />
            ))}
            <Button danger size="small" icon={<DeleteOutlined />} disabled={selected.size === 0} onClick={removeSelected}>
              {t('grid.deleteSelected')}
            </Button>
          </Space>
          <Typography.Text type="secondary">{t('grid.rows', { count: keys.length })}</Typography.Text>
        </Space>
      )}
      <div
        ref={scrollRef}
        role="table"
        style={{
          overflow: 'auto',
          maxHeight: HEADER_HEIGHT + ROW_HEIGHT * (VISIBLE_ROWS + 1) + 2,
          border: '1px solid var(--ant-color-border-secondary, #f0f0f0)',
          borderRadius: 6,
        }}
      >
        <div style={{ width, minWidth: '100%', position: 'relative' }}>
          <GridHeader
            columns={columns}
            readOnly={readOnly}
            allSelected={keys.length > 0 && selected.size === keys.length}
            someSelected={selected.size > 0}
            onSelectAll={(all) => setSelected(all ? new Set(keys) : new Set())}
          />
          <div role="rowgroup" style={{ position: 'relative', height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const key = keys[item.index];
              return (
                <GridRow
                  key={key}
                  store={store}
                  detail={detail}
                  rowKey={key}
                  index={item.index}
                  top={item.start - HEADER_HEIGHT}
                  columns={columns}
                  readOnly={readOnly}
                  selected={selected.has(key)}
                  errors={errors?.[item.index] as ErrorSchema | undefined}
                  onSelect={onSelect}
                  onCopy={onCopy}
                  onDelete={onDelete}
                />
              );
            })}
          </div>
          {keys.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('grid.empty')} />}
          {columns.some((c) => c.total) && <GridTotals store={store} detail={detail} columns={columns} readOnly={readOnly} />}
        </div>
      </div>
      {errors?.__errors?.map((text) => (
        <Typography.Text key={text} type="danger" role="alert" style={{ display: 'block', marginTop: 4 }}>
          {text}
        </Typography.Text>
      ))}
    </div>
  );
}

/** The grid as rjsf's field of the detail array (uiSchema "ui:field": "detailGrid"). */
export function DetailGridField({ name, errorSchema, rawErrors, readonly, disabled, registry }: FieldProps) {
  const ctx = registry.formContext as FormContextValue;
  // rjsf hands the array's own messages (至少需要1行) apart from its rows' errors: the grid shows both
  const errors = rawErrors?.length ? ({ ...errorSchema, __errors: rawErrors } as ErrorSchema) : errorSchema;
  return <DetailGrid store={ctx.store} detail={name} errorSchema={errors} readOnly={Boolean(readonly || disabled || ctx.readOnly)} />;
}
