// Checkbox rules of the grant trees (role grant, top-menu grant, user roles). Two ways to check:
// - "linked": every node is a grant of its own (a menu may be granted without its buttons, as the
//   read-only roles are). Checking a node also checks its ancestors (a button needs its menu) and its
//   descendants; unchecking a node unchecks its descendants. What is checked is what is sent.
// - "leaves": only the leaves are grants (the scope rules under their menus); the menus above them
//   only group them. What is sent is the checked leaves.

/** A node as the server's tree calls answer it (bladex TreeNode: id, parentId, title, children). */
export interface GrantNode {
  id: string;
  parentId?: string;
  title: string;
  children?: GrantNode[];
}

export type CheckMode = 'linked' | 'leaves';

interface Index {
  parent: Map<string, string | undefined>;
  children: Map<string, string[]>;
}

function index(nodes: readonly GrantNode[]): Index {
  const parent = new Map<string, string | undefined>();
  const children = new Map<string, string[]>();
  const walk = (list: readonly GrantNode[], up: string | undefined) => {
    for (const n of list) {
      parent.set(n.id, up);
      children.set(
        n.id,
        (n.children ?? []).map((c) => c.id),
      );
      walk(n.children ?? [], n.id);
    }
  };
  walk(nodes, undefined);
  return { parent, children };
}

function descendants(idx: Index, id: string): string[] {
  const out: string[] = [];
  const stack = [...(idx.children.get(id) ?? [])];
  while (stack.length) {
    const next = stack.pop()!;
    out.push(next);
    stack.push(...(idx.children.get(next) ?? []));
  }
  return out;
}

function ancestors(idx: Index, id: string): string[] {
  const out: string[] = [];
  for (let p = idx.parent.get(id); p !== undefined; p = idx.parent.get(p)) out.push(p);
  return out;
}

/** The keys of the tree, as a set (keys the server knows but the tree lacks are dropped). */
export function keysInTree(nodes: readonly GrantNode[], keys: readonly string[]): string[] {
  const idx = index(nodes);
  return [...new Set(keys)].filter((k) => idx.parent.has(k));
}

/** The leaves among `keys`. */
export function leafKeys(nodes: readonly GrantNode[], keys: readonly string[]): string[] {
  const idx = index(nodes);
  return keysInTree(nodes, keys).filter((k) => !(idx.children.get(k) ?? []).length);
}

/** The checked keys after a person checks (`on`) or unchecks `key` in a linked tree. */
export function toggleLinked(nodes: readonly GrantNode[], checked: readonly string[], key: string, on: boolean): string[] {
  const idx = index(nodes);
  const next = new Set(checked);
  const below = [key, ...descendants(idx, key)];
  if (on) [...below, ...ancestors(idx, key)].forEach((k) => next.add(k));
  else below.forEach((k) => next.delete(k));
  return [...next];
}

/** What a save sends: every checked key (linked) or the checked leaves (leaves). */
export function keysToSend(nodes: readonly GrantNode[], checked: readonly string[], mode: CheckMode): string[] {
  return mode === 'linked' ? keysInTree(nodes, checked) : leafKeys(nodes, checked);
}

/** All keys of the tree's first level, the ones opened when a tree is shown. */
export function firstLevelKeys(nodes: readonly GrantNode[]): string[] {
  return nodes.filter((n) => n.children?.length).map((n) => n.id);
}

/**
 * The scope tree cut to the rules of the menus in `menuIds` (a rule is a leaf under its menu): a
 * rule of a menu the role is not granted would narrow nothing.
 */
export function rulesOfMenus(nodes: readonly GrantNode[], menuIds: ReadonlySet<string>, parent?: string): GrantNode[] {
  return nodes.flatMap((n) => {
    if (!n.children?.length) return parent !== undefined && menuIds.has(parent) ? [n] : [];
    const children = rulesOfMenus(n.children, menuIds, n.id);
    return children.length ? [{ ...n, children }] : [];
  });
}
