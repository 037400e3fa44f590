// The lazy tree of a tree entity (dict, dept, menu, region, goods classification, …): the roots
// from `lazy-list?<lazyParam>=<root>`, and the children of a row loaded when it is expanded
// (`hasChildren` says which rows can be). Each level is cached as ['tree', entity, 'lazy-list', parent].
import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { EntityModel } from '../../../engine/model/types.ts';
import type { Row } from '../extensions.ts';
import { useHttp } from '../http-context.tsx';

export interface TreeRow extends Row {
  children?: TreeRow[];
}

export interface LazyTree {
  roots: TreeRow[];
  /** Row id → true for the expanded rows (TanStack's expanded state). */
  expanded: Record<string, boolean>;
  toggle: (row: Row) => void;
  /** Row ids whose children are loading. */
  loading: ReadonlySet<string>;
  isLoading: boolean;
  isFetching: boolean;
  error: Error | null;
  refetch: () => void;
}

const NO_TREE = { parentField: 'parentId', keyField: 'id', root: '0', lazyParam: 'parentId' };

/** For an entity without a tree nothing is asked (the list calls it unconditionally). */
export function useLazyTree(model: EntityModel, enabled: boolean): LazyTree {
  const http = useHttp();
  const tree = model.tree ?? NO_TREE;
  // row id → the key its children are asked for by (the keyField value: id, or a region's code)
  const [open, setOpen] = useState<Record<string, string>>({});
  const parents = [tree.root, ...Object.values(open)];
  const results = useQueries({
    queries: parents.map((parent) => ({
      queryKey: ['tree', model.key, 'lazy-list', parent],
      enabled: enabled && Boolean(model.tree),
      queryFn: () => http.get<Row[]>(`${model.api}/lazy-list`, { [tree.lazyParam]: parent }),
    })),
  });
  const version = results.map((r) => r.dataUpdatedAt).join(',');

  const roots = useMemo(() => {
    const byParent = new Map(parents.map((p, i) => [p, results[i]?.data]));
    const attach = (rows: Row[] | undefined): TreeRow[] =>
      (rows ?? []).map((row) => (open[row.id] !== undefined ? { ...row, children: attach(byParent.get(open[row.id])) } : row));
    return attach(byParent.get(tree.root));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version, open]);

  const toggle = useCallback(
    (row: Row) => {
      setOpen((current) => {
        const next = { ...current };
        if (next[row.id] !== undefined) delete next[row.id];
        else next[row.id] = String(row[tree.keyField]);
        return next;
      });
    },
    [tree.keyField],
  );

  const expanded = useMemo(() => Object.fromEntries(Object.keys(open).map((id) => [id, true])), [open]);
  const loading = new Set(
    Object.entries(open)
      .filter(([, parent]) => results[parents.indexOf(parent)]?.isLoading)
      .map(([id]) => id),
  );
  return {
    roots,
    expanded,
    toggle,
    loading,
    isLoading: results[0]?.isLoading ?? false,
    isFetching: results.some((r) => r.isFetching),
    error: (results.find((r) => r.error)?.error as Error | undefined) ?? null,
    refetch: () => results.forEach((r) => void r.refetch()),
  };
}
