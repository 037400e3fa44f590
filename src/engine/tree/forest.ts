/**
 * Assembles a forest from flat rows: each row hangs under the row whose key equals its parent;
 * rows whose parent is absent become roots (as the platform's ForestNodeMerger does).
 */
export function forest<T extends object>(
  rows: T[],
  keyOf: (row: T) => string = (r) => (r as unknown as { id: string }).id,
  parentOf: (row: T) => string = (r) => (r as unknown as { parentId: string }).parentId,
): T[] {
  const byKey = new Map(rows.map((r) => [keyOf(r), r]));
  const roots: T[] = [];
  for (const r of rows) {
    const parent = byKey.get(parentOf(r));
    if (parent && parent !== r) ((parent as { children?: T[] }).children ??= []).push(r);
    else roots.push(r);
  }
  return roots;
}

/** Every node of a forest, depth first (a parent before its children). */
export function nodesOf<T extends { children?: T[] }>(roots: readonly T[]): T[] {
  return roots.flatMap((node) => [node, ...nodesOf(node.children ?? [])]);
}
