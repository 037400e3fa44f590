// A list opened with `?<field>=<value>` (several allowed) starts with those values in its search bar
// and the list filtered by them, as if a person had typed them and pressed 搜索: how the dashboards'
// figures open the documents they add up. Only x-search fields are read, each as its input holds it:
// a dictionary, option, reference or text as the string, a multi-select dictionary as `a,b`, a date
// as `yyyy-MM-dd`, a date range as `from,to` (either side may be empty), a yes/no as `true`/`false`.
// Anything else in the address is ignored. Later searches change the list only, not the address.
import dayjs, { type Dayjs } from 'dayjs';
import type { EntityModel } from '../../../engine/model/types.ts';
import type { SearchValues } from './filters.ts';

function day(text: string | undefined): Dayjs | null {
  if (!text) return null;
  const d = dayjs(text.trim());
  return d.isValid() ? d : null;
}

/** The search bar's values an address asks for (`search` with or without its leading `?`). */
export function searchValuesFromUrl(model: EntityModel, search: string): SearchValues {
  const params = new URLSearchParams(search);
  const out: SearchValues = {};
  for (const s of model.search) {
    const raw = params.get(s.field);
    if (raw === null || raw.trim() === '') continue;
    const field = model.fieldMap[s.field];
    if (!field) continue;
    if (s.operator === 'dateRange') {
      const [from, to] = raw.split(/[,~]/);
      const range = [day(from), day(to)];
      if (range[0] || range[1]) out[s.field] = range;
    } else if (field.dict?.multiple)
      out[s.field] = raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    else if (field.kind === 'boolean') {
      if (/^(true|1)$/.test(raw)) out[s.field] = 'true';
      else if (/^(false|0)$/.test(raw)) out[s.field] = 'false';
    } else if ((field.kind === 'date' || field.kind === 'datetime') && !field.dict && !field.options && !field.ref) {
      const d = day(raw);
      if (d) out[s.field] = d;
    } else out[s.field] = raw;
  }
  return out;
}

/** The address of a list with these search values (the inverse of searchValuesFromUrl for plain values). */
export function listHref(path: string, values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
