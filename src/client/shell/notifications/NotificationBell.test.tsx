// @vitest-environment happy-dom
// The bell as a user meets it: the unread count, the newest messages, opening one (read, the count
// drops), mark all read, a live message popping up and refreshing the count, and the drawer with
// its pages, deletion (a refused deletion keeps the row) and the send button for message_add.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NotificationBell } from './NotificationBell.tsx';
import { createFakeMessageServer, manualLive, MessageTestProviders, sampleMessages, type FakeMessageServer } from './testing.tsx';

afterEach(cleanup);

function renderBell(server: FakeMessageServer, options: { lang?: 'zh' | 'en'; permissions?: Record<string, boolean> } = {}) {
  const live = manualLive();
  render(
    <MessageTestProviders http={server} lang={options.lang} permissions={options.permissions}>
      <NotificationBell subscribe={live.subscribe} />
    </MessageTestProviders>,
  );
  return live;
}

/** The count on the bell (a count leaving in its animation is gone for the user). */
const badge = () => document.querySelector('.ant-badge .ant-scroll-number:not([class*="leave"])')?.getAttribute('title') ?? undefined;
const openPopover = async () => {
  fireEvent.click(screen.getByTestId('message-bell'));
  return screen.findByTestId('message-popover');
};

describe('the notification bell', () => {
  it('shows the unread count and the newest messages', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(12, 3) });
    renderBell(server);
    await waitFor(() => expect(badge()).toBe('3'));
    const popover = await openPopover();
    expect(within(popover).getByText('钢筋进场验收提醒 12')).toBeTruthy();
    expect(within(popover).getAllByText(/管理员 · 2026-11-/).length).toBeGreaterThan(0);
    expect(within(popover).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByText('3 条未读')).toBeTruthy();
  });

  it('opening a message shows it, marks it read and the count drops', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(6, 2) });
    renderBell(server);
    await waitFor(() => expect(badge()).toBe('2'));
    fireEvent.click(within(await openPopover()).getByText('钢筋进场验收提醒 6'));
    const detail = await screen.findByTestId('message-detail');
    expect(within(detail).getByText('第 6 条消息的内容:请按时处理。')).toBeTruthy();
    expect(server.calls).toContainEqual({ method: 'GET', url: '/api/blade-message/message/detail', params: { id: '5006' } });
    await waitFor(() => expect(badge()).toBe('1'));
  });

  it('marks everything read from the popover', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(4, 4) });
    renderBell(server);
    await waitFor(() => expect(badge()).toBe('4'));
    fireEvent.click(within(await openPopover()).getByText('全部已读'));
    await waitFor(() => expect(badge()).toBeUndefined());
    expect(server.calls.some((c) => c.method === 'POST' && c.url === '/api/blade-message/message/readAll')).toBe(true);
  });

  it('a live message pops up (with who sent it) and the count is fetched again', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(2, 0) });
    const live = renderBell(server);
    await waitFor(() => expect(live.open).toBe(1));
    const before = server.calls.filter((c) => c.url.endsWith('/my/topList')).length;
    server.inbox.unshift({
      id: '7777',
      title: '混凝土浇筑通知',
      content: '明早六点浇筑。',
      type: '1',
      createUserName: '赵敏',
      createTime: '2026-11-22 08:00:00',
      isRead: 1,
    });
    act(() =>
      live.emit('message', { id: '7777', title: '混凝土浇筑通知', type: '1', createUserName: '赵敏', createTime: '2026-11-22 08:00:00' }),
    );
    const popup = await screen.findByTestId('live-message');
    expect(popup.textContent).toContain('混凝土浇筑通知');
    expect(popup.textContent).toContain('来自 赵敏');
    await waitFor(() => expect(badge()).toBe('1'));
    expect(server.calls.filter((c) => c.url.endsWith('/my/topList')).length).toBeGreaterThan(before);

    fireEvent.click(screen.getByRole('button', { name: /查\s*看/ }));
    await screen.findByTestId('message-detail');
    await waitFor(() => expect(badge()).toBeUndefined());
  });

  it("a live system message (its title a stored key and parameters) pops up in the reader's language", async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(1, 0) });
    const live = renderBell(server, { lang: 'en' });
    await waitFor(() => expect(live.open).toBe(1));
    const title = JSON.stringify({
      key: 'workflow.noticeTodoTitle',
      params: { subject: { zh: '材料总需用计划', en: 'Total material demand' } },
    });
    act(() => live.emit('message', { id: '8888', title, type: '3', createUserName: '系统', createTime: '2026-11-22 08:00:00' }));
    const popup = await screen.findByTestId('live-message');
    expect(popup.textContent).toContain('[To approve] Total material demand');
    expect(popup.textContent).not.toContain('workflow.');
  });

  it('a failing count is not fatal: the bell stays usable', async () => {
    const server = createFakeMessageServer({ fail: { topList: '服务繁忙' } });
    renderBell(server);
    const popover = await openPopover();
    expect(await within(popover).findByText('暂无消息')).toBeTruthy();
  });

  it('speaks English', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(1, 1) });
    renderBell(server, { lang: 'en' });
    const popover = await openPopover();
    expect(within(popover).getByText('View all messages')).toBeTruthy();
    expect(within(popover).getByText('Mark all read')).toBeTruthy();
  });
});

describe('the message drawer', () => {
  const openDrawer = async (server: FakeMessageServer, permissions: Record<string, boolean> = {}) => {
    renderBell(server, { permissions });
    fireEvent.click(within(await openPopover()).getByText('查看全部消息'));
    return screen.findByTestId('message-drawer');
  };
  const rows = () => document.querySelectorAll('.ant-drawer .ant-table-tbody tr.ant-table-row');

  it('lists received messages ten to a page with page sizes 10, 20, 30, 50', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(23, 5) });
    await openDrawer(server);
    await waitFor(() => expect(rows()).toHaveLength(10));
    expect(screen.getByText('共 23 条')).toBeTruthy();
    expect(server.calls).toContainEqual({
      method: 'GET',
      url: '/api/blade-message/message/my/list',
      params: { current: 1, size: 10, title: undefined },
    });
    expect(screen.getAllByText('未读')).toHaveLength(5);
    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select')!);
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual([
        '10 条/页',
        '20 条/页',
        '30 条/页',
        '50 条/页',
      ]),
    );
  });

  it('deletes the selected messages after confirmation', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(3, 3) });
    await openDrawer(server);
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(rows()[0].querySelector('.ant-checkbox-input')!);
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(server.calls).toContainEqual({
      method: 'POST',
      url: '/api/blade-message/message/remove',
      params: { ids: '5003' },
      body: undefined,
    });
  });

  it("a refused deletion keeps the row (the client shows the server's message)", async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(2, 0), fail: { remove: '该消息已被发送人撤回' } });
    await openDrawer(server);
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(rows()[1].querySelector('.ant-checkbox-input')!);
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(server.shownErrors).toEqual(['该消息已被发送人撤回']));
    expect(rows()).toHaveLength(2);
  });

  it('deleting with nothing selected warns 请选择至少一条数据', async () => {
    const server = createFakeMessageServer({ inbox: sampleMessages(2, 0) });
    await openDrawer(server);
    fireEvent.click(screen.getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('请选择至少一条数据')).toBeTruthy();
  });

  it('offers sending only to holders of message_add, and sends a role broadcast', async () => {
    const server = createFakeMessageServer({ inbox: [] });
    await openDrawer(server);
    expect(screen.queryByRole('button', { name: /发送消息/ })).toBeNull();
    cleanup();

    const admin = createFakeMessageServer({ inbox: [] });
    await openDrawer(admin, { message_add: true });
    fireEvent.click(screen.getByRole('button', { name: /发送消息/ }));
    const dialog = (await screen.findByText('发送消息', { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    expect(await within(dialog).findByText('请选择接收人')).toBeTruthy();
    expect(within(dialog).getByText('请输入消息标题')).toBeTruthy();
    expect(admin.calls.some((c) => c.url.endsWith('/save'))).toBe(false);

    fireEvent.mouseDown(within(dialog).getByLabelText('消息类型'));
    const typeOptions = await waitFor(() => {
      const options = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
      expect(options).toEqual(['普通消息', '部门广播', '角色广播']);
      return options;
    });
    expect(typeOptions).not.toContain('审批消息');
    fireEvent.click([...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === '角色广播')!);
    fireEvent.mouseDown(await within(dialog).findByLabelText('接收角色'));
    fireEvent.click(await screen.findByTitle('成本经理'));
    fireEvent.change(within(dialog).getByLabelText('消息标题'), { target: { value: '成本月报' } });
    fireEvent.change(within(dialog).getByLabelText('消息内容'), { target: { value: '请于 5 日前提交。' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /发\s*送/ }));
    await waitFor(() =>
      expect(admin.calls.find((c) => c.url.endsWith('/save'))?.body).toEqual({
        type: '4',
        roleIds: '4001',
        title: '成本月报',
        content: '请于 5 日前提交。',
      }),
    );
    expect(await screen.findByText('发送成功')).toBeTruthy();
  });
});
