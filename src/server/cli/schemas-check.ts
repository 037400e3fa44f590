// `npm run schemas:check`: compiles and lints the schema set, then checks its default processes and
// declared reference data against it (src/server/reference-checks.ts); prints every problem with its
// file and JSON pointer and exits non-zero if there is any.
import { SchemaSetError } from '../../engine/model/source.ts';
import { installPacks } from '../../engine/packs.ts';
import { ENGINE_PACKS } from '../modules/index.ts';
import { checkSchemaSet } from '../reference-checks.ts';
import { PROJECT_ROOT } from '../schema-source.ts';

installPacks(ENGINE_PACKS);
const { issues, catalog } = await checkSchemaSet(PROJECT_ROOT);
if (issues.length || !catalog) {
  console.error(new SchemaSetError(issues).message);
  process.exit(1);
}
// the rows entities the engine derives from documents' details are counted apart from the declared
const models = Object.values(catalog.entities).filter((m) => !m.derived);
const derived = Object.keys(catalog.entities).length - models.length;
const details = models.reduce((n, m) => n + m.details.length, 0);
const processes = models.filter((m) => m.workflow).length;
console.log(
  `schemas ok: ${models.length} entities (and ${derived} derived from their detail tables), ${details} detail tables, ${catalog.dictionaries.length} dictionaries, ${processes} approval processes`,
);
