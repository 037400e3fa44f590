// Rows written in batches: one INSERT or one UPDATE … FROM (VALUES …) for many rows, per chunk of
// parameters, where a statement per row made a 500-row document 500 round trips (and on the embedded
// database about a millisecond each, whatever the statement does).
import type { FieldModel } from '../../engine/model/types.ts';
import type { Queryable, Row } from './db.ts';
import { Params, q, toParam } from './sql.ts';

/** Parameters per statement of a batch: well under PostgreSQL's 65,535. */
const PARAMETERS_PER_STATEMENT = 30_000;

/** `items` in chunks whose statements take at most PARAMETERS_PER_STATEMENT parameters, `perItem` each. */
function chunksOf<T>(items: T[], perItem: number): T[][] {
  const size = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / Math.max(1, perItem)));
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * A VALUES column's type for a field: its column's, but text for a varchar(n), because a cast to
 * varchar(n) cuts a longer text silently where the assignment to the column refuses it.
 */
function valuesType(f: FieldModel): string {
  return /^(varchar|character varying)\(\d+\)$/.test(f.sqlType) ? 'text' : f.sqlType;
}

/** New rows in one INSERT per chunk; a column a row does not carry takes the column's default. */
export async function insertRows(tx: Queryable, table: string, columns: readonly FieldModel[], rows: Row[]): Promise<void> {
  const fields = columns.filter((f) => rows.some((r) => f.name in r));
  for (const chunk of chunksOf(rows, fields.length)) {
    const params = new Params();
    const tuples = chunk.map(
      (row) => `(${fields.map((f) => (f.name in row ? params.add(toParam(f, row[f.name])) : 'DEFAULT')).join(', ')})`,
    );
    await tx.query(`INSERT INTO ${q(table)} (${fields.map((f) => q(f.column)).join(', ')}) VALUES ${tuples.join(', ')}`, params.values);
  }
}

/**
 * Sets `fields` of stored rows, each found by its id (and, when given, only under `within`: a
 * document's rows by their parent), in one UPDATE … FROM (VALUES …) per chunk.
 */
export async function updateRows(
  tx: Queryable,
  table: string,
  fields: readonly FieldModel[],
  rows: Row[],
  within?: { column: string; value: string },
): Promise<void> {
  if (!fields.length || !rows.length) return;
  for (const chunk of chunksOf(rows, fields.length + 1)) {
    const params = new Params();
    // typed placeholders: a VALUES list has no target columns to take its types from
    const tuples = chunk.map(
      (row) =>
        `(${[`${params.add(String(row.id))}::bigint`, ...fields.map((f) => `${params.add(toParam(f, row[f.name]))}::${valuesType(f)}`)].join(', ')})`,
    );
    const names = ['id', ...fields.map((f) => f.column)].map(q);
    const scope = within ? ` AND t.${q(within.column)} = ${params.add(within.value)}` : '';
    await tx.query(
      `UPDATE ${q(table)} AS t SET ${fields.map((f) => `${q(f.column)} = v.${q(f.column)}`).join(', ')}
         FROM (VALUES ${tuples.join(', ')}) AS v(${names.join(', ')})
        WHERE t.id = v.id${scope}`,
      params.values,
    );
  }
}
