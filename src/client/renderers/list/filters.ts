// What the search bar sends: each x-search field becomes one BladeX filter parameter (`name` for a
// contains-search, `status_equal`, `amount_ge`, …); a date range becomes `<field>_datege` and
// `<field>_datele` (whole days for datetimes). Empty inputs send nothing.
import type { Dayjs } from 'dayjs';
import type { EntityModel, SearchFieldModel } from '../../../engine/model/types.ts';

export type SearchValues = Record<string, unknown>;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function dayBounds(model: EntityModel, search: SearchFieldModel, range: [Dayjs | null, Dayjs | null]): Record<string, string> {
  const withTime = model.fieldMap[search.field]?.kind === 'datetime';
  const out: Record<string, string> = {};
  const [from, to] = range;
  if (from) out[`${search.field}_datege`] = from.format(withTime ? 'YYYY-MM-DD 00:00:00' : 'YYYY-MM-DD');
  if (to) out[`${search.field}_datele`] = to.format(withTime ? 'YYYY-MM-DD 23:59:59' : 'YYYY-MM-DD');
  return out;
}

function scalar(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (value && typeof value === 'object' && 'format' in value) return (value as Dayjs).format('YYYY-MM-DD');
  return String(value);
}

export function filtersOf(model: EntityModel, values: SearchValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const search of model.search) {
    const value = values[search.field];
    if (isBlank(value)) continue;
    if (search.operator === 'dateRange') Object.assign(out, dayBounds(model, search, value as [Dayjs | null, Dayjs | null]));
    else out[search.operator === 'like' ? search.field : `${search.field}_${search.operator}`] = scalar(value);
  }
  return out;
}
