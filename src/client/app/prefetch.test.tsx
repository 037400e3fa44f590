// @vitest-environment happy-dom
// A page load's prefetch: the GETs it makes early are answered once to the page's own requests, and
// each page's prefetch asks for exactly what the page itself asks for first (the same addresses and
// parameters), so no early answer is left unused and none is asked for twice.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import EntityPage, { prefetch as prefetchEntityPage } from '../renderers/EntityPage.tsx';
import type { RendererHttp } from '../renderers/http-context.tsx';
import { createFakeHttp } from '../renderers/testing/fake-http.ts';
import { renderWithApi } from '../renderers/testing/providers.tsx';
import { MessageTestProviders } from '../shell/notifications/testing.tsx';
import ProjectStatistics, { prefetch as prefetchStatistics } from '../../packs/cost/client/stats/ProjectStatistics.tsx';
import { createFakeStatistics } from '../../packs/cost/client/stats/testing.ts';
import { HandlePage, prefetch as prefetchProcessPages } from '../workflow/ProcessPages.tsx';
import { createFakeFlow } from '../workflow/testing/fake-flow.ts';
import { TodoList, prefetch as prefetchWorkLists } from '../workflow/WorkList.tsx';
import { http } from '../api/client.ts';
import { appStore, permissionAtom } from '../state/session.ts';
import { EARLY_FOR_MS, earlyHttp, takeEarly } from './prefetch.ts';

vi.mock('../workflow/BpmnCanvas.tsx', () => ({ default: () => <div data-testid="canvas-stub" /> }));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
beforeEach(() => localStorage.clear());

/** The GETs of a fake, as `url params` lines. */
const gets = (calls: { method?: string; url: string; params?: unknown }[]) =>
  calls.filter((c) => c.method === undefined || c.method === 'get').map((c) => `${c.url} ${JSON.stringify(c.params ?? {})}`);

describe('early answers', () => {
  const answering = (): RendererHttp & { asked: string[] } => {
    const asked: string[] = [];
    return {
      asked,
      get: async <T,>(url: string, params?: unknown) => {
        asked.push(url);
        return { url, params } as T;
      },
      post: async () => undefined as never,
      blob: async () => ({ blob: new Blob(), filename: '' }),
    };
  };

  it('answers the same GET once, and not one with other parameters', async () => {
    const server = answering();
    const made = earlyHttp(server).get('/api/a/list', { current: 1, size: 10 });
    expect(takeEarly('/api/a/list', { current: 2, size: 10 })).toBeUndefined();
    expect(takeEarly('/api/a/list', { current: 1, size: 10 })).toBe(made);
    expect(takeEarly('/api/a/list', { current: 1, size: 10 })).toBeUndefined();
    expect(server.asked).toEqual(['/api/a/list']);
  });

  it('forgets what no page took once the application writes', async () => {
    void earlyHttp(answering()).get('/api/c/list', { current: 1 });
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ code: 200, success: true, data: true }), { headers: { 'content-type': 'application/json' } }),
    );
    try {
      await http.post('/api/c/remove', { ids: '1' });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(takeEarly('/api/c/list', { current: 1 })).toBeUndefined();
  });

  it('drops an answer no page took in time', () => {
    vi.useFakeTimers();
    void earlyHttp(answering()).get('/api/b/list', { current: 1 });
    vi.advanceTimersByTime(EARLY_FOR_MS + 1);
    expect(takeEarly('/api/b/list', { current: 1 })).toBeUndefined();
  });
});

describe('each page’s prefetch asks for what the page asks for', () => {
  it('a document list opened from an address with a search: its first page, as the list asks for it', async () => {
    const demand = catalog().entities.materialTotalDemand;
    const path = demand.menu!.path;
    const search = '?title=钢筋';
    window.history.replaceState(null, '', `${path}${search}`);
    const early = createFakeHttp(catalog(), { rows: 3 });
    prefetchEntityPage({ params: { path }, search, hash: '', http: early });
    const page = createFakeHttp(catalog(), { rows: 3 });
    renderWithApi(<EntityPage params={{ path }} />, { http: page });
    await waitFor(() => expect(screen.getByTestId('entity-list').getAttribute('aria-busy')).toBe('false'));
    expect(gets(early.calls)).toHaveLength(1);
    expect(gets(early.calls)[0]).toContain('钢筋');
    expect(gets(page.calls)).toEqual(expect.arrayContaining(gets(early.calls)));
  });

  it('a page form reloaded from its address (#edit=…): the record with the labels its rows show, not the list it stands in for', async () => {
    const demand = catalog().entities.materialTotalDemand;
    const path = demand.menu!.path;
    const records = (
      await createFakeHttp(catalog(), { rows: 3 }).get<{ records: { id: string; title: string }[] }>(`${demand.api}/list`, {})
    ).records;
    const { id, title } = records[0];
    window.history.replaceState(null, '', `${path}#edit=${id}`);
    // the buttons stored by the last sign-in, as a reload finds them
    const permissions = { [`${demand.menu!.code}_edit`]: true };
    appStore.set(permissionAtom, permissions);
    const early = createFakeHttp(catalog(), { rows: 3 });
    prefetchEntityPage({ params: { path }, search: '', hash: `#edit=${id}`, http: early });
    const page = createFakeHttp(catalog(), { rows: 3 });
    renderWithApi(<EntityPage params={{ path }} />, { http: page, permissions });
    await waitFor(() => expect((document.querySelector('#root_title') as HTMLInputElement | null)?.value).toBe(title));
    expect(gets(early.calls).some((call) => call.startsWith(`${demand.api}/detail`))).toBe(true);
    await waitFor(() => expect(gets(page.calls)).toEqual(expect.arrayContaining(gets(early.calls))));
    for (const calls of [early.calls, page.calls]) expect(gets(calls).filter((call) => call.startsWith(`${demand.api}/list`))).toEqual([]);
  });

  it('the statistics of a project: every figure the page and its panels show', async () => {
    window.history.replaceState(null, '', '/cost/statistics?projectId=101');
    const early = createFakeStatistics();
    prefetchStatistics({ params: {}, search: '?projectId=101', hash: '', http: early });
    const page = createFakeStatistics();
    render(
      <MessageTestProviders http={page}>
        <ProjectStatistics />
      </MessageTestProviders>,
    );
    await waitFor(() => expect(gets(page.calls)).toEqual(expect.arrayContaining(gets(early.calls))));
    expect(gets(early.calls)).toHaveLength(6);
  });

  it('the approval page: the task, the document, its timeline and its diagram', async () => {
    window.history.replaceState(null, '', '/work/todo');
    const early = createFakeFlow();
    const params = { prefix: 'materialTotalDemand', taskId: '9001', processInstanceId: '7001', businessId: String(early.document.id) };
    prefetchProcessPages.HandlePage!({ params, search: '', hash: '', http: early });
    const page = createFakeFlow();
    renderWithApi(<HandlePage params={{ ...params, businessId: String(page.document.id) }} />, { http: page });
    await waitFor(() => expect(gets(page.calls)).toEqual(expect.arrayContaining(gets(early.calls))));
    expect(gets(early.calls)).toHaveLength(4);
  });

  it('待办事务: its first page and the count of tasks waiting to be claimed above it', async () => {
    window.history.replaceState(null, '', '/work/todo');
    const early = createFakeFlow();
    prefetchWorkLists.TodoList!({ params: {}, search: '', hash: '', http: early });
    const page = createFakeFlow();
    renderWithApi(<TodoList />, { http: page });
    await waitFor(() => expect(gets(page.calls)).toEqual(expect.arrayContaining(gets(early.calls))));
    expect(gets(early.calls)).toHaveLength(2);
  });
});
