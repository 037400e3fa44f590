// A saved report: an entity, the columns shown, a filter in the engine's predicate language,
// grouping fields and the numeric columns summed. Checked against the compiled model on both ends
// (the builder shows the errors, the server refuses to store or run anything else): every name is
// one of the entity's own readable fields, values are plain data that the server binds as parameters.
import { t } from '../i18n/messages.ts';
import type { EntityCatalog, EntityModel, FieldModel, Lang } from '../model/types.ts';
import type { Predicate } from '../predicate/predicate.ts';
import type { FieldError } from '../validate/record.ts';

export interface ReportDefinition {
  columns: string[];
  filter?: Predicate;
  groupBy?: string[];
  sums?: string[];
}

const OPERATORS = new Set(['_eq', '_neq', '_in', '_nin', '_gt', '_gte', '_lt', '_lte', '_empty']);
const HIDDEN = new Set(['tenantId', 'isDeleted']);
const MAX_DEPTH = 6;
const MAX_CONDITIONS = 50;
const MAX_LIST = 100;

/** The fields a report may show, filter, group or sum: the stored, readable ones (no JSON, no tenant). */
export function reportFields(model: EntityModel): FieldModel[] {
  return model.columns.filter((f) => f.kind !== 'json' && !HIDDEN.has(f.name));
}

export function isSummable(field: FieldModel): boolean {
  return (field.kind === 'decimal' || field.kind === 'integer') && !field.options && !field.dict;
}

/** The entities a report may be built on: every entity but the report definitions themselves. */
export function reportableEntities(catalog: EntityCatalog, reportKey = 'report'): EntityModel[] {
  return Object.values(catalog.entities).filter((m) => m.key !== reportKey);
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

class Checker {
  readonly errors: FieldError[] = [];
  private conditions = 0;
  private readonly fields: Map<string, FieldModel>;

  constructor(
    private readonly model: EntityModel,
    private readonly lang: Lang,
    private readonly base: string,
  ) {
    this.fields = new Map(reportFields(model).map((f) => [f.name, f]));
  }

  add(path: string, key: Parameters<typeof t>[0], params: Record<string, unknown> = {}) {
    this.errors.push({ path: `${this.base}${path}`, message: t(key, this.lang, { entity: this.model.label, ...params }) });
  }

  field(name: unknown, path: string): FieldModel | undefined {
    const field = typeof name === 'string' ? this.fields.get(name) : undefined;
    if (!field) this.add(path, 'reportUnknownField', { field: String(name) });
    return field;
  }

  names(value: unknown, path: string, { required = false, summable = false } = {}): void {
    if (value === undefined && !required) return;
    if (!Array.isArray(value) || value.length > MAX_LIST) {
      this.add(path, 'reportBadList');
      return;
    }
    if (required && !value.length) {
      this.add(path, 'reportNoColumns');
      return;
    }
    if (new Set(value).size !== value.length) this.add(path, 'reportDuplicate');
    value.forEach((name, i) => {
      const field = this.field(name, `${path}/${i}`);
      if (field && summable && !isSummable(field)) this.add(`${path}/${i}`, 'reportNotNumeric', { field: field.label });
    });
  }

  predicate(pred: unknown, path: string, depth = 0): void {
    if (typeof pred !== 'object' || pred === null || Array.isArray(pred) || depth > MAX_DEPTH) {
      this.add(path, 'reportBadFilter');
      return;
    }
    for (const [key, body] of Object.entries(pred)) {
      const at = `${path}/${key}`;
      if (key === '_and' || key === '_or') {
        if (!Array.isArray(body) || !body.length) this.add(at, 'reportBadFilter');
        else body.forEach((p, i) => this.predicate(p, `${at}/${i}`, depth + 1));
      } else if (key === '_not') this.predicate(body, at, depth + 1);
      else this.condition(key, body, at);
    }
  }

  private condition(name: string, body: unknown, path: string) {
    if (++this.conditions > MAX_CONDITIONS) {
      this.add(path, 'reportBadFilter');
      return;
    }
    const field = this.field(name, path);
    if (!field) return;
    const entries = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.entries(body) : [];
    const [op, value] = entries[0] ?? [];
    const listOp = op === '_in' || op === '_nin';
    const valueOk = listOp ? Array.isArray(value) && value.length <= MAX_LIST && value.every(isScalar) : isScalar(value);
    if (entries.length !== 1 || !OPERATORS.has(op!) || !valueOk) this.add(path, 'reportBadCondition', { field: field.label });
  }
}

/**
 * Errors of a definition over `entityKey` (empty when it is sound). Paths point into the submitted
 * record: /entityKey, /definition/columns/2, /definition/filter/_or/0/amount.
 */
export function checkReportDefinition(catalog: EntityCatalog, entityKey: unknown, definition: unknown, lang: Lang): FieldError[] {
  const model = typeof entityKey === 'string' ? reportableEntities(catalog).find((m) => m.key === entityKey) : undefined;
  if (!model) return [{ path: '/entityKey', message: t('reportUnknownEntity', lang, { entity: String(entityKey ?? '') }) }];
  const check = new Checker(model, lang, '/definition');
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) {
    check.add('', 'reportNoColumns');
    return check.errors;
  }
  const def = definition as Record<string, unknown>;
  for (const key of Object.keys(def))
    if (!['columns', 'filter', 'groupBy', 'sums'].includes(key)) check.add(`/${key}`, 'reportUnknownPart', { part: key });
  check.names(def.columns, '/columns', { required: true });
  if (def.filter !== undefined && def.filter !== null) check.predicate(def.filter, '/filter');
  check.names(def.groupBy, '/groupBy');
  check.names(def.sums, '/sums', { summable: true });
  return check.errors;
}
