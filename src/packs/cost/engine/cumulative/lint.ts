// Cross-file checks of x-cumulative: every field it names exists where it says, on this document,
// on the summed source and on the contract.
import { pointer } from '../../../../engine/model/source.ts';
import type { DetailModel, DictionaryDef, EntityModel } from '../../../../engine/model/types.ts';
import { cumulativeOf, type CumulativeModel } from './model.ts';

type Report = (at: string, message: string) => void;

const NUMERIC = new Set(['decimal', 'integer']);
/** What a `max` write-back can take: numbers, months and dates (text of a fixed width compares in order). */
const MAX_KINDS = new Set([...NUMERIC, 'month', 'date']);

export function lintCumulative(
  model: EntityModel,
  entities: Record<string, EntityModel>,
  report: Report,
  dictionaries: readonly DictionaryDef[] = [],
) {
  const spec = cumulativeOf(model);
  if (!spec) return;
  const at = (...parts: (string | number)[]) => pointer('x-cumulative', ...parts);
  if (!model.workflow) report('/x-cumulative', 'x-cumulative needs x-workflow (only approved documents count)');
  const source = entities[spec.source];
  if (!source) return report(at('source'), `source names unknown entity "${spec.source}"`);
  if (!source.workflow) report(at('source'), `source "${spec.source}" has no x-workflow`);
  const header = (m: EntityModel, f: string) => f in m.fieldMap && !m.fieldMap[f].writeOnly;

  spec.keys.forEach((k, i) => {
    if (!header(model, k)) report(at('keys', i), `key "${k}" is not a property`);
    else if (!header(source, k)) report(at('keys', i), `key "${k}" is not a property of ${spec.source}`);
  });
  spec.queryKeys.forEach((k, i) => spec.keys.includes(k) || report(at('queryKeys', i), `query key "${k}" is not one of keys`));
  if (spec.period !== undefined) {
    if (model.fieldMap[spec.period]?.kind !== 'month') report(at('period'), `period "${spec.period}" is not a month property`);
    else if (source.fieldMap[spec.period]?.kind !== 'month')
      report(at('period'), `period "${spec.period}" is not a month property of ${spec.source}`);
  }
  for (const [target, from] of Object.entries(spec.header)) {
    if (!NUMERIC.has(model.fieldMap[target]?.kind ?? '')) report(at('header', target), `"${target}" is not a number property`);
    else if (!model.fieldMap[target].readOnly) report(at('header', target), `"${target}" must be readOnly (the server writes it)`);
    if (!NUMERIC.has(source.fieldMap[from]?.kind ?? ''))
      report(at('header', target), `"${from}" is not a number property of ${spec.source}`);
  }
  spec.totals.forEach(
    (f, i) => NUMERIC.has(source.fieldMap[f]?.kind ?? '') || report(at('totals', i), `"${f}" is not a number property of ${spec.source}`),
  );

  if (spec.lines) {
    const lines = spec.lines;
    const own = model.details.find((d) => d.name === lines.detail);
    const theirs = source.details.find((d) => d.name === lines.detail);
    if (!own || !theirs) report(at('lines', 'detail'), `"${lines.detail}" is not a detail of ${own ? spec.source : 'this document'}`);
    else {
      lines.match.forEach(
        (f, i) =>
          (f in own.fieldMap && f in theirs.fieldMap) || report(at('lines', 'match', i), `match field "${f}" is not a row field of both`),
      );
      for (const [target, from] of Object.entries(lines.previous)) {
        if (!numericRow(own, target)) report(at('lines', 'previous', target), `"${target}" is not a number row field`);
        else if (!own.fieldMap[target].readOnly)
          report(at('lines', 'previous', target), `"${target}" must be readOnly (the server writes it)`);
        if (!numericRow(theirs, from)) report(at('lines', 'previous', target), `"${from}" is not a number row field of ${spec.source}`);
      }
      if (lines.quantity !== undefined && !numericRow(theirs, lines.quantity))
        report(at('lines', 'quantity'), `"${lines.quantity}" is not a number row field of ${spec.source}`);
    }
  }

  const contract = spec.contract;
  if (!contract) return;
  const target = entities[contract.entity];
  if (!target) return report(at('contract', 'entity'), `contract names unknown entity "${contract.entity}"`);
  const ref = model.fieldMap[contract.field]?.ref;
  if (!spec.keys.includes(contract.field)) report(at('contract', 'field'), `contract field "${contract.field}" is not one of keys`);
  else if (ref?.entity !== contract.entity)
    report(at('contract', 'field'), `contract field "${contract.field}" is not an x-ref to ${contract.entity}`);
  contract.snapshot.forEach(
    (f, i) => header(target, f) || report(at('contract', 'snapshot', i), `"${f}" is not a property of ${contract.entity}`),
  );
  for (const [field, { field: from, aggregate }] of Object.entries(contract.writeBack)) {
    const where = at('contract', 'writeBack', field);
    const targetKind = target.fieldMap[field]?.kind ?? '';
    const sourceKind = source.fieldMap[from]?.kind ?? '';
    if (aggregate === 'sum') {
      if (!NUMERIC.has(targetKind)) report(where, `"${field}" is not a number property of ${contract.entity}`);
      if (!NUMERIC.has(sourceKind)) report(where, `"${from}" is not a number property of ${spec.source}`);
    } else if (!target.fieldMap[field]) report(where, `"${field}" is not a property of ${contract.entity}`);
    else if (!MAX_KINDS.has(sourceKind)) report(where, `"${from}" is not a number, month or date property of ${spec.source}`);
    else if (NUMERIC.has(sourceKind) ? !NUMERIC.has(targetKind) : targetKind !== sourceKind)
      report(where, `"${field}" of ${contract.entity} cannot hold the ${sourceKind} "${from}"`);
    // every writer of a field aggregates it the same way (the totals are one figure)
    const other = Object.values(entities).find(
      (m) =>
        m !== model &&
        cumulativeOf(m)?.contract?.entity === contract.entity &&
        cumulativeOf(m)!.contract!.writeBack[field]?.aggregate !== undefined &&
        cumulativeOf(m)!.contract!.writeBack[field].aggregate !== aggregate,
    );
    if (other)
      report(
        where,
        `${other.key} writes "${field}" as a ${cumulativeOf(other)!.contract!.writeBack[field].aggregate}, this one as a ${aggregate}`,
      );
  }
  const status = contract.status;
  if (status) {
    const f = target.fieldMap[status.field];
    if (!f) report(at('contract', 'status', 'field'), `"${status.field}" is not a property of ${contract.entity}`);
    else if (!f.readOnly)
      report(at('contract', 'status', 'field'), `"${status.field}" of ${contract.entity} must be readOnly (the server writes it)`);
    else if (f.options && ![status.settled, status.unsettled, ...status.keep].every((v) => f.options!.some((o) => o.value === v))) {
      report(at('contract', 'status'), `a value is not an option of ${contract.entity}.${status.field}`);
    }
  }
  if (contract.final)
    lintFinal(model, target, contract.final, dictionaries, (parts, message) => report(at('contract', 'final', ...parts), message));
  const cl = contract.lines;
  if (!cl) return;
  const rows = target.details.find((d) => d.name === cl.detail);
  if (!rows) return report(at('contract', 'lines', 'detail'), `"${cl.detail}" is not a detail of ${contract.entity}`);
  if (!spec.lines) report(at('contract', 'lines'), 'contract lines need lines');
  for (const [from, to] of Object.entries(cl.match)) {
    if (!spec.lines?.match.includes(from)) report(at('contract', 'lines', 'match', from), `"${from}" is not one of lines.match`);
    if (!(to in rows.fieldMap)) report(at('contract', 'lines', 'match', from), `"${to}" is not a row field of ${contract.entity}`);
  }
  cl.snapshot.forEach(
    (f, i) => f in rows.fieldMap || report(at('contract', 'lines', 'snapshot', i), `"${f}" is not a row field of ${contract.entity}`),
  );
  cl.quantity.forEach(
    (f, i) =>
      numericRow(rows, f) || report(at('contract', 'lines', 'quantity', i), `"${f}" is not a number row field of ${contract.entity}`),
  );
  const sourceRows = source.details.find((d) => d.name === spec.lines?.detail);
  for (const [field, from] of Object.entries(cl.writeBack)) {
    if (!numericRow(rows, field))
      report(at('contract', 'lines', 'writeBack', field), `"${field}" is not a number row field of ${contract.entity}`);
    if (sourceRows && !numericRow(sourceRows, from))
      report(at('contract', 'lines', 'writeBack', field), `"${from}" is not a number row field of ${spec.source}`);
  }
}

function numericRow(detail: DetailModel, field: string): boolean {
  return NUMERIC.has(detail.fieldMap[field]?.kind ?? '');
}

type FinalModel = NonNullable<NonNullable<CumulativeModel['contract']>['final']>;

/** A final settlement writes numbers of its own into numbers of the contract, and allowed values into its status fields. */
function lintFinal(
  model: EntityModel,
  contract: EntityModel,
  final: FinalModel,
  dictionaries: readonly DictionaryDef[],
  report: (at: string[], message: string) => void,
) {
  for (const [field, from] of Object.entries(final.writeBack)) {
    if (!NUMERIC.has(contract.fieldMap[field]?.kind ?? ''))
      report(['writeBack', field], `"${field}" is not a number property of ${contract.key}`);
    if (!NUMERIC.has(model.fieldMap[from]?.kind ?? '')) report(['writeBack', field], `"${from}" is not a number property of this document`);
  }
  for (const part of ['set', 'reopen'] as const) {
    for (const [field, value] of Object.entries(final[part])) {
      const f = contract.fieldMap[field];
      if (!f) report([part, field], `"${field}" is not a property of ${contract.key}`);
      else if (!f.readOnly) report([part, field], `"${field}" of ${contract.key} must be readOnly (the server writes it)`);
      else {
        const allowed =
          f.options?.map((o) => String(o.value)) ??
          dictionaries.find((d) => d.code === f.dict?.code && d.source === f.dict?.source)?.items.map((i) => i.key);
        if (allowed && !allowed.includes(value)) report([part, field], `"${value}" is not a value of ${contract.key}.${field}`);
      }
    }
  }
}
