// A Storybook entry per document type, built from entities.manifest.json when Storybook indexes:
// the indexer lists each manifest entity under Documents/<menu group>/<title> with its list, form,
// detail and (with x-workflow) approval views, and the Vite plugin answers each entry's import with
// a CSF module generated for that entity. A schema added to the manifest shows up with no story file.
import { existsSync, readFileSync } from 'node:fs';
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
  /** the enclosing group's code (a group in a group, e.g. 日志管理 in 系统监控) */
  parent?: string;
}

/**
 * The menu groups by code (their Chinese name, place in the menu and enclosing group), as the schema
 * set declares them: schemas/reference/menus.json, then the groups schemas declare with
 * x-entity.menu.group (top-level, named by the menu's parent) that the file does not.
 */
function menuGroups(root: string, schemas: Json[]): Map<string, MenuGroup> {
  const file = join(root, 'schemas/reference/menus.json');
  const menus: Json[] = existsSync(file) ? (readJson(file).menus ?? []) : [];
  const groups = new Map<string, MenuGroup>();
  for (const menu of menus.filter((m) => m?.code && m.name && !m.retired))
    groups.set(menu.code, { name: menu.name, sort: Number(menu.sort ?? 0), parent: menu.parent });
  for (const schema of schemas) {
    const menu = schema['x-entity']?.menu;
    if (menu?.parent && menu.group?.name && !groups.has(menu.parent))
      groups.set(menu.parent, { name: menu.group.name, sort: Number(menu.group.sort ?? 0) });
  }
  return groups;
}

/** A group's names and sorts from the top of the menu down; a group declared nowhere is its code, last. */
function groupPath(groups: Map<string, MenuGroup>, code: string, depth = 0): { names: string[]; sorts: number[] } {
  const group = groups.get(code);
  if (!group) return { names: [code], sorts: [Number.MAX_SAFE_INTEGER] };
  const above = group.parent && depth < 8 ? groupPath(groups, group.parent, depth + 1) : { names: [], sorts: [] };
  return { names: [...above.names, group.name], sorts: [...above.sorts, group.sort] };
}

/** Orders by the first sort that differs (a shorter path first when one is the start of the other). */
function compareSorts(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
// the sidebar splits titles at '/'
const segment = (text: string) => text.replaceAll('/', '／');

/** Every manifest entity with its sidebar title and views, in menu order (groups, then entity). */
export function documentEntries(root: string): DocumentEntry[] {
  const manifest = readJson(join(root, MANIFEST));
  const schemas = Object.entries(manifest.entities as Record<string, string>).map(([key, file]) => ({
    key,
    schema: readJson(join(root, file)),
  }));
  const groups = menuGroups(
    root,
    schemas.map((s) => s.schema),
  );
  const seen = new Set<string>();
  const entries = schemas.map(({ key, schema }) => {
    const menu = schema['x-entity']?.menu;
    const path = menu?.parent ? groupPath(groups, menu.parent) : { names: ['未分组'], sorts: [Number.MAX_SAFE_INTEGER] };
    let title = ['Documents', ...path.names, schema.title ?? key].map(segment).join('/');
    // two schemas of one title would share a sidebar node
    if (seen.has(title)) title = `${title} (${key})`;
    seen.add(title);
    const views: DocumentView[] = ['list', 'form', 'detail'];
    if (schema['x-workflow']) views.push('approval');
    const group = { sorts: path.sorts, names: path.names.join('/') };
    return { entry: { key, title, metaId: `documents-${kebab(key)}`, views }, group, sort: Number(menu?.sort ?? 0) };
  });
  // groups by their sorts (two of one sort kept apart by name), then entities by theirs; a stable
  // sort, so entities of one sort stay in manifest order
  entries.sort((a, b) => compareSorts(a.group.sorts, b.group.sorts) || a.group.names.localeCompare(b.group.names) || a.sort - b.sort);
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
