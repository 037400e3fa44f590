import type { MenuNode } from './session.ts';

/** Every menu of the tree, depth first. */
export function flattenMenus(menus: MenuNode[]): MenuNode[] {
  return menus.flatMap((m) => [m, ...flattenMenus(m.children ?? [])]);
}

/** Menus that open a page (no sub-menus of their own). */
export function pageMenus(menus: MenuNode[]): MenuNode[] {
  return flattenMenus(menus).filter((m) => m.category === 1 && m.path && !(m.children ?? []).some((c) => c.category === 1));
}

/**
 * Menu paths spelled apart only in case and hyphens are one page: the platform's clients write
 * `/system/topmenu` where our earlier menus said `/system/topMenu`, and old bookmarks keep either.
 */
export function sameSpelling(a: string, b: string): boolean {
  const plain = (p: string) => p.toLowerCase().replace(/-/g, '');
  return plain(a) === plain(b);
}
