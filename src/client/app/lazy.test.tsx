// @vitest-environment happy-dom
// A lazy component whose module a page load fetched before the first render shows at once: no
// Suspense fallback, whose replacement React would hold back for up to 300 ms (lazy.ts lazyPreloaded).
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { lazyPreloaded } from './lazy.ts';

afterEach(cleanup);

const page = () => Promise.resolve({ default: ({ name }: { name: string }) => <p>{name}</p> });

describe('a lazy part of the shell', () => {
  it('renders in the first render once preloaded, without the fallback', async () => {
    const Part = lazyPreloaded(page);
    await Part.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Part name="首页" />
      </Suspense>,
    );
    expect(screen.getByText('首页')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('suspends as React.lazy does when its module is not in yet, and loads it once', async () => {
    let loads = 0;
    const Part = lazyPreloaded(() => {
      loads++;
      return page();
    });
    render(
      <Suspense fallback={<p>loading</p>}>
        <Part name="项目" />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await act(() => Part.preload());
    expect(await screen.findByText('项目')).toBeTruthy();
    expect(loads).toBe(1);
  });
});
