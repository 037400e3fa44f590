// @vitest-environment happy-dom
// My work lists over a fake flow API: what each list shows, claim then handle, the links that lead
// on, and the 流程图展示 dialog (bpmn-js itself is replaced: it does not draw in happy-dom).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApi } from '../renderers/testing/providers.tsx';
import { createFakeFlow } from './testing/fake-flow.ts';
import { TodoList, WorkList } from './WorkList.tsx';

vi.mock('./BpmnCanvas.tsx', () => ({
  default: ({ highlights }: { highlights: { active: string[]; done: string[]; taken: string[] } }) => (
    <div data-testid="canvas-stub">
      active:{highlights.active.join(',')} done:{highlights.done.join(',')} taken:{highlights.taken.join(',')}
    </div>
  ),
}));

// antd pages render slowly on a busy machine: wait up to 10 s for what a user would see
afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/work/todo'));

const row = (text: string) => screen.findByRole('row', { name: new RegExp(text) });

describe('my work lists', () => {
  it('待签事务 lists the task to claim; 签收 claims it and opens its handle page', async () => {
    const http = createFakeFlow();
    renderWithApi(<WorkList kind="claim" />, { http });
    const found = await row('江北人才公寓钢筋计划');
    expect(found.textContent).toContain('项目经理审批');
    expect(found.textContent).toContain('王晓明');
    fireEvent.click(within(found).getByRole('button', { name: /签\s*收/ }));
    await waitFor(() => expect(window.location.pathname).toBe(`/work/process/materialTotalDemand/handle/9001/7001/${http.document.id}`));
    expect(http.calls.find((c) => c.url.endsWith('/work/claim-task'))).toMatchObject({ method: 'post', params: { taskId: '9001' } });
    expect(await screen.findByText('签收成功')).toBeTruthy();
  });

  it('待办事务 lists my claimed task and 处理 opens the handle page', async () => {
    const http = createFakeFlow({ claimed: true });
    renderWithApi(<WorkList kind="todo" />, { http });
    fireEvent.click(within(await row('江北人才公寓钢筋计划')).getByRole('button', { name: /处\s*理/ }));
    await waitFor(() => expect(window.location.pathname).toBe(`/work/process/materialTotalDemand/handle/9001/7001/${http.document.id}`));
    expect(http.calls.find((c) => c.url.endsWith('/work/todo-list'))?.params).toMatchObject({ current: 1, size: 10 });
  });

  it('待办事务 says how many tasks wait to be claimed, and 去签收 leads to 待签事务; once claimed, the notice goes', async () => {
    const http = createFakeFlow();
    renderWithApi(<TodoList />, { http });
    const notice = await screen.findByTestId('claim-waiting');
    expect(notice.textContent).toContain('1 项任务待签收');
    expect(notice.textContent).toContain('签收后任务进入待办事务');
    fireEvent.click(within(notice).getByRole('button', { name: /去签收/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/work/claim'));
    cleanup();

    await http.post('/api/blade-flow/work/claim-task', undefined, { searchParams: { taskId: '9001' } });
    renderWithApi(<TodoList />, { http });
    await row('江北人才公寓钢筋计划');
    expect(screen.queryByTestId('claim-waiting')).toBeNull();
  });

  it('发起事务 leads to the start form of the chosen process; 已发事务 to the detail page', async () => {
    const http = createFakeFlow();
    renderWithApi(<WorkList kind="start" />, { http });
    fireEvent.click(within(await row('材料总需用计划审批')).getByRole('button', { name: /发\s*起/ }));
    await waitFor(() => expect(window.location.pathname).toBe('/work/process/materialTotalDemand/form/materialTotalDemand%3A1%3A1'));
    cleanup();
    renderWithApi(<WorkList kind="send" />, { http });
    const sent = await row('江北人才公寓钢筋计划');
    expect(sent.textContent).toContain('进行中');
    fireEvent.click(within(sent).getByRole('button', { name: /详\s*情/ }));
    await waitFor(() => expect(window.location.pathname).toBe(`/work/process/materialTotalDemand/detail/7001/${http.document.id}`));
  });

  it('流程图 shows the instance diagram in the 流程图展示 dialog with its active node and finished steps', async () => {
    const http = createFakeFlow({ claimed: true });
    renderWithApi(<WorkList kind="todo" />, { http });
    fireEvent.click(within(await row('江北人才公寓钢筋计划')).getByRole('button', { name: /流程图/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('流程图展示');
    await waitFor(() => expect(within(dialog).getByTestId('canvas-stub').textContent).toBe('active:pmApprove done:start taken:toPm'));
    expect(http.calls.find((c) => c.url.endsWith('/process/model-view'))?.params).toEqual({ processInstanceId: '7001' });
  });

  it("部署管理 lists the deployed definitions with their state and shows a definition's diagram; 流程跟踪 the running instances", async () => {
    const http = createFakeFlow();
    renderWithApi(<WorkList kind="manager" />, { http });
    const definition = await row('材料总需用计划审批');
    expect(definition.textContent).toContain('v2');
    expect(definition.textContent).toContain('挂起');
    fireEvent.click(within(definition).getByRole('button', { name: /流程图/ }));
    await screen.findByTestId('canvas-stub');
    expect(http.calls.find((c) => c.url.endsWith('/process/model-view'))?.params).toEqual({
      processDefinitionId: 'materialTotalDemand:2:5',
    });
    cleanup();
    renderWithApi(<WorkList kind="follow" />, { http });
    fireEvent.click(within(await row('江北人才公寓钢筋计划')).getByRole('button', { name: /详\s*情/ }));
    await waitFor(() => expect(window.location.pathname).toBe(`/work/process/materialTotalDemand/detail/7001/${http.document.id}`));
  });

  it('待办事务 searches by process name, category and creation date; 清空 lists everything again', async () => {
    const http = createFakeFlow({ claimed: true });
    renderWithApi(<WorkList kind="todo" />, { http });
    await row('江北人才公寓钢筋计划');
    const search = screen.getByRole('form', { name: '搜索' });
    fireEvent.change(within(search).getByPlaceholderText('请输入流程名称'), { target: { value: ' 总需用 ' } });
    fireEvent.mouseDown(within(search).getAllByRole('combobox')[0]);
    fireEvent.click(
      await waitFor(
        () => [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === '材料总需用计划') as HTMLElement,
      ),
    );
    const [from, to] = within(search).getAllByPlaceholderText(/开始日期|结束日期/);
    for (const [input, day] of [
      [from, '2026-11-01'],
      [to, '2026-11-30'],
    ] as const) {
      fireEvent.mouseDown(input);
      fireEvent.change(input, { target: { value: day } });
      fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' });
    }
    fireEvent.click(within(search).getByRole('button', { name: /搜\s*索/ }));
    const todoCalls = () => http.calls.filter((c) => c.url.endsWith('/work/todo-list'));
    await waitFor(() =>
      expect(todoCalls().at(-1)?.params).toEqual({
        current: 1,
        size: 10,
        processDefinitionName: '总需用',
        category: 'flow_materialTotalDemand',
        beginDate: '2026-11-01',
        endDate: '2026-11-30',
      }),
    );
    fireEvent.click(within(search).getByRole('button', { name: /清\s*空/ }));
    await waitFor(() => expect(todoCalls().at(-1)?.params).toEqual({ current: 1, size: 10 }));
  });

  it('an empty list says so, in English too', async () => {
    const http = createFakeFlow();
    renderWithApi(<WorkList kind="done" />, { http, lang: 'en' });
    await waitFor(() => expect(screen.getByTestId('work-list').getAttribute('aria-busy')).toBe('false'));
    expect(screen.getByText('Document')).toBeTruthy();
    expect(screen.getAllByText(/No data/i).length).toBeGreaterThan(0);
  });
});
