// One cold measurement for tests/bench/startup.ts, in a fresh process: read the schema set, compile
// it as the server does (meta-schema checks, models, lint; validators on first use), generate every
// validator as `schemas:check` does, lint once more alone, open the database and sync its tables. Prints one JSON line of milliseconds: wall time, and for compile and sync also this
// process's CPU time (on a shared machine the wall time includes waiting for a core).
// Usage: node --import tsx tests/bench/startup-probe.ts <pglite DATA_DIR | postgres URL> <existing | inspect | empty>
//   existing: the database was synced with these schemas before (a restart: the fingerprint matches)
//   inspect:  the same, with the fingerprint forgotten, so the catalog is inspected and planned in full
//   empty:    a database without tables
import { join } from 'node:path';
import { compile } from '../../src/engine/model/compile.ts';
import { lintCatalog } from '../../src/engine/lint/lint.ts';
import { openPglite } from '../../src/server/db/pglite.ts';
import { openPostgres } from '../../src/server/db/postgres.ts';
import { syncSchema } from '../../src/server/db/sync.ts';
import { PROJECT_ROOT, readSchemaSource } from '../../src/server/schema-source.ts';
import { installPacks } from '../../src/engine/packs.ts';
import { ENGINE_PACKS } from '../../src/packs/engine.ts';

const [target, mode] = process.argv.slice(2);
const lap = () => {
  const t = performance.now();
  return () => performance.now() - t;
};
const cpuLap = () => {
  const c = process.cpuUsage();
  return () => {
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1000;
  };
};

let t = lap();
const source = readSchemaSource();
const readMs = t();
t = lap();
let cpu = cpuLap();
installPacks(ENGINE_PACKS);
const { catalog, ajv } = compile(source, { validators: 'lazy' });
const compileMs = t();
const compileCpuMs = cpu();
t = lap();
cpu = cpuLap();
// the rows entities derived from documents' details are never written nor linted (compile.ts)
const declared = Object.fromEntries(Object.entries(catalog.entities).filter(([, m]) => !m.derived));
for (const model of Object.values(declared)) ajv.getSchema(model.schema.$id);
const validatorsMs = t();
const validatorsCpuMs = cpu();
t = lap();
const issues = lintCatalog(declared, [...catalog.dictionaries], source);
const lintMs = t();
if (issues.length) throw new Error(`lint found ${issues.length} issues`);

t = lap();
const db = target.startsWith('postgres') ? await openPostgres(target, { max: 2 }) : await openPglite(join(target, 'pg'));
await db.query('SELECT 1');
const openMs = t();
if (mode === 'inspect') await db.query(`DELETE FROM zs_setting WHERE key = 'schema.fingerprint'`);
t = lap();
cpu = cpuLap();
const report = await syncSchema(db, catalog, join(PROJECT_ROOT, 'migrations'));
const syncMs = t();
const syncCpuMs = cpu();
await db.close();

const details = Object.values(declared).reduce((n, m) => n + m.details.length, 0);
console.log(
  JSON.stringify({
    entities: Object.keys(declared).length,
    details,
    readMs,
    compileMs,
    compileCpuMs,
    validatorsMs,
    validatorsCpuMs,
    lintMs,
    openMs,
    syncMs,
    syncCpuMs,
    created: report.created.length,
    altered: report.altered.length,
  }),
);
