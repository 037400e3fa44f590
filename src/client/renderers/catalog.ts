// The entity catalog in the browser: the schema set compiled with the same compile() as the server.
// The signed-in shell loads the set from the server (GET /api/schemas) before it renders, so that a
// document type installed while the server runs opens without a new client build; component tests
// and Storybook compile the repository's files, bundled with them. catalog() stays synchronous.
import { compile, idOf } from '../../engine/model/compile.ts';
import type { SchemaSource } from '../../engine/model/source.ts';
import type { Ajv } from '../../engine/dialect/ajv.ts';
import type { EntityCatalog, EntityModel, JsonSchema } from '../../engine/model/types.ts';
import { bundledSchemas } from './bundled-schemas.ts';
import { SCHEMAS_URL } from './schemas-url.ts';

export { SCHEMAS_URL } from './schemas-url.ts';

/** The schema set as the server answers it: what compile() takes, and its version (the ETag). */
export interface SchemaSet extends SchemaSource {
  version: string;
}

/**
 * The shell's build defines this (vite.config.ts): its set comes from the server, and the bundled
 * files are left out of it. Tests and Storybook compile the bundled ones.
 */
const FROM_SERVER = import.meta.env.ZS_SCHEMAS_FROM_SERVER === true;

let loaded: SchemaSet | undefined;
let loading: Promise<void> | undefined;
let compiled: ReturnType<typeof compile> | undefined;
let firstReady: (() => void) | undefined;
const ready = FROM_SERVER ? new Promise<void>((resolve) => (firstReady = resolve)) : Promise.resolve();

function source(): SchemaSource {
  if (loaded) return loaded;
  if (!FROM_SERVER) return bundledSchemas();
  throw new Error('the schema catalog is used before it was loaded (loadCatalog)');
}

/** Whether catalog() can answer now: the set was loaded, or the files are bundled. */
export function catalogReady(): boolean {
  return loaded !== undefined || !FROM_SERVER;
}

/** Compiles `set` from the next catalog() call on; the same version changes nothing. */
export function adoptSchemaSet(set: SchemaSet): void {
  if (loaded?.version === set.version) return;
  loaded = set;
  compiled = undefined;
  firstReady?.();
}

/** The catalog once it can answer: at once where the files are bundled, else after the first load. */
export async function whenCatalogReady(): Promise<EntityCatalog> {
  await ready;
  return catalog();
}

/**
 * Fetches the server's schema set and uses it. The browser revalidates its cached copy by ETag, so
 * an unchanged set costs a 304. Concurrent calls share one request.
 */
export function loadCatalog(fetchSet: (url: string) => Promise<SchemaSet>): Promise<void> {
  loading ??= fetchSet(SCHEMAS_URL)
    .then(adoptSchemaSet)
    .finally(() => {
      loading = undefined;
    });
  return loading;
}

export function catalog(): EntityCatalog {
  // validators on first use: generating all of them cost a second of CPU before the first screen;
  // the server's set was checked by the server, so its checks are not run again here (most of the
  // rest of that second); bundled files are checked, as in tests and Storybook
  compiled ??= compile(source(), { validators: 'lazy', checks: loaded ? 'skip' : 'all' });
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
  const preview = compile(
    {
      ...base,
      files: { ...base.files, [file]: schema },
      manifest: { ...base.manifest, entities: { ...base.manifest.entities, [key]: file } },
    },
    { validators: 'lazy' },
  );
  const ajv = catalogAjv();
  const id = idOf(file);
  ajv.removeSchema(id);
  ajv.addSchema(preview.catalog.documents[id]);
  return preview.catalog;
}
