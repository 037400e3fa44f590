// `npm run schemas:check`: compiles and lints the schema set, then checks its default processes and
// seeds against it (src/server/reference-checks.ts); prints every problem with its file and JSON
// pointer and exits non-zero if there is any.
import { SchemaSetError } from '../../engine/model/source.ts';
import { checkSchemaSet } from '../reference-checks.ts';
import { PROJECT_ROOT } from '../schema-source.ts';

const { issues, catalog } = await checkSchemaSet(PROJECT_ROOT);
if (issues.length || !catalog) {
  console.error(new SchemaSetError(issues).message);
  process.exit(1);
}
const models = Object.values(catalog.entities);
const details = models.reduce((n, m) => n + m.details.length, 0);
const processes = models.filter((m) => m.workflow).length;
console.log(
  `schemas ok: ${models.length} entities, ${details} detail tables, ${catalog.dictionaries.length} dictionaries, ${processes} approval processes`,
);
