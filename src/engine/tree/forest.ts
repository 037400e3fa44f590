/**
 * Assembles a forest from flat rows: each row hangs under the row whose key equals its parent;
 * rows whose parent is absent become roots (as the platform's ForestNodeMerger does).
 */
export function forest<T extends { parentId: string; children?: T[] }>(
  rows: T[],
  keyOf: (row: T) => string = (r) => (r as unknown as { id: string }).id,
): T[] {
  const byKey = new Map(rows.map((r) => [keyOf(r), r]));
  const roots: T[] = [];
  for (const r of rows) {
    const parent = byKey.get(r.parentId);
    if (parent && parent !== r) (parent.children ??= []).push(r);
    else roots.push(r);
  }
  return roots;
}
