// `npm run schemas:check`: compiles and lints the schema set; prints every problem with its file
// and JSON pointer and exits non-zero if there is any.
import { compile } from '../../engine/model/compile.ts';
import { SchemaSetError } from '../../engine/model/source.ts';
import { readSchemaSource } from '../schema-source.ts';

try {
  const { catalog } = compile(readSchemaSource());
  const models = Object.values(catalog.entities);
  const details = models.reduce((n, m) => n + m.details.length, 0);
  console.log(`schemas ok: ${models.length} entities, ${details} detail tables, ${catalog.dictionaries.length} dictionaries`);
} catch (err) {
  console.error(err instanceof SchemaSetError ? err.message : err);
  process.exit(1);
}
