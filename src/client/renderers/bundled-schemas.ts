// The repository's schema files, bundled: the schema set of component tests and Storybook, which
// run without a server. The built shell does not include them (catalog.ts loads the set from the
// server there, and the build leaves this module out).
import type { SchemaSource } from '../../engine/model/source.ts';
import type { JsonSchema } from '../../engine/model/types.ts';

const files = import.meta.glob<JsonSchema>('../../../schemas/**/*.json', { eager: true, import: 'default' });
const manifest = import.meta.glob<SchemaSource['manifest']>('../../../entities.manifest.json', { eager: true, import: 'default' });

export function bundledSchemas(): SchemaSource {
  const byPath: Record<string, JsonSchema> = {};
  for (const [path, doc] of Object.entries(files)) byPath[path.replace(/^(\.\.\/)+/, '')] = doc;
  return {
    manifest: Object.values(manifest)[0],
    files: Object.fromEntries(Object.entries(byPath).filter(([p]) => !p.startsWith('schemas/meta/'))),
    meta: Object.entries(byPath)
      .filter(([p]) => p.startsWith('schemas/meta/'))
      .map(([, d]) => d),
  };
}
