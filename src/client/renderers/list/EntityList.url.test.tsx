// @vitest-environment happy-dom
// A list opened from an address with a search (a dashboard's figure): the search bar shows the values,
// the first request already carries them, 重置 clears them like typed ones; the page reads its address.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalog } from '../catalog.ts';
import { EntityScreen } from '../EntityPage.tsx';
import { renderWithApi } from '../testing/providers.tsx';
import { createFakeHttp, type FakeHttp } from '../testing/fake-http.ts';
import { EntityList } from './EntityList.tsx';
import { searchValuesFromUrl } from './urlFilters.ts';

const demand = catalog().entities.materialTotalDemand;
const grants = Object.fromEntries(['add', 'edit', 'delete', 'view', 'export'].map((a) => [`${demand.menu!.code}_${a}`, true]));

afterEach(cleanup);
beforeEach(() => localStorage.clear());

const listCalls = (http: FakeHttp) => http.calls.filter((c) => c.url.endsWith('/list')).map((c) => c.params as Record<string, unknown>);
const idle = () => waitFor(() => expect(screen.getByTestId('entity-list').getAttribute('aria-busy')).toBe('false'));

describe('a list opened with a search in its address', () => {
  it('shows the values in the search bar, filters from the first request, and 重置 clears them', async () => {
    const http = createFakeHttp(catalog(), { rows: 12 });
    const project = http.tables.get('project')![0];
    const initial = searchValuesFromUrl(demand, `?title=钢筋&projectId=${project.id}&planDate=2026-02-01,2026-02-28`);
    renderWithApi(<EntityList model={demand} onOpen={() => undefined} initialSearch={initial} />, { http, permissions: grants });
    await idle();
    const calls = listCalls(http);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      title: '钢筋',
      projectId_equal: project.id,
      planDate_datege: '2026-02-01',
      planDate_datele: '2026-02-28',
    });
    const title = screen.getByPlaceholderText(demand.fieldMap.title.label.zh) as HTMLInputElement;
    expect(title.value).toBe('钢筋');
    // the project picker shows the project's name, not its id
    await waitFor(() => expect(screen.getByRole('search').textContent).toContain(project.name));

    fireEvent.click(screen.getByRole('button', { name: /重\s*置|清\s*空/ }));
    await idle();
    await waitFor(() => expect(listCalls(http).at(-1)).not.toHaveProperty('title'));
    expect(listCalls(http).at(-1)).not.toHaveProperty('projectId_equal');
    expect(title.value).toBe('');
  });

  it('the screen reads the search it is given', async () => {
    const http = createFakeHttp(catalog(), { rows: 5 });
    renderWithApi(<EntityScreen model={demand} search="?code=CLZJH" />, { http, permissions: grants });
    await idle();
    expect(listCalls(http)[0]).toMatchObject({ code: 'CLZJH' });
    expect(listCalls(http)[0]).not.toHaveProperty('title');
  });
});
