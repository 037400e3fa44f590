// A search-bar filter on a reference: a searchable select that pages through the referenced
// entity's options (20 at a time, more on scrolling), or a tree select for a tree entity when the
// schema asks for one (`widget: "treeSelect"`).
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Select, Spin, TreeSelect } from 'antd';
import { useEffect, useMemo, useState, type UIEvent } from 'react';
import type { FieldModel } from '../../../engine/model/types.ts';
import { catalog } from '../catalog.ts';
import { fetchOptions, useReferenceLabels } from '../data.ts';
import { useHttp } from '../http-context.tsx';

interface FilterInputProps {
  field: FieldModel;
  value?: string;
  onChange?: (value: string | undefined) => void;
  placeholder?: string;
  style?: React.CSSProperties;
}

const PAGE = 20;

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

function PagedReferenceSelect({ field, value, onChange, placeholder, style }: FilterInputProps) {
  const http = useHttp();
  const entity = field.ref!.entity;
  // a reference kept by another field (a settlement's contract by its code) is searched and labelled by it
  const valueField = field.ref!.valueField;
  const [typed, setTyped] = useState('');
  const keyword = useDebounced(typed, 300);
  const [open, setOpen] = useState(false);
  const pages = useInfiniteQuery({
    queryKey: ['options', entity, keyword, valueField],
    enabled: open,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => fetchOptions(http, entity, { keyword, current: pageParam, size: PAGE, valueField }),
    getNextPageParam: (last, all) => (all.length * PAGE < last.total ? all.length + 1 : undefined),
  });
  const { data: chosen } = useReferenceLabels(entity, value ? [value] : [], valueField);
  const options = useMemo(() => {
    const found = (pages.data?.pages ?? []).flatMap((p) => p.records);
    if (value && !found.some((o) => o.value === value)) found.unshift({ value, label: chosen?.[value] ?? value });
    return found;
  }, [pages.data, value, chosen]);
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const el = event.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 24 && pages.hasNextPage && !pages.isFetchingNextPage)
      void pages.fetchNextPage();
  };
  return (
    <Select
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      onOpenChange={setOpen}
      options={options}
      onPopupScroll={onScroll}
      notFoundContent={pages.isFetching ? <Spin size="small" /> : undefined}
      placeholder={placeholder}
      style={style}
    />
  );
}

interface TreeNode {
  key: string;
  value: string;
  title: string;
  children?: TreeNode[];
}

function TreeReferenceSelect({ field, value, onChange, placeholder, style }: FilterInputProps) {
  const http = useHttp();
  const target = catalog().entities[field.ref!.entity];
  const { data } = useQuery({
    queryKey: ['tree', target.key, 'all'],
    staleTime: 60_000,
    queryFn: () => http.get<TreeNode[]>(`${target.api}/tree`),
  });
  return (
    <TreeSelect
      allowClear
      showSearch
      treeNodeFilterProp="title"
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      treeData={data ?? []}
      placeholder={placeholder}
      style={style}
    />
  );
}

export function ReferenceFilter(props: FilterInputProps & { widget?: string }) {
  const target = catalog().entities[props.field.ref!.entity];
  if (props.widget === 'treeSelect' && target?.tree) return <TreeReferenceSelect {...props} />;
  return <PagedReferenceSelect {...props} />;
}
