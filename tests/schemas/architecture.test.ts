// Imports go one way (docs/architecture.md): engine <- server, engine <- client. The engine is isomorphic: no React,
// no Node built-ins; server and client never import each other. Checked by scanning import statements.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

const SRC = join(PROJECT_ROOT, 'src');
const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Every source file under src/<area>, as absolute paths. */
function filesOf(area: string): string[] {
  const root = join(SRC, area);
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => CODE.test(f)).map((f) => join(root, f));
}

const PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g, // import x from '…', export { y } from '…'
  /\bimport\s*['"]([^'"]+)['"]/g, // import '…'
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // import('…')
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('…')
];

/** The module specifiers a source text imports. */
function importsOf(text: string): string[] {
  return PATTERNS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
}

/** Which area of src a specifier imported from `file` points into, or undefined for a package. */
function areaOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined;
  const target = relative(SRC, resolve(dirname(file), specifier));
  if (target.startsWith('..')) return undefined;
  return target.split(sep)[0];
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isNodeBuiltin = (s: string) => s.startsWith('node:') || NODE_BUILTINS.has(s) || NODE_BUILTINS.has(s.split('/')[0]);
const isReact = (s: string) => /^react(-dom)?(\/|$)/.test(s);

interface Violation {
  file: string;
  specifier: string;
}

function violations(area: string, forbidden: (file: string, specifier: string) => boolean, files = filesOf(area)): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      if (forbidden(file, specifier)) out.push({ file: relative(PROJECT_ROOT, file), specifier });
    }
  }
  return out;
}

describe('the import scanner', () => {
  it('finds every form of import', () => {
    const text = [
      "import a from 'react';",
      "import type { B } from '../server/db/db.ts';",
      "import {\n  c,\n  d,\n} from 'node:fs';",
      'import * as e from "path";',
      "import 'fs';",
      "export { f } from '../client/api.ts';",
      "export * from './local.ts';",
      "const g = await import('node:crypto');",
      "const h = require('os');",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(
      ['../client/api.ts', '../server/db/db.ts', './local.ts', 'fs', 'node:crypto', 'node:fs', 'os', 'path', 'react'].sort(),
    );
  });

  it('classifies what it finds', () => {
    for (const s of ['fs', 'path', 'node:fs', 'node:path', 'fs/promises', 'crypto', 'os']) expect(isNodeBuiltin(s), s).toBe(true);
    for (const s of ['ajv', 'decimal.js', 'ajv/dist/2020.js', './fs.ts']) expect(isNodeBuiltin(s), s).toBe(false);
    for (const s of ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client']) expect(isReact(s), s).toBe(true);
    expect(isReact('react-intl')).toBe(false);
    const engineFile = join(SRC, 'engine', 'model', 'compile.ts');
    expect(areaOf(engineFile, '../../server/app.ts')).toBe('server');
    expect(areaOf(engineFile, '../../client/main.tsx')).toBe('client');
    expect(areaOf(engineFile, '../compute/expr.ts')).toBe('engine');
    expect(areaOf(engineFile, 'ajv')).toBeUndefined();
  });
});

describe('import direction', () => {
  // Unit tests beside the engine code run in Node and may read the schema files; the rule protects
  // the code that ships to the server and the browser.
  const engineFiles = filesOf('engine').filter((f) => !/\.test\.tsx?$/.test(f));

  it('scans the engine (not vacuously)', () => {
    expect(engineFiles.length).toBeGreaterThanOrEqual(10);
    expect(engineFiles.some((f) => f.endsWith(join('model', 'compile.ts')))).toBe(true);
    expect(engineFiles.flatMap((f) => importsOf(readFileSync(f, 'utf8'))).length).toBeGreaterThan(20);
  });

  it('the engine imports no React, no Node built-ins (node:, fs, path, …)', () => {
    expect(violations('engine', (_f, s) => isReact(s) || isNodeBuiltin(s), engineFiles)).toEqual([]);
  });

  it('the engine imports nothing from src/server or src/client', () => {
    expect(violations('engine', (f, s) => ['server', 'client'].includes(areaOf(f, s) ?? ''), engineFiles)).toEqual([]);
  });

  it('the server imports nothing from src/client', () => {
    expect(filesOf('server').length).toBeGreaterThan(0);
    expect(violations('server', (f, s) => areaOf(f, s) === 'client')).toEqual([]);
  });

  it('the client imports nothing from src/server', () => {
    expect(violations('client', (f, s) => areaOf(f, s) === 'server')).toEqual([]);
  });
});

describe('the packs (docs/architecture.md)', () => {
  const PACKS = join(SRC, 'packs');
  const inPacks = (path: string) => path.startsWith(PACKS + sep);
  const namesPacks = (file: string, specifier: string) => specifier.startsWith('.') && inPacks(resolve(dirname(file), specifier));
  const shipped = (files: string[]) => files.filter((f) => !/\.(test|stories)\.tsx?$/.test(f));
  /** A face of every pack: src/packs/<pack>/<face>. */
  const faceOf = (path: string) => (inPacks(path) ? relative(PACKS, path).split(sep)[1] : undefined);
  const packFiles = shipped(filesOf('packs'));
  const packFace = (face: string) => packFiles.filter((f) => faceOf(f) === face);

  it('scans the packs (not vacuously)', () => {
    for (const face of ['engine', 'server', 'client']) expect(packFace(face).length, face).toBeGreaterThan(3);
  });

  it('the generic engine imports none of them (a pack installs its engine face: src/engine/packs.ts)', () => {
    expect(violations('engine', namesPacks, shipped(filesOf('engine')))).toEqual([]);
  });

  it("a pack's engine face is isomorphic: the engine and itself, no React, no Node built-ins", () => {
    const wrong = (f: string, s: string) =>
      isReact(s) ||
      isNodeBuiltin(s) ||
      ['server', 'client'].includes(areaOf(f, s) ?? '') ||
      (namesPacks(f, s) && faceOf(resolve(dirname(f), s)) !== 'engine');
    expect(violations('packs', wrong, packFace('engine'))).toEqual([]);
  });

  it("a pack's server face imports no client, and its client face no server", () => {
    const into = (face: string) => (f: string, s: string) => namesPacks(f, s) && faceOf(resolve(dirname(f), s)) === face;
    expect(violations('packs', (f, s) => areaOf(f, s) === 'client' || into('client')(f, s), packFace('server'))).toEqual([]);
    expect(violations('packs', (f, s) => areaOf(f, s) === 'server' || into('server')(f, s), packFace('client'))).toEqual([]);
  });

  it('the server names them in its module list only', () => {
    const named = violations('server', namesPacks, shipped(filesOf('server')));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((v) => v.file !== 'src/server/modules/index.ts')).toEqual([]);
  });

  it('the client names them where the app is put together only: its registry, its routes, its home page', () => {
    const named = violations('client', namesPacks, shipped(filesOf('client')));
    expect([...new Set(named.map((v) => v.file))].sort()).toEqual([
      'src/client/app/Router.tsx',
      'src/client/app/registry.ts',
      'src/client/pages/Home.tsx',
    ]);
  });
});
