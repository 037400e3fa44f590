// Reads the schema set from disk for compile(): the manifest, the files it names, schemas/common and
// schemas/meta. A JSON syntax error is reported like any other schema problem, with its file.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaSetError, type Manifest, type SchemaSource } from '../engine/model/source.ts';
import type { JsonSchema } from '../engine/model/types.ts';

/** The folder holding entities.manifest.json, found upward from this file (source or built). */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'entities.manifest.json'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

export const PROJECT_ROOT = findProjectRoot(fileURLToPath(new URL('.', import.meta.url)));

export function readSchemaSource(root = PROJECT_ROOT, manifestFile = 'entities.manifest.json'): SchemaSource {
  const issues: { file: string; pointer: string; message: string }[] = [];
  const read = (file: string): JsonSchema | undefined => {
    const path = join(root, file);
    if (!existsSync(path)) return undefined;
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      issues.push({ file, pointer: '', message: `not valid JSON: ${(err as Error).message}` });
      return undefined;
    }
  };
  const manifest = read(manifestFile) as Manifest | undefined;
  if (!manifest) throw new SchemaSetError([{ file: manifestFile, pointer: '', message: 'manifest not found or not JSON' }, ...issues]);
  const files: Record<string, JsonSchema> = {};
  const listDir = (dir: string) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((f) => f.endsWith('.json'))
          .map((f) => `${dir}/${f}`)
      : [];
  for (const file of [...listDir('schemas/common'), ...Object.values(manifest.entities ?? {}), ...(manifest.dictionaries ?? [])]) {
    const doc = read(file);
    if (doc) files[file] = doc;
  }
  const meta = listDir('schemas/meta')
    .map(read)
    .filter((d): d is JsonSchema => d !== undefined);
  if (issues.length) throw new SchemaSetError(issues);
  return { manifest: { dictionaries: manifest.dictionaries ?? [], entities: manifest.entities ?? {} }, files, meta };
}
