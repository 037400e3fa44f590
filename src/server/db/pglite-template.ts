// A first start on the embedded database begins with a copy of an empty data directory made at
// build time, instead of running PostgreSQL's initdb: initdb in WebAssembly was about half of a
// first start (5.7 s of 12 on a quiet machine), a copy of its result takes a fraction of a second.
// The template is PGlite's own initdb output, made by the PGlite version installed (its name says
// which); without one (the sources run by tsx before any build) the first start runs initdb as before.
// The copy runs on a worker thread, so that the start can compile the schema set meanwhile.
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PROJECT_ROOT } from '../schema-source.ts';

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')).version;
}

/** Where the build keeps the template for the installed PGlite. */
export function templateDir(root = PROJECT_ROOT): string {
  return join(root, 'dist/server', `pgdata-${pgliteVersion()}`);
}

/** Makes the template unless it is there (npm start builds the server every time). */
export async function buildTemplate(dir = templateDir()): Promise<void> {
  if (existsSync(dir)) return;
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  const pglite = await PGlite.create(partial);
  await pglite.close();
  renameSync(partial, dir);
}

/** Whether `pgDir` is a new data directory that the template can fill (false without a template: initdb runs then). */
export function needsTemplate(pgDir: string, dir = templateDir()): boolean {
  return !existsSync(join(pgDir, 'PG_VERSION')) && existsSync(dir);
}

/** Copies the template into `pgDir` on a worker thread. */
export function copyTemplate(pgDir: string, dir = templateDir()): Promise<void> {
  const copy = `const { workerData } = require('node:worker_threads');
    require('node:fs').cpSync(workerData.from, workerData.to, { recursive: true });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(copy, { eval: true, workerData: { from: dir, to: pgDir } });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`copying the database template stopped (exit code ${code})`)),
    );
  });
}
