// The filter tree (src/engine/query/filter.ts) as SQL over an entity's table: one entry per
// operator. Columns come from the compiled model, every value is a parameter.
import type { FieldModel, EntityModel } from '../../engine/model/types.ts';
import type { Predicate } from '../../engine/predicate/predicate.ts';
import { predicateTree, type FilterOp, type FilterTest, type FilterTree } from '../../engine/query/filter.ts';
import { Params, q, valueSql } from './sql.ts';

interface Operand {
  field: FieldModel;
  /** Where the value is read (valueSql), and the same as text. */
  col: string;
  text: string;
  value: FilterTest['value'];
  params: Params;
  alias: string;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case only matters for letters that have it: Chinese text compares faster with plain LIKE. */
function like(value: unknown): 'LIKE' | 'ILIKE' {
  return String(value).toLowerCase() === String(value).toUpperCase() ? 'LIKE' : 'ILIKE';
}

const pattern = (before: string, value: unknown, after: string) => `${before}${escapeLike(String(value))}${after}`;

const texts = (value: FilterTest['value']) => (Array.isArray(value) ? value : [value]).map(String);

/** A multi-select value (a JSON array, or comma-joined text) holding any of the comma-joined keys. */
function containsAny({ field, col, value, params }: Operand): string {
  const keys = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const wanted = `${params.add(keys)}::text[]`;
  return field.kind === 'json' ? `${col} ?| ${wanted}` : `string_to_array(${col}, ',') && ${wanted}`;
}

/** A link field's rows of the record holding the value (answered by the link table's index). */
function linkHolds({ field, alias, value, params }: Operand): string {
  const link = field.link!;
  return `EXISTS (SELECT 1 FROM ${q(link.table)} l WHERE l.${q(link.ownerColumn)} = ${alias}.id AND l.${q(field.column)}::text = ${params.add(String(value))})`;
}

function equal(o: Operand): string {
  const { field, col, value, params } = o;
  if (value === null) return `${col} IS NULL`;
  if (field.dict?.multiple) return containsAny(o);
  if (field.link) return linkHolds(o);
  if (field.ref?.separator) return `${params.add(String(value))} = ANY(string_to_array(${col}, ','))`;
  return `${col} = ${params.add(value)}`;
}

const OPERATORS: Record<FilterOp, (o: Operand) => string> = {
  eq: equal,
  ne: ({ col, value, params }) => (value === null ? `${col} IS NOT NULL` : `(${col} IS NULL OR ${col} <> ${params.add(value)})`),
  in: ({ text, value, params }) => `${text} = ANY(${params.add(texts(value))}::text[])`,
  // as ne: an empty field is none of the values (the browser's evaluation says so too)
  nin: ({ col, text, value, params }) => `(${col} IS NULL OR NOT (${text} = ANY(${params.add(texts(value))}::text[])))`,
  gt: ({ col, value, params }) => `${col} > ${params.add(value)}`,
  ge: ({ col, value, params }) => `${col} >= ${params.add(value)}`,
  lt: ({ col, value, params }) => `${col} < ${params.add(value)}`,
  le: ({ col, value, params }) => `${col} <= ${params.add(value)}`,
  dateEq: ({ col, value, params }) => `${col}::date = ${params.add(value)}::date`,
  like: ({ text, value, params }) => `${text} ${like(value)} ${params.add(pattern('%', value, '%'))}`,
  notlike: ({ col, text, value, params }) => `(${col} IS NULL OR ${text} NOT ${like(value)} ${params.add(pattern('%', value, '%'))})`,
  startsWith: ({ text, value, params }) => `${text} ${like(value)} ${params.add(pattern('', value, '%'))}`,
  endsWith: ({ text, value, params }) => `${text} ${like(value)} ${params.add(pattern('%', value, ''))}`,
  null: ({ col }) => `${col} IS NULL`,
  notnull: ({ col }) => `${col} IS NOT NULL`,
  empty: ({ col, value }) => (value ? `(${col} IS NULL OR ${col}::text = '')` : `(${col} IS NOT NULL AND ${col}::text <> '')`),
};

/** The tree as a condition on the rows of `model` read as `alias`. */
export function filterSql(tree: FilterTree, model: EntityModel, params: Params, alias = 't'): string {
  if ('all' in tree) return tree.all.length ? `(${tree.all.map((t) => filterSql(t, model, params, alias)).join(' AND ')})` : 'true';
  if ('any' in tree) return tree.any.length ? `(${tree.any.map((t) => filterSql(t, model, params, alias)).join(' OR ')})` : 'false';
  if ('not' in tree) return `NOT (${filterSql(tree.not, model, params, alias)})`;
  if ('constant' in tree) return tree.constant ? 'true' : 'false';
  const field = model.fieldMap[tree.field];
  const col = valueSql(field, alias);
  return OPERATORS[tree.op]({ field, col, text: field.kind === 'string' ? col : `${col}::text`, value: tree.value, params, alias });
}

const trees = new WeakMap<Predicate, WeakMap<EntityModel, FilterTree>>();

/**
 * A condition of the schema set (activeIf, fixedIf, permanentIf, a rule's when, a report's filter) as
 * SQL over `model`'s rows. Its tree is built once per condition: activeIf runs in every reference check.
 */
export function conditionSql(pred: Predicate, model: EntityModel, params: Params, alias = 't'): string {
  let byModel = trees.get(pred);
  if (!byModel) trees.set(pred, (byModel = new WeakMap()));
  let tree = byModel.get(model);
  if (!tree) byModel.set(model, (tree = predicateTree(pred, model)));
  return filterSql(tree, model, params, alias);
}

/** A SQL literal of a constant (a partial index's condition cannot take parameters). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The tree with its values written in (x-db.uniqueWhen in a partial index). */
export function constantFilterSql(tree: FilterTree, model: EntityModel, alias: string): string {
  const params = new Params();
  const sql = filterSql(tree, model, params, alias);
  return sql.replace(/\$(\d+)/g, (_, n: string) => literal(params.values[Number(n) - 1]));
}
