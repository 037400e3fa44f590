// @vitest-environment happy-dom
// 部署管理 and 流程跟踪 over the fake flow API: the requests each action sends (change-state,
// deploy-upload with its files, delete-deployment, delete-process-instance with the reason, the
// key search), the confirmations asked first, and the toasts (the server's refusal included).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApi } from '../renderers/testing/providers.tsx';
import { DefinitionManager, InstanceFollow } from './FlowAdmin.tsx';
import { createFakeFlow } from './testing/fake-flow.ts';

vi.mock('./BpmnCanvas.tsx', () => ({ default: () => <div data-testid="canvas-stub" /> }));

// antd pages render slowly on a busy machine: wait up to 10 s for what a user would see
afterEach(cleanup);

const row = (text: string) => screen.findByRole('row', { name: new RegExp(text) });
const press = (scope: HTMLElement, name: RegExp) => fireEvent.click(within(scope).getByRole('button', { name }));
const confirmBox = async () => {
  await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeTruthy());
  return document.querySelector('.ant-modal-confirm') as HTMLElement;
};
const posts = (http: ReturnType<typeof createFakeFlow>, path: string) =>
  http.calls.filter((c) => c.method === 'post' && c.url.endsWith(path));

function chooseFile(content: string, name: string) {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([content], name, { type: 'application/xml' })] } });
}

describe('部署管理', () => {
  it('激活 a suspended definition asks first, sends change-state and shows it active', async () => {
    const http = createFakeFlow();
    renderWithApi(<DefinitionManager />, { http });
    press(await row('材料总需用计划审批'), /激\s*活/);
    const box = await confirmBox();
    expect(box.textContent).toContain('确定激活流程「材料总需用计划审批」v2?');
    expect(posts(http, '/manager/change-state')).toHaveLength(0);
    press(box, /确\s*定/);
    expect(await screen.findByText('激活成功')).toBeTruthy();
    expect(posts(http, '/manager/change-state')[0].params).toEqual({ state: 'active', processId: 'materialTotalDemand:2:5' });
    // the row now offers 挂起 (the action) instead of 激活
    await waitFor(async () => expect(within(await row('材料总需用计划审批')).queryByRole('button', { name: /挂\s*起/ })).toBeTruthy());
    expect(within(await row('材料总需用计划审批')).queryByRole('button', { name: /激\s*活/ })).toBeNull();
  });

  it('激活 cancelled sends nothing', async () => {
    const http = createFakeFlow();
    renderWithApi(<DefinitionManager />, { http });
    press(await row('材料总需用计划审批'), /激\s*活/);
    press(await confirmBox(), /取\s*消/);
    // nothing to wait for: an OK posts from its click handler, and the fake records a call as it is made
    expect(posts(http, '/manager/change-state')).toHaveLength(0);
    expect(screen.queryByText('激活成功')).toBeNull();
  });

  it('上传部署 sends the chosen .bpmn as multipart `files` and lists the new version', async () => {
    const http = createFakeFlow();
    renderWithApi(<DefinitionManager />, { http });
    await row('v2');
    chooseFile('<definitions><process id="materialTotalDemand"/></definitions>', 'materialTotalDemand.bpmn');
    expect(await screen.findByText('部署成功:材料总需用计划审批 v3')).toBeTruthy();
    const sent = posts(http, '/manager/deploy-upload')[0].body as FormData;
    expect((sent.getAll('files') as File[]).map((f) => f.name)).toEqual(['materialTotalDemand.bpmn']);
    expect(await row('v3')).toBeTruthy();
  });

  it("shows the server's refusal of an uploaded model", async () => {
    const http = createFakeFlow();
    renderWithApi(<DefinitionManager />, { http });
    await row('v2');
    chooseFile('<definitions><process id="p"><scriptTask id="calc" name="算价"/></process></definitions>', 'bad.bpmn');
    expect(await screen.findByText('部署失败:不支持的流程元素 脚本任务 "算价" (calc)')).toBeTruthy();
  });

  it('删除 asks first, sends delete-deployment with the deployment id and empties the list', async () => {
    const http = createFakeFlow();
    renderWithApi(<DefinitionManager />, { http });
    press(await row('材料总需用计划审批'), /删\s*除/);
    const box = await confirmBox();
    expect(box.textContent).toContain('确定删除流程「材料总需用计划审批」v2的部署?');
    press(box, /确\s*定/);
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(posts(http, '/manager/delete-deployment')[0].params).toEqual({ deploymentIds: '5' });
    await waitFor(() => expect(screen.queryByRole('row', { name: /材料总需用计划审批/ })).toBeNull());
  });

  it('searches by process key, in English too', async () => {
    const http = createFakeFlow();
    renderWithApi(<DefinitionManager />, { http, lang: 'en' });
    await row('v2');
    fireEvent.change(screen.getByLabelText('Key'), { target: { value: 'leave' } });
    press(document.body, /Search/);
    await waitFor(() => expect(http.calls.at(-1)?.params).toMatchObject({ key: 'leave', current: 1, size: 10 }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /v2/ })).toBeNull());
    press(document.body, /Reset/);
    expect(await row('v2')).toBeTruthy();
  });
});

describe('流程跟踪', () => {
  it('终止 needs a reason, then sends delete-process-instance with it and the instance leaves the list', async () => {
    const http = createFakeFlow();
    renderWithApi(<InstanceFollow />, { http });
    press(await row('江北人才公寓钢筋计划'), /终\s*止/);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('确定终止「江北人才公寓钢筋计划」的流程?');
    press(dialog, /终\s*止/);
    expect(await within(dialog).findByText('请输入终止原因')).toBeTruthy();
    expect(posts(http, '/follow/delete-process-instance')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('终止原因'), { target: { value: '合同取消' } });
    press(dialog, /终\s*止/);
    expect(await screen.findByText('终止成功')).toBeTruthy();
    expect(posts(http, '/follow/delete-process-instance')[0].params).toEqual({ processInstanceId: '7001', deleteReason: '合同取消' });
    await waitFor(() => expect(screen.queryByRole('row', { name: /江北人才公寓钢筋计划/ })).toBeNull());
    expect(http.document.approvalStatus).toBe('terminated');
  });

  it('a refused termination is said and the dialog stays', async () => {
    const http = createFakeFlow();
    renderWithApi(<InstanceFollow />, { http });
    const found = await row('江北人才公寓钢筋计划');
    await http.post('/api/blade-flow/follow/delete-process-instance', undefined, {
      searchParams: { processInstanceId: '7001', deleteReason: '别处已终止' },
    });
    press(found, /终\s*止/);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('终止原因'), { target: { value: '重复' } });
    press(dialog, /终\s*止/);
    expect(await screen.findByText('操作失败:流程实例不存在或已结束')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('searches running instances by process key', async () => {
    const http = createFakeFlow();
    renderWithApi(<InstanceFollow />, { http });
    await row('江北人才公寓钢筋计划');
    fireEvent.change(screen.getByLabelText('流程标识'), { target: { value: 'leave' } });
    fireEvent.keyDown(screen.getByLabelText('流程标识'), { key: 'Enter', keyCode: 13 });
    await waitFor(() => expect(http.calls.at(-1)?.params).toMatchObject({ processDefinitionKey: 'leave' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /江北人才公寓钢筋计划/ })).toBeNull());
  });
});
