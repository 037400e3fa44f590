// @vitest-environment happy-dom
// The client's texts at run time (react-intl): Chinese comes with the app and English is fetched the
// first time it is chosen, the page staying in Chinese meanwhile and changing once it is in; counts
// read in the singular or plural in English, with their digits grouped; a value a message needs but
// is not given shows the message rather than failing the page.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore, langAtom } from '../state/session.ts';
import { isLoaded, loadMessages } from './intl.ts';
import { TextsProvider } from './TextsProvider.tsx';
import { translate, useChooseLanguage, useT } from './useT.ts';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Page() {
  const t = useT();
  const choose = useChooseLanguage();
  return (
    <main>
      <h1>{t('title.home')}</h1>
      <p>{t('home.welcome', { name: 'admin' })}</p>
      <button type="button" onClick={() => void choose('en')}>
        English
      </button>
    </main>
  );
}

function renderPage() {
  render(
    <JotaiProvider store={appStore}>
      <TextsProvider>
        <Page />
      </TextsProvider>
    </JotaiProvider>,
  );
}

describe('choosing the language', () => {
  it('fetches the English texts on the first choice, shows Chinese until they are in, then English', async () => {
    appStore.set(langAtom, 'zh');
    renderPage();
    expect(screen.getByRole('heading').textContent).toBe('首页');
    expect(isLoaded('en')).toBe(false);
    // outside React too, until they are in
    expect(translate('en', 'common.unknownError')).toBe('未知错误');

    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    // the language changes once its texts are in: the page is never blank nor in keys meanwhile
    expect(screen.getByRole('heading').textContent).toBe('首页');
    await waitFor(() => expect(screen.getByRole('heading').textContent).toBe('Home'));
    expect(screen.getByText('Welcome back, admin')).toBeTruthy();
    expect(appStore.get(langAtom)).toBe('en');

    expect(translate('en', 'common.unknownError')).toBe('unknown error');

    act(() => appStore.set(langAtom, 'zh'));
    expect(screen.getByText('欢迎回来,admin')).toBeTruthy();
  });
});

describe('a text outside React (translate)', () => {
  it('shows the message without failing when a value it names is not given, and says so once', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => translate('zh', 'login.required')).not.toThrow();
    expect(translate('zh', 'login.required')).toBe('请输入{field}');
    expect(logged).toHaveBeenCalledTimes(1);
    // a value the message does not name is left out
    expect(translate('zh', 'login.required', { field: '密码', other: 1 })).toBe('请输入密码');
  });
});

describe('counts', () => {
  function Counts({ n }: { n: number }) {
    const t = useT();
    return (
      <ul>
        <li>{t('grid.rows', { count: n })}</li>
        <li>{t('list.selected', { count: n })}</li>
        <li>{t('common.total', { total: n })}</li>
        <li>{t('warnings.submitCritical', { count: n, critical: n })}</li>
      </ul>
    );
  }

  const shown = (lang: 'zh' | 'en', n: number) => {
    appStore.set(langAtom, lang);
    render(
      <JotaiProvider store={appStore}>
        <TextsProvider>
          <Counts n={n} />
        </TextsProvider>
      </JotaiProvider>,
    );
    const texts = screen.getAllByRole('listitem').map((li) => li.textContent);
    cleanup();
    return texts;
  };

  it('in English: one in the singular, five in the plural', async () => {
    await loadMessages('en');
    expect(shown('en', 1)).toEqual(['1 row', '1 item selected', '1 item in total', 'This document raises 1 warning, a critical one:']);
    expect(shown('en', 5)).toEqual([
      '5 rows',
      '5 items selected',
      '5 items in total',
      'This document raises 5 warnings, 5 of them critical:',
    ]);
  });

  it('with the digits grouped, in both languages', async () => {
    await loadMessages('en');
    expect(shown('zh', 12345)).toEqual([
      '共 12,345 行',
      '已选择 12,345 项',
      '共 12,345 条',
      '本单将触发 12,345 条预警,其中 12,345 条严重:',
    ]);
    expect(shown('en', 12345)).toEqual([
      '12,345 rows',
      '12,345 items selected',
      '12,345 items in total',
      'This document raises 12,345 warnings, 12,345 of them critical:',
    ]);
  });
});
