// What a search of a forest entity (x-entity.tree.list) found, shown as its forest: every branch
// open until the person closes it.
import { useCallback, useMemo, useState } from 'react';
import { nodesOf } from '../../../engine/tree/forest.ts';
import type { Row } from '../extensions.ts';
import type { TreeRow } from './useLazyTree.ts';

export function useForestExpansion(roots: readonly Row[]) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const expanded = useMemo(
    () =>
      Object.fromEntries(
        nodesOf(roots as readonly TreeRow[])
          .filter((row) => row.children && !closed.has(String(row.id)))
          .map((row) => [String(row.id), true]),
      ),
    [roots, closed],
  );
  const toggle = useCallback(
    (row: Row) =>
      setClosed((current) => {
        const next = new Set(current);
        if (!next.delete(String(row.id))) next.add(String(row.id));
        return next;
      }),
    [],
  );
  return { expanded, toggle };
}
