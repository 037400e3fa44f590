// @vitest-environment happy-dom
// A page load (startPageLoad, run by the entry script before the first render): a signed-in page in
// the layout asks at once, side by side, for the schema set, the menus and the buttons, and its own
// first data once its code and the catalog are in; a signed-out visitor and the login page ask for none.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserInfo } from '../state/session.ts';

const asked: string[] = [];
vi.mock('../api/client.ts', async (original) => {
  const real = await original<typeof import('../api/client.ts')>();
  const get = async (url: string) => {
    asked.push(url);
    return [];
  };
  return {
    ...real,
    http: { ...real.http, raw: async (_method: string, url: string) => (asked.push(url), new Promise(() => undefined)), get },
    directHttp: { ...real.directHttp, get },
    authApi: {
      ...real.authApi,
      routes: async () => (asked.push('/api/blade-system/menu/routes'), []),
      buttons: async () => (asked.push('/api/blade-system/menu/buttons'), []),
    },
  };
});

const { startPageLoad } = await import('./Router.tsx');
const { fetchSchemaSet } = await import('./bootstrap.ts');
const { appStore, lockPasswordAtom, tokenAtom, userInfoAtom } = await import('../state/session.ts');

beforeEach(() => {
  void fetchSchemaSet('/api/schemas'); // takes the schema set a previous page load asked for
  asked.length = 0;
  appStore.set(userInfoAtom, null);
  appStore.set(tokenAtom, '');
  appStore.set(lockPasswordAtom, null);
});

const signIn = () => {
  appStore.set(userInfoAtom, { user_id: '1', account: 'admin' } as UserInfo);
  appStore.set(tokenAtom, 'token');
};

describe('a page load', () => {
  // each test ends once the code the page load started is in: a chunk still loading when the file's
  // environment is torn down fails the run (a loaded machine, issue #19)
  it('asks for the schema set, the menus and the buttons before anything renders', async () => {
    signIn();
    const loaded = startPageLoad('/cost/statistics', '?projectId=1');
    expect(asked).toEqual(['/api/schemas', '/api/blade-system/menu/routes', '/api/blade-system/menu/buttons']);
    await loaded;
  });

  it('asks for them on the address that opens home', async () => {
    signIn();
    const loaded = startPageLoad('/', '');
    expect(asked).toEqual(['/api/schemas', '/api/blade-system/menu/routes', '/api/blade-system/menu/buttons']);
    await loaded;
  });

  it('asks for nothing signed out, nor on the login page', () => {
    startPageLoad('/cost/statistics', '');
    signIn();
    startPageLoad('/login', '');
    expect(asked).toEqual([]);
  });
});
