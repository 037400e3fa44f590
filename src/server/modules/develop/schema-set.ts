// The deployment's schema set as code generation sees it: check a generated schema against it (the
// engine's dialect meta-schemas and linter, the same compile() the server starts with), and add a
// new document type to it on disk and in the running server — additive changes only.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compile, idOf, type CompileResult } from '../../../engine/model/compile.ts';
import { formatIssue, SchemaSetError, type SchemaSource } from '../../../engine/model/source.ts';
import type { JsonSchema } from '../../../engine/model/types.ts';
import { AppError } from '../../errors.ts';
import { readSchemaSource } from '../../schema-source.ts';
import type { GeneratedSchema } from './generate.ts';

const MANIFEST = 'entities.manifest.json';

function withFile(source: SchemaSource, generated: GeneratedSchema): SchemaSource {
  return {
    meta: source.meta,
    files: { ...source.files, [generated.file]: generated.schema },
    manifest: { ...source.manifest, entities: { ...source.manifest.entities, [generated.key]: generated.file } },
  };
}

/** The problems compile() finds in the set with this schema added (none: it may be installed). */
export function checkGenerated(root: string, generated: GeneratedSchema): string[] {
  try {
    compileWith(readSchemaSource(root), generated);
    return [];
  } catch (err) {
    if (err instanceof SchemaSetError) return err.issues.map((i) => formatIssue(i).trim());
    if (err instanceof AppError) throw err;
    return [(err as Error).message];
  }
}

function compileWith(source: SchemaSource, generated: GeneratedSchema): CompileResult {
  const result = compile(withFile(source, generated), { validators: 'lazy' });
  // the new entity's validator now, so that Ajv's strict mode speaks before anything is written
  result.ajv.getSchema(idOf(generated.file));
  return result;
}

/** Why adding this schema would change what exists, or null when it only adds. */
function notAdditive(root: string, source: SchemaSource, generated: GeneratedSchema): string | null {
  const entity = generated.schema['x-entity'] as { key: string; table: string; api: string };
  if (source.manifest.entities[generated.key]) return `单据键 ${generated.key} 已存在 / entity key ${generated.key} exists`;
  if (existsSync(join(root, generated.file))) return `文件 ${generated.file} 已存在 / file ${generated.file} exists`;
  for (const [key, file] of Object.entries(source.manifest.entities)) {
    const other = (source.files[file] as JsonSchema)['x-entity'] ?? {};
    if (other.table === entity.table) return `数据表 ${entity.table} 已属于 ${key} / table ${entity.table} belongs to ${key}`;
    if (other.api === entity.api || String(other.api).startsWith(`${entity.api}/`) || entity.api.startsWith(`${other.api}/`))
      return `接口路径 ${entity.api} 与 ${key} 重叠 / API base ${entity.api} overlaps ${key}`;
  }
  return null;
}

/** The manifest as the repository writes it: one entity per line. */
function manifestText(manifest: SchemaSource['manifest']): string {
  const entities = Object.entries(manifest.entities).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{\n  "dictionaries": ${JSON.stringify(manifest.dictionaries).replace(/","/g, '", "')},\n  "entities": {\n${entities.join(',\n')}\n  }\n}\n`;
}

/**
 * Checks that adding this schema only adds and that the new set compiles; answers the new set, its
 * compiled form and `write()`, which puts the file and its manifest line under `root` (call it once
 * the database has taken the change).
 */
export function prepareInstall(root: string, generated: GeneratedSchema): CompileResult & { source: SchemaSource; write(): void } {
  const source = readSchemaSource(root);
  const reason = notAdditive(root, source, generated);
  if (reason) throw new AppError(400, 'developNotAdditive', { reason });
  let result: CompileResult;
  try {
    result = compileWith(source, generated);
  } catch (err) {
    if (err instanceof SchemaSetError)
      throw new AppError(400, 'developInvalidSchema', { issues: err.issues.map((i) => formatIssue(i).trim()).join('; ') });
    throw err;
  }
  return {
    ...result,
    source: withFile(source, generated),
    write() {
      const manifest = JSON.parse(readFileSync(join(root, MANIFEST), 'utf8'));
      manifest.entities[generated.key] = generated.file;
      mkdirSync(dirname(join(root, generated.file)), { recursive: true });
      writeFileSync(join(root, generated.file), `${JSON.stringify(generated.schema, null, 2)}\n`);
      writeFileSync(join(root, MANIFEST), manifestText(manifest));
    },
  };
}
