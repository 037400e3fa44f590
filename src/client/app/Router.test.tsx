// @vitest-environment happy-dom
// A signed-in user who types the address of a page they are not granted is told they lack the
// permission (403, 无权访问); an address that is no page at all still answers 404; a granted menu
// opens its page. A user signed in with the initial password opens nothing but its change.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { appStore, langAtom, menusAtom, tokenAtom, userInfoAtom, type MenuNode, type UserInfo } from '../state/session.ts';
import { authApi } from '../api/client.ts';
import { TextsProvider } from '../i18n/TextsProvider.tsx';
import { AppRouter } from './Router.tsx';
import { menusAnsweredAtom } from './bootstrap.ts';

// the layout (header, menus, notifications) is not what is under test: its children show as they are
vi.mock('../shell/Layout.tsx', () => ({ default: ({ children }: { children: unknown }) => <main>{children as never}</main> }));
vi.mock('../renderers/EntityPage.tsx', () => ({ default: ({ params }: { params: { path: string } }) => <p>list of {params.path}</p> }));

const clerk = { account: 'clerk', user_id: '1001', tenant_id: '000000', role_name: 'clerk' } as UserInfo;
const projectMenu: MenuNode = { id: '1', parentId: '0', code: 'project', name: '项目', path: '/cost-master/project', sort: 1, category: 1 };

function open(path: string) {
  const memory = memoryLocation({ path, record: true });
  render(
    <JotaiProvider store={appStore}>
      <TextsProvider>
        <Router hook={memory.hook}>
          <AppRouter />
        </Router>
      </TextsProvider>
    </JotaiProvider>,
  );
  return memory;
}

beforeEach(() => {
  appStore.set(userInfoAtom, clerk);
  appStore.set(tokenAtom, 'a-token');
  appStore.set(menusAtom, [projectMenu]);
  appStore.set(menusAnsweredAtom, false); // a new page load
  vi.spyOn(authApi, 'routes').mockResolvedValue([projectMenu]);
  vi.spyOn(authApi, 'buttons').mockResolvedValue([]);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  appStore.set(userInfoAtom, null);
  appStore.set(menusAtom, []);
  appStore.set(langAtom, 'zh');
});

describe('a page the user may not open', () => {
  it('answers 403 for a page that exists but is not granted, in Chinese and English', async () => {
    const memory = open('/system/user');
    // the first render loads the pages' code (lazy chunks)
    expect(await screen.findByText('抱歉,你无权访问该页面', undefined, { timeout: 15_000 })).toBeTruthy();
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

describe('a page loaded before the menus are stored', () => {
  it('opens once the menus answer, where it said 403 before them', async () => {
    // signed in a moment ago: the token is stored, the menus not yet (or a grant was given since)
    appStore.set(menusAtom, []);
    let answer: (menus: MenuNode[]) => void = () => undefined;
    vi.spyOn(authApi, 'routes').mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const memory = open('/cost-master/project');
    await waitFor(() => expect(authApi.routes).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(authApi.buttons).toHaveBeenCalledTimes(1); // nor are its buttons stored
    expect(screen.queryByText('抱歉,你无权访问该页面')).toBeNull();
    answer([projectMenu]);
    expect(await screen.findByText('list of /cost-master/project', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(memory.history).toEqual(['/cost-master/project']);
  });

  it('still answers 403 once the menus have answered without the page', async () => {
    appStore.set(menusAtom, []);
    const memory = open('/system/user');
    expect(await screen.findByText('抱歉,你无权访问该页面', undefined, { timeout: 15_000 })).toBeTruthy();
    expect(authApi.routes).toHaveBeenCalledTimes(1);
    expect(memory.history.at(-1)).toBe('/403');
  });
});

describe('a user signed in with the initial password', () => {
  it('opens only the password change, and signs in again once it is made', async () => {
    appStore.set(userInfoAtom, { ...clerk, must_change_password: true });
    const updatePassword = vi.spyOn(authApi, 'updatePassword').mockResolvedValue(undefined as never);
    // the login page it ends on asks for these
    vi.spyOn(authApi, 'captcha').mockResolvedValue({ key: 'k', image: 'data:image/svg+xml;base64,PHN2Zy8+' });
    vi.spyOn(authApi, 'tenantInfo').mockResolvedValue({});
    const memory = open('/cost-master/project');
    expect(await screen.findByText(/账号 clerk 正在使用初始密码或被重置的密码/, undefined, { timeout: 15_000 })).toBeTruthy();
    expect(memory.history.at(-1)).toBe('/password');
    expect(screen.queryByText('list of /cost-master/project')).toBeNull();

    const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
    type('原密码', '123456');
    type('新密码', 'Clerk#2026');
    type('确认密码', 'Clerk#2026');
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('密码已修改,请用新密码重新登录')).toBeTruthy();
    expect(updatePassword).toHaveBeenCalledWith('123456', 'Clerk#2026', 'Clerk#2026');

    fireEvent.click(screen.getByRole('button', { name: '重新登录' }));
    await waitFor(() => expect(memory.history.at(-1)).toBe('/login'));
    expect(appStore.get(userInfoAtom)).toBeNull();
  });
});
