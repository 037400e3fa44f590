import type { MenuNode } from './session.ts';

/** Every menu of the tree, depth first. */
export function flattenMenus(menus: MenuNode[]): MenuNode[] {
  return menus.flatMap((m) => [m, ...flattenMenus(m.children ?? [])]);
}

/** Menus that open a page (no sub-menus of their own). */
export function pageMenus(menus: MenuNode[]): MenuNode[] {
  return flattenMenus(menus).filter((m) => m.category === 1 && m.path && !(m.children ?? []).some((c) => c.category === 1));
}
