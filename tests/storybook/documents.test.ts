// Storybook's entry per document type (.storybook/documents.ts): the index Storybook builds from
// its own configuration lists every manifest entity under its title with its views, each entry's
// generated module exports exactly the indexed stories, and a schema added to a manifest becomes an
// entry with no story file written.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIndex } from 'storybook/internal/core-server';
import type { StoryIndexEntry } from 'storybook/internal/types';
import { afterEach, describe, expect, it } from 'vitest';
import { documentEntries, documentIndexInputs, documentModule, documentStoriesPlugin } from '../../.storybook/documents.ts';

const root = resolve(import.meta.dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const manifest = readJson(join(root, 'entities.manifest.json')) as { entities: Record<string, string> };

/** What a designer expects for a schema: its title and its views (approval with x-workflow). */
const expected = (file: string) => {
  const schema = readJson(join(root, file));
  return {
    title: schema.title as string,
    views: schema['x-workflow'] ? ['List', 'Form', 'Detail', 'Approval'] : ['List', 'Form', 'Detail'],
  };
};

describe('the Storybook index', () => {
  it('has an entry per manifest entity, titled by its menu group and schema title, with its views', async () => {
    const index = await buildIndex({ configDir: join(root, '.storybook') } as Parameters<typeof buildIndex>[0]);
    const stories = Object.values(index.entries).filter(
      (e): e is StoryIndexEntry => e.type === 'story' && e.tags?.includes('document') === true,
    );
    for (const [key, file] of Object.entries(manifest.entities)) {
      const { title, views } = expected(file);
      const own = stories.filter((s) => s.importPath === `virtual:zhusuan-document/${key}`);
      expect(
        own.map((s) => s.name),
        key,
      ).toEqual(views);
      expect(new Set(own.map((s) => s.title)).size, key).toBe(1);
      expect(own[0].title.startsWith('Documents/') && own[0].title.endsWith(`/${title.replaceAll('/', '／')}`), own[0].title).toBe(true);
    }
    // nothing but the manifest's entities, each under a sidebar node of its own
    expect(new Set(stories.map((s) => s.importPath)).size).toBe(Object.keys(manifest.entities).length);
    expect(new Set(stories.map((s) => s.title)).size).toBe(Object.keys(manifest.entities).length);
  });

  it('gives stories ids only the manifest key decides, so that links to them last', () => {
    const ids = documentIndexInputs(root).map((input) => `${input.metaId}--${input.exportName.toLowerCase()}`);
    expect(ids).toContain('documents-material-total-demand--approval');
    expect(ids).toContain('documents-project--list');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('groups by the menu group the schema names (项目 under 基础资料), each group in one run of the sidebar', () => {
    const entries = documentEntries(root);
    expect(entries.find((e) => e.key === 'project')?.title).toBe('Documents/基础资料/项目');
    const groups = entries.map((e) => e.title.slice(0, e.title.lastIndexOf('/')));
    const runs = groups.filter((group, i) => group !== groups[i - 1]);
    expect(runs).toEqual([...new Set(groups)]);
  });

  it("answers each entry's import with a module exporting exactly its indexed stories", async () => {
    const plugin = documentStoriesPlugin(root);
    const resolveId = plugin.resolveId as (id: string) => string | undefined;
    const load = plugin.load as (this: { addWatchFile(file: string): void }, id: string) => string;
    const inputs = documentIndexInputs(root);
    for (const entry of documentEntries(root)) {
      const id = resolveId(`virtual:zhusuan-document/${entry.key}`)!;
      const code = load.call({ addWatchFile: () => undefined }, id);
      const exported = [...code.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
      expect(exported, entry.key).toEqual(
        inputs.filter((i) => i.importPath === `virtual:zhusuan-document/${entry.key}`).map((i) => i.exportName),
      );
      expect(code).toContain(`documentMeta(${JSON.stringify(entry.key)}, ${JSON.stringify(entry.metaId)})`);
    }
    expect(resolveId('./src/main.tsx')).toBeUndefined();
  });
});

describe('a schema added to a manifest', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('becomes an entry with its views and no story file, under its menu group and the group enclosing that', () => {
    dir = mkdtempSync(join(tmpdir(), 'zs-stories-'));
    mkdirSync(join(dir, 'schemas/reference'), { recursive: true });
    const menus = [
      { code: 'quality', name: '质量安全', en: 'Quality and safety', path: '/quality', sort: 20 },
      { code: 'safety', parent: 'quality', name: '安全管理', en: 'Safety', path: '/quality/safety', sort: 1 },
    ];
    writeFileSync(join(dir, 'schemas/reference/menus.json'), JSON.stringify({ menus }));
    const schema = {
      title: '安全检查记录',
      'x-entity': { menu: { parent: 'safety', code: 'safety_check', sort: 1 } },
      'x-workflow': { prefix: 'safetyCheck' },
    };
    writeFileSync(join(dir, 'schemas/safety-check.schema.json'), JSON.stringify(schema));
    writeFileSync(join(dir, 'entities.manifest.json'), JSON.stringify({ entities: { safetyCheck: 'schemas/safety-check.schema.json' } }));

    expect(documentEntries(dir)).toEqual([
      {
        key: 'safetyCheck',
        title: 'Documents/质量安全/安全管理/安全检查记录',
        metaId: 'documents-safety-check',
        views: ['list', 'form', 'detail', 'approval'],
      },
    ]);
    const module = documentModule(documentEntries(dir)[0]);
    expect(module).toContain('export const Approval = documentStory("safetyCheck", "approval");');
  });

  it("is listed under a group its schema declares (x-entity.menu.group), placed by the group's sort", () => {
    dir = mkdtempSync(join(tmpdir(), 'zs-stories-'));
    mkdirSync(join(dir, 'schemas/reference'), { recursive: true });
    const menus = [{ code: 'cost_master', name: '基础资料', en: 'Master data', path: '/cost-master', sort: 10 }];
    writeFileSync(join(dir, 'schemas/reference/menus.json'), JSON.stringify({ menus }));
    const schemas = {
      project: { title: '项目', 'x-entity': { menu: { parent: 'cost_master', sort: 1 } } },
      safetyCheck: {
        title: '安全检查记录',
        'x-entity': { menu: { parent: 'safety', group: { name: '安全管理', en: 'Safety', sort: 5 }, sort: 1 } },
        'x-workflow': { prefix: 'safetyCheck' },
      },
    };
    const entities: Record<string, string> = {};
    for (const [key, schema] of Object.entries(schemas)) {
      entities[key] = `schemas/${key}.schema.json`;
      writeFileSync(join(dir, entities[key]), JSON.stringify(schema));
    }
    writeFileSync(join(dir, 'entities.manifest.json'), JSON.stringify({ entities }));

    expect(documentEntries(dir).map((e) => e.title)).toEqual(['Documents/安全管理/安全检查记录', 'Documents/基础资料/项目']);
  });
});
