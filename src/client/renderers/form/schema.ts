// From an EntityModel to what rjsf needs: a plain JSON Schema (types and titles in the user's
// language, no x- keywords), the uiSchema (our field for every property, the detail grid for
// detail arrays, hidden / read-only per x-rules), and the section layout of x-layout.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { EntityModel, FieldModel, Lang } from '../../../engine/model/types.ts';
import { dependenciesOf } from '../widgets/ref-filters.ts';
import { widgetNameOf } from '../widgets/FieldControl.tsx';
import type { RuleState } from './rules.ts';

export type FormMode = 'create' | 'edit';

export interface FormSection {
  title?: string;
  fields: string[];
}

export interface FormLayout {
  container: 'dialog' | 'page';
  sections: FormSection[];
  /** Grid span (of 24) per property. */
  spans: Record<string, number>;
}

function hiddenIn(field: FieldModel, mode: FormMode): boolean {
  const hidden = field.ui?.hidden as readonly string[] | undefined;
  return Boolean(hidden?.includes(mode)) || field.ui?.widget === 'hidden';
}

/**
 * The header fields the form shows. System fields are the server's; on create, read-only fields
 * are left out unless the server computes them, numbers the record or they have a default.
 */
export function formFields(model: EntityModel, mode: FormMode): FieldModel[] {
  return model.fields.filter((f) => {
    if (f.system || hiddenIn(f, mode)) return false;
    if (mode === 'create' && f.readOnly && !f.compute && f.name !== model.code?.field && f.default === undefined) return false;
    return true;
  });
}

function jsonType(field: FieldModel): RJSFSchema {
  switch (field.kind) {
    case 'decimal':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'json':
      return field.schema.type === 'array' || field.dict?.multiple ? { type: 'array', items: { type: 'string' } } : { type: 'string' };
    default:
      return { type: 'string' };
  }
}

/** Pickers keep their value's format to themselves ("comma-joined menu ids" is not for the user). */
const PICKERS = new Set(['ref', 'treeSelect', 'treeMultiSelect', 'dict', 'select', 'upload', 'image', 'switch']);

function propertySchema(field: FieldModel, lang: Lang): RJSFSchema {
  const own = lang === 'en' ? field.schema['x-i18n']?.description : field.schema.description;
  const description = PICKERS.has(widgetNameOf(field)) ? undefined : own;
  return {
    ...jsonType(field),
    title: field.label[lang],
    ...(description ? { description } : {}),
    ...(field.options ? { enum: field.options.map((o) => o.value) as any[] } : {}),
    ...(field.readOnly ? { readOnly: true } : {}),
  };
}

export function formSchema(model: EntityModel, mode: FormMode, lang: Lang, rules: RuleState): RJSFSchema {
  const fields = formFields(model, mode);
  const properties: Record<string, RJSFSchema> = {};
  for (const f of fields) properties[f.name] = propertySchema(f, lang);
  for (const d of model.details) properties[d.name] = { type: 'array', title: d.label[lang], items: { type: 'object' } };
  const required = fields.filter((f) => (f.required || rules.required.has(f.name)) && !f.readOnly).map((f) => f.name);
  return { type: 'object', title: model.label[lang], required, properties };
}

/** The values of the fields each cascading reference depends on (they re-render it when they change). */
export function dependencyValues(model: EntityModel, values: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const f of model.fields) {
    const names = dependenciesOf(f);
    if (names.length) out[f.name] = Object.fromEntries(names.map((n) => [n, values[n]]));
  }
  return out;
}

export function formUiSchema(
  model: EntityModel,
  mode: FormMode,
  rules: RuleState,
  layout: FormLayout,
  dependencies: Record<string, Record<string, unknown>>,
): UiSchema {
  const ui: UiSchema = { 'ui:order': [...layout.sections.flatMap((s) => s.fields), '*'] };
  for (const f of formFields(model, mode)) {
    ui[f.name] = {
      'ui:field': 'model',
      ...(rules.hidden.has(f.name) ? { 'ui:widget': 'hidden' } : {}),
      ...(rules.readonly.has(f.name) ? { 'ui:readonly': true } : {}),
      ...(dependencies[f.name] ? { 'ui:options': { values: dependencies[f.name] } } : {}),
    };
  }
  // the grid shows its own grid-level messages (至少需要1行), so that they go once rows change
  for (const d of model.details) ui[d.name] = { 'ui:field': 'detailGrid', 'ui:hideError': true };
  return ui;
}

/**
 * Sections of x-layout for this mode. Editable fields in no section follow in a last group;
 * read-only ones the layout leaves out (a workflow's instance id) are not shown.
 */
export function formLayout(model: EntityModel, mode: FormMode, lang: Lang): FormLayout {
  const fields = formFields(model, mode);
  const names = [...fields.map((f) => f.name), ...model.details.map((d) => d.name)];
  const sections: FormSection[] = model.layout.sections
    .filter((s) => !s.modes || s.modes.includes(mode))
    .map((s) => ({ title: s.title[lang], fields: s.fields.filter((f) => names.includes(f)) }))
    .filter((s) => s.fields.length > 0);
  const placed = new Set(sections.flatMap((s) => s.fields));
  const laidOut = model.layout.sections.length > 0;
  const rest = names.filter((n) => !placed.has(n) && !(laidOut && model.fieldMap[n]?.readOnly));
  if (rest.length) sections.push({ fields: rest });
  const columns = Math.max(1, model.layout.columns);
  const spans: Record<string, number> = {};
  for (const f of model.fields) {
    const wide = ['textarea', 'treeMultiSelect', 'upload'].includes(widgetNameOf(f)) && columns > 1;
    spans[f.name] = (f.ui?.span as number | undefined) ?? (wide ? 24 : Math.floor(24 / columns));
  }
  for (const d of model.details) spans[d.name] = 24;
  return { container: model.layout.container, sections, spans };
}

/** Dialog width: x-layout.width (the dictionary dialogs: 880), else by the number of columns. */
export function dialogWidth(model: EntityModel): number {
  return model.layout.width ?? [0, 640, 860, 1080, 1280][Math.min(4, Math.max(1, model.layout.columns))];
}
