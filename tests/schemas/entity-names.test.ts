// Schemas stay data (issue #8): no production file under src/ names a business entity. The cost
// rules find their document types by role (x-entity.roles, engine/model/roles.ts), so a deployment
// that renames, adds or drops a document type edits schemas only. Tests, stories and `testing/`
// folders are exempt: they use the real schemas as fixtures.
//
// Flagged, read with the TypeScript scanner (so that strings, comments and names are told apart;
// TypeScript 7 ships its scanner, not its parser, to JavaScript: typescript/unstable/ast/scanner):
//  - an identifier or property name equal to a business entity key (`entities.materialCheck`);
//  - a string equal to an entity key or its table name, or containing its API path;
//  - a comment naming a multi-word entity key (`materialCheck`). Single English words such as
//    "project" or "warehouse" stay free in comments and in message text.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { LanguageVariant, SyntaxKind } from 'typescript/unstable/ast';
import { createScanner } from 'typescript/unstable/ast/scanner';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

/** The business entities: those of schemas/construct/, with their table and API path. */
interface Entity {
  key: string;
  table: string;
  api: string;
}

function businessEntities(): Entity[] {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'entities.manifest.json'), 'utf8')) as { entities: Record<string, string> };
  return Object.entries(manifest.entities)
    .filter(([, file]) => file.startsWith('schemas/construct/'))
    .map(([key, file]) => {
      const schema = JSON.parse(readFileSync(join(PROJECT_ROOT, file), 'utf8')) as { 'x-entity': { table: string; api: string } };
      return { key, table: schema['x-entity'].table, api: schema['x-entity'].api };
    });
}

/** src/**\/*.ts(x), without tests, stories and testing/ folders. */
function productionFiles(): string[] {
  const src = join(PROJECT_ROOT, 'src');
  return (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !/\.stories\.tsx$/.test(f) && !f.split(sep).includes('testing'))
    .map((f) => join(src, f));
}

interface Hit {
  line: number;
  name: string;
  kind: 'name' | 'string' | 'comment';
}

/** Multi-word keys (a capital inside) are names wherever they appear, even in prose. */
const isMultiWord = (key: string) => /[A-Z]/.test(key);

interface Token {
  kind: SyntaxKind;
  start: number;
  /** a literal's value (escapes resolved), else the token's text */
  value: string;
}

/** Tokens after which a slash divides; elsewhere it starts a regular expression. */
const ENDS_OPERAND = new Set([
  SyntaxKind.Identifier,
  SyntaxKind.PrivateIdentifier,
  SyntaxKind.NumericLiteral,
  SyntaxKind.BigIntLiteral,
  SyntaxKind.StringLiteral,
  SyntaxKind.NoSubstitutionTemplateLiteral,
  SyntaxKind.TemplateTail,
  SyntaxKind.RegularExpressionLiteral,
  SyntaxKind.CloseParenToken,
  SyntaxKind.CloseBracketToken,
  SyntaxKind.CloseBraceToken,
  SyntaxKind.PlusPlusToken,
  SyntaxKind.MinusMinusToken,
  SyntaxKind.ThisKeyword,
  SyntaxKind.SuperKeyword,
  SyntaxKind.TrueKeyword,
  SyntaxKind.FalseKeyword,
  SyntaxKind.NullKeyword,
]);

const TRIVIA = new Set([
  SyntaxKind.WhitespaceTrivia,
  SyntaxKind.NewLineTrivia,
  SyntaxKind.SingleLineCommentTrivia,
  SyntaxKind.MultiLineCommentTrivia,
  SyntaxKind.ConflictMarkerTrivia,
]);

/**
 * The tokens of a source text, comments included, with the TypeScript scanner. The scanner needs the
 * parser's context in two places, supplied here: a `}` that resumes a template literal, and a `/`
 * that starts a regular expression. (JSX text is scanned as code: an apostrophe in it reads as an
 * unterminated string, which holds no names and is skipped.)
 */
function tokensOf(text: string, jsx: boolean): Token[] {
  const scanner = createScanner(false, jsx ? LanguageVariant.JSX : LanguageVariant.Standard, text);
  const open: ('brace' | 'template')[] = [];
  const out: Token[] = [];
  let previous = SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EndOfFile; kind = scanner.scan()) {
    if (kind === SyntaxKind.CloseBraceToken && open.at(-1) === 'template') {
      kind = scanner.reScanTemplateToken(false);
      if (kind === SyntaxKind.TemplateTail) open.pop();
    } else if (kind === SyntaxKind.OpenBraceToken) open.push('brace');
    else if (kind === SyntaxKind.CloseBraceToken) open.pop();
    else if (kind === SyntaxKind.TemplateHead) open.push('template');
    else if ((kind === SyntaxKind.SlashToken || kind === SyntaxKind.SlashEqualsToken) && !ENDS_OPERAND.has(previous))
      kind = scanner.reScanSlashToken();
    const literal =
      kind === SyntaxKind.StringLiteral || (kind >= SyntaxKind.NoSubstitutionTemplateLiteral && kind <= SyntaxKind.TemplateTail);
    if (!(literal && scanner.isUnterminated())) {
      out.push({
        kind,
        start: scanner.getTokenStart(),
        value: literal || kind === SyntaxKind.Identifier ? scanner.getTokenValue() : scanner.getTokenText(),
      });
    }
    if (!TRIVIA.has(kind)) previous = kind;
  }
  return out;
}

/** Where a source text names one of the entities. */
function entityNamesIn(text: string, entities: readonly Entity[], jsx = true): Hit[] {
  const keys = new Set(entities.map((e) => e.key));
  const tables = new Set(entities.map((e) => e.table));
  // an API path followed by the end or by a non-word character (`/api/construct/project` is not in `/api/construct/projectX`)
  const apis = entities.map((e) => ({ key: e.key, pattern: new RegExp(`${e.api.replace(/[/]/g, '\\/')}(?![\\w])`) }));
  const multiWord = entities
    .filter((e) => isMultiWord(e.key))
    .map((e) => ({ key: e.key, pattern: new RegExp(`(?<![\\w$])${e.key}(?![\\w$])`) }));
  const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
  const lineOf = (pos: number) => lineStarts.findLastIndex((start) => start <= pos) + 1;
  const hits: Hit[] = [];
  for (const token of tokensOf(text, jsx)) {
    const hit = (name: string, kind: Hit['kind'], at = token.start) => hits.push({ line: lineOf(at), name, kind });
    switch (token.kind) {
      case SyntaxKind.Identifier:
      case SyntaxKind.PrivateIdentifier:
        if (keys.has(token.value.replace(/^#/, ''))) hit(token.value.replace(/^#/, ''), 'name');
        break;
      case SyntaxKind.SingleLineCommentTrivia:
      case SyntaxKind.MultiLineCommentTrivia:
        for (const { key, pattern } of multiWord) {
          const at = token.value.search(pattern);
          if (at >= 0) hit(key, 'comment', token.start + at);
        }
        break;
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NoSubstitutionTemplateLiteral:
      case SyntaxKind.TemplateHead:
      case SyntaxKind.TemplateMiddle:
      case SyntaxKind.TemplateTail:
        if (keys.has(token.value) || tables.has(token.value)) hit(token.value, 'string');
        for (const api of apis) if (api.pattern.test(token.value)) hit(api.key, 'string');
        break;
    }
  }
  return hits;
}

const FIXTURE: Entity[] = [
  { key: 'project', table: 'construct_project', api: '/api/construct/project' },
  { key: 'materialCheck', table: 'construct_material_check', api: '/api/construct/materialCheck' },
];

describe('the entity-name scanner', () => {
  const names = (text: string) => entityNamesIn(text, FIXTURE).map((h) => `${h.kind}:${h.name}@${h.line}`);

  it('flags identifiers and property names equal to an entity key', () => {
    expect(
      names('const project = 1;\nx.materialCheck();\nconst o = { materialCheck: 1, projectId: 2 };\nconst { project: p } = o;'),
    ).toEqual(['name:project@1', 'name:materialCheck@2', 'name:materialCheck@3', 'name:project@4']);
  });

  it('flags strings equal to a key or a table, or holding an API path, in every kind of literal', () => {
    const text = [
      "a('materialCheck');",
      'b("construct_project");',
      'c(`${base}/api/construct/materialCheck/list`);',
      "d('/api/construct/project');",
      'e(`materialCheck`);',
      "f('/api/construct/projectTeam', 'projects', 'materialCheckId', 'construct_project_x');",
      'const g = <b title="project">materialCheck</b>;',
    ].join('\n');
    expect(names(text)).toEqual([
      'string:materialCheck@1',
      'string:construct_project@2',
      'string:materialCheck@3',
      'string:project@4',
      'string:materialCheck@5',
      'string:project@7',
      'name:materialCheck@7',
    ]);
  });

  it('flags comments naming a multi-word key, not single words nor longer names', () => {
    const text = [
      '// the materialCheck posts receipts',
      '/* a project and its warehouse */',
      'const x = 1; // materialCheckId is a field',
      '/** one of materialCheck, other */',
      'const y = 2;',
      '// trailing: materialCheck',
    ].join('\n');
    expect(names(text)).toEqual(['comment:materialCheck@1', 'comment:materialCheck@4', 'comment:materialCheck@6']);
  });

  it('keeps its place after regular expressions and templates holding quotes and braces', () => {
    const text = ["const quote = /'/g; const slash = a / b / c;", 'const t = `${ { k: `${x}` }.k } and }`;', "f('materialCheck');"].join(
      '\n',
    );
    expect(names(text)).toEqual(['string:materialCheck@3']);
  });

  it('leaves message text with single-word placeholders alone', () => {
    expect(names("const m = { zh: '项目 {project} 的仓库 {warehouse}', en: 'project {project}' };")).toEqual([]);
  });
});

describe('production code under src/', () => {
  it('names no business entity (find document types by role: engine/model/roles.ts)', () => {
    const entities = businessEntities();
    expect(entities).not.toEqual([]);
    const found = productionFiles().flatMap((file) => {
      const path = relative(PROJECT_ROOT, file);
      return entityNamesIn(readFileSync(file, 'utf8'), entities, file.endsWith('.tsx')).map((h) => `${path}:${h.line} ${h.kind} ${h.name}`);
    });
    expect(found, `production files naming a business entity:\n${found.join('\n')}\n`).toEqual([]);
  });
});
