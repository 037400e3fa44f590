// The warnings a document would raise, without saving it (docs/business-rules.md#early-warnings): the
// form asks while the clerk types and again before submitting, the list's 提交 dialog asks for a
// stored document. The same evaluators as a save, on the same figures: a preview says what the save
// or the submission will record, and nothing is written.
import { applyComputed } from '../../../../engine/compute/apply.ts';
import { applyPrevious, groupOf } from '../../engine/cumulative/cumulative.ts';
import { formats } from '../../../../engine/dialect/ajv.ts';
import type { EntityModel, FieldModel, Label, Lang } from '../../../../engine/model/types.ts';
import { isRecordId } from '../../../../engine/query/ids.ts';
import { WARN_TYPES, type WarnSettings, type Warning } from '../../engine/warnings/rules.ts';
import { nowText } from '../../../../server/clock.ts';
import type { Queryable, Row } from '../../../../server/db/db.ts';
import type { Actor, StoreContext } from '../../../../server/db/store.ts';
import { Cumulatives } from '../cumulative/service.ts';
import { Warnings } from './service.ts';
import { cumulativeOf } from '../../engine/cumulative/model.ts';

/** One warning as a form shows it: rule and level, its message in the caller's language, figure and threshold. */
export interface PreviewedWarning {
  warnType: string;
  typeName: string;
  warnLevel: Warning['warnLevel'];
  message: string;
  actualValue: number | string | null;
  thresholdValue: number | string | null;
  sourceDetailId: string | null;
  goodsId: string | null;
}

export interface Preview {
  warnings: PreviewedWarning[];
  /** the tenant's hard control: a critical warning then refuses the submission */
  hardControl: boolean;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A value the field's kind accepts, or null: a half-typed form evaluates what it already holds. */
function accepted(field: FieldModel, value: unknown): unknown {
  if (value === undefined || value === null || value === '') return null;
  switch (field.kind) {
    case 'integer':
    case 'decimal':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMBER.test(value)) ? value : null;
    case 'id':
      return isRecordId(String(value)) ? String(value) : null;
    case 'date':
    case 'datetime':
      return typeof value === 'string' && (formats.date(value) || formats.datetime(value)) ? value : null;
    case 'month':
      return typeof value === 'string' && formats.month(value) ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
    default:
      return value;
  }
}

/** The fields of a level the caller may send (no system or write-only ones), each as its kind accepts it. */
function ownFields(fields: readonly FieldModel[], input: Row): Row {
  const out: Row = {};
  for (const f of fields) if (!f.system && !f.writeOnly && f.name in input) out[f.name] = accepted(f, input[f.name]);
  return out;
}

/** The sent document reduced to its model's fields, its lines kept with their ids (a saved line's warnings name it). */
export function previewRecord(model: EntityModel, input: Row): Row {
  const record = ownFields(model.fields, input);
  for (const d of model.details) {
    const rows = Array.isArray(input[d.name]) ? (input[d.name] as unknown[]) : [];
    record[d.name] = rows
      .filter((r): r is Row => !!r && typeof r === 'object' && !Array.isArray(r))
      .map((r) => ({ ...ownFields(d.fields, r), ...(r.id !== undefined && isRecordId(String(r.id)) ? { id: String(r.id) } : {}) }));
  }
  return record;
}

const text = (label: Label, lang: Lang) => label[lang];
const value = (v: number | string | undefined) => (v === undefined ? null : v);

export function presentWarning(w: Warning, lang: Lang): PreviewedWarning {
  return {
    warnType: w.warnType,
    typeName: text(WARN_TYPES[w.warnType], lang),
    warnLevel: w.warnLevel,
    message: text(w.message, lang),
    actualValue: value(w.actualValue),
    thresholdValue: value(w.thresholdValue),
    sourceDetailId: w.sourceDetailId ?? null,
    goodsId: w.goodsId ?? null,
  };
}

export class WarningPreview {
  private readonly warnings: Warnings;
  private readonly cumulatives: Cumulatives;

  constructor(private readonly ctx: StoreContext) {
    this.warnings = new Warnings(ctx);
    this.cumulatives = new Cumulatives(ctx);
  }

  /**
   * A sent document as its save would store it: derived values computed, the previous cumulatives
   * the server writes itself, and (editing) the stored document's id and preparation time.
   */
  async asSaved(db: Queryable, actor: Actor, model: EntityModel, input: Row, stored?: Row): Promise<Row> {
    const record = applyComputed(model, previewRecord(model, input));
    record.id = stored?.id;
    record.createTime = stored?.createTime ?? nowText(this.ctx.timeZone);
    const spec = cumulativeOf(model);
    const group = spec ? groupOf(spec, record) : undefined;
    if (!spec || !group) return record;
    const period = spec.period && record[spec.period] ? String(record[spec.period]) : undefined;
    const answer = await this.cumulatives.answer(db, actor, model, group, { period, excludeId: stored ? String(stored.id) : undefined });
    return applyPrevious(model, record, answer);
  }

  /** What the document raises now, in the caller's language. */
  async evaluate(db: Queryable, actor: Actor, model: EntityModel, doc: Row, settings: WarnSettings, lang: Lang): Promise<Preview> {
    const raised = await this.warnings.evaluate(db, actor, model, doc, settings);
    return { warnings: raised.map((w) => presentWarning(w, lang)), hardControl: settings.hardControl };
  }
}
