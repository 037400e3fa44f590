// The dialect registered into Ajv: the x- keywords with their meta-schemas, and our formats.
// registerDialect is the one place this happens; the server, the form renderer and tests use it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../model/types.ts';

export const META_BASE = 'https://zhusuan.dev/schemas/meta/';
export const DIALECT_ID = `${META_BASE}dialect.schema.json`;
export const SCHEMA_BASE = 'https://zhusuan.dev/';

/** The x- keyword families of the dialect (docs/dialect-reference.md). */
export const FAMILIES = [
  'x-entity',
  'x-list',
  'x-search',
  'x-layout',
  'x-ui',
  'x-display',
  'x-ref',
  'x-dict',
  'x-detail',
  'x-rules',
  'x-compute',
  'x-db',
  'x-i18n',
  'x-workflow',
  'x-cumulative',
] as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function validDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(+y, +m - 1, +d));
  return date.getUTCFullYear() === +y && date.getUTCMonth() === +m - 1 && date.getUTCDate() === +d;
}

export const formats = {
  date: (s: string) => {
    const m = DATE.exec(s);
    return m !== null && validDate(m[1], m[2], m[3]);
  },
  datetime: (s: string) => {
    const m = DATETIME.exec(s);
    return m !== null && validDate(m[1], m[2], m[3]);
  },
  month: (s: string) => MONTH.test(s),
};

export type Ajv = InstanceType<typeof Ajv2020>;

/**
 * Creates an Ajv instance that knows the dialect. `metaSchemas` are the files of schemas/meta
 * (the caller reads them: the engine does no I/O). `checkSchemas: false` leaves out checking the
 * schemas added later against their meta-schemas, for a set that was checked where it came from:
 * compiling the dialect's meta-schemas is the larger part of creating the instance.
 */
export function createAjv(metaSchemas: readonly JsonSchema[], options: { allErrors?: boolean; checkSchemas?: boolean } = {}): Ajv {
  const checkSchemas = options.checkSchemas ?? true;
  const ajv = new Ajv2020({
    strict: true,
    allErrors: options.allErrors ?? true,
    strictTuples: false,
    strictTypes: false,
    validateSchema: checkSchemas,
  });
  addFormats.default
    ? addFormats.default(ajv, ['email', 'uri'])
    : (addFormats as unknown as typeof addFormats.default)(ajv, ['email', 'uri']);
  for (const [name, check] of Object.entries(formats)) ajv.addFormat(name, { type: 'string', validate: check });
  for (const meta of metaSchemas) {
    if (meta.$id === DIALECT_ID) ajv.addMetaSchema(meta);
    else ajv.addSchema(meta);
  }
  for (const keyword of FAMILIES) {
    ajv.addKeyword(checkSchemas ? { keyword, metaSchema: { $ref: `${META_BASE}${keyword}.schema.json` } } : { keyword });
  }
  return ajv;
}
