// @vitest-environment happy-dom
// The sidebar's menus are asked for at sign-in, on each page load and when a top menu is chosen: the
// answer to the request made last is the one kept, whichever comes first; an answer equal to what is
// stored changes nothing (no new render of the shell). The schema set asked for early is the one the
// catalog's first load takes.
import { describe, expect, it, vi } from 'vitest';
import type { MenuNode } from '../state/session.ts';

const answers: Array<(menus: MenuNode[]) => void> = [];
const buttons = vi.fn(async (): Promise<MenuNode[]> => []);
const raw = vi.fn(async (_method: string, url: string) => ({ version: url }));
vi.mock('../api/client.ts', () => ({
  authApi: { routes: vi.fn(() => new Promise<MenuNode[]>((resolve) => answers.push(resolve))), buttons: () => buttons() },
  http: { raw: (method: string, url: string) => raw(method, url) },
}));

const { fetchSchemaSet, loadMenus, loadPermissions, requestSchemaSet } = await import('./bootstrap.ts');
const { appStore, menusAtom, permissionAtom, topMenuIdAtom } = await import('../state/session.ts');

const menu = (id: string) => ({ id, name: id, path: `/${id}`, category: 1, children: [] }) as unknown as MenuNode;
const button = (code: string) => ({ id: code, code, name: code, path: '', category: 2, children: [] }) as unknown as MenuNode;

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

  it('leaves the stored menus as they are when the answer is the same', async () => {
    const stored = appStore.get(menusAtom);
    const again = loadMenus('42');
    answers.at(-1)!([menu('chosen')]);
    await again;
    expect(appStore.get(menusAtom)).toBe(stored);
  });
});

describe('loadPermissions', () => {
  it('sets the buttons, and leaves them as they are when the answer is the same', async () => {
    buttons.mockResolvedValue([button('project_add')]);
    await loadPermissions();
    const stored = appStore.get(permissionAtom);
    expect(stored).toMatchObject({ project_add: true });
    await loadPermissions();
    expect(appStore.get(permissionAtom)).toBe(stored);
  });
});

describe('the schema set asked for early', () => {
  it('is the answer of the next fetch of the same address, once', async () => {
    requestSchemaSet('/api/schemas');
    expect(raw).toHaveBeenCalledTimes(1);
    await fetchSchemaSet('/api/schemas');
    expect(raw).toHaveBeenCalledTimes(1);
    await fetchSchemaSet('/api/schemas');
    expect(raw).toHaveBeenCalledTimes(2);
  });
});
