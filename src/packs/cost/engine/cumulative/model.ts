// x-cumulative compiled: running totals over the approved documents of a group (开累), the
// keyword this pack gives meaning to (its meta-schema: schemas/meta/x-cumulative.schema.json).
import type { EntityModel, JsonSchema } from '../../../../engine/model/types.ts';

/**
 * A contract header field recomputed on approval from a field of the approved documents that
 * reference the contract: their sum (settled, payable, retention) or their largest value (the last
 * settled period, a running paid-so-far figure).
 */
export interface WriteBackModel {
  field: string;
  aggregate: 'sum' | 'max';
}

/** Running totals over the approved documents of a group (x-cumulative); see schemas/meta/x-cumulative.schema.json. */
export interface CumulativeModel {
  keys: readonly string[];
  queryKeys: readonly string[];
  period?: string;
  /** The entity whose approved documents are summed: this one unless the schema names another. */
  source: string;
  /** this document's header field → source header field summed into it */
  header: Readonly<Record<string, string>>;
  totals: readonly string[];
  lines?: {
    detail: string;
    match: readonly string[];
    /** this document's row field → source row field summed into it */
    previous: Readonly<Record<string, string>>;
    quantity?: string;
  };
  contract?: {
    entity: string;
    field: string;
    snapshot: readonly string[];
    /** contract header field → what it is recomputed from */
    writeBack: Readonly<Record<string, WriteBackModel>>;
    /** the contract's status: settled once an approved document references it, values in keep left alone */
    status?: { field: string; settled: string; unsettled: string; keep: readonly string[] };
    /** this document is the contract's final settlement: what an approved one writes into the contract */
    final?: {
      writeBack: Readonly<Record<string, string>>;
      set: Readonly<Record<string, string>>;
      reopen: Readonly<Record<string, string>>;
    };
    lines?: {
      detail: string;
      /** source row field → contract row field */
      match: Readonly<Record<string, string>>;
      snapshot: readonly string[];
      quantity: readonly string[];
      writeBack: Readonly<Record<string, string>>;
    };
  };
}

/** The document's running totals, when it declares them. */
export function cumulativeOf(model: EntityModel): CumulativeModel | undefined {
  return model.extensions['x-cumulative'] as CumulativeModel | undefined;
}

/** x-cumulative contract.writeBack: a plain field name is summed, `{ "max": field }` takes the largest value. */
function writeBackOf(spec: Record<string, string | { sum?: string; max?: string }> | undefined): Record<string, WriteBackModel> {
  const out: Record<string, WriteBackModel> = {};
  for (const [target, from] of Object.entries(spec ?? {})) {
    out[target] =
      typeof from === 'string'
        ? { field: from, aggregate: 'sum' }
        : from.max !== undefined
          ? { field: from.max, aggregate: 'max' }
          : { field: from.sum!, aggregate: 'sum' };
  }
  return out;
}

/** Compiles a document's x-cumulative (engine/packs.ts calls it for the keyword). */
export function compileCumulative(key: string, spec: JsonSchema): CumulativeModel {
  const contract = spec.contract;
  return {
    keys: spec.keys,
    queryKeys: spec.queryKeys ?? spec.keys,
    period: spec.period,
    source: spec.source ?? key,
    header: spec.header ?? {},
    totals: spec.totals ?? [],
    lines: spec.lines && {
      detail: spec.lines.detail,
      match: spec.lines.match,
      previous: spec.lines.previous,
      quantity: spec.lines.quantity,
    },
    contract: contract && {
      entity: contract.entity,
      field: contract.field,
      snapshot: contract.snapshot ?? [],
      writeBack: writeBackOf(contract.writeBack),
      status: contract.status && { ...contract.status, keep: contract.status.keep ?? [] },
      final: contract.final && { writeBack: contract.final.writeBack, set: contract.final.set, reopen: contract.final.reopen ?? {} },
      lines: contract.lines && {
        detail: contract.lines.detail,
        match: contract.lines.match,
        snapshot: contract.lines.snapshot ?? [],
        quantity: contract.lines.quantity ?? [],
        writeBack: contract.lines.writeBack ?? {},
      },
    },
  };
}
