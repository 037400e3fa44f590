// The form's validator: rjsf's ValidatorType around the engine's validateRecord, so a form says
// what the server would, in the user's language and naming the field by its label
// (请输入参数名称, 物资明细第2行 图纸设计量不能小于0) instead of Ajv's English.
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  ErrorSchemaBuilder,
  type ErrorSchema,
  type RJSFSchema,
  type RJSFValidationError,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import type { EntityModel, Lang } from '../../../engine/model/types.ts';
import { validateRecord, type FieldError } from '../../../engine/validate/record.ts';
import { catalogAjv } from '../catalog.ts';

/** "/details/3/designQty" → ["details", "3", "designQty"] */
function segments(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Field errors (JSON pointers) as rjsf's error schema and list. */
export function toValidationData(errors: readonly FieldError[]): ValidationData<any> {
  const builder = new ErrorSchemaBuilder();
  const list: RJSFValidationError[] = [];
  for (const e of errors) {
    const path = segments(e.path);
    builder.addErrors(e.message, path.length ? path : undefined);
    const property = path.length ? `.${path.join('.')}` : '';
    list.push({ property, message: e.message, stack: e.message, name: 'engine' });
  }
  return { errors: list, errorSchema: builder.ErrorSchema as ErrorSchema };
}

export interface EngineValidatorOptions {
  model: EntityModel;
  lang: () => Lang;
  /** The whole record as it would be saved (header from rjsf's data, rows from the grid). */
  record: (formData: Record<string, unknown>) => Record<string, unknown>;
  /** Errors the user cannot act on (fields hidden by x-rules or not on the form) are left out. */
  shown: (error: FieldError) => boolean;
}

let plain: InstanceType<typeof Ajv2020> | undefined;
const plainValidators = new WeakMap<object, (data: unknown) => boolean>();

/** rjsf asks this when matching data to sub-schemas; the form's schema is plain JSON Schema. */
function plainValidate(schema: RJSFSchema, data: unknown): { valid: boolean; errors: unknown[] } {
  plain ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  let fn = plainValidators.get(schema);
  if (!fn) plainValidators.set(schema, (fn = plain.compile(schema)));
  const valid = fn(data);
  return { valid, errors: (fn as unknown as { errors?: unknown[] }).errors ?? [] };
}

export function engineValidator({ model, lang, record, shown }: EngineValidatorOptions): ValidatorType<any> {
  return {
    validateFormData(formData) {
      const errors = validateRecord(catalogAjv(), model, record(formData ?? {}), { mode: 'full', lang: lang(), prompts: true });
      return toValidationData(errors.filter(shown));
    },
    isValid(schema, formData) {
      try {
        return plainValidate(schema, formData).valid;
      } catch {
        return false;
      }
    },
    rawValidation(schema, formData) {
      try {
        const { errors } = plainValidate(schema, formData);
        return { errors: errors as any[] };
      } catch (err) {
        return { validationError: err as Error };
      }
    },
  };
}
