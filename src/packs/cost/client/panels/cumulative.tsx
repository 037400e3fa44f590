// x-cumulative in the form: as soon as a document's group (project, contract, counterparty) and
// period are chosen, the previous cumulatives are asked of `${api}/cumulative` and written into the
// header and into every row whose match fields fit a line of the answer (rows added or changed later
// too); the this-period / cumulative pairs then follow as one types. A note says up to which period
// the approved documents count and which one of the group is still in approval.
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { useEffect } from 'react';
import { groupOf, lineKey, type CumulativeAnswer } from '../../engine/cumulative/cumulative.ts';
import type { EntityModel } from '../../../../engine/model/types.ts';
import { useT } from '../../../../client/i18n/useT.ts';
import { useHttp } from '../../../../client/renderers/http-context.tsx';
import type { FormStore, Row } from '../../../../client/renderers/form/store.ts';
import { cumulativeOf } from '../../engine/cumulative/model.ts';

/** The query of the group a header names: every key it has (at least the required ones) and its period. */
export function cumulativeQuery(model: EntityModel, header: Row): Record<string, string> | undefined {
  const spec = cumulativeOf(model);
  if (!spec || !groupOf(spec, header, spec.queryKeys)) return undefined;
  const query: Record<string, string> = {};
  for (const key of spec.keys)
    if (header[key] !== undefined && header[key] !== null && header[key] !== '') query[key] = String(header[key]);
  if (spec.period && header[spec.period]) query.period = String(header[spec.period]);
  return query;
}

const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');

/** Writes the answer's previous values into the header; answers the new header when it changed. */
function fillHeader(model: EntityModel, store: FormStore, answer: CumulativeAnswer): Row | undefined {
  const next = { ...store.header };
  let changed = false;
  for (const target of Object.keys(cumulativeOf(model)!.header)) {
    const value = answer.header[target] ?? 0;
    if (!same(next[target], value)) {
      next[target] = value;
      changed = true;
    }
  }
  return changed ? next : undefined;
}

/** Writes the answer's previous values into the rows that differ from it (zero where no line fits). */
function fillRows(model: EntityModel, store: FormStore, answer: CumulativeAnswer): void {
  const lines = cumulativeOf(model)!.lines;
  if (!lines) return;
  const byKey = new Map(answer.lines.map((l) => [lineKey(l.key, lines.match), l]));
  for (const key of store.keys(lines.detail)) {
    const row = store.row(lines.detail, key);
    const line = byKey.get(lineKey(row, lines.match));
    for (const target of Object.keys(lines.previous)) {
      const value = line?.previous[target] ?? 0;
      if (!same(row[target], value)) store.setCell(lines.detail, key, target, value);
    }
  }
}

/**
 * Keeps a form's previous cumulatives equal to what the server will write on save. Returns the
 * answer (for the note), or undefined while the group is incomplete.
 */
export function useCumulatives(
  model: EntityModel,
  id: string | undefined,
  store: FormStore,
  header: Row,
  onHeader: (next: Row) => void,
  active = true,
): CumulativeAnswer | undefined {
  const http = useHttp();
  const query = active ? cumulativeQuery(model, header) : undefined;
  const answer = useQuery({
    queryKey: ['cumulative', model.key, query, id],
    enabled: query !== undefined,
    staleTime: 0,
    queryFn: () => http.get<CumulativeAnswer>(`${model.api}/cumulative`, { ...query, ...(id ? { excludeId: id } : {}) }),
  });
  const data = query ? answer.data : undefined;
  useEffect(() => {
    if (!data) return;
    const next = fillHeader(model, store, data);
    if (next) {
      store.setHeader(next);
      onHeader(next);
    }
    fillRows(model, store, data);
    // rows added, removed or re-keyed later follow the same answer
    let busy = false;
    return store.subscribe('totals', () => {
      if (busy) return;
      busy = true;
      try {
        fillRows(model, store, data);
      } finally {
        busy = false;
      }
    });
  }, [data, model, store]);
  return data;
}

/** Up to which period approved documents count, and the one of the group in approval. */
export function CumulativeNote({ answer }: { answer: CumulativeAnswer | undefined }) {
  const t = useT();
  if (!answer) return null;
  const counted = answer.lastApprovedPeriod ? t('cumulative.counted', { period: answer.lastApprovedPeriod }) : t('cumulative.first');
  return (
    <Alert
      className="zs-cumulative-note"
      type={answer.approving ? 'warning' : 'info'}
      showIcon
      style={{ marginBottom: 12 }}
      title={counted}
      description={answer.approving ? t('cumulative.approving', { code: answer.approving.code ?? answer.approving.id }) : undefined}
    />
  );
}
