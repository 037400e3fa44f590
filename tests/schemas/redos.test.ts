// No regular expression that can see what a caller sends may take more than linear time in it
// (issue #18: the API log's URL-password mask was quadratic, ran on every string of every logged
// body, anonymous guest registration included, and 100 KB held the server for 19 s). Checked here
// by recheck, a ReDoS checker that finds polynomial as well as exponential backtracking, on:
// - every regular expression literal of the server and the engine (found by parsing the sources,
//   so one written anywhere is checked); a RegExp built at run time must be reviewed and listed;
// - every `pattern` and `patternProperties` key of the schemas: Ajv runs them on request bodies;
// - the regular expressions of the formats the schemas use;
// - those of the library code that reads a whole body before any route: Fastify's JSON parser
//   (secure-json-parse, which looks for __proto__ and constructor keys in the raw text). Headers
//   and the URL are bounded by Node's header size limit (16 KB).
// The few that recheck flags see only the project's own text, or text whose length a schema
// bounds; each is listed below with why. The others are rewritten as scans (mask.ts,
// flow/models.ts, workflow/definition.ts), each with a test of its worst inputs.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { check } from 'recheck';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

interface Found {
  where: string;
  pattern: string;
  flags: string;
}

/** Flagged expressions that never see unbounded caller text: `file pattern` → why. */
const REVIEWED: Record<string, string> = {
  'src/server/db/sync.ts ^\\s*--.*$': 'strips comments from the migration files of the repository',
  'src/server/security/access.ts \\*+$':
    'trims a stored API scope path, at most 255 characters (api-scope.schema.json maxLength): quadratic in 255 is nothing',
};

/** RegExps built at run time (new RegExp / RegExp()): `file source` → why it is linear. None today. */
const DYNAMIC: Record<string, string> = {};

/** Code the server never runs on a request: command-line tools. */
const OFFLINE = /^src\/server\/cli\//;

function sourceFiles(): string[] {
  return ['src/server', 'src/engine']
    .flatMap((dir) =>
      (readdirSync(join(PROJECT_ROOT, dir), { recursive: true }) as string[])
        .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
        .map((f) => join(dir, f)),
    )
    .filter((f) => !OFFLINE.test(f));
}

/** Library files that read a whole request body, as fastify resolves them. */
const LIBRARY_FILES = [createRequire(createRequire(join(PROJECT_ROOT, 'package.json')).resolve('fastify')).resolve('secure-json-parse')];

/** Every regular expression literal of a source, and the RegExp constructions. */
function regexesOf(file: string): { literals: Found[]; dynamic: string[] } {
  const text = readFileSync(file.startsWith('/') ? file : join(PROJECT_ROOT, file), 'utf8');
  const ast = parseAst(text, { lang: file.endsWith('x') ? 'tsx' : file.endsWith('.js') ? 'js' : 'ts' }, file);
  const literals: Found[] = [];
  const dynamic: string[] = [];
  const walk = (node: any) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    if (node.type === 'Literal' && node.regex) literals.push({ where: file, pattern: node.regex.pattern, flags: node.regex.flags });
    if (
      (node.type === 'NewExpression' || node.type === 'CallExpression') &&
      node.callee?.type === 'Identifier' &&
      node.callee.name === 'RegExp'
    ) {
      dynamic.push(`${file} ${text.slice(node.start, node.end)}`);
    }
    for (const key of Object.keys(node)) if (key !== 'parent') walk(node[key]);
  };
  walk(ast);
  return { literals, dynamic };
}

/** `pattern` values, `patternProperties` keys and `format` values of every schema file. */
function schemaPatterns(): { patterns: Found[]; formats: Set<string> } {
  const patterns: Found[] = [];
  const formats = new Set<string>();
  const files = (readdirSync(join(PROJECT_ROOT, 'schemas'), { recursive: true }) as string[]).filter((f) => f.endsWith('.json'));
  for (const file of files) {
    const where = `schemas/${file}`;
    const walk = (node: any) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) return node.forEach(walk);
      // Ajv compiles patterns with the u flag
      if (typeof node.pattern === 'string') patterns.push({ where, pattern: node.pattern, flags: 'u' });
      if (typeof node.format === 'string') formats.add(node.format);
      if (node.patternProperties && typeof node.patternProperties === 'object') {
        for (const key of Object.keys(node.patternProperties)) patterns.push({ where, pattern: key, flags: 'u' });
      }
      for (const value of Object.values(node)) walk(value);
    };
    walk(JSON.parse(readFileSync(join(PROJECT_ROOT, 'schemas', file), 'utf8')));
  }
  return { patterns, formats };
}

/** The formats of the dialect (src/engine/dialect/ajv.ts): their expressions are literals there, checked with the others. */
const DIALECT_FORMATS = new Set(['date', 'datetime', 'month']);

/**
 * recheck's settings: a fixed seed and step limits in place of its wall-clock timeouts, so that the
 * verdict is the same on a quiet and on a loaded machine (with its defaults, a loaded machine made
 * the fuzzer give up early and report `unknown (timeout)`, or miss the attack it must find).
 */
const DETERMINISTIC = {
  randomSeed: 18,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
  // characters the matcher may read before an attack string counts as one (default 1.5e9)
  attackLimit: 100_000_000,
} as const;

/** recheck's verdict: 'safe', or what it found ('vulnerable …', 'unknown …'). */
async function verdict(found: Found): Promise<string> {
  const result = await check(found.pattern, found.flags, DETERMINISTIC);
  if (result.status === 'safe') return 'safe';
  if (result.status === 'vulnerable') return `vulnerable (${result.complexity.type}), e.g. ${result.attack.pattern}`;
  return `unknown (${result.error.kind})`;
}

/** Each distinct expression once, with every place it stands. */
function distinct(found: Found[]): Map<string, Found & { places: string[] }> {
  const out = new Map<string, Found & { places: string[] }>();
  for (const f of found) {
    const key = `/${f.pattern}/${f.flags}`;
    const seen = out.get(key);
    if (seen) seen.places.push(f.where);
    else out.set(key, { ...f, places: [f.where] });
  }
  return out;
}

describe('regular expressions run in linear time', () => {
  it('finds the expressions of the sources, and builds none at run time unreviewed', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const all = files.map(regexesOf);
    const literals = all.flatMap((r) => r.literals);
    expect(literals.length).toBeGreaterThan(100);
    // a sample the parser must see: the mask's secret names, the text guard, the list parameters
    expect(literals.map((l) => `${l.where} ${l.pattern}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^src\/server\/modules\/log\/mask\.ts pass\(word\)\?/),
        expect.stringMatching(/^src\/server\/http\/limits\.ts \\u0000/),
        'src/engine/query/filter.ts ^-?\\d{1,10}$',
      ]),
    );
    expect(all.flatMap((r) => r.dynamic).filter((d) => !DYNAMIC[d])).toEqual([]);
  });

  it('every literal of the server and the engine', async () => {
    const flagged: string[] = [];
    const reviewed = new Set<string>();
    for (const [key, found] of distinct(sourceFiles().flatMap((f) => regexesOf(f).literals))) {
      const result = await verdict(found);
      if (result === 'safe') continue;
      const why = found.places.map((p) => REVIEWED[`${p} ${found.pattern}`]);
      if (why.every(Boolean)) {
        found.places.forEach((p) => reviewed.add(`${p} ${found.pattern}`));
        continue;
      }
      flagged.push(`${key} in ${found.places.join(', ')}: ${result}`);
    }
    expect(flagged).toEqual([]);
    // a reviewed expression that is gone or safe now leaves the list
    expect([...reviewed].sort()).toEqual(Object.keys(REVIEWED).sort());
  }, 300_000);

  it('every literal of the library code that reads a whole body', async () => {
    const literals = LIBRARY_FILES.flatMap((f) => regexesOf(f).literals);
    expect(literals.map((l) => l.pattern)).toEqual(expect.arrayContaining([expect.stringContaining('(?:p|\\\\u0070)')]));
    const flagged: string[] = [];
    for (const [key, found] of distinct(literals)) {
      const result = await verdict(found);
      if (result !== 'safe') flagged.push(`${key} in ${found.places.join(', ')}: ${result}`);
    }
    expect(flagged).toEqual([]);
  }, 300_000);

  it('every pattern of the schemas, and the formats they use', async () => {
    const { patterns, formats } = schemaPatterns();
    expect(patterns.length).toBeGreaterThan(30);
    const unknownFormats = [...formats].filter(
      (f) => !DIALECT_FORMATS.has(f) && !(fullFormats[f as keyof typeof fullFormats] instanceof RegExp),
    );
    expect(unknownFormats).toEqual([]);
    const checked = [
      ...patterns,
      ...[...formats]
        .filter((f) => !DIALECT_FORMATS.has(f))
        .map((f) => {
          const re = fullFormats[f as keyof typeof fullFormats] as RegExp;
          return { where: `ajv-formats ${f}`, pattern: re.source, flags: re.flags };
        }),
    ];
    const flagged: string[] = [];
    for (const [key, found] of distinct(checked)) {
      const result = await verdict(found);
      if (result !== 'safe') flagged.push(`${key} in ${[...new Set(found.places)].join(', ')}: ${result}`);
    }
    expect(flagged).toEqual([]);
  }, 300_000);

  it('the checker flags what it must: the expressions replaced in issue #18', async () => {
    const was = [
      { where: 'mask.ts', pattern: '([a-z][a-z0-9+.-]*:\\/\\/[^\\s:/?#@]*:)[^\\s/?#@]+@', flags: 'gi' },
      { where: 'flow/models.ts', pattern: '<(?:[\\w-]+:)?process\\b[^>]*?\\sid\\s*=\\s*"([^"]+)"', flags: '' },
    ];
    for (const found of was) expect(await verdict(found), found.where).toMatch(/^vulnerable \(polynomial\)/);
  }, 120_000);
});
