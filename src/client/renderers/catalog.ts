// The entity catalog in the browser: the same schema files and the same compile() as the server.
import { compile } from '../../engine/model/compile.ts';
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
