// table-list and table-info: what information_schema says about the tables of a database (a data
// source, or the application's own), and the model fields it suggests, typed in our dialect.
import type { PrototypeRow } from './generate.ts';

/** Runs one parameterised query on the database being read. */
export type ReadQuery = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

export interface TableSummary {
  tableName: string;
  comment: string;
}

/** Columns every generated record has already (docs/dialect.md#system-fields): not proposed as fields. */
const SYSTEM_COLUMNS = new Set([
  'id',
  'tenant_id',
  'create_user',
  'create_dept',
  'create_time',
  'update_user',
  'update_time',
  'is_deleted',
]);

export async function listTables(read: ReadQuery): Promise<TableSummary[]> {
  const rows = await read(
    `SELECT c.relname AS "tableName", coalesce(obj_description(c.oid, 'pg_class'), '') AS comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname LIMIT 2000`,
    [],
  );
  return rows.map((r) => ({ tableName: String(r.tableName), comment: String(r.comment) }));
}

interface ColumnInfo {
  name: string;
  dataType: string;
  maxLength: number | null;
  scale: number | null;
  nullable: boolean;
  comment: string;
}

async function readColumns(read: ReadQuery, table: string): Promise<ColumnInfo[]> {
  const rows = await read(
    `SELECT c.column_name AS name, c.data_type AS "dataType", c.character_maximum_length AS "maxLength", c.numeric_scale AS scale,
            c.is_nullable = 'YES' AS nullable,
            coalesce(col_description(format('%I.%I', c.table_schema, c.table_name)::regclass, c.ordinal_position::int), '') AS comment
       FROM information_schema.columns c
      WHERE c.table_schema = current_schema() AND c.table_name = $1 ORDER BY c.ordinal_position`,
    [table],
  );
  return rows.map((r) => ({
    name: String(r.name),
    dataType: String(r.dataType),
    maxLength: r.maxLength == null ? null : Number(r.maxLength),
    scale: r.scale == null ? null : Number(r.scale),
    nullable: Boolean(r.nullable),
    comment: String(r.comment),
  }));
}

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const words = (column: string) =>
  column
    .split('_')
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');

/** Our field type for a PostgreSQL column type (what the form widget and the column will be). */
export function fieldTypeOf(c: Pick<ColumnInfo, 'name' | 'dataType' | 'maxLength' | 'scale'>): { fieldType: string; maxLength?: number } {
  switch (c.dataType) {
    case 'smallint':
    case 'integer':
      return { fieldType: 'integer' };
    case 'bigint':
      return { fieldType: c.name.endsWith('_id') ? 'id' : 'integer' };
    case 'numeric':
    case 'real':
    case 'double precision':
      return { fieldType: c.scale === 2 ? 'money' : 'number' };
    case 'date':
      return { fieldType: 'date' };
    case 'timestamp without time zone':
    case 'timestamp with time zone':
      return { fieldType: 'datetime' };
    case 'boolean':
      return { fieldType: 'boolean' };
    case 'text':
      return { fieldType: 'text', maxLength: 4000 };
    default: {
      const maxLength = c.maxLength ?? 255;
      return maxLength > 500 ? { fieldType: 'text', maxLength: Math.min(maxLength, 4000) } : { fieldType: 'string', maxLength };
    }
  }
}

/** The fields a table suggests, in column order; null when there is no such table. */
export async function proposeFields(read: ReadQuery, table: string): Promise<PrototypeRow[] | null> {
  const columns = await readColumns(read, table);
  if (!columns.length) return null;
  return columns
    .filter((c) => !SYSTEM_COLUMNS.has(c.name))
    .map((c) => ({
      jdbcName: c.name,
      propertyName: camel(c.name),
      comment: c.comment || c.name,
      commentEn: words(c.name),
      ...fieldTypeOf(c),
      isRequired: !c.nullable,
      isList: true,
      isQuery: false,
      isForm: true,
    }));
}
