// Builds a valid record for any entity from its model alone, so that the conformance suite covers
// every manifest entry (a new schema is tested without a new test).
import type { EntityCatalog, EntityModel, FieldModel } from '../model/types.ts';

type Row = Record<string, unknown>;

/** Entities in an order where everything a record refers to is created before it. */
export function dependencyOrder(catalog: EntityCatalog): EntityModel[] {
  const out: EntityModel[] = [];
  const seen = new Set<string>();
  const visit = (model: EntityModel) => {
    if (seen.has(model.key)) return;
    seen.add(model.key);
    for (const f of fieldsOf(model)) if (f.ref && f.ref.entity !== model.key && f.required) visit(catalog.entities[f.ref.entity]);
    out.push(model);
  };
  Object.values(catalog.entities).forEach(visit);
  return out;
}

function fieldsOf(model: EntityModel): FieldModel[] {
  return [...model.fields, ...model.details.flatMap((d) => d.fields)];
}

export interface SampleContext {
  catalog: EntityCatalog;
  /** An existing record id per entity, for references. */
  ids: Map<string, Row>;
  seq: number;
}

function text(f: FieldModel, seq: number): string {
  const base = `${f.label.zh}${seq}`;
  const max = f.maxLength ?? 50;
  const min = (f.schema.minLength as number | undefined) ?? 0;
  const value = base.length > max ? `${seq}`.padStart(Math.min(max, Math.max(min, 1)), '0').slice(-max) : base;
  return value.padEnd(min, '0');
}

function numberIn(f: FieldModel, preferred: number): number {
  const min = (f.schema.minimum as number | undefined) ?? -Infinity;
  const max = (f.schema.maximum as number | undefined) ?? Infinity;
  return Math.min(max, Math.max(min, preferred));
}

/** The example with its tail replaced by the sequence number: still matches the pattern, differs per record. */
function uniqueExample(example: string, seq: number): string {
  const n = Math.min(6, example.length - 1);
  return example.slice(0, example.length - n) + String(seq).padStart(n, '0').slice(-n);
}

export function sampleValue(model: EntityModel, f: FieldModel, ctx: SampleContext): unknown {
  const s = f.schema;
  if (model.tree && f.name === model.tree.parentField) return model.tree.root;
  if (f.ref && f.ref.entity !== model.key) {
    const target = ctx.ids.get(f.ref.entity);
    return target ? target[f.ref.valueField] : undefined;
  }
  if (Array.isArray(s.examples)) return f.unique ? uniqueExample(String(s.examples[0]), ctx.seq) : s.examples[0];
  if (f.options) return f.options[0].value;
  if (f.dict) {
    const dict = ctx.catalog.dictionaries.find((d) => d.code === f.dict!.code && d.source === f.dict!.source)!;
    return f.dict.multiple || f.kind === 'json' ? [dict.items[0].key] : dict.items[0].key;
  }
  if (f.ref) {
    const target = ctx.ids.get(f.ref.entity);
    return target ? target[f.ref.valueField] : undefined;
  }
  switch (f.kind) {
    case 'string':
      return text(f, ctx.seq);
    case 'integer':
      return numberIn(f, s.default ?? 1);
    case 'decimal':
      return numberIn(f, 12.5);
    case 'boolean':
      return s.default ?? true;
    case 'date':
      return '2026-03-15';
    case 'datetime':
      return '2026-03-15 09:30:00';
    case 'month':
      return '2026-03';
    case 'id':
      return undefined;
    default:
      return undefined;
  }
}

/** A full record: every editable field that can be filled, and two rows per detail array. */
export function sampleRecord(model: EntityModel, ctx: SampleContext): Row {
  const fill = (fields: readonly FieldModel[]): Row => {
    const row: Row = {};
    for (const f of fields) {
      if (f.system || (f.readOnly && !f.compute) || (f.compute && f.compute.mode === 'always')) continue;
      const v = sampleValue(model, f, ctx);
      if (v !== undefined) row[f.name] = v;
    }
    return row;
  };
  const record = { ...fill(model.fields), ...inheritedSamples(model, ctx) };
  for (const d of model.details) record[d.name] = [fill(d.fields), fill(d.fields)];
  return record;
}

/** The terms the referenced records pass on (x-ref.inherit): a document holds its contract's. */
function inheritedSamples(model: EntityModel, ctx: SampleContext): Row {
  const out: Row = {};
  for (const f of model.fields) {
    const referenced = f.ref && ctx.ids.get(f.ref.entity);
    if (!referenced) continue;
    for (const [target, term] of Object.entries(f.ref!.inherit)) if (referenced[term.from] != null) out[target] = referenced[term.from];
  }
  return out;
}

/** A string field a round trip can change (not a code, reference, dictionary or patterned field). */
export function editableText(model: EntityModel): FieldModel | undefined {
  return model.fields.find(
    (f) =>
      f.kind === 'string' &&
      !f.system &&
      !f.readOnly &&
      !f.writeOnly &&
      !f.dict &&
      !f.ref &&
      !f.options &&
      !f.schema.pattern &&
      !f.unique &&
      (f.maxLength ?? 0) >= 8,
  );
}
