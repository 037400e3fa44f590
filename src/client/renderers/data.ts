// Server data the renderers share: dictionary items and the labels of referenced records.
// Labels are looked up in batches: every id asked for in the same tick, for the same entity,
// leaves in one `options?ids=` request (a list page of 200 rows costs one request per entity).
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import type { DictBinding, EntityModel, FieldModel } from '../../engine/model/types.ts';
import { langAtom } from '../state/session.ts';
import { catalog } from './catalog.ts';
import { valuesOf } from './displays/text.ts';
import { useHttp, type RendererHttp } from './http-context.tsx';

export interface DictionaryOption {
  value: string;
  label: string;
}

export interface OptionPage {
  records: { value: string; label: string }[];
  total: number;
}

export function dictionaryUrl(binding: DictBinding): string {
  return binding.source === 'system' ? '/api/blade-system/dict/dictionary' : '/api/blade-system/dict-biz/dictionary';
}

/** The items of a dictionary in the user's language (sealed items are left out by the server). */
export function useDictionary(binding: DictBinding | undefined) {
  const http = useHttp();
  const lang = useAtomValue(langAtom);
  return useQuery({
    queryKey: ['dict', binding?.source, binding?.code, lang],
    enabled: Boolean(binding),
    staleTime: 5 * 60_000,
    queryFn: async (): Promise<DictionaryOption[]> => {
      const items = await http.get<{ dictKey: string; dictValue: string }[]>(dictionaryUrl(binding!), { code: binding!.code });
      return items.map((d) => ({ value: d.dictKey, label: d.dictValue }));
    },
  });
}

export const READABLE_URL = '/api/blade-system/menu/readable';

/**
 * Whether the user may read every one of these document types (by key), as the server decides it
 * (its menu, a view button, or a write grant on a document that picks it): undefined until known.
 * A page asks for what it may see only, rather than reading a refusal.
 */
export function useMayRead(...entities: string[]): boolean | undefined {
  const http = useHttp();
  const { data } = useQuery({
    queryKey: ['readable'],
    staleTime: 60_000,
    queryFn: () => http.get<string[]>(READABLE_URL, undefined, { silent: true }),
  });
  return data && entities.every((key) => data.includes(key));
}

/**
 * Collects the ids asked for within one tick and fetches them with one request per entity. An id
 * already on its way is waited for, not asked again (the rows of a form, after its labels were
 * asked for with the record: prefetchLabels).
 */
class LabelBatcher {
  private pending = new Map<string, { ids: Set<string>; done: Promise<void>; resolve: () => void }>();
  private inFlight = new Map<string, Promise<void>>();
  private known = new Map<string, string>();

  constructor(private readonly http: RendererHttp) {}

  /** Labels by value; `valueField` is the referenced record's key the values are (id, or a lookup key such as code). */
  async labels(entity: string, ids: readonly string[], valueField = 'id'): Promise<Record<string, string>> {
    const source = valueField === 'id' ? entity : `${entity}|${valueField}`;
    const waits = new Set<Promise<void>>();
    const missing: string[] = [];
    for (const id of ids) {
      if (this.known.has(`${source}:${id}`)) continue;
      const coming = this.inFlight.get(`${source}:${id}`);
      if (coming === undefined) missing.push(id);
      else waits.add(coming);
    }
    if (missing.length) waits.add(this.enqueue(source, missing));
    await Promise.all(waits);
    return Object.fromEntries(ids.map((id) => [id, this.known.get(`${source}:${id}`) ?? id]));
  }

  /** Forgets what a save or delete may have changed. */
  forget(entity: string): void {
    for (const key of this.known.keys()) if (key.startsWith(`${entity}:`) || key.startsWith(`${entity}|`)) this.known.delete(key);
  }

  private enqueue(source: string, ids: string[]): Promise<void> {
    let batch = this.pending.get(source);
    if (!batch) {
      let resolve!: () => void;
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      batch = { ids: new Set(), done, resolve };
      this.pending.set(source, batch);
      queueMicrotask(() => void this.flush(source));
    }
    for (const id of ids) {
      batch.ids.add(id);
      this.inFlight.set(`${source}:${id}`, batch.done);
    }
    return batch.done;
  }

  private async flush(source: string): Promise<void> {
    const batch = this.pending.get(source)!;
    this.pending.delete(source);
    const ids = [...batch.ids];
    const [entity, valueField] = source.split('|');
    const api = catalog().entities[entity]?.api;
    try {
      for (let i = 0; api && i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        // silent: a reference the user may not read shows its value, without an error toast
        const page = await this.http.get<OptionPage>(`${api}/options`, { ids: chunk.join(','), valueField }, { silent: true });
        for (const r of page.records) this.known.set(`${source}:${r.value}`, r.label);
      }
    } catch {
      // unreadable or gone: the values show as they are
    } finally {
      for (const id of ids) this.inFlight.delete(`${source}:${id}`);
      batch.resolve();
    }
  }
}

const batchers = new WeakMap<RendererHttp, LabelBatcher>();

export function labelBatcher(http: RendererHttp): LabelBatcher {
  let batcher = batchers.get(http);
  if (!batcher) batchers.set(http, (batcher = new LabelBatcher(http)));
  return batcher;
}

/**
 * Asks for the labels of every reference a record holds, in its header and all its rows, as soon as
 * the record arrives: one request per referenced entity, on its way while the page renders, instead
 * of one after the rows in view have rendered (and another as each scrolls into view).
 */
export function prefetchLabels(http: RendererHttp, model: EntityModel, record: Record<string, unknown>): void {
  const wanted = new Map<string, { entity: string; valueField: string; ids: Set<string> }>();
  const gather = (fields: readonly FieldModel[], rows: readonly Record<string, unknown>[]) => {
    for (const field of fields.filter((f) => f.ref)) {
      const key = `${field.ref!.entity}|${field.ref!.valueField}`;
      const entry = wanted.get(key) ?? { entity: field.ref!.entity, valueField: field.ref!.valueField, ids: new Set<string>() };
      for (const id of referenceIds(field, rows)) entry.ids.add(id);
      if (entry.ids.size) wanted.set(key, entry);
    }
  };
  gather(model.fields, [record]);
  for (const detail of model.details)
    gather(detail.fields, Array.isArray(record[detail.name]) ? (record[detail.name] as Record<string, unknown>[]) : []);
  const batcher = labelBatcher(http);
  for (const { entity, valueField, ids } of wanted.values()) void batcher.labels(entity, [...ids], valueField);
}

/** The ids (or keys) a reference field holds over `rows`, each once and sorted; a separated field's each. */
export function referenceIds(field: FieldModel, rows: readonly Record<string, unknown>[]): string[] {
  const ids = new Set<string>();
  for (const row of rows) {
    const value = row[field.name];
    if (value === null || value === undefined || value === '') continue;
    for (const id of field.ref!.separator ? valuesOf(value, field.ref!.separator) : [String(value)]) ids.add(id);
  }
  return [...ids].sort();
}

/** A record of `model` as its detail answers it, the labels of its references asked for at once (prefetchLabels). */
export async function readRecord<T extends Record<string, unknown>>(http: RendererHttp, model: EntityModel, id: string): Promise<T> {
  const record = await http.get<T>(`${model.api}/detail`, { id });
  prefetchLabels(http, model, record);
  return record;
}

/** Labels of records of `entity` by id (or by `valueField`); values without a readable record show as themselves. */
export function useReferenceLabels(entity: string | undefined, ids: readonly (string | number | null | undefined)[], valueField = 'id') {
  const http = useHttp();
  const wanted = [...new Set(ids.filter((v) => v !== null && v !== undefined && v !== '').map(String))].sort();
  return useQuery({
    queryKey: ['ref-labels', entity, valueField, wanted.join(',')],
    enabled: Boolean(entity) && wanted.length > 0,
    staleTime: 60_000,
    queryFn: () => labelBatcher(http).labels(entity!, wanted, valueField),
  });
}

/** One page of a reference picker: records of `entity` whose label contains `keyword`. */
export async function fetchOptions(
  http: RendererHttp,
  entity: string,
  query: { keyword?: string; current?: number; size?: number; filters?: Record<string, string>; valueField?: string },
): Promise<OptionPage> {
  const api = catalog().entities[entity].api;
  const valueField = query.valueField && query.valueField !== 'id' ? query.valueField : undefined;
  return http.get<OptionPage>(`${api}/options`, {
    keyword: query.keyword || undefined,
    current: query.current ?? 1,
    size: query.size ?? 20,
    valueField,
    ...query.filters,
  });
}

/**
 * After a save or delete: every cached list, tree, detail and label of the entity is stale.
 * Query keys of the renderers start with [kind, entityKey]: ['list', key, …], ['tree', key, …],
 * ['detail', key, id], ['ref-labels', key, …].
 */
export async function invalidateEntity(queryClient: QueryClient, http: RendererHttp, entity: string): Promise<void> {
  labelBatcher(http).forget(entity);
  await queryClient.invalidateQueries({
    predicate: (q) => q.queryKey[1] === entity && ['list', 'tree', 'detail', 'ref-labels', 'options'].includes(String(q.queryKey[0])),
  });
}
