// @vitest-environment happy-dom
// The sidebar's menus are asked for at sign-in, on each page load and when a top menu is chosen: the
// answer to the request made last is the one kept, whichever comes first.
import { describe, expect, it, vi } from 'vitest';
import type { MenuNode } from '../state/session.ts';

const answers: Array<(menus: MenuNode[]) => void> = [];
vi.mock('../api/client.ts', () => ({
  authApi: { routes: vi.fn(() => new Promise<MenuNode[]>((resolve) => answers.push(resolve))) },
}));

const { loadMenus } = await import('./bootstrap.ts');
const { appStore, menusAtom, topMenuIdAtom } = await import('../state/session.ts');

const menu = (id: string) => ({ id, name: id, path: `/${id}`, category: 1, children: [] }) as unknown as MenuNode;

describe('loadMenus', () => {
  it('keeps the menus of the top menu chosen last when the page load’s answer comes after it', async () => {
    const pageLoad = loadMenus(null);
    const chosen = loadMenus('42');
    answers[1]([menu('chosen')]);
    await chosen;
    answers[0]([menu('stale')]);
    await pageLoad;
    expect(appStore.get(menusAtom).map((m) => m.id)).toEqual(['chosen']);
    expect(appStore.get(topMenuIdAtom)).toBe('42');
  });
});
