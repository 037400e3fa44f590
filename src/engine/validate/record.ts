// Validates a record against its entity schema with Ajv and turns Ajv's errors into messages that
// name the field by its label, in the caller's language, with a JSON pointer to the value.
import type { WidgetName } from '../dialect/ui-names.ts';
import type { Ajv } from '../dialect/ajv.ts';
import { formatNames, t, typeNames, type MessageKey } from '../i18n/messages.ts';
import { toDecimal } from '../compute/decimal.ts';
import { withoutUnchangedSecrets } from '../model/secrets.ts';
import { matches } from '../predicate/predicate.ts';
import type { DetailModel, EntityModel, FieldModel, JsonSchema, Lang } from '../model/types.ts';

export interface FieldError {
  /** JSON pointer into the submitted record, e.g. /details/2/designQty */
  path: string;
  message: string;
}

export type ValidationMode = 'full' | 'partial';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const validators = new WeakMap<object, Map<ValidationMode, (data: unknown) => boolean>>();

function validatorFor(ajv: Ajv, model: EntityModel, mode: ValidationMode) {
  let byMode = validators.get(model);
  if (!byMode) validators.set(model, (byMode = new Map()));
  let fn = byMode.get(mode);
  if (!fn) {
    const schema: JsonSchema = mode === 'full' ? { $ref: model.schema.$id } : partialSchema(model);
    fn = ajv.compile(schema) as (data: unknown) => boolean;
    byMode.set(mode, fn);
  }
  return fn as ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}

/** For updatePart: the same properties, none required at the top level. */
function partialSchema(model: EntityModel): JsonSchema {
  const props: Record<string, JsonSchema> = {};
  for (const name of Object.keys(model.schema.properties ?? {})) props[name] = { $ref: `${model.schema.$id}#/properties/${name}` };
  return { type: 'object', properties: props };
}

/** Resolves a JSON pointer of the record to the field it addresses and a label naming it. */
export function describePath(model: EntityModel, path: string, lang: Lang): { field?: FieldModel; label: string } {
  const [first, index, second] = path.split('/').slice(1);
  const detail = model.details.find((d) => d.name === first);
  if (detail) {
    if (index === undefined) return { label: detail.label[lang] };
    const row = t('detailRow', lang, { detail: detail.label, row: Number(index) + 1 });
    const field = second ? detail.fieldMap[second] : undefined;
    return { field, label: field ? `${row} ${field.label[lang]}` : row };
  }
  const field = first ? model.fieldMap[first] : undefined;
  return { field, label: field ? field.label[lang] : (first ?? '') };
}

/** The widgets a value is picked with (typed from the one list of widget names). */
const CHOSEN_WIDGETS: ReadonlySet<string> = new Set<WidgetName>([
  'select',
  'dict',
  'ref',
  'treeSelect',
  'treeMultiSelect',
  'upload',
  'image',
  'switch',
  'date',
  'dateRange',
  'month',
]);

/** Whether a form picks the value (请选择) rather than types it (请输入). */
export function isChosen(field: FieldModel): boolean {
  const widget = field.ui?.widget as string | undefined;
  if (widget) return CHOSEN_WIDGETS.has(widget);
  return Boolean(field.dict || field.ref || field.options) || ['date', 'datetime', 'month', 'boolean'].includes(field.kind);
}

/** "X is required" for the API; in forms (prompts) "请输入X" / "please enter x". */
function requiredMessage(field: FieldModel | undefined, label: string, lang: Lang, prompts: boolean): string {
  if (!prompts || !field) return t('required', lang, { field: label });
  return t(isChosen(field) ? 'choose' : 'enter', lang, { field: lang === 'en' ? label.toLowerCase() : label });
}

function ajvMessage(model: EntityModel, e: AjvError, lang: Lang, prompts: boolean): FieldError {
  let path = e.instancePath;
  if (e.keyword === 'required') path = `${path}/${e.params.missingProperty}`;
  const { label, field } = describePath(model, path, lang);
  if (e.keyword === 'required') return { path, message: requiredMessage(field, label, lang, prompts) };
  const key = (
    [
      'required',
      'maxLength',
      'minLength',
      'pattern',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'minItems',
      'maxItems',
    ] as const
  ).find((k) => k === e.keyword) as MessageKey | undefined;
  if (key) return { path, message: t(key, lang, { field: label, limit: e.params.limit }) };
  if (e.keyword === 'type') {
    const type = String(e.params.type).split(',')[0];
    return { path, message: t('type', lang, { field: label, type: typeNames[type] ?? { zh: type, en: type } }) };
  }
  if (e.keyword === 'format') {
    const format = String(e.params.format);
    return { path, message: t('format', lang, { field: label, format: formatNames[format] ?? { zh: format, en: format } }) };
  }
  if (e.keyword === 'enum' || e.keyword === 'const' || e.keyword === 'oneOf') return { path, message: t('enum', lang, { field: label }) };
  return { path, message: t('invalid', lang, { field: label }) };
}

/**
 * Ajv reports one failing oneOf several times (once per branch and once for oneOf itself);
 * keep the most telling error per value.
 */
function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Map<string, FieldError>();
  for (const e of errors) if (!seen.has(e.path)) seen.set(e.path, e);
  return [...seen.values()];
}

function isBlank(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** `a` compared with `b`, both of one field kind (null when either is empty or not comparable). */
function compareValues(kind: FieldModel['kind'], a: unknown, b: unknown): number | null {
  if (isBlank(a) || isBlank(b)) return null;
  if (kind === 'decimal' || kind === 'integer') {
    try {
      return toDecimal(a)!.comparedTo(toDecimal(b)!);
    } catch {
      return null; // not a number: Ajv reports the type
    }
  }
  // dates, months and date-times are ISO texts: their order is the text order
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** x-rules.atLeast: a value below the field it may not be below (an end before its start). */
function orderErrors(
  field: FieldModel,
  values: Record<string, unknown>,
  path: string,
  label: string,
  fieldMap: Readonly<Record<string, FieldModel>>,
  lang: Lang,
): FieldError[] {
  const out: FieldError[] = [];
  for (const name of field.rules?.atLeast ?? []) {
    const other = fieldMap[name];
    if (!other || (compareValues(field.kind, values[field.name], values[name]) ?? 0) >= 0) continue;
    const key = field.kind === 'decimal' || field.kind === 'integer' ? 'notBelowField' : 'notBefore';
    out.push({ path, message: t(key, lang, { field: label, other: other.label }) });
    break; // one message per field is enough to act on
  }
  return out;
}

/** requiredIf and atLeast rules and detail row counts, which Ajv cannot see. */
function ruleErrors(
  fields: readonly FieldModel[],
  fieldMap: Readonly<Record<string, FieldModel>>,
  values: Record<string, unknown>,
  prefix: string,
  labelOf: (f: FieldModel) => string,
  lang: Lang,
  prompts: boolean,
): FieldError[] {
  const out: FieldError[] = [];
  for (const f of fields) {
    if (f.rules?.requiredIf && matches(f.rules.requiredIf, values) && isBlank(values[f.name])) {
      out.push({ path: `${prefix}/${f.name}`, message: requiredMessage(f, labelOf(f), lang, prompts) });
    }
    out.push(...orderErrors(f, values, `${prefix}/${f.name}`, labelOf(f), fieldMap, lang));
  }
  return out;
}

/** A reference list kept in a link table (x-db.link) holds at most its maxItems references. */
function linkCountErrors(fields: readonly FieldModel[], record: Record<string, unknown>, lang: Lang): FieldError[] {
  const errors: FieldError[] = [];
  for (const f of fields) {
    const value = record[f.name];
    if (!f.link || typeof value !== 'string' || value === '') continue;
    const count = new Set(value.split(f.ref?.separator ?? ',')).size;
    if (count > f.link.maxItems)
      errors.push({ path: `/${f.name}`, message: t('tooManyRefs', lang, { field: f.label[lang], limit: f.link.maxItems, count }) });
  }
  return errors;
}

function detailCountErrors(detail: DetailModel, rows: unknown, lang: Lang): FieldError[] {
  const count = Array.isArray(rows) ? rows.length : 0;
  if (count < detail.minRows)
    return [{ path: `/${detail.name}`, message: t('minItems', lang, { field: detail.label, limit: detail.minRows }) }];
  if (count > detail.maxRows)
    return [{ path: `/${detail.name}`, message: t('maxItems', lang, { field: detail.label, limit: detail.maxRows }) }];
  return [];
}

export interface ValidateOptions {
  mode: ValidationMode;
  lang: Lang;
  /**
   * partial mode (updatePart): the fields that changed. `record` is then the whole record as it
   * will be stored, and only the changed fields are checked; the others keep their stored values.
   */
  changed?: readonly string[];
  /** Phrase missing values as a form prompts for them (请输入X / 请选择X) instead of "X不能为空". */
  prompts?: boolean;
}

/** Ajv sees decimals as JSON numbers; an exact decimal may arrive as a numeric string; an empty formula value is absent. */
function withNumericDecimals(model: EntityModel, record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  const convert = (fields: readonly FieldModel[], row: Record<string, unknown>) => {
    for (const f of fields) {
      const v = row[f.name];
      if (f.kind === 'decimal' && typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) row[f.name] = Number(v);
      // a formula without a value (an `if` without `else` whose condition fails) leaves its field empty
      if (f.compute && v === null) delete row[f.name];
    }
    return row;
  };
  convert(model.fields, out);
  for (const d of model.details) {
    if (Array.isArray(out[d.name]))
      out[d.name] = (out[d.name] as unknown[]).map((r) =>
        r && typeof r === 'object' ? convert(d.fields, { ...(r as Record<string, unknown>) }) : r,
      );
  }
  return out;
}

export function validateRecord(
  ajv: Ajv,
  model: EntityModel,
  record: Record<string, unknown>,
  { mode, lang, changed, prompts = false }: ValidateOptions,
): FieldError[] {
  const numeric = withNumericDecimals(model, withoutUnchangedSecrets(model, record));
  const checked = mode === 'partial' ? new Set(changed ?? Object.keys(record)) : undefined;
  const subject = checked ? Object.fromEntries(Object.entries(numeric).filter(([k]) => checked.has(k))) : numeric;
  const validate = validatorFor(ajv, model, mode);
  const errors: FieldError[] = validate(subject) ? [] : (validate.errors ?? []).map((e) => ajvMessage(model, e, lang, prompts));
  if (checked) {
    // a required field that this change empties
    for (const f of model.fields) {
      if (checked.has(f.name) && f.required && isBlank(record[f.name]))
        errors.push({ path: `/${f.name}`, message: requiredMessage(f, f.label[lang], lang, prompts) });
    }
  }
  // a changed field is checked, and so is a field that may not be below it (a moved start date)
  const ruled = checked ? model.fields.filter((f) => checked.has(f.name) || f.rules?.atLeast?.some((n) => checked.has(n))) : model.fields;
  errors.push(...ruleErrors(ruled, model.fieldMap, record, '', (f) => f.label[lang], lang, prompts));
  errors.push(...linkCountErrors(checked ? model.fields.filter((f) => checked.has(f.name)) : model.fields, record, lang));
  for (const detail of model.details) {
    if (checked && !checked.has(detail.name)) continue;
    const rows = record[detail.name];
    errors.push(...detailCountErrors(detail, rows, lang));
    if (!Array.isArray(rows)) continue;
    rows.forEach((row, i) => {
      const rowLabel = (f: FieldModel) => `${t('detailRow', lang, { detail: detail.label, row: i + 1 })} ${f.label[lang]}`;
      errors.push(
        ...ruleErrors(detail.fields, detail.fieldMap, row as Record<string, unknown>, `/${detail.name}/${i}`, rowLabel, lang, prompts),
      );
    });
  }
  return dedupe(errors);
}
