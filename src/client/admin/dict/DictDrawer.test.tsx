// @vitest-environment happy-dom
// The system dictionary's screen: a dictionary opened with 查看 shows, in its drawer, who created
// and changed it by name, looked up through the user labels (issue #25, part 6); the server names
// the platform's own people to a tenant's user (tests/server/reference-labels.test.ts).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { catalog } from '../../renderers/catalog.ts';
import { EntityScreen } from '../../renderers/EntityPage.tsx';
import { renderWithApi } from '../../renderers/testing/providers.tsx';
import { createFakeHttp } from '../../renderers/testing/fake-http.ts';

const dict = catalog().entities.dict;
const grants = Object.fromEntries(['add', 'edit', 'delete', 'view'].map((a) => [`${dict.menu!.code}_${a}`, true]));

afterEach(cleanup);

describe('the system dictionary drawer', () => {
  it('names 创建人 and 修改人, not their ids', async () => {
    const http = createFakeHttp(catalog(), { rows: 3 });
    const [creator, editor] = http.tables.get('user')!;
    const first = http.tables.get('dict')![0];
    Object.assign(first, { createUser: creator.id, updateUser: editor.id, dictValue: '性别' });
    renderWithApi(<EntityScreen model={dict} />, { http, permissions: grants });
    const row = (await screen.findByText('性别')).closest('.zs-grid-row') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /查\s?看/ }));
    const audit = await screen.findByTestId('detail-audit');
    const cell = (label: string) => within(audit).getByText(label).closest('th')!.nextElementSibling as HTMLElement;
    await waitFor(() => expect(cell('创建人').textContent).toBe(String(creator.realName ?? creator.name)));
    expect(cell('修改人').textContent).toBe(String(editor.realName ?? editor.name));
    expect(audit.textContent).not.toContain(String(creator.id));
    expect(http.calls.filter((c) => c.url === '/api/blade-system/user/options')).toHaveLength(1);
  });
});
