// @vitest-environment happy-dom
// The approval buttons of a document list follow the record's status: 提交 on drafts (and rejected,
// withdrawn, terminated), 撤回 while under approval and only to whom the server says may recall
// (the submitter, before anyone acted), 流程图 once an instance exists; 撤回 says so when a handler
// acted after the list was loaded.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { catalog } from '../renderers/catalog.ts';
import { EntityList } from '../renderers/list/EntityList.tsx';
import { renderWithApi } from '../renderers/testing/providers.tsx';
import { FLOW } from './api.ts';
import { workflowActions } from './register.ts';
import { createFakeFlow } from './testing/fake-flow.ts';

const demand = catalog().entities.materialTotalDemand;
const grants = Object.fromEntries(['add', 'edit', 'delete', 'view', 'export'].map((a) => [`${demand.menu!.code}_${a}`, true]));

/** The app gives the lists their approval actions through the renderers' registry. */
const registry = { lists: workflowActions(catalog()) };
// antd pages render slowly on a busy machine: wait up to 10 s for what a user would see
afterEach(cleanup);

const idle = () => waitFor(() => expect(screen.getByTestId('entity-list').getAttribute('aria-busy')).toBe('false'));
const rowOf = (title: string) =>
  [...document.querySelectorAll('tbody tr.zs-grid-row')].find((r) => r.textContent?.includes(title)) as HTMLElement;
const buttons = (title: string) =>
  within(rowOf(title))
    .queryAllByRole('button')
    .map((b) => b.textContent?.replace(/\s/g, ''));

/** Three demands: the fake flow's one under approval, a draft and an approved one. */
function threeDemands() {
  const http = createFakeFlow();
  const [, draft, approved] = http.tables.get('materialTotalDemand')!;
  Object.assign(draft, { title: '草稿计划', approvalStatus: 'draft', processInstanceId: null });
  Object.assign(approved, { title: '已通过计划', approvalStatus: 'approved', processInstanceId: '7002' });
  return http;
}

describe('approval actions on a document list', () => {
  it('show only where they apply to the record', async () => {
    renderWithApi(<EntityList model={demand} onOpen={() => undefined} />, { http: threeDemands(), permissions: grants, registry });
    await idle();
    expect(buttons('草稿计划')).toContain('提交');
    expect(buttons('草稿计划')).not.toContain('撤回');
    expect(buttons('草稿计划')).not.toContain('流程图');
    expect(buttons('江北人才公寓钢筋计划')).toEqual(expect.arrayContaining(['撤回', '流程图']));
    expect(buttons('江北人才公寓钢筋计划')).not.toContain('提交');
    expect(buttons('已通过计划')).toContain('流程图');
    expect(buttons('已通过计划')).not.toContain('提交');
    expect(buttons('已通过计划')).not.toContain('撤回');
  });

  it('撤回 only where the server says the caller may recall (the submitter): others see no 撤回', async () => {
    const http = createFakeFlow({ submitter: false });
    renderWithApi(<EntityList model={demand} onOpen={() => undefined} />, { http, permissions: grants, registry });
    await idle();
    expect(buttons('江北人才公寓钢筋计划')).toContain('流程图');
    expect(buttons('江北人才公寓钢筋计划')).not.toContain('撤回');
    expect(buttons('江北人才公寓钢筋计划')).not.toContain('提交');
  });

  it('撤回 asks while nobody has acted, and says it is too late once a handler has', async () => {
    const http = threeDemands();
    renderWithApi(<EntityList model={demand} onOpen={() => undefined} />, { http, permissions: grants, registry });
    await idle();
    fireEvent.click(within(rowOf('江北人才公寓钢筋计划')).getByRole('button', { name: '撤回' }));
    let dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(http.calls.some((c) => c.url === `${FLOW}/process/history-flow-list`)).toBe(true));
    expect(dialog.textContent).toContain('确定撤回该单据的审批?');
    expect((within(dialog).getByRole('button', { name: /确\s*定|OK/ }) as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消|Cancel/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // the project manager approves the first step while the clerk's list still shows the row as it was
    await http.post(`${FLOW}/work/claim-task`, undefined, { searchParams: { taskId: '9001' } });
    await http.post(`${FLOW}/work/complete-task`, { taskId: '9001', flag: 'ok' });
    http.document.approvalStatus = 'approving';
    fireEvent.click(within(rowOf('江北人才公寓钢筋计划')).getByRole('button', { name: '撤回' }));
    dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('已有审批人处理过,不能再撤回')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: /确\s*定|OK/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消|Cancel/ }));

    // listed again, the row no longer offers 撤回 (the server's canRecall is false once someone acted)
    cleanup();
    renderWithApi(<EntityList model={demand} onOpen={() => undefined} />, { http, permissions: grants, registry });
    await idle();
    expect(buttons('江北人才公寓钢筋计划')).not.toContain('撤回');
  });
});
