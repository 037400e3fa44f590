// A restart does not check again what it checked before. Compiling the dialect's meta-schemas and
// checking every file against them is most of the schema compile (and the larger part of a restart
// on existing data), yet its verdict depends only on the schema set and on the engine's code. So the
// database keeps the digest of both from the last start whose checks passed; a start with the same
// digest builds the models without the checks (the browser does the same with the set it is served).
// Another schema set, another build of the engine, or a new database: every check runs again.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SchemaSource } from '../engine/model/source.ts';
import type { Queryable } from './db/db.ts';

const KEY = 'schema.checked';

/** Said on the ready line of a start that skipped them. */
export const SKIPPED_CHECKS_NOTE = 'schema set checked at an earlier start';

/** The engine's own files and the packs' (src under tsx, dist/server once built). */
const ENGINE_DIR = fileURLToPath(new URL('../engine/', import.meta.url));
const PACKS_DIR = fileURLToPath(new URL('../packs/', import.meta.url));

let engineDigest: string | undefined;

/** The folders whose code checks a schema set: the engine and each pack's engine face (its linter). */
function checkingCode(): string[] {
  const packs = existsSync(PACKS_DIR) ? readdirSync(PACKS_DIR).sort() : [];
  return [ENGINE_DIR, ...packs.map((pack) => join(PACKS_DIR, pack, 'engine')).filter((dir) => existsSync(dir))];
}

/** A digest of every file of the code that checks: the checks are its code. */
function digestOfEngine(): string {
  if (engineDigest) return engineDigest;
  const hash = createHash('sha256');
  const walk = (root: string, dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(root, path);
      else hash.update(path.slice(root.length)).update('\0').update(readFileSync(path)).update('\0');
    }
  };
  for (const dir of checkingCode()) walk(dirname(ENGINE_DIR), dir);
  engineDigest = hash.digest('hex');
  return engineDigest;
}

/** What the checks' verdict depends on: the schema set and the engine that checks it. */
export function checkDigest(source: SchemaSource): string {
  const files = Object.keys(source.files)
    .sort()
    .map((path) => [path, source.files[path]]);
  return createHash('sha256')
    .update(digestOfEngine())
    .update(JSON.stringify([source.manifest, files, source.meta]))
    .digest('hex');
}

/** Whether a start with this digest passed every check (false on a database that has no settings yet). */
export async function checkedBefore(db: Queryable, digest: string): Promise<boolean> {
  try {
    const [row] = await db.query<{ value: string }>(`SELECT value FROM zs_setting WHERE key = $1`, [KEY]);
    return row?.value === digest;
  } catch {
    return false;
  }
}

/** Records that this digest passed every check (zs_setting exists once the tables are synced). */
export async function rememberChecked(db: Queryable, digest: string): Promise<void> {
  await db.query(`INSERT INTO zs_setting (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
    KEY,
    digest,
  ]);
}
