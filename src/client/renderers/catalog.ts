// The entity catalog in the browser: the same schema files and the same compile() as the server.
import { compile, idOf } from '../../engine/model/compile.ts';
import type { SchemaSource } from '../../engine/model/source.ts';
import type { Ajv } from '../../engine/dialect/ajv.ts';
import type { EntityCatalog, EntityModel, JsonSchema } from '../../engine/model/types.ts';

const files = import.meta.glob<JsonSchema>('../../../schemas/**/*.json', { eager: true, import: 'default' });
const manifest = import.meta.glob<SchemaSource['manifest']>('../../../entities.manifest.json', { eager: true, import: 'default' });

function source(): SchemaSource {
  const byPath: Record<string, JsonSchema> = {};
  for (const [path, doc] of Object.entries(files)) byPath[path.replace(/^(\.\.\/)+/, '')] = doc;
  return {
    manifest: Object.values(manifest)[0],
    files: Object.fromEntries(Object.entries(byPath).filter(([p]) => !p.startsWith('schemas/meta/'))),
    meta: Object.entries(byPath).filter(([p]) => p.startsWith('schemas/meta/')).map(([, d]) => d),
  };
}

let compiled: ReturnType<typeof compile> | undefined;

export function catalog(): EntityCatalog {
  // validators on first use: generating all of them cost a second of CPU before the first screen
  compiled ??= compile(source(), { validators: 'lazy' });
  return compiled.catalog;
}

/** The validator the catalog was compiled with (the dialect and every schema document). */
export function catalogAjv(): Ajv {
  catalog();
  return compiled!.ajv;
}

/** The entity whose menu opens at `path`. */
export function entityForPath(path: string): EntityModel | undefined {
  return Object.values(catalog().entities).find((m) => m.menu?.path === path);
}

/**
 * The catalog with one more schema file (code generation's preview), compiled as the server would;
 * the new document is also given to the catalog's validator, which the form checks input with.
 * Throws the engine's SchemaSetError when the set with it does not compile.
 */
export function previewCatalog(file: string, key: string, schema: JsonSchema): EntityCatalog {
  const base = source();
  const preview = compile({ ...base, files: { ...base.files, [file]: schema }, manifest: { ...base.manifest, entities: { ...base.manifest.entities, [key]: file } } }, { validators: 'lazy' });
  const ajv = catalogAjv();
  const id = idOf(file);
  ajv.removeSchema(id);
  ajv.addSchema(preview.catalog.documents[id]);
  return preview.catalog;
}
