// The dialect's keyword reference (docs/dialect-reference.md) written from the meta-schemas of
// schemas/meta: one section per x- keyword family in the order the dialect lists them, a row per
// keyword with its type, default and description, then the condition language and the expression
// operators. `npm run docs:dialect` writes it; tests/schemas/docs.test.ts checks the committed file is
// what this gives. To change a row, change the meta-schema (its description) and regenerate.
import type { JsonSchema } from '../../engine/model/types.ts';

type Schema = Record<string, any>;

const DIALECT_ID = 'https://zhusuan.dev/schemas/meta/dialect.schema.json';
const PREDICATE_ID = 'https://zhusuan.dev/schemas/meta/predicate.schema.json';
const REFERENCE_ID = 'https://zhusuan.dev/schemas/meta/reference.schema.json';

/** The file name of a meta-schema: `x-entity.schema.json`. */
const fileOf = (s: Schema): string =>
  String(s.$id ?? '')
    .split('/')
    .pop() ?? '';
/** Its family: `x-entity`. */
const familyOf = (file: string): string => file.replace(/\.schema\.json$/, '');

const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/**
 * Prose from a meta-schema as Markdown: outside code spans `<` and `>` are escaped (`<api>` is not an
 * HTML tag) and a rule id links to its heading in docs/rules.md.
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/\bR-[A-Z]+(?:-[A-Z0-9]+)*/g, (id) => `[${id}](rules.md#${id.toLowerCase()})`),
    )
    .join('');
}

/** A table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function range(s: Schema, unit = ''): string {
  const lo = s.minimum ?? s.minItems ?? s.minLength ?? s.minProperties;
  const hi = s.maximum ?? s.maxItems ?? s.maxLength ?? s.maxProperties;
  if (lo === undefined && hi === undefined) return '';
  if (hi === undefined) return ` ≥ ${lo}${unit}`;
  if (lo === undefined) return ` ≤ ${hi}${unit}`;
  return lo === hi ? ` (${lo}${unit})` : ` ${lo}–${hi}${unit}`;
}

function refName(ref: string): string {
  if (ref === '#') return '[condition](#conditions)';
  if (ref === '#/$defs/expr') return '[expression](#expressions)';
  if (ref === '#/$defs/operands') return 'array of ≥ 2 [expressions](#expressions)';
  if (ref === '#/$defs/dates') return '[start, end, day rule?] ([expressions](#expressions))';
  const file = ref.split('#')[0].split('/').pop() ?? ref;
  if (file === 'predicate.schema.json') return '[condition](#conditions)';
  if (file.startsWith('x-')) return `[${familyOf(file)}](#${familyOf(file)})`;
  return code(ref);
}

/** What a value may be, in a few words. */
export function typeOf(s: Schema | undefined): string {
  if (!s || typeof s !== 'object' || Object.keys(s).length === 0) return 'any';
  if (s.$ref) return refName(s.$ref);
  if ('const' in s) return code(s.const);
  if (s.enum) return `one of ${s.enum.map(code).join(' ')}`;
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return alternatives.map((a: Schema) => typeOf(a)).join(' or ');
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return types.join(' or ');
  switch (types[0]) {
    case 'array': {
      if (s.prefixItems) return `[${s.prefixItems.map((p: Schema) => typeOf(p)).join(', ')}]`;
      const unique = s.uniqueItems ? ', no repeats' : '';
      return `array${range(s, ' items')} of ${s.items ? typeOf(s.items) : 'any'}${unique}`;
    }
    case 'object':
      if (s.properties && s.required?.length === 1 && Object.keys(s.properties).length === 1) return code(`{"${s.required[0]}": …}`);
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return `object: name → ${typeOf(s.additionalProperties)}`;
      return 'object';
    case 'integer':
    case 'number':
      return `${types[0]}${range(s)}`;
    case 'string':
      return `string${s.maxLength ? ` ≤ ${s.maxLength} characters` : ''}${s.minLength ? ' (not empty)' : ''}`;
    default:
      return types[0] ?? 'any';
  }
}

function description(s: Schema): string {
  const parts: string[] = [];
  if (s.description) parts.push(prose(String(s.description).replace(/\.$/, '')));
  if (s.pattern) parts.push(`pattern ${code(s.pattern)}`);
  if (s.propertyNames?.pattern) parts.push(`names match ${code(s.propertyNames.pattern)}`);
  return parts.join('; ');
}

interface Row {
  name: string;
  required: boolean;
  type: string;
  def: string;
  text: string;
}

/** Rows for the properties of an object schema, nested objects and arrays of objects flattened. */
function rows(s: Schema, prefix = ''): Row[] {
  const out: Row[] = [];
  const required = new Set<string>(s.required ?? []);
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
    const path = `${prefix}${name}`;
    out.push({
      name: path,
      required: required.has(name),
      type: typeOf(prop),
      def: prop.default === undefined ? '' : code(prop.default),
      text: description(prop),
    });
    if (prop.properties) out.push(...rows(prop, `${path}.`));
    const items: Schema | undefined = prop.items;
    if (items?.properties) out.push(...rows(items, `${path}[].`));
    for (const alt of items?.oneOf ?? []) if (alt.properties) out.push(...rows(alt, `${path}[].`));
  }
  return out;
}

function table(list: Row[]): string[] {
  if (!list.length) return [];
  return [
    '| keyword | required | type | default | description |',
    '|---|---|---|---|---|',
    ...list.map((r) => `| ${code(r.name)} | ${r.required ? 'yes' : ''} | ${cell(r.type)} | ${cell(r.def)} | ${cell(r.text)} |`),
    '',
  ];
}

/** "x-entity: what the document type is" → "What the document type is." */
function sentence(title: string, family: string): string {
  const text = title.startsWith(`${family}:`) ? title.slice(family.length + 1).trim() : title;
  return prose(`${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`);
}

function exprSection(defs: Schema): string[] {
  const out = ['## Expressions', '', 'What `x-compute.expr` takes (`schemas/meta/x-compute.schema.json`, `$defs/expr`).', ''];
  if (defs.expr?.description) out.push(prose(String(defs.expr.description).replace(/\.?$/, '.')), '');
  out.push('| form | operand | description |', '|---|---|---|');
  for (const alt of defs.expr?.oneOf ?? []) {
    const key: string | undefined = alt.required?.[0];
    if (alt.type === 'number') out.push('| a number | | a literal |');
    else if (alt.type === 'string') out.push(`| a field name | | the value of that field in the same row; ${cell(description(alt))} |`);
    else if (key)
      out.push(
        `| ${code(`{"${key}": …}`)} | ${cell(typeOf(alt.properties?.[key]))}${
          alt.required.length > 1
            ? `; also ${alt.required
                .slice(1)
                .concat(Object.keys(alt.properties).filter((k: string) => !alt.required.includes(k)))
                .map(code)
                .join(', ')}`
            : ''
        } | ${cell(description(alt) || description(alt.properties?.[key] ?? {}))} |`,
      );
  }
  out.push('');
  if (defs.dates?.description)
    out.push(`Dates of \`days\` and \`months\`: ${prose(String(defs.dates.description).replace(/\.?$/, '.'))}`, '');
  return out;
}

function predicateSection(p: Schema): string[] {
  const field = Object.values<Schema>(p.patternProperties ?? {})[0];
  const ops = field?.properties ?? {};
  return [
    '## Conditions',
    '',
    `${sentence(String(p.title ?? ''), '')} Used by \`x-rules\`, \`x-ref.filter\`, \`x-entity.activeIf\` and the \`if\` of an expression (\`schemas/meta/predicate.schema.json\`).`,
    '',
    ...(field?.description ? [`\`{"<field>": {"<operator>": value}}\`: ${prose(String(field.description).replace(/\.?$/, '.'))}`, ''] : []),
    '| form | value | meaning |',
    '|---|---|---|',
    ...Object.entries<Schema>(p.properties ?? {}).map(([k, s]) => `| ${code(k)} | ${cell(typeOf(s))} | ${cell(description(s))} |`),
    ...Object.entries<Schema>(ops).map(
      ([k, s]) => `| ${code(`{"<field>": {"${k}": …}}`)} | ${s.type ? cell(typeOf(s)) : 'a value'} | ${cell(description(s))} |`,
    ),
    '',
  ];
}

/** A schema with its local $ref (`#/$defs/…`) replaced by the definition, its own keywords over it. */
function deref(s: Schema, defs: Schema): Schema {
  const name = typeof s.$ref === 'string' && s.$ref.startsWith('#/$defs/') ? s.$ref.slice('#/$defs/'.length) : undefined;
  if (!name || !defs[name]) return s;
  const { $ref: _ref, ...own } = s;
  return { ...deref(defs[name], defs), ...own };
}

/** The reference data files (schemas/meta/reference.schema.json): a table per file, of its entries' keys. */
function referenceSection(r: Schema): string[] {
  const defs: Schema = r.$defs ?? {};
  const out = ['## Reference data files', '', sentence(String(r.title ?? ''), 'Reference data files')];
  if (r.description) out.push('', prose(String(r.description)));
  out.push('', 'Meta-schema: `schemas/meta/reference.schema.json`. How they are applied: [reference-data.md](reference-data.md).', '');
  for (const file of Object.values<Schema>(defs).filter((d) => d.required?.length === 1 && d.properties)) {
    const key: string = file.required[0];
    const list = deref(file.properties[key], defs);
    const entry = deref(list.items ?? {}, defs);
    const props = Object.fromEntries(
      Object.entries<Schema>(entry.properties ?? {}).map(([k, v]) => {
        const prop = deref(v, defs);
        return [k, prop.items ? { ...prop, items: deref(prop.items, defs) } : prop];
      }),
    );
    out.push(`### ${file.description}`, '', `\`${key}\`: ${prose(String(list.description ?? ''))}.`, '');
    out.push(...table(rows({ ...entry, properties: props })));
  }
  return out;
}

/** The whole reference, from the meta-schemas as readSchemaSource() gives them. */
export function dialectReference(meta: readonly JsonSchema[]): string {
  const byFile = new Map<string, Schema>(meta.map((m) => [fileOf(m as Schema), m as Schema]));
  const dialect = (meta as Schema[]).find((m) => m.$id === DIALECT_ID);
  if (!dialect) throw new Error('schemas/meta/dialect.schema.json is missing');
  const families = Object.keys(dialect.properties ?? {});
  const out: string[] = [
    '# Dialect keyword reference',
    '',
    '<!-- Generated by `npm run docs:dialect` (src/server/cli/docs-dialect.ts) from schemas/meta/*.schema.json. Do not edit: change the meta-schema and regenerate; tests/schemas/docs.test.ts checks that this file is up to date. -->',
    '',
    `${sentence(String(dialect.title ?? ''), '')} A schema file's \`$schema\` is \`${DIALECT_ID}\`; any other \`x-\` keyword is refused. How to write a document type: [dialect.md](dialect.md).`,
    '',
    families.map((f) => `[${f}](#${f})`).join(' · ') +
      ' · [conditions](#conditions) · [expressions](#expressions) · [reference data files](#reference-data-files)',
    '',
  ];
  let exprDefs: Schema | undefined;
  for (const family of families) {
    const s = byFile.get(`${family}.schema.json`);
    if (!s) throw new Error(`schemas/meta/${family}.schema.json is missing`);
    out.push(`## ${family}`, '', sentence(String(s.title ?? family), family), '');
    if (s.description) out.push(prose(String(s.description)), '');
    out.push(`Meta-schema: \`schemas/meta/${family}.schema.json\`.`, '');
    out.push(...table(rows(s)));
    if (s.$defs?.expr) exprDefs = s.$defs;
  }
  const predicate = (meta as Schema[]).find((m) => m.$id === PREDICATE_ID);
  if (predicate) out.push(...predicateSection(predicate));
  if (exprDefs) out.push(...exprSection(exprDefs));
  const reference = (meta as Schema[]).find((m) => m.$id === REFERENCE_ID);
  if (reference) out.push(...referenceSection(reference));
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
