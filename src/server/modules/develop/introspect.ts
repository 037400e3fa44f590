// table-list and table-info: what information_schema says about the tables of a database (a data
// source, or the application's own), and the model fields it suggests, typed in our dialect.
// PostgreSQL and MySQL/MariaDB each have their queries and their type mapping; what follows from
// the columns (the fields proposed) is the same for both.
import type { PrototypeRow } from './generate.ts';

/** The database engines a data source may be: MariaDB speaks MySQL's protocol and catalog. */
export type Engine = 'postgresql' | 'mysql';

/** Runs one parameterised query on the database being read ($1, $2 … on PostgreSQL, ? on MySQL). */
export type ReadQuery = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** A database being read: its engine, and a runner of its queries. */
export interface SourceDb {
  engine: Engine;
  read: ReadQuery;
}

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

/** The server's version, as it reports it ("16.4", "10.11.19-MariaDB-0+deb12u1"). */
export async function serverVersion({ engine, read }: SourceDb): Promise<string> {
  const [row] = await read(engine === 'mysql' ? 'SELECT VERSION() AS version' : 'SHOW server_version', []);
  return String(engine === 'mysql' ? row.version : row.server_version);
}

/** The product a server is, for people: MariaDB tells itself apart from MySQL in its version. */
export function productOf(engine: Engine, version: string): 'PostgreSQL' | 'MySQL' | 'MariaDB' {
  if (engine === 'postgresql') return 'PostgreSQL';
  return /mariadb/i.test(version) ? 'MariaDB' : 'MySQL';
}

const TABLES_SQL: Record<Engine, string> = {
  postgresql: `SELECT c.relname AS "tableName", coalesce(obj_description(c.oid, 'pg_class'), '') AS comment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY c.relname LIMIT 2000`,
  // the database of the connection; views left out, as on PostgreSQL (MariaDB's system-versioned tables are tables)
  mysql: `SELECT TABLE_NAME AS tableName, TABLE_COMMENT AS comment FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY TABLE_NAME LIMIT 2000`,
};

export async function listTables({ engine, read }: SourceDb): Promise<TableSummary[]> {
  const rows = await read(TABLES_SQL[engine], []);
  return rows.map((r) => ({ tableName: String(r.tableName), comment: String(r.comment ?? '') }));
}

interface ColumnInfo {
  name: string;
  /** information_schema's data_type: `integer`, `character varying` (PostgreSQL); `int`, `varchar` (MySQL). */
  dataType: string;
  /** MySQL's full column type (`tinyint(1)`, `decimal(18,2) unsigned`); the data type on PostgreSQL. */
  columnType: string;
  maxLength: number | null;
  scale: number | null;
  nullable: boolean;
  comment: string;
}

const COLUMNS_SQL: Record<Engine, string> = {
  postgresql: `SELECT c.column_name AS name, c.data_type AS "dataType", c.data_type AS "columnType",
            c.character_maximum_length AS "maxLength", c.numeric_scale AS scale, c.is_nullable = 'YES' AS nullable,
            coalesce(col_description(format('%I.%I', c.table_schema, c.table_name)::regclass, c.ordinal_position::int), '') AS comment
       FROM information_schema.columns c
      WHERE c.table_schema = current_schema() AND c.table_name = $1 ORDER BY c.ordinal_position`,
  mysql: `SELECT COLUMN_NAME AS name, DATA_TYPE AS dataType, COLUMN_TYPE AS columnType, CHARACTER_MAXIMUM_LENGTH AS maxLength,
            NUMERIC_SCALE AS scale, IS_NULLABLE = 'YES' AS nullable, COLUMN_COMMENT AS comment
       FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
};

async function readColumns({ engine, read }: SourceDb, table: string): Promise<ColumnInfo[]> {
  const rows = await read(COLUMNS_SQL[engine], [table]);
  return rows.map((r) => ({
    name: String(r.name),
    dataType: String(r.dataType).toLowerCase(),
    columnType: String(r.columnType).toLowerCase(),
    maxLength: r.maxLength == null ? null : Number(r.maxLength),
    scale: r.scale == null ? null : Number(r.scale),
    nullable: Boolean(r.nullable),
    comment: String(r.comment ?? ''),
  }));
}

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const words = (column: string) =>
  column
    .split('_')
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w[0].toUpperCase() + w.slice(1) : w))
    .join(' ');

type FieldType = { fieldType: string; maxLength?: number };
type ColumnType = Pick<ColumnInfo, 'name' | 'dataType' | 'maxLength' | 'scale'> & Partial<Pick<ColumnInfo, 'columnType'>>;

/** A character column: a one-line text up to 500 characters, a text area beyond. */
function characters(maxLength: number | null): FieldType {
  const length = maxLength ?? 255;
  return length > 500 ? { fieldType: 'text', maxLength: Math.min(length, 4000) } : { fieldType: 'string', maxLength: length };
}

/** Our field type for a column (what the form widget and the column will be). */
export function fieldTypeOf(c: ColumnType, engine: Engine = 'postgresql'): FieldType {
  return engine === 'mysql' ? mysqlFieldType(c) : postgresFieldType(c);
}

function postgresFieldType(c: ColumnType): FieldType {
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
    default:
      return characters(c.maxLength);
  }
}

function mysqlFieldType(c: ColumnType): FieldType {
  // MySQL has no boolean: BOOLEAN is tinyint(1), and bit(1) is the other usual flag
  if (/^tinyint\(1\)/.test(c.columnType ?? '') || c.columnType === 'bit(1)') return { fieldType: 'boolean' };
  switch (c.dataType) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'integer':
    case 'year':
      return { fieldType: 'integer' };
    case 'bigint':
      return { fieldType: c.name.endsWith('_id') ? 'id' : 'integer' };
    case 'decimal':
    case 'numeric':
    case 'float':
    case 'double':
    case 'real':
      return { fieldType: c.scale === 2 ? 'money' : 'number' };
    case 'date':
      return { fieldType: 'date' };
    case 'datetime':
    case 'timestamp':
      return { fieldType: 'datetime' };
    case 'tinytext':
    case 'text':
    case 'mediumtext':
    case 'longtext':
    case 'json':
      return { fieldType: 'text', maxLength: Math.min(c.maxLength ?? 4000, 4000) };
    default:
      // char, varchar, enum, set, time …
      return characters(c.maxLength);
  }
}

/** The fields a table suggests, in column order; null when there is no such table. */
export async function proposeFields(db: SourceDb, table: string): Promise<PrototypeRow[] | null> {
  const columns = await readColumns(db, table);
  if (!columns.length) return null;
  return columns
    .filter((c) => !SYSTEM_COLUMNS.has(c.name))
    .map((c) => ({
      jdbcName: c.name,
      propertyName: camel(c.name),
      comment: c.comment || c.name,
      commentEn: words(c.name),
      ...fieldTypeOf(c, db.engine),
      isRequired: !c.nullable,
      isList: true,
      isQuery: false,
      isForm: true,
    }));
}
