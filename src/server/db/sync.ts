// Schema sync: the tables the models describe are created, and widened when a schema gains a field,
// an index or a longer column. A change that could lose data (a column dropped or narrowed or retyped)
// is refused unless a migration in migrations/ has already made the database match.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EntityCatalog, EntityModel, FieldModel } from '../../engine/model/types.ts';
import { sqlState, type Db, type Queryable } from './db.ts';
import { predicateTree } from '../../engine/query/filter.ts';
import { constantFilterSql } from './filter-sql.ts';
import { q } from './sql.ts';

export interface TableSpec {
  table: string;
  columns: { column: string; sqlType: string; notNull?: string }[];
  indexes: IndexSpec[];
  /**
   * A link table (x-db.link) taking over what a comma-joined column held: when the table is new and
   * the column still there (an installation from before the field became a link), the column's
   * references move into the table, in their order, and the column is dropped, in the sync's
   * transaction. The column's existence is the marker: this happens once.
   */
  movesFrom?: { table: string; column: string; ownerColumn: string; refColumn: string; refType: string; tenant: boolean };
}

export interface IndexSpec {
  name: string;
  columns: string[];
  unique: boolean;
  where?: string;
  /** A trigram index for contains-searches (needs the pg_trgm extension). */
  trigram?: boolean;
}

export class SchemaSyncError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `database schema does not match the models; refusing to change it:\n${problems.map((p) => `  - ${p}`).join('\n')}\n` +
        'A destructive change needs a migration: add an SQL file under migrations/ that makes the change explicitly.',
    );
    this.name = 'SchemaSyncError';
  }
}

const INTERNAL_DDL = `
CREATE TABLE IF NOT EXISTS zs_setting (key varchar(100) PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS zs_sequence (
  tenant_id varchar(12) NOT NULL, name varchar(100) NOT NULL, period varchar(8) NOT NULL, value bigint NOT NULL,
  PRIMARY KEY (tenant_id, name, period));
CREATE TABLE IF NOT EXISTS zs_migration (name varchar(200) PRIMARY KEY, applied_at timestamp(0) NOT NULL DEFAULT now());
`;

/** Index names are deterministic (so sync is idempotent) and within PostgreSQL's 63 bytes. */
export function indexName(table: string, columns: string[], unique: boolean): string {
  const base = `${table}_${columns.join('_')}_${unique ? 'uq' : 'idx'}`;
  if (base.length <= 63) return base;
  const hash = createHash('sha1').update(base).digest('hex').slice(0, 8);
  return `${base.slice(0, 50)}_${hash}`;
}

/**
 * The partial unique index of a field unique within others (x-db.uniqueWithin): over the tenant,
 * those fields and the field, among the live records that satisfy uniqueWhen.
 */
export function uniqueWithinIndex(model: EntityModel, f: FieldModel): IndexSpec {
  const within = f.uniqueWithin!;
  const columns = [...new Set([...scopeColumns(model), ...within.fields.map((name) => model.fieldMap[name].column), f.column])];
  const conditions = [liveFilter(model), within.when && `(${constantFilterSql(predicateTree(within.when, model), model, q(model.table))})`];
  const where = conditions.filter(Boolean).join(' AND ') || undefined;
  return { name: indexName(model.table, columns, true), columns, unique: true, where };
}

function liveFilter(model: EntityModel): string | undefined {
  return model.softDelete ? 'is_deleted = 0' : undefined;
}

function scopeColumns(model: EntityModel): string[] {
  return model.scope === 'tenant' || model.tenantRows ? ['tenant_id'] : [];
}

function columnSpec(f: FieldModel): TableSpec['columns'][number] {
  if (!f.system) return { column: f.column, sqlType: f.sqlType };
  if (f.name === 'id') return { column: 'id', sqlType: 'bigint', notNull: 'PRIMARY KEY' };
  if (f.name === 'tenantId') return { column: f.column, sqlType: f.sqlType, notNull: 'NOT NULL' };
  if (f.name === 'isDeleted') return { column: f.column, sqlType: f.sqlType, notNull: 'NOT NULL DEFAULT 0' };
  return { column: f.column, sqlType: f.sqlType };
}

/** The tables, columns and indexes one entity needs. */
export function tableSpecs(model: EntityModel): TableSpec[] {
  // rows of another document (x-entity.rowsOf) live in that document's detail table
  if (model.rowsOf) return [];
  const scope = scopeColumns(model);
  const where = liveFilter(model);
  const index = (columns: string[], unique = false): IndexSpec => ({
    name: indexName(model.table, columns, unique),
    columns,
    unique,
    where,
  });
  const indexes: IndexSpec[] = [];
  // The default list order, per tenant: the first page of a list is an index scan.
  const sortColumns = model.list.defaultSort.map((s) => model.fieldMap[s.field]?.column).filter(Boolean) as string[];
  indexes.push(index([...scope, ...sortColumns.filter((c) => c !== 'id'), 'id']));
  for (const f of model.columns) {
    if (f.link) continue; // its link table carries its indexes
    if (f.unique) indexes.push(index([...scope, f.column], true));
    else if (f.index || f.ref) indexes.push(index([...scope, f.column]));
    if (f.uniqueWithin) indexes.push(uniqueWithinIndex(model, f));
  }
  if (model.tree) indexes.push(index([...scope, model.fieldMap[model.tree.parentField].column]));
  // the search bar's contains-searches on text: a trigram index answers them without a scan
  for (const s of model.search) {
    const f = model.fieldMap[s.field];
    if (s.operator === 'like' && f?.kind === 'string' && !f.dict && !f.writeOnly && !f.link) {
      indexes.push({ name: indexName(model.table, [f.column, 'trgm'], false), columns: [f.column], unique: false, where, trigram: true });
    }
  }
  const header: TableSpec = {
    table: model.table,
    columns: model.columns
      .filter((f) => !f.link)
      .map((f) =>
        // rows from before a tenant could add its own (x-entity.tenantRows) are the platform tenant's (000000)
        model.tenantRows && f.name === 'tenantId' ? { ...columnSpec(f), notNull: "NOT NULL DEFAULT '000000'" } : columnSpec(f),
      ),
    indexes: dedupeIndexes(indexes),
  };
  const details = model.details.map(
    (d): TableSpec => ({
      table: d.table,
      columns: d.columns.map(columnSpec),
      indexes: [{ name: indexName(d.table, [d.foreignKeyColumn], false), columns: [d.foreignKeyColumn], unique: false }],
    }),
  );
  return [header, ...details, ...model.columns.filter((f) => f.link).map((f) => linkTableSpec(model, f))];
}

/** The SQL type of a link field's references: ids as bigint, other keys (a code) as text. */
export function linkRefType(f: FieldModel): 'bigint' | 'text' {
  return f.ref?.valueField === 'id' ? 'bigint' : 'text';
}

/**
 * The link table of a multi-valued reference (x-db.link): the owner's id, the reference, its
 * position, and the tenant for a tenant entity's references; one row per owner and reference, and
 * an index from the reference back to its owners (who holds this menu).
 */
function linkTableSpec(model: EntityModel, f: FieldModel): TableSpec {
  const { table, ownerColumn } = f.link!;
  const tenant = model.scope === 'tenant';
  const refType = linkRefType(f);
  const index = (columns: string[], unique: boolean): IndexSpec => ({ name: indexName(table, columns, unique), columns, unique });
  return {
    table,
    columns: [
      ...(tenant ? [{ column: 'tenant_id', sqlType: 'varchar(12)', notNull: 'NOT NULL' }] : []),
      { column: ownerColumn, sqlType: 'bigint', notNull: 'NOT NULL' },
      { column: f.column, sqlType: refType, notNull: 'NOT NULL' },
      { column: 'sort', sqlType: 'integer', notNull: 'NOT NULL' },
    ],
    indexes: [index([ownerColumn, f.column], true), index([...(tenant ? ['tenant_id'] : []), f.column], false)],
    movesFrom: { table: model.table, column: f.column, ownerColumn, refColumn: f.column, refType, tenant },
  };
}

/** Moves a comma-joined column's references into the link table that replaces it, then drops the column. */
function moveIntoLinkTable(spec: TableSpec): string[] {
  const m = spec.movesFrom!;
  const wellFormed =
    m.refType === 'bigint' ? `CASE WHEN x.ref ~ '^[0-9]{1,19}$' THEN x.ref::numeric <= 9223372036854775807 ELSE false END` : `x.ref <> ''`;
  return [
    `INSERT INTO "${spec.table}" ("${m.ownerColumn}", "${m.refColumn}", sort${m.tenant ? ', tenant_id' : ''})
     SELECT o.id, x.ref::${m.refType}, x.n${m.tenant ? ', o.tenant_id' : ''}
       FROM "${m.table}" o CROSS JOIN LATERAL unnest(string_to_array(o."${m.column}", ',')) WITH ORDINALITY AS x(ref, n)
      WHERE ${wellFormed}
     ON CONFLICT DO NOTHING`,
    `ALTER TABLE "${m.table}" DROP COLUMN "${m.column}"`,
  ];
}

function dedupeIndexes(indexes: IndexSpec[]): IndexSpec[] {
  const byName = new Map<string, IndexSpec>();
  for (const i of indexes) if (!byName.has(i.name)) byName.set(i.name, i);
  return [...byName.values()];
}

interface LiveColumn {
  table_name: string;
  column_name: string;
  /** As format_type spells it: character varying(100), numeric(18,4), timestamp(0) without time zone, bigint, … */
  type: string;
}

/** A live column's type in the models' spelling (varchar(n), numeric(p,s), timestamp(p)). */
function liveType(c: LiveColumn): string {
  const varchar = /^character varying(?:\((\d+)\))?$/.exec(c.type);
  if (varchar) return varchar[1] ? `varchar(${varchar[1]})` : 'text';
  const timestamp = /^timestamp(?:\((\d+)\))? without time zone$/.exec(c.type);
  if (timestamp) return `timestamp(${timestamp[1] ?? 6})`;
  return c.type;
}

/** True when changing `from` to `to` keeps every value that `from` can hold. */
export function isWidening(from: string, to: string): boolean {
  const varchar = /^varchar\((\d+)\)$/;
  const numeric = /^numeric\((\d+),(\d+)\)$/;
  const fv = varchar.exec(from);
  if (fv) {
    const tv = varchar.exec(to);
    return to === 'text' || (tv !== null && Number(tv[1]) >= Number(fv[1]));
  }
  const fn = numeric.exec(from);
  const tn = numeric.exec(to);
  if (fn && tn) {
    const [fp, fs] = [Number(fn[1]), Number(fn[2])];
    const [tp, ts] = [Number(tn[1]), Number(tn[2])];
    return ts >= fs && tp - ts >= fp - fs;
  }
  if (from === 'integer') return to === 'bigint' || (tn !== null && Number(tn[1]) - Number(tn[2]) >= 10);
  return false;
}

async function runMigrations(db: Db, dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const applied = new Set((await db.query<{ name: string }>('SELECT name FROM zs_migration')).map((r) => r.name));
  const pending = readdirSync(dir)
    .filter((f) => f.endsWith('.sql') && !applied.has(f))
    .sort();
  for (const name of pending) {
    const sql = readFileSync(join(dir, name), 'utf8');
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO zs_migration (name) VALUES ($1)', [name]);
    });
  }
  return pending;
}

/** Migration files are plain SQL statements separated by semicolons at line ends. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}

/**
 * The columns of every table of the schema. Read from pg_attribute rather than
 * information_schema.columns: the view checks privileges row by row and took about ten times as
 * long (over a second on PGlite with ~80 tables), most of a restart after a schema change.
 */
async function liveColumns(db: Queryable): Promise<Map<string, Map<string, LiveColumn>>> {
  const rows = await db.query<LiveColumn>(
    `SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const tables = new Map<string, Map<string, LiveColumn>>();
  for (const r of rows) {
    if (!tables.has(r.table_name)) tables.set(r.table_name, new Map());
    tables.get(r.table_name)!.set(r.column_name, r);
  }
  return tables;
}

export interface SyncReport {
  created: string[];
  altered: string[];
  migrations: string[];
  /** Unique indexes not created because the live records already break them (the next start tries again). */
  skippedIndexes: { name: string; reason: string }[];
}

/** Plans the DDL for all tables; throws SchemaSyncError when a change would lose data. */
export function planSync(
  specs: TableSpec[],
  live: Map<string, Map<string, LiveColumn>>,
  liveIndexes: ReadonlySet<string> = new Set(),
  options: { trigram: boolean } = { trigram: false },
): { statements: string[]; created: string[]; altered: string[] } {
  const statements: string[] = [];
  const problems: string[] = [];
  const created: string[] = [];
  const altered: string[] = [];
  // comma-joined columns a new link table takes over (TableSpec.movesFrom): moved, then dropped
  const moves = specs.filter((s) => s.movesFrom && !live.has(s.table) && live.get(s.movesFrom.table)?.has(s.movesFrom.column));
  const moved = new Set(moves.map((s) => `${s.movesFrom!.table}.${s.movesFrom!.column}`));
  for (const spec of specs) {
    const columns = live.get(spec.table);
    if (!columns) {
      const defs = spec.columns.map((c) => `"${c.column}" ${c.sqlType}${c.notNull ? ' ' + c.notNull : ''}`);
      statements.push(`CREATE TABLE "${spec.table}" (${defs.join(', ')})`);
      created.push(spec.table);
    } else {
      for (const c of spec.columns) {
        const existing = columns.get(c.column);
        if (!existing) {
          statements.push(
            `ALTER TABLE "${spec.table}" ADD COLUMN "${c.column}" ${c.sqlType}${c.notNull && c.notNull !== 'PRIMARY KEY' ? ' ' + c.notNull : ''}`,
          );
          altered.push(`${spec.table}.${c.column}`);
          continue;
        }
        const current = liveType(existing);
        if (current === c.sqlType) continue;
        if (isWidening(current, c.sqlType)) {
          statements.push(`ALTER TABLE "${spec.table}" ALTER COLUMN "${c.column}" TYPE ${c.sqlType}`);
          altered.push(`${spec.table}.${c.column}`);
        } else {
          problems.push(`${spec.table}.${c.column}: the model says ${c.sqlType}, the database has ${current}`);
        }
      }
      const wanted = new Set(spec.columns.map((c) => c.column));
      for (const name of columns.keys()) {
        if (!wanted.has(name) && !moved.has(`${spec.table}.${name}`))
          problems.push(`${spec.table}.${name}: the column is in the database but no longer in the model`);
      }
    }
    for (const i of spec.indexes) {
      if (liveIndexes.has(i.name) || (i.trigram && !options.trigram)) continue;
      const cols = i.columns.map((c) => (i.trigram ? `"${c}" gin_trgm_ops` : `"${c}"`)).join(', ');
      statements.push(
        `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${i.name}" ON "${spec.table}"${i.trigram ? ' USING gin' : ''} (${cols})${i.where ? ` WHERE ${i.where}` : ''}`,
      );
    }
  }
  if (problems.length) throw new SchemaSyncError(problems);
  for (const spec of moves) {
    statements.push(...moveIntoLinkTable(spec));
    altered.push(`${spec.movesFrom!.table}.${spec.movesFrom!.column} → ${spec.table}`);
  }
  return { statements, created, altered };
}

/**
 * pg_trgm ships with PostgreSQL (contrib) and with PGlite; creating it needs a privileged role on
 * a server. Without it, contains-searches still work, by scanning.
 */
async function enableTrigram(db: Db): Promise<boolean> {
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    return true;
  } catch {
    return false;
  }
}

/**
 * Brings the database in line with the catalog: migrations first, then additive DDL. When the
 * models and migrations are those of the last successful sync (same fingerprint), nothing is
 * inspected: a restart with unchanged schemas skips the catalog queries.
 */
export async function syncSchema(db: Db, catalog: EntityCatalog, migrationsDir: string): Promise<SyncReport> {
  await db.exec(INTERNAL_DDL);
  const specs = Object.values(catalog.entities).flatMap((model) => tableSpecs(model));
  const migrationFiles = existsSync(migrationsDir)
    ? readdirSync(migrationsDir)
        .filter((f) => f.endsWith('.sql'))
        .sort()
    : [];
  const fingerprint = createHash('sha256').update(JSON.stringify({ specs, migrationFiles })).digest('hex');
  const [last] = await db.query<{ value: string }>(`SELECT value FROM zs_setting WHERE key = 'schema.fingerprint'`);
  if (last?.value === fingerprint) return { created: [], altered: [], migrations: [], skippedIndexes: [] };
  const migrations = await runMigrations(db, migrationsDir);
  const indexes = await db.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()`);
  const plan = planSync(specs, await liveColumns(db), new Set(indexes.map((i) => i.name)), { trigram: await enableTrigram(db) });
  // a unique index new to an existing table fails when its records already break the rule (two
  // dictionaries of one code from before the rule): each is tried on its own, and one that fails
  // leaves the start going, reported, without the index (the store's own check still refuses new
  // duplicates); the fingerprint is not kept then, so the next start tries again
  const isUnique = (s: string) => s.startsWith('CREATE UNIQUE INDEX');
  const remember = (tx: Queryable) =>
    tx.query(
      `INSERT INTO zs_setting (key, value) VALUES ('schema.fingerprint', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [fingerprint],
    );
  const uniques = plan.statements.filter((s) => isUnique(s) && !plan.created.some((t) => s.includes(` ON "${t}"`)));
  await db.transaction(async (tx) => {
    for (const s of plan.statements) if (!uniques.includes(s)) await tx.query(s);
    if (!uniques.length) await remember(tx);
  });
  const skippedIndexes: SyncReport['skippedIndexes'] = [];
  for (const s of uniques) {
    try {
      await db.query(s);
    } catch (err) {
      if (sqlState(err) !== '23505') throw err;
      const detail = (err as { detail?: string }).detail;
      skippedIndexes.push({
        name: /INDEX IF NOT EXISTS "([^"]+)"/.exec(s)![1],
        reason: [(err as Error).message, detail].filter(Boolean).join(': '),
      });
    }
  }
  if (uniques.length && !skippedIndexes.length) await remember(db);
  return { created: plan.created, altered: plan.altered, migrations, skippedIndexes };
}
