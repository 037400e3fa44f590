// Labels of the references on a page of the list, gathered over all its rows: one `options?ids=`
// request per referenced entity for the whole page (two columns referring to the same entity share
// it), never one per row. Cached under the same keys as useReferenceLabels.
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { FieldModel } from '../../../engine/model/types.ts';
import { labelBatcher, referenceIds } from '../data.ts';
import type { Row } from '../extensions.ts';
import { useHttp } from '../http-context.tsx';

export type PageLabels = Readonly<Record<string, Readonly<Record<string, string>>>>;

type FieldMap = Readonly<Record<string, FieldModel>>;

function referenceColumns(fieldMap: FieldMap, fields: readonly string[]): FieldModel[] {
  return fields.map((f) => fieldMap[f]).filter((f): f is FieldModel => Boolean(f?.ref));
}

/** Labels by field name, then by id, for the reference columns among `fields` (of a header or of detail rows). */
export function usePageLabels(fieldMap: FieldMap, fields: readonly string[], rows: readonly Row[]): PageLabels {
  const http = useHttp();
  const columns = useMemo(() => referenceColumns(fieldMap, fields), [fieldMap, fields]);
  const wanted = columns.map((field) => ({
    field,
    entity: field.ref!.entity,
    valueField: field.ref!.valueField,
    ids: referenceIds(field, rows),
  }));
  const results = useQueries({
    queries: wanted.map(({ entity, valueField, ids }) => ({
      queryKey: ['ref-labels', entity, valueField, ids.join(',')],
      enabled: ids.length > 0,
      staleTime: 60_000,
      queryFn: () => labelBatcher(http).labels(entity, ids, valueField),
    })),
  });
  const version = results.map((r) => r.dataUpdatedAt).join(',');
  return useMemo(
    () => Object.fromEntries(wanted.map(({ field }, i) => [field.name, results[i]?.data ?? {}])),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [version, columns],
  );
}
