// The list page's server query: BladeX parameters from the search filters, the page and the sort
// (`current`, `size`, `ascs`/`descs` = field name, filters as `<field>` or `<field>_<op>`), and the
// page of records they answer. The previous page stays on screen while the next one loads.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { SortingState } from '@tanstack/react-table';
import type { EntityModel, FieldModel } from '../../../engine/model/types.ts';
import { nodesOf } from '../../../engine/tree/forest.ts';
import type { Row } from '../extensions.ts';
import { useHttp, type RendererHttp } from '../http-context.tsx';
import { filtersOf, type SearchValues } from './filters.ts';

export interface ListPage {
  records: Row[];
  total: number;
}

export interface ListRequest {
  filters: Record<string, string>;
  current: number;
  size: number;
  sorting: SortingState;
}

/** Columns a person may sort by: `sortable` in x-list, else plain values (not references, dictionaries or JSON). */
export function isSortable(model: EntityModel, column: EntityModel['list']['columns'][number]): boolean {
  if (column.sortable !== undefined) return column.sortable;
  const field: FieldModel | undefined = model.fieldMap[column.field];
  if (!field || field.kind === 'json' || field.ref || field.dict) return false;
  return true;
}

/** The sort the list starts with: the schema's first default sort key, when it is a sortable column. */
export function defaultSorting(model: EntityModel): SortingState {
  const first = model.list.defaultSort[0];
  const column = first && model.list.columns.find((c) => c.field === first.field);
  return column && isSortable(model, column) ? [{ id: first.field, desc: first.order === 'desc' }] : [];
}

function sameSorting(a: SortingState, b: SortingState): boolean {
  return a.length === b.length && a.every((s, i) => s.id === b[i].id && s.desc === b[i].desc);
}

/** Request parameters; the default sort is left to the server (it knows every key of it). */
export function listParams(model: EntityModel, request: ListRequest): Record<string, string | number> {
  const params: Record<string, string | number> = { current: request.current, size: request.size, ...request.filters };
  if (!sameSorting(request.sorting, defaultSorting(model))) {
    for (const s of request.sorting) params[s.desc ? 'descs' : 'ascs'] = s.id;
  }
  return params;
}

/** The list's first request: the search it opens with (its address's), the first page of the schema's size, the default sort. */
export function firstListRequest(model: EntityModel, initialSearch?: SearchValues): ListRequest {
  return {
    filters: initialSearch ? filtersOf(model, initialSearch) : {},
    current: 1,
    size: model.list.pageSize,
    sorting: defaultSorting(model),
  };
}

/** Whether the list shows as a lazy tree (a tree entity with no search): its rows come from useLazyTree, not from the list query. */
export const listsAsTree = (model: EntityModel, filters: Record<string, string>) =>
  Boolean(model.tree) && Object.keys(filters).length === 0;

/** The list query of a request: the hook's and a page load's prefetch (EntityPage.tsx), one key and one request. */
export function listQuery(http: RendererHttp, model: EntityModel, request: ListRequest) {
  const params = listParams(model, request);
  return {
    queryKey: ['list', model.key, params],
    queryFn: async (): Promise<ListPage> => {
      // a forest entity's list (x-entity.tree.list) answers the records found as a forest, unpaged
      const answer = await http.get<ListPage | Row[]>(`${model.api}/list`, params);
      return Array.isArray(answer) ? { records: answer, total: nodesOf(answer).length } : answer;
    },
  };
}

export function useListQuery(model: EntityModel, request: ListRequest, enabled = true) {
  const http = useHttp();
  return useQuery({ ...listQuery(http, model, request), enabled, placeholderData: keepPreviousData });
}
