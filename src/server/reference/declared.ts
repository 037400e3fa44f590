// What the schema set declares as reference data (docs/reference-data.md): the files of
// schemas/reference/ and what the compiled catalog derives (dictionaries, the menu entry, buttons and
// grants of each document type, its menu group). Pure: read once per converge, compared by hash.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STANDARD_ACTIONS } from '../../engine/model/compile.ts';
import type { EntityCatalog, EntityModel } from '../../engine/model/types.ts';

/** A menu group, page or button (category 1: a page or group, 2: a button), by code. */
export interface MenuDecl {
  code: string;
  parent?: string;
  name: string;
  en: string;
  path: string;
  icon: string;
  sort: number;
  category: 1 | 2;
  action: number;
  retired?: boolean;
}

export interface RoleDecl {
  alias: string;
  name: string;
  parent?: string;
  sort: number;
  retired?: boolean;
}

interface GrantDecl {
  roles: string[];
  retired?: boolean;
  menus: string[];
  exclude?: string[];
  only?: 'menus';
}

export interface DictionaryDecl {
  source: 'system' | 'biz';
  code: string;
  name: string;
  en: string;
  sort: number;
  items: { key: string; value: string; en: string; sort: number; remark?: string }[];
}

export interface ReferenceSet {
  menus: MenuDecl[];
  roles: RoleDecl[];
  /** role alias → the menu and button codes it is granted */
  grants: Map<string, Set<string>>;
  dictionaries: DictionaryDecl[];
}

const BUTTON_LABELS: Record<(typeof STANDARD_ACTIONS)[number], { name: string; en: string; action: number }> = {
  add: { name: '新增', en: 'Add', action: 1 },
  edit: { name: '修改', en: 'Edit', action: 2 },
  delete: { name: '删除', en: 'Delete', action: 3 },
  view: { name: '查看', en: 'View', action: 2 },
  export: { name: '导出', en: 'Export', action: 1 },
};

function readList<T>(dir: string, file: string, key: string): T[] {
  const path = join(dir, file);
  if (!existsSync(path)) return [];
  return (JSON.parse(readFileSync(path, 'utf8')) as Record<string, T[]>)[key] ?? [];
}

/** The menu entry of a document type, then its buttons (logs and other server-written types: view and export only). */
function entityMenus(model: EntityModel): MenuDecl[] {
  const menu = model.menu!;
  const standard = STANDARD_ACTIONS.filter((a) => !model.readOnly || a === 'view' || a === 'export').map((a) => ({
    code: `${menu.code}_${a}`,
    ...BUTTON_LABELS[a],
  }));
  const buttons = [...standard, ...menu.buttons.map((b) => ({ ...b, action: 2 }))];
  const entry: MenuDecl = {
    code: menu.code,
    parent: menu.parent,
    name: model.label.zh,
    en: model.label.en,
    path: menu.path,
    icon: model.icon ?? 'appstore',
    sort: menu.sort,
    category: 1,
    action: 0,
  };
  return [
    entry,
    ...buttons.map((b, i) => ({
      code: b.code,
      parent: menu.code,
      name: b.name,
      en: b.en,
      path: model.api,
      icon: '',
      sort: i + 1,
      category: 2 as const,
      action: b.action,
    })),
  ];
}

/** The declared menus, parents before children: the files' groups and pages, the groups document types declare, their entries. */
function declaredMenus(catalog: EntityCatalog, dir: string): MenuDecl[] {
  const listed = readList<Omit<MenuDecl, 'category' | 'action'>>(dir, 'menus.json', 'menus').map((m) => ({
    ...m,
    category: 1 as const,
    action: 0,
  }));
  const models = Object.values(catalog.entities)
    .filter((m) => m.menu)
    .sort((a, b) => a.menu!.sort - b.menu!.sort);
  const known = new Set(listed.map((m) => m.code));
  const groups: MenuDecl[] = [];
  for (const group of models.flatMap((m) => (m.menu!.group ? [m.menu!.group] : []))) {
    if (known.has(group.code)) continue;
    known.add(group.code);
    groups.push({
      code: group.code,
      name: group.name,
      en: group.en,
      path: `/${group.code.replace(/_/g, '-')}`,
      icon: group.icon,
      sort: group.sort,
      category: 1,
      action: 0,
    });
  }
  return [...listed, ...groups, ...models.flatMap(entityMenus)];
}

/**
 * The items of the subtrees rooted at `roots`, each parent before its children; `key` and `parentKey`
 * say how an item and its parent are known (a declared menu by code, a stored one by id).
 */
export function subtreesOf<T>(
  items: readonly T[],
  roots: readonly T[],
  key: (item: T) => string,
  parentKey: (item: T) => string | undefined,
): T[] {
  const children = new Map<string, T[]>();
  for (const item of items) {
    const parent = parentKey(item);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), item]);
  }
  const out: T[] = [];
  const walk = (item: T) => {
    out.push(item);
    for (const child of children.get(key(item)) ?? []) walk(child);
  };
  for (const root of roots) walk(root);
  return out;
}

/** The declared menus of the subtrees rooted at `codes`. */
function declaredSubtrees(menus: MenuDecl[], codes: string[]): MenuDecl[] {
  const roots = codes.flatMap((code) => menus.filter((m) => m.code === code));
  return subtreesOf(
    menus,
    roots,
    (m) => m.code,
    (m) => m.parent,
  );
}

function declaredGrants(catalog: EntityCatalog, dir: string, menus: MenuDecl[]): Map<string, Set<string>> {
  const grants = new Map<string, Set<string>>();
  const give = (alias: string, codes: Iterable<string>) => {
    const set = grants.get(alias) ?? new Set<string>();
    for (const c of codes) set.add(c);
    grants.set(alias, set);
  };
  // a retired grant is given to no one any more (what was given stays: taking it away is the administrators')
  for (const grant of readList<GrantDecl>(dir, 'grants.json', 'grants').filter((g) => !g.retired)) {
    const excluded = new Set(grant.exclude ?? []);
    const codes = declaredSubtrees(menus, grant.menus)
      .filter((m) => !excluded.has(m.code) && (grant.only !== 'menus' || m.category === 1))
      .map((m) => m.code);
    for (const alias of grant.roles) give(alias, codes);
  }
  for (const model of Object.values(catalog.entities)) {
    for (const [alias, buttons] of Object.entries(model.menu?.grants ?? {})) give(alias, [model.menu!.code, ...buttons]);
  }
  return grants;
}

function declaredDictionaries(catalog: EntityCatalog): DictionaryDecl[] {
  const sorts = { system: 0, biz: 0 };
  return catalog.dictionaries.map((dict) => ({
    source: dict.source,
    code: dict.code,
    name: dict.name,
    en: dict.en,
    sort: ++sorts[dict.source],
    items: dict.items.map((item, i) => ({
      key: item.key,
      value: item.value,
      en: item.en,
      sort: i + 1,
      ...((item as { remark?: string }).remark && { remark: (item as { remark?: string }).remark }),
    })),
  }));
}

/** The schema set's reference data: `dir` is schemas/reference. */
export function declaredReference(catalog: EntityCatalog, dir: string): ReferenceSet {
  const menus = declaredMenus(catalog, dir);
  return {
    menus,
    roles: readList<RoleDecl>(dir, 'roles.json', 'roles'),
    grants: declaredGrants(catalog, dir, menus),
    dictionaries: declaredDictionaries(catalog),
  };
}
