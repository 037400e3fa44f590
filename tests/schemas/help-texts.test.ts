// The texts a schema shows people (titles, help texts, placeholders, in both languages) speak the
// user's words: no rule ids such as R-PAY-4, which only the project's own docs know.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

const SHOWN = new Set(['title', 'description', 'placeholder']);
const RULE_ID = /\bR-[A-Z]+(-\d+)?\b/;

function schemaFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? ['meta', 'seed'].includes(e.name)
        ? []
        : schemaFiles(join(dir, e.name))
      : e.name.endsWith('.schema.json')
        ? [join(dir, e.name)]
        : [],
  );
}

/** Every shown text of a schema, with where it is. */
function shownTexts(node: unknown, at = ''): [string, string][] {
  if (Array.isArray(node)) return node.flatMap((v, i) => shownTexts(v, `${at}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) =>
    SHOWN.has(k) && typeof v === 'string' ? [[`${at}/${k}`, v] as [string, string]] : shownTexts(v, `${at}/${k}`),
  );
}

describe('help texts name no rule ids', () => {
  it('no title, description or placeholder of a document schema says R-…', () => {
    const found = schemaFiles(join(PROJECT_ROOT, 'schemas')).flatMap((file) =>
      shownTexts(JSON.parse(readFileSync(file, 'utf8')))
        .filter(([, text]) => RULE_ID.test(text))
        .map(([at, text]) => `${file.slice(PROJECT_ROOT.length)}${at}: ${text}`),
    );
    expect(found).toEqual([]);
  });
});
