// @vitest-environment happy-dom
// The signed-in pages' providers: antd's date pickers name months and weekdays in the chosen language.
import { cleanup, render, screen } from '@testing-library/react';
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { Provider as JotaiProvider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { appStore, langAtom } from '../state/session.ts';
import ShellProviders from './ShellProviders.tsx';

afterEach(cleanup);

function openPicker() {
  render(
    <JotaiProvider store={appStore}>
      <ShellProviders>
        <DatePicker open value={dayjs('2026-11-28')} />
      </ShellProviders>
    </JotaiProvider>,
  );
}

describe('a date picker in the signed-in pages', () => {
  it('names the month and the weekdays in Chinese', () => {
    appStore.set(langAtom, 'zh');
    openPicker();
    expect(screen.getByText('11月')).toBeTruthy();
    for (const day of ['一', '日']) expect(screen.getByText(day)).toBeTruthy();
    expect(screen.queryByText('Mo')).toBeNull();
  });

  it('names them in English when English is chosen', () => {
    appStore.set(langAtom, 'en');
    openPicker();
    expect(screen.getByText('Nov')).toBeTruthy();
    expect(screen.getByText('Mo')).toBeTruthy();
  });
});
