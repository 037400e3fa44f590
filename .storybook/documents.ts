// A Storybook entry per document type, built from entities.manifest.json when Storybook indexes:
// the indexer lists each manifest entity under Documents/<menu group>/<title> with its list, form,
// detail and (with x-workflow) approval views, and the Vite plugin answers each entry's import with
// a CSF module generated for that entity. A schema added to the manifest shows up with no story file.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Indexer, StoryIndexInput } from 'storybook/internal/types';
import type { Plugin } from 'vite';
import type { DocumentView } from './document-stories.tsx';

/** The entries' import paths: `virtual:` paths reach the Vite plugin as they are (builder-vite). */
const VIRTUAL = 'virtual:zhusuan-document/';
const MANIFEST = 'entities.manifest.json';

/** The module the generated stories call; absolute, since a virtual module has no directory. */
const RUNTIME = resolve(dirname(fileURLToPath(import.meta.url)), 'document-stories.tsx');

/** The story export (and so the id's last part) of each view. */
const EXPORTS: Record<DocumentView, string> = { list: 'List', form: 'Form', detail: 'Detail', approval: 'Approval' };

export interface DocumentEntry {
  /** The manifest key. */
  key: string;
  /** The sidebar path: Documents/<menu group>/<schema title>. */
  title: string;
  /** Gives the stories ids that only the manifest key decides, e.g. documents-material-total-demand--list. */
  metaId: string;
  views: DocumentView[];
}

type Json = Record<string, any>;

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8'));

interface MenuGroup {
  name: string;
  sort: number;
}

/**
 * The menu groups by code (their Chinese name and place in the menu), from the seed files' menu
 * records; a group seeded nowhere is shown by its code, after the others.
 */
function menuGroups(root: string): Map<string, MenuGroup> {
  const groups = new Map<string, MenuGroup>();
  const dir = join(root, 'schemas/seed');
  if (!existsSync(dir)) return groups;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const records = readJson(join(dir, file)).records;
    if (!Array.isArray(records)) continue;
    for (const { entity, data } of records) {
      if (entity === 'menu' && data?.code && data.name) groups.set(data.code, { name: data.name, sort: Number(data.sort ?? 0) });
    }
  }
  return groups;
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
// the sidebar splits titles at '/'
const segment = (text: string) => text.replaceAll('/', '／');

/** Every manifest entity with its sidebar title and views, in menu order (group, then entity). */
export function documentEntries(root: string): DocumentEntry[] {
  const manifest = readJson(join(root, MANIFEST));
  const groups = menuGroups(root);
  const seen = new Set<string>();
  const entries = Object.entries(manifest.entities as Record<string, string>).map(([key, file]) => {
    const schema = readJson(join(root, file));
    const menu = schema['x-entity']?.menu;
    const group = menu?.parent ? (groups.get(menu.parent) ?? { name: menu.parent, sort: Number.MAX_SAFE_INTEGER }) : undefined;
    let title = `Documents/${segment(group?.name ?? '未分组')}/${segment(schema.title ?? key)}`;
    // two schemas of one title would share a sidebar node
    if (seen.has(title)) title = `${title} (${key})`;
    seen.add(title);
    const views: DocumentView[] = ['list', 'form', 'detail'];
    if (schema['x-workflow']) views.push('approval');
    const order = [group?.sort ?? Number.MAX_SAFE_INTEGER, Number(menu?.sort ?? 0)];
    return { entry: { key, title, metaId: `documents-${kebab(key)}`, views }, order };
  });
  // a stable sort: entities of one group and sort stay in manifest order
  entries.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
  return entries.map(({ entry }) => entry);
}

/** What the indexer tells Storybook: one story per entity and view. */
export function documentIndexInputs(root: string): StoryIndexInput[] {
  return documentEntries(root).flatMap((entry) =>
    entry.views.map((view) => ({
      type: 'story' as const,
      importPath: `${VIRTUAL}${entry.key}`,
      exportName: EXPORTS[view],
      title: entry.title,
      metaId: entry.metaId,
      tags: ['document'],
    })),
  );
}

/** The CSF module of one entity: the default export's id and one export per view, as indexed. */
export function documentModule(entry: DocumentEntry): string {
  const key = JSON.stringify(entry.key);
  return [
    `import { documentMeta, documentStory } from ${JSON.stringify(RUNTIME)};`,
    `export default documentMeta(${key}, ${JSON.stringify(entry.metaId)});`,
    ...entry.views.map((view) => `export const ${EXPORTS[view]} = documentStory(${key}, ${JSON.stringify(view)});`),
  ].join('\n');
}

/** Indexes entities.manifest.json (listed in main.ts's stories). */
export const documentIndexer: Indexer = {
  test: /entities\.manifest\.json$/,
  createIndex: async (fileName) => documentIndexInputs(dirname(fileName)),
};

/** Answers the indexed entries' imports with their generated CSF modules. */
export function documentStoriesPlugin(root: string): Plugin {
  // read once for all the entries' modules; a changed schema or manifest reads them again
  let entries: DocumentEntry[] | undefined;
  return {
    name: 'zhusuan:document-stories',
    watchChange: (id) => {
      if (id.endsWith('.json')) entries = undefined;
    },
    resolveId: (id) => (id.startsWith(VIRTUAL) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${VIRTUAL}`)) return undefined;
      const key = id.slice(VIRTUAL.length + 1);
      entries ??= documentEntries(root);
      const entry = entries.find((e) => e.key === key);
      if (!entry) throw new Error(`${key} is not an entity of ${MANIFEST}`);
      this.addWatchFile(join(root, MANIFEST));
      return documentModule(entry);
    },
  };
}
