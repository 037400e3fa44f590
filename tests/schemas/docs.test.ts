// The documentation holds together (no database): README.md stays a front door under 25 KB, every
// relative link of README.md and docs/*.md leads to a file (and heading) of the repository, every rule
// id the code cites (R-CAP-3, …) has its heading in docs/rules.md, every docs/… reference and README
// "section" in a comment resolves, nothing points at files outside the repository, the nginx site
// file has no copy outside deploy/, and docs/dialect-reference.md is what `npm run docs:dialect`
// writes from the meta-schemas, each of whose keywords has a description.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialectReference } from '../../src/server/cli/dialect-reference.ts';
import { PROJECT_ROOT, readSchemaSource } from '../../src/server/schema-source.ts';

const ROOT = PROJECT_ROOT;
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Files under `dir` (relative to the root) whose names end with one of `exts`. */
function walk(dir: string, exts: readonly string[]): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const name of readdirSync(join(ROOT, rel))) {
      if (name === 'node_modules' || name === 'dist' || name === 'storybook-static') continue;
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(ROOT, path)).isDirectory()) visit(path);
      else if (exts.some((e) => name.endsWith(e))) out.push(path);
    }
  };
  if (existsSync(join(ROOT, dir))) visit(dir);
  return out;
}

const SOURCE_EXTS = ['.ts', '.tsx', '.json', '.md', '.bpmn', '.sql', '.css', '.html'];
const sources = () => ['src', 'tests', 'schemas'].flatMap((d) => walk(d, SOURCE_EXTS));
const docs = () => ['README.md', ...walk('docs', ['.md'])];

/** Markdown without fenced blocks and inline code, where links and headings are not. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs (numbered when repeated) and <a id>s. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  }
  return out;
}

const anchorCache = new Map<string, Set<string>>();
const anchorsOf = (file: string) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchors(read(file)));
  return anchorCache.get(file)!;
};

/** Where a relative target (file#anchor) from `from` leads, or why it does not. */
function brokenTarget(from: string, target: string): string | undefined {
  const [path, fragment] = target.split('#');
  const file = path ? relative(ROOT, resolve(ROOT, dirname(from), decodeURI(path))) : from;
  if (file.startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
  if (fragment && file.endsWith('.md') && !anchorsOf(file).has(fragment)) return `${target}: no heading #${fragment} in ${file}`;
  return undefined;
}

/**
 * JSON pointers of the keywords a meta-schema declares without a description: every entry of a
 * `properties` or `patternProperties` anywhere in it (nested objects, array items, oneOf branches,
 * $defs), as the reference lists them.
 */
function keywordsWithoutDescription(node: unknown, pointer = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => keywordsWithoutDescription(n, `${pointer}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const out: string[] = [];
  for (const group of ['properties', 'patternProperties']) {
    const declared = (node as Record<string, unknown>)[group];
    if (!declared || typeof declared !== 'object') continue;
    for (const [name, schema] of Object.entries(declared as Record<string, { description?: unknown }>)) {
      const text = schema?.description;
      if (typeof text !== 'string' || !text.trim()) out.push(`${pointer}/${group}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
  for (const [key, value] of Object.entries(node))
    out.push(...keywordsWithoutDescription(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return out;
}

/** Rule ids as the code cites them: R-CAP-3, R-TURN-INV, R-SUPP (not a document number such as QR-SG-2605). */
const RULE_ID = /(?<![A-Za-z0-9-])R-[A-Z]+(?:-[A-Z0-9]+)*/g;

describe('documentation', () => {
  it('README.md is a front door of at most 25 KB', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThanOrEqual(25 * 1024);
  });

  it('every relative link of README.md and docs/*.md leads to a file and heading of the repository', () => {
    const broken: string[] = [];
    for (const file of docs()) {
      for (const m of prose(read(file)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const problem = brokenTarget(file, target);
        if (problem) broken.push(`${file}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every rule id cited in src/, tests/, schemas/ and the docs has its heading in docs/rules.md', () => {
    const defined = anchorsOf('docs/rules.md');
    const missing = new Set<string>();
    let cited = 0;
    for (const file of [...sources(), ...docs()]) {
      if (file === 'docs/rules.md') continue;
      for (const [id] of read(file).matchAll(RULE_ID)) {
        cited++;
        if (!defined.has(id.toLowerCase())) missing.add(`${id} (${file})`);
      }
    }
    expect(cited).toBeGreaterThan(100);
    expect([...missing]).toEqual([]);
  });

  it('every docs/… reference in the code leads to a file and heading that exist', () => {
    const broken: string[] = [];
    for (const file of sources()) {
      for (const [ref] of read(file).matchAll(/\bdocs\/[\w-]+\.md(?:#[\w\p{L}-]*[\w\p{L}])?/gu)) {
        const problem = brokenTarget('README.md', ref);
        if (problem) broken.push(`${file}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every README "section" a comment names is a heading of README.md', () => {
    const headings = new Set(
      read('README.md')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => l.replace(/^#+\s*/, '').trim()),
    );
    const broken: string[] = [];
    for (const file of sources().filter((f) => f !== 'tests/schemas/docs.test.ts')) {
      for (const [, section] of read(file).matchAll(/README "([^"\n]+)"/g))
        if (!headings.has(section)) broken.push(`${file}: README "${section}"`);
    }
    expect(broken).toEqual([]);
  });

  it('nothing points at files outside the repository', () => {
    const outside = new RegExp(
      // (split so that a search of the project for these pointers does not find this file)
      [
        '\\.\\./' + 'shared',
        'shared' + '/(?:reference|DESIGN|SPEC)',
        'SPEC' + ' §',
        'SPEC\\.md',
        'DESIGN\\.md',
        'DESIGN' + ' §',
        'domain\\.md',
        'domain' + ' §',
        'bladex' + '-api',
        'anchors\\.md',
        'stack\\.md',
        'reference/workflow\\.md',
      ]
        .map((p) => p.replace(' ', '\\s'))
        .join('|'),
    );
    const files = [
      ...sources(),
      ...docs(),
      ...walk('deploy', ['.conf']),
      ...walk('.ci', ['run']),
      ...walk('.storybook', ['.ts', '.tsx']),
      'package.json',
      'vite.config.ts',
      'vitest.config.ts',
    ];
    const pointing = files
      .filter((f) => f !== 'tests/schemas/docs.test.ts' && existsSync(join(ROOT, f)))
      .flatMap((f) =>
        read(f)
          .split('\n')
          .map((line, i) => ({ f, i, line })),
      )
      .filter(({ line }) => outside.test(line))
      .map(({ f, i, line }) => `${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    expect(pointing).toEqual([]);
  });

  it('the nginx site file has no copy outside deploy/', () => {
    const copies = docs().filter((f) => /^```nginx/m.test(read(f)));
    expect(copies).toEqual([]);
  });

  it('every keyword of every meta-schema has a description, and every meta-schema a title', () => {
    const undescribed: string[] = [];
    const meta = readSchemaSource().meta as Record<string, unknown>[];
    for (const schema of meta) {
      const file = `schemas/meta/${String(schema.$id).split('/').pop()}`;
      if (typeof schema.title !== 'string' || !schema.title.trim()) undescribed.push(`${file}#: no title`);
      for (const pointer of keywordsWithoutDescription(schema)) undescribed.push(`${file}#${pointer}`);
    }
    expect(meta.length).toBeGreaterThan(0);
    expect(undescribed).toEqual([]);
  });

  it('docs/dialect-reference.md is what `npm run docs:dialect` writes', () => {
    expect(read('docs/dialect-reference.md')).toBe(dialectReference(readSchemaSource().meta));
  });
});
