// @vitest-environment happy-dom
// A signed-in user who types the address of a page they are not granted is told they lack the
// permission (403, 无权访问); an address that is no page at all still answers 404; a granted menu
// opens its page.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { appStore, langAtom, menusAtom, tokenAtom, userInfoAtom, type MenuNode, type UserInfo } from '../state/session.ts';
import { AppRouter } from './Router.tsx';

// the layout (header, menus, notifications) is not what is under test: its children show as they are
vi.mock('../shell/Layout.tsx', () => ({ default: ({ children }: { children: unknown }) => <main>{children as never}</main> }));
vi.mock('../renderers/EntityPage.tsx', () => ({ default: ({ params }: { params: { path: string } }) => <p>list of {params.path}</p> }));

const clerk = { account: 'clerk', user_id: '1001', tenant_id: '000000', role_name: 'clerk' } as UserInfo;
const projectMenu: MenuNode = { id: '1', parentId: '0', code: 'project', name: '项目', path: '/cost-master/project', sort: 1, category: 1 };

function open(path: string) {
  const memory = memoryLocation({ path, record: true });
  render(
    <JotaiProvider store={appStore}>
      <Router hook={memory.hook}>
        <AppRouter />
      </Router>
    </JotaiProvider>,
  );
  return memory;
}

beforeEach(() => {
  appStore.set(userInfoAtom, clerk);
  appStore.set(tokenAtom, 'a-token');
  appStore.set(menusAtom, [projectMenu]);
});
afterEach(() => {
  cleanup();
  appStore.set(userInfoAtom, null);
  appStore.set(menusAtom, []);
  appStore.set(langAtom, 'zh');
});

describe('a page the user may not open', () => {
  it('answers 403 for a page that exists but is not granted, in Chinese and English', async () => {
    const memory = open('/system/user');
    expect(await screen.findByText('抱歉,你无权访问该页面')).toBeTruthy();
    expect(memory.history.at(-1)).toBe('/403');
    cleanup();

    appStore.set(langAtom, 'en');
    open('/system/user/index');
    expect(await screen.findByText('Sorry, you may not open this page')).toBeTruthy();
  });

  it('answers 404 for a path that is no page', async () => {
    const memory = open('/system/no-such-page');
    expect(await screen.findByText('抱歉,你访问的页面不存在')).toBeTruthy();
    expect(memory.history.at(-1)).toBe('/404');
  });

  it('opens a granted page', async () => {
    open('/cost-master/project');
    expect(await screen.findByText('list of /cost-master/project')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('抱歉,你无权访问该页面')).toBeNull());
  });
});
