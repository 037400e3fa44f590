// The reference picker: a searchable select that pages through the referenced entity's options
// route (never an inlined enum), shows the current value's label from the batched label lookup,
// narrows its choices by the x-ref filter ($form. values of the same record) and waits while a
// field it depends on is empty. Picking a record hands the whole record to `onPick` when the
// field copies some of its fields or takes terms from it (x-ref.copy, x-ref.inherit).
import { useInfiniteQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useT } from '../../i18n/useT.ts';
import { langAtom } from '../../state/session.ts';
import { catalog } from '../catalog.ts';
import { fetchOptions, useReferenceLabels } from '../data.ts';
import { useHttp } from '../http-context.tsx';
import { placeholderOf } from './placeholder.ts';
import { missingDependency, refFilters } from './ref-filters.ts';
import type { ControlProps, Row } from './types.ts';

const PAGE = 20;

function idsOf(value: unknown, multiple: boolean): string[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.map(String);
  return multiple ? String(value).split(',').filter(Boolean) : [String(value)];
}

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** One page after another of the options, fetched only while the dropdown is open. */
function useOptionPages(entity: string, valueField: string, keyword: string, filters: Record<string, string>, enabled: boolean) {
  const http = useHttp();
  return useInfiniteQuery({
    queryKey: ['options', entity, valueField, keyword, filters],
    enabled,
    staleTime: 30_000,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => fetchOptions(http, entity, { keyword, current: pageParam, size: PAGE, filters, valueField }),
    getNextPageParam: (last, pages) => (pages.length * PAGE < last.total ? pages.length + 1 : undefined),
  });
}

export function RefControl({ field, value, onChange, onBlur, id, readOnly, invalid, compact, values, fieldMap, onPick }: ControlProps) {
  const http = useHttp();
  const t = useT();
  const lang = useAtomValue(langAtom);
  const ref = field.ref!;
  const multiple = ref.separator === ',';
  const ids = idsOf(value, multiple);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const keyword = useDebounced(search, 300);
  const context = values ?? {};
  const filters = refFilters(field, context);
  const waiting = missingDependency(field, context);
  // a reference by another key (a contract by its code) is offered and stored by that key
  const pages = useOptionPages(ref.entity, ref.valueField, keyword, filters, open && !waiting);
  // the choices shown are not yet those of the typed text (debounce, then the request)
  const searching = search !== keyword || pages.isFetching;
  const { data: labels } = useReferenceLabels(ref.entity, ids, ref.valueField);

  const options = useMemo(() => {
    const loaded = pages.data?.pages.flatMap((p) => p.records) ?? [];
    const seen = new Set(loaded.map((o) => o.value));
    const current = ids.filter((v) => !seen.has(v)).map((v) => ({ value: v, label: labels?.[v] ?? v }));
    return [...current, ...loaded];
  }, [pages.data, ids.join(','), labels]);

  const pick = async (next: string | undefined) => {
    onChange(next);
    if (!onPick || Object.keys({ ...ref.copy, ...ref.inherit }).length === 0) return;
    if (!next) return onPick(null);
    onPick(await http.get<Row>(`${catalog().entities[ref.entity].api}/detail`, { [ref.valueField]: next }));
  };

  const placeholder = waiting
    ? t('widget.dependsOnFirst', { field: fieldMap?.[waiting]?.label[lang] ?? waiting })
    : placeholderOf(field, lang);
  return (
    <Select
      id={id}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? ids : ids[0]}
      options={options}
      open={open}
      onOpenChange={setOpen}
      showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
      onChange={(v: string | string[] | undefined) => {
        setSearch('');
        if (Array.isArray(v)) onChange(v.length ? v.join(',') : undefined);
        else void pick(v ?? undefined);
      }}
      onPopupScroll={(e) => {
        const el = e.currentTarget;
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 24 && pages.hasNextPage && !pages.isFetchingNextPage)
          void pages.fetchNextPage();
      }}
      popupRender={(menu) => <div aria-busy={searching}>{menu}</div>}
      notFoundContent={pages.isFetching ? <Spin size="small" /> : undefined}
      loading={pages.isFetching}
      onBlur={onBlur}
      disabled={readOnly || Boolean(waiting)}
      allowClear={!readOnly}
      placeholder={readOnly ? undefined : placeholder}
      status={invalid ? 'error' : undefined}
      variant={compact ? 'borderless' : undefined}
      size={compact ? 'small' : undefined}
      style={{ width: '100%' }}
      popupMatchSelectWidth={compact ? 280 : true}
    />
  );
}
